//go:build !linux

package main

import "os"

// terminalFD is, off Linux, whether f is a character device other than
// the null device.
func terminalFD(f *os.File) bool {
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(fi, null)
}
