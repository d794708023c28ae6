// Package cputime reads the CPU time this process has used, user and
// system, every thread's. A benchmark reports it beside the wall time,
// which a machine shared with other work inflates far more, and the load
// command reports it per move.
package cputime

import "time"

// Used is the CPU time this process has used, or 0 where the platform
// does not report it (see Process).
func Used() time.Duration {
	d, _ := Process()
	return d
}
