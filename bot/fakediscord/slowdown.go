//go:build !race

package fakediscord

// Slowdown is how many times longer the fake waits in a build with the
// race detector (slowdown_race.go); 1 without it.
const Slowdown = 1
