//go:build !unix

package main

import "os"

// maxRSSKB cannot be read here.
func maxRSSKB(*os.ProcessState) (int64, bool) { return 0, false }
