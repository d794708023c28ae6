//go:build !unix

package main

import (
	"os"
	"time"
)

func processCPU() (time.Duration, bool) { return 0, false }

// maxRSSKB cannot be read here.
func maxRSSKB(*os.ProcessState) (int64, bool) { return 0, false }
