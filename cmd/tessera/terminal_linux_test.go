package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// openPTY opens a new pseudo-terminal: what a person types is written to
// master, and tty is the terminal a program reads it from.
func openPTY(t *testing.T) (master, tty *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { master.Close() })
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, master.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Fatalf("unlockpt: %v", e)
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, master.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Fatalf("ptsname: %v", e)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tty.Close() })
	return master, tty
}

// Item 18: only a terminal is a terminal. /dev/null, which a container
// started without -t has as its standard input, is a character device
// but not a terminal; neither is a pipe.
func TestIsTerminal(t *testing.T) {
	_, tty := openPTY(t)
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for _, c := range []struct {
		name string
		in   any
		want bool
	}{
		{"a pseudo-terminal", tty, true},
		{"/dev/null", null, false},
		{"a pipe", r, false},
		{"a reader that is no file", strings.NewReader("quit\n"), false},
	} {
		if got := isTerminal(c.in.(interface{ Read([]byte) (int, error) })); got != c.want {
			t.Errorf("%s: isTerminal %v, want %v", c.name, got, c.want)
		}
	}
}

// Items 17 and 18: at a terminal, `tessera run` with no token is the
// console, and its --db (the flag check, backup and ratings take) may
// name a file in a folder that does not exist yet: the folder is made.
func TestRunAtATerminalIsTheConsole(t *testing.T) {
	master, tty := openPTY(t)
	db := filepath.Join(t.TempDir(), "new", "folder", "x.db")
	env := map[string]string{"TESSERA_PICTURES": filepath.Join(t.TempDir(), "pics")}
	if _, err := master.Write([]byte("ana: /rules closure\nquit\n")); err != nil {
		t.Fatal(err)
	}
	var out, errb strings.Builder
	code := runBot([]string{"--db", db}, tty, &out, &errb, func(k string) string { return env[k] })
	if code != 0 || !strings.Contains(out.String(), "Tessera local console") || !strings.Contains(out.String(), "Closure") {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	if !strings.Contains(out.String(), db+", a new, empty database (in the new folder "+filepath.Dir(db)+")") {
		t.Fatalf("the console does not say it made the database and its folder:\n%s", out.String())
	}
	if _, err := os.Stat(db); err != nil {
		t.Fatalf("the database was not made: %v", err)
	}
}
