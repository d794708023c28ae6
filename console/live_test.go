package console

import (
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"tessera/internal/wake"
	"tessera/service"
)

// liveOutput is the console's output, written by Run's goroutine and read
// by the test's, which waits for what it expects (waitFor).
type liveOutput struct {
	mu      sync.Mutex
	b       strings.Builder
	changes wake.Signal // woken by each write
}

func (o *liveOutput) Write(p []byte) (int, error) {
	o.mu.Lock()
	n, err := o.b.Write(p)
	o.mu.Unlock()
	o.changes.Wake()
	return n, err
}

func (o *liveOutput) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.b.String()
}

// waitFor waits until cond holds of the output, looking again after each
// write: it waits on the writes themselves, never on the clock. The
// minute only bounds a hang (the defect this file is about was one: the
// move waited for the next line typed).
func (o *liveOutput) waitFor(t *testing.T, what string, cond func(out string) bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	if o.changes.WaitFor(ctx, func() bool { return cond(o.String()) }) != nil {
		t.Fatalf("%s did not come:\n%s", what, o.String())
	}
}

// Issue 45: a move made elsewhere than the console (on a game's page,
// which calls the service as this test does) is printed as it comes,
// while the console waits for a line, and the prompt comes back after
// it. It used to appear only after the next line typed.
func TestConsolePrintsDeliveriesAsTheyCome(t *testing.T) {
	c, _ := newConsole(t)
	out := &liveOutput{}
	c.out = &screen{w: out}
	in, typing := io.Pipe()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error)
	go func() { done <- c.Run(ctx, in) }()
	defer func() {
		cancel()
		typing.Close()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	if _, err := io.WriteString(typing, "ana: /new elemental bo\nbo: /accept\n"); err != nil {
		t.Fatal(err)
	}
	// Both lines are done when their output is followed by the prompt:
	// the console prompts only once a line's deliveries are printed.
	out.waitFor(t, "the game's start", func(s string) bool {
		return strings.Contains(s, "your turn") && strings.HasSuffix(s, "> ")
	})
	before := len(out.String())
	// ana moves on the page: the service, not the console, takes it.
	page := service.Request{User: user("ana"), GuildID: "console", InteractionID: "web:1:0:ana"}
	if _, err := c.svc.(*service.Service).Move(page, "1", "h8 BGGY"); err != nil {
		t.Fatal(err)
	}
	out.waitFor(t, "the move's post", func(s string) bool {
		return strings.Contains(s[before:], "bo, your turn") && strings.HasSuffix(s, "> ")
	})
	// The post begins on a line of its own, after the prompt it came at.
	if after := out.String()[before:]; !strings.HasPrefix(after, "\n  [") {
		t.Fatalf("the post does not begin on its own line:\n%q", after)
	}
}
