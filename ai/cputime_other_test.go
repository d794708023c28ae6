//go:build !unix

package ai_test

// cpuTime is unknown here: the benchmarks report the wall clock only.
func cpuTime() (float64, bool) { return 0, false }
