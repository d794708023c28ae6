//go:build unix

package main

import (
	"os"
	"syscall"
)

// maxRSSKB is a finished child process's peak resident memory in KiB
// (Linux reports ru_maxrss in KiB), or false where it cannot be read.
func maxRSSKB(ps *os.ProcessState) (int64, bool) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil {
		return 0, false
	}
	return int64(ru.Maxrss), true
}
