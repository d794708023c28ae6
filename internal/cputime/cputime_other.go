//go:build !unix

package cputime

import "time"

// Process cannot read the CPU time here.
func Process() (time.Duration, bool) { return 0, false }
