//go:build unix

package main

import (
	"os"
	"syscall"
	"time"
)

// processCPU is the CPU time (user and system) this process has used, or
// false where it cannot be read.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}

// maxRSSKB is a finished child process's peak resident memory in KiB
// (Linux reports ru_maxrss in KiB), or false where it cannot be read.
func maxRSSKB(ps *os.ProcessState) (int64, bool) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil {
		return 0, false
	}
	return int64(ru.Maxrss), true
}
