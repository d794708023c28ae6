// Package wake lets a goroutine wait for something another goroutine does
// (a line logged, a row written, an interaction arriving) without looking
// again every few milliseconds: the doer calls Wake after each change,
// and the waiter looks once at the start and once after each Wake. A wait
// that sleeps and looks depends on how busy the machine is; this one
// depends only on the changes (docs/testing.md).
//
//	var changes wake.Signal
//	// the doer, after each change:
//	changes.Wake()
//	// the waiter; ctx's deadline only bounds a hang:
//	err := changes.WaitFor(ctx, func() bool { return done() })
package wake

import (
	"context"
	"sync"
)

// Signal wakes its waiters. The zero value is ready; it must not be
// copied after first use.
type Signal struct {
	mu sync.Mutex
	ch chan struct{} // closed by the next Wake; nil while nobody waits
}

// Wake wakes everyone waiting for the next change. With nobody waiting it
// costs a lock and allocates nothing.
func (s *Signal) Wake() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ch != nil {
		close(s.ch)
		s.ch = nil
	}
}

// Next is the channel the next Wake closes. Take it before looking at
// what it guards, so that a change made between the look and the wait
// is not missed.
func (s *Signal) Next() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ch == nil {
		s.ch = make(chan struct{})
	}
	return s.ch
}

// WaitFor returns nil once cond holds, or ctx's error once ctx is done
// first. cond is called at once and again after every Wake.
func (s *Signal) WaitFor(ctx context.Context, cond func() bool) error {
	for {
		ch := s.Next()
		if cond() {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
