package delivery

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"tessera"
)

// round is one claim's worth of delivery: the claimed games' announcements,
// delivered by up to workers goroutines, a game at a time each.
type round struct {
	s     *Courier
	sink  Sink
	stop  context.CancelFunc
	until time.Time // no announcement is started after this: the lease may run out

	delivered atomic.Int64
	mu        sync.Mutex
	done      []uint64 // delivered, not yet removed from the outbox
	removed   int      // removed from the outbox (delivered or dropped)
	err       error    // the first error that ends the round
	refused   atomic.Bool
	cut       atomic.Bool // a game was left unfinished for the lease's sake
}

// fail records the error that ends the round, and stops the other workers.
func (r *round) fail(err error) {
	r.mu.Lock()
	if r.err == nil {
		r.err = err
	}
	r.mu.Unlock()
	r.stop()
}

// forget removes the delivered announcements from the outbox.
func (r *round) forget(ctx context.Context) error {
	r.mu.Lock()
	done := r.done
	r.done = nil
	r.removed += len(done)
	r.mu.Unlock()
	if len(done) == 0 {
		return nil
	}
	return r.s.store.Delivered(recording(ctx), done...)
}

// game delivers one game's announcements in order. A failure holds back the
// rest of the game (retried with back-off); a refused token ends the round.
func (r *round) game(ctx context.Context, list []tessera.Announcement) {
	s := r.s
	for i, a := range list {
		if ctx.Err() != nil {
			return
		}
		// The first is always sent (the game was just claimed), so that
		// every round moves every game on.
		if i > 0 && !time.Now().Before(r.until) {
			r.cut.Store(true)
			return // the rest stays in the outbox for the next claim
		}
		if a.Attempted.IsZero() {
			a.Attempted = s.now()
		}
		err := s.deliverRecovering(ctx, r.sink, a)
		var perm *PermanentError
		switch f := failureOf(err); {
		case err == nil:
			r.delivered.Add(1)
			if a.Tries > 0 && !isEvent(a) {
				s.unblocked(ctx, a.GameID)
			}
		case f == Refused:
			// Nothing goes through until a restart with a good token:
			// stop, keeping everything (no try is counted).
			r.refused.Store(true)
			r.fail(fmt.Errorf("%w: %w", ErrTokenRefused, err))
			return
		case errors.As(err, &perm):
			s.log.Warn("announcement dropped", "kind", a.Kind, queueAttr(a), "err", err)
		default:
			if r.refused.Load() {
				return // cut short by another game's refusal: not a try
			}
			switch {
			case f == Blocked && isEvent(a):
				s.log.Error("a permission is missing where an event posts; its announcements wait", "kind", a.Kind, "event", a.EventID, "try", a.Tries+1, "err", err)
			case f == Blocked:
				s.tellBlocked(ctx, r.sink, a, err)
			default:
				s.log.Warn("announcement will be retried", "kind", a.Kind, queueAttr(a), "try", a.Tries+1, "err", err)
			}
			if err := s.store.Retry(recording(ctx), a.Seq, time.Now().Add(s.backoff(a.Tries, f == Blocked))); err != nil {
				r.fail(err)
			}
			return // the game's later announcements wait behind this one
		}
		r.mu.Lock()
		r.done = append(r.done, a.Seq)
		r.mu.Unlock()
		if a.Kind == tessera.AnnounceThread || a.Kind == tessera.AnnounceEventThread {
			// Later announcements of the game need its place: record now.
			if err := r.forget(ctx); err != nil {
				r.fail(err)
				return
			}
		}
	}
}

// byGame splits claimed announcements into each game's list (each
// event's: its queue), keeping the order of the games' first
// announcements and each game's own order.
func byGame(list []tessera.Announcement) [][]tessera.Announcement {
	at := map[uint64]int{}
	var out [][]tessera.Announcement
	for _, a := range list {
		i, ok := at[a.Queue()]
		if !ok {
			i = len(out)
			at[a.Queue()] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], a)
	}
	return out
}

// deliverRound claims up to max games, delivers their announcements with
// the workers and removes what was delivered (or dropped). It reports
// whether another round may find more (it claimed max games, or left some
// unfinished), how many announcements it delivered and whether any left
// the outbox.
func (s *Courier) deliverRound(ctx context.Context, sink Sink, max int) (more bool, delivered int, progress bool, err error) {
	c := s.cfg.Courier
	lease := c.EffectiveLease()
	start := time.Now() // leases and retries run on the wall clock, not the game clock
	list, err := s.store.Claim(ctx, start, c.Owner, lease, max)
	if err != nil || len(list) == 0 {
		return false, 0, false, err
	}
	games := byGame(list)
	ids := make([]uint64, len(games))
	for i, g := range games {
		ids[i] = g[0].Queue() // a game's id, or an event's queue
	}
	defer func() {
		// Another process may take the games at once; an expired lease
		// would free them anyway.
		if rerr := s.store.Release(recording(ctx), c.Owner, ids...); err == nil {
			err = rerr
		}
	}()
	// Record the first attempt of each before sending any (one write):
	// a post that may have arrived long ago is looked for, not resent.
	var first []uint64
	for _, a := range list {
		if a.Attempted.IsZero() {
			first = append(first, a.Seq)
		}
	}
	if err := s.store.Attempting(ctx, s.now(), first...); err != nil {
		return false, 0, false, err
	}
	rctx, stop := context.WithCancel(ctx)
	defer stop()
	// A game is started only in the first third of the lease, so that it
	// is delivered and recorded before another process may claim it.
	r := &round{s: s, sink: sink, stop: stop, until: start.Add(lease / 3)}
	next := make(chan []tessera.Announcement)
	var wg sync.WaitGroup
	for range min(c.EffectiveWorkers(), len(games)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := range next {
				r.game(rctx, g)
			}
		}()
	}
	for _, g := range games {
		if rctx.Err() != nil {
			break
		}
		select {
		case next <- g:
		case <-rctx.Done():
		}
	}
	close(next)
	wg.Wait()
	// Delivered announcements are removed together at the end of the
	// round (one write instead of one per message). A crash before that
	// sends them again, which changes nothing: posts and direct messages
	// carry their nonce, edits and reactions are idempotent, and a thread
	// is made from its challenge message only once.
	ferr := r.forget(ctx)
	n := int(r.delivered.Load())
	progress = r.removed > 0
	more = len(games) == max || r.cut.Load()
	switch {
	case r.err != nil:
		return more, n, progress, errors.Join(r.err, ferr)
	case ctx.Err() != nil:
		return more, n, progress, errors.Join(ctx.Err(), ferr)
	}
	return more, n, progress, ferr
}
