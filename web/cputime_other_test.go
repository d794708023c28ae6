//go:build !unix

package web

import "time"

// processCPU is not measured here (cpu-ms/answer reads 0).
func processCPU() time.Duration { return 0 }
