package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"tessera/internal/wake"
)

// syncBuffer is an output written by the bot's goroutine and read by the
// test's, which may wait for what it expects (waitFor).
type syncBuffer struct {
	mu      sync.Mutex
	b       strings.Builder
	changes wake.Signal // woken by each write
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	n, err := s.b.Write(p)
	s.mu.Unlock()
	s.changes.Wake()
	return n, err
}

// waitFor waits until cond holds of the output so far, looking again
// after each write; false when the minute, which only bounds a hang,
// ran out first.
func (s *syncBuffer) waitFor(cond func(out string) bool) bool {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return s.changes.WaitFor(ctx, func() bool { return cond(s.String()) }) == nil
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Item 12: SIGTERM (and Ctrl-C, the same path) ends the console cleanly
// while it waits for a line: exit 0, the database closed.
func TestConsoleEndsOnSIGTERM(t *testing.T) {
	dir := t.TempDir()
	env := consoleEnv(t, filepath.Join(dir, "t.db"))
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	var out, errb syncBuffer
	done := make(chan int)
	go func() { done <- runConsole(nil, r, &out, &errb, func(k string) string { return env[k] }) }()
	w.Write([]byte("ana: /rules closure\n"))
	// The signal is sent once the console reads (the handler is installed
	// before it starts); the waits are bounds on a hang, not measurements.
	if !out.waitFor(func(out string) bool { return strings.Contains(out, "Closure") }) {
		t.Fatalf("the console did not start: %s %s", out.String(), errb.String())
	}
	syscall.Kill(os.Getpid(), syscall.SIGTERM)
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
	case <-time.After(time.Minute):
		t.Fatal("SIGTERM did not end the console")
	}
	if !strings.Contains(out.String(), "(stopped)") {
		t.Fatalf("output: %s", out.String())
	}
}

// Item 13: through the command, console hints use the console's syntax.
func TestConsoleHintsUseConsoleSyntax(t *testing.T) {
	env := consoleEnv(t, filepath.Join(t.TempDir(), "t.db"))
	script := "ana: /new elemental bo\nbo: /accept\nana: /new closure bo\nbo: /accept\nbo: /board\nana: /move\nhelp\nquit\n"
	code, out, errs := runWithEnv(t, env, script)
	if code != 0 {
		t.Fatalf("exit %d %s", code, errs)
	}
	for _, want := range []string{"say which with #id after the command", "Move with /move (/moves lists your legal moves)", "Type commands as"} {
		if !strings.Contains(out, want) {
			t.Fatalf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "game: option") || strings.Contains(out, "autocomplete") {
		t.Fatalf("Discord wording in the console:\n%s", out)
	}
}
