package main

import (
	"os"
	"syscall"
	"unsafe"
)

// terminalFD asks the kernel for f's terminal settings (TCGETS), which
// only a terminal has.
func terminalFD(f *os.File) bool {
	var t syscall.Termios
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), syscall.TCGETS, uintptr(unsafe.Pointer(&t)))
	return errno == 0
}
