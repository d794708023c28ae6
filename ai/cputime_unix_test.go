//go:build unix

package ai_test

import "syscall"

// cpuTime is the process's user and system CPU time so far, in seconds:
// what a search costs whatever else the machine runs (the wall clock of a
// benchmark grows with the machine's load, the CPU time hardly).
func cpuTime() (float64, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime), true
}
