//go:build race

package fakediscord

// Slowdown is how many times longer the fake waits in a build with the
// race detector: Discord's 3 s for an interaction's first answer, and the
// Wait* helpers' DefaultTimeout. Go's documentation gives the detector's
// cost as 2 to 20 times the execution time ("Data Race Detector", Runtime
// Overhead), which no bot in production pays; the deadline's own rules are
// tested on the fake's clock (Advance), not by how busy the machine is.
const Slowdown = 5
