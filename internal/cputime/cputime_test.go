//go:build unix

package cputime

import (
	"testing"
)

// TestProcessCounts: the CPU time grows by at least what a busy loop
// spends on this thread. (It compares two readings of the same clock,
// never the wall clock.)
func TestProcessCounts(t *testing.T) {
	before, ok := Process()
	if !ok {
		t.Fatal("getrusage failed on a unix system")
	}
	x := uint64(1)
	for {
		for range 1 << 16 {
			x = x*6364136223846793005 + 1442695040888963407
		}
		if after, _ := Process(); after > before {
			break
		}
	}
	if Used() < before {
		t.Fatalf("Used %v is below an earlier reading %v", Used(), before)
	}
	_ = x
}
