package wake

import (
	"context"
	"errors"
	"sync"
	"testing"
)

// TestWaitForSeesEveryChange: a writer makes n changes, waking after each;
// the waiter, started before, during or after them, returns once it sees
// the last, without sleeping. A lost wake-up would hang it, and the
// test's deadline would say so.
func TestWaitForSeesEveryChange(t *testing.T) {
	for _, n := range []int{0, 1, 1000} {
		var s Signal
		var mu sync.Mutex
		count := 0
		start := make(chan struct{})
		go func() {
			<-start
			for i := 0; i < n; i++ {
				mu.Lock()
				count++
				mu.Unlock()
				s.Wake()
			}
		}()
		close(start)
		err := s.WaitFor(t.Context(), func() bool {
			mu.Lock()
			defer mu.Unlock()
			return count == n
		})
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
	}
}

// TestWaitForEndsWithItsContext: a condition that never holds returns the
// context's error once it is done, and a wake-up with nothing changed only
// makes the waiter look again.
func TestWaitForEndsWithItsContext(t *testing.T) {
	var s Signal
	ctx, cancel := context.WithCancel(t.Context())
	looks := 0
	looked := make(chan struct{}, 3)
	done := make(chan error)
	go func() {
		done <- s.WaitFor(ctx, func() bool {
			looks++
			looked <- struct{}{}
			return false
		})
	}()
	<-looked // the first look, at once
	s.Wake()
	<-looked // woken: one look more
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("WaitFor returned %v, want context.Canceled", err)
	}
	if looks != 2 {
		t.Fatalf("%d looks, want 2", looks)
	}
}

// TestWakeWithoutWaiters costs no channel: nothing waits, nothing is made.
func TestWakeWithoutWaiters(t *testing.T) {
	var s Signal
	if n := testing.AllocsPerRun(100, s.Wake); n != 0 {
		t.Fatalf("Wake with nobody waiting allocates %v times", n)
	}
}
