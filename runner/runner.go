// Package runner runs a process's background loops once, beside whichever
// transports it serves: the courier (the outbox, delivered through the
// transports' sink), the clock (deadlines, reminders, expiries, and the
// pruning of handled interaction ids) and the workers (the computer's
// moves and the queued analyses). A transport is then only an adapter: a
// process serving Discord, the web pages alone, or the console gets the
// same loops from the same code, not from a copy in each transport.
//
// It imports the service and the courier, never a transport; only
// cmd/tessera starts it, beside whichever transports the configuration
// enables, each of which gives it only its Sink (architecture_test.go).
package runner

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"tessera/delivery"
	"tessera/service"
)

// Config says which loops to run and how often.
type Config struct {
	Service service.Workers
	// Courier and Sink: the outbox's courier and where it delivers. A nil
	// Sink runs no courier (the console delivers after each command); a
	// Sink needs a Courier.
	Courier *delivery.Courier
	Sink    delivery.Sink
	// Ready, when not nil, holds the courier's first delivery until it is
	// closed: the transport behind Sink is connected (the bot's Opened).
	// The clock and the workers do not wait: they only fill the outbox.
	Ready <-chan struct{}
	// Letterbox, when set, is where the courier also sends what players
	// chose to get by mail (package mailer).
	Letterbox delivery.Letterbox
	// NoClock and NoWorkers leave those loops out (a transport that runs
	// them itself, in step with what it prints: the console's AI).
	NoClock, NoWorkers bool
	// TickEvery is how often the clocks and reminders are checked
	// (default 30 s); RetryEvery how often undelivered announcements are
	// retried (default 5 s; new ones go at once); PruneEvery how often the
	// handled interaction ids older than KeepHandled are forgotten
	// (defaults 1 h and 24 h: Discord never resends after 15 min). Zero
	// is the default; a test may give KeepHandled below zero (a cutoff
	// ahead of the clock).
	TickEvery, RetryEvery, PruneEvery, KeepHandled time.Duration
	// KeepMailHandled is how long a mail reply's id (storage.LongHandled)
	// is kept (default DefaultKeepMailHandled): a sending server may
	// deliver a reply again days later, and it must play once.
	KeepMailHandled time.Duration
	// Grace is how long a delivery under way may finish after Close
	// (default 5 s): a request cut in the middle would be retried anyway,
	// but needlessly.
	Grace time.Duration
	Log   *slog.Logger
	// Refused is told when the courier meets delivery.ErrTokenRefused:
	// nothing will be delivered until the host fixes the token, so the
	// courier stops and the process should end.
	Refused func(error)
	// Now is the wall clock the handled ids are stamped with (default
	// time.Now).
	Now func() time.Time
}

// DefaultKeepMailHandled is Config.KeepMailHandled's default: 90 days,
// past any sending server's retries (RFC 5321 suggests giving up after
// 4 to 5 days) and a forwarded or restored mailbox's replays, while a
// reply's id (a 16-byte hash) is all that is kept.
const DefaultKeepMailHandled = 90 * 24 * time.Hour

// Runner is the running loops.
type Runner struct {
	cfg   Config
	stop  chan struct{}
	once  sync.Once
	loops sync.WaitGroup
}

// Start starts the loops cfg asks for; Close stops them.
func Start(cfg Config) *Runner {
	if cfg.TickEvery == 0 {
		cfg.TickEvery = 30 * time.Second
	}
	if cfg.RetryEvery == 0 {
		cfg.RetryEvery = 5 * time.Second
	}
	if cfg.PruneEvery == 0 {
		cfg.PruneEvery = time.Hour
	}
	if cfg.KeepHandled == 0 {
		cfg.KeepHandled = 24 * time.Hour
	}
	if cfg.KeepMailHandled == 0 {
		cfg.KeepMailHandled = DefaultKeepMailHandled
	}
	if cfg.Grace == 0 {
		cfg.Grace = 5 * time.Second
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Refused == nil {
		cfg.Refused = func(error) {}
	}
	r := &Runner{cfg: cfg, stop: make(chan struct{})}
	if cfg.Sink != nil {
		if cfg.Courier == nil {
			panic("runner.Start: a Sink without a Courier")
		}
		if cfg.Letterbox != nil {
			cfg.Courier.WithLetterbox(cfg.Letterbox)
		}
		r.loops.Add(1)
		go r.courier()
	}
	if !cfg.NoClock {
		r.loops.Add(1)
		go r.clock()
	}
	if !cfg.NoWorkers {
		r.loops.Add(1)
		go r.workers()
	}
	return r
}

// Close stops the loops and waits for them: a clock tick under way is
// finished, a delivery under way has Grace to finish, a search of the
// computer's is dropped (the next run makes that move).
func (r *Runner) Close() {
	r.once.Do(func() { close(r.stop) })
	r.loops.Wait()
}

// courier delivers the outbox: at once when the service signals something
// new, and every RetryEvery for retries.
func (r *Runner) courier() {
	defer r.loops.Done()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cut := make(chan struct{})
	defer close(cut)
	go func() {
		select {
		case <-r.stop:
		case <-cut:
			return
		}
		t := time.NewTimer(r.cfg.Grace)
		defer t.Stop()
		select {
		case <-t.C:
			cancel()
		case <-cut:
		}
	}()
	if r.cfg.Ready != nil {
		select {
		case <-r.cfg.Ready:
		case <-r.stop:
			return
		}
	}
	t := time.NewTicker(r.cfg.RetryEvery)
	defer t.Stop()
	for {
		_, err := r.cfg.Courier.Deliver(ctx, r.cfg.Sink)
		switch {
		case errors.Is(err, delivery.ErrTokenRefused):
			r.cfg.Refused(err)
			return
		case err != nil && ctx.Err() == nil:
			r.cfg.Log.Error("delivering announcements failed", "err", err)
		}
		select {
		case <-r.stop:
			return
		case <-r.cfg.Service.Wake():
		case <-t.C:
		}
	}
}

// clock plays out the clocks that ran out and sends reminders; now and
// then it forgets the interactions handled long ago. A tick under way
// when the runner closes is finished, not cut.
func (r *Runner) clock() {
	defer r.loops.Done()
	ctx := context.Background()
	t := time.NewTicker(r.cfg.TickEvery)
	defer t.Stop()
	prune := time.NewTicker(r.cfg.PruneEvery)
	defer prune.Stop()
	for {
		if _, err := r.cfg.Service.Tick(ctx); err != nil {
			r.cfg.Log.Error("clock tick failed", "err", err)
		}
		select {
		case <-r.stop:
			return
		case <-t.C:
		case <-prune.C:
			// Handled records are stamped with the wall clock.
			if n, err := r.cfg.Service.PruneHandled(ctx, r.cfg.Now().Add(-r.cfg.KeepHandled)); err != nil {
				r.cfg.Log.Warn("pruning handled interactions failed", "err", err)
			} else if n > 0 {
				r.cfg.Log.Debug("pruned handled interactions", "count", n)
			}
			if n, err := r.cfg.Service.PruneLongHandled(ctx, r.cfg.Now().Add(-r.cfg.KeepMailHandled)); err != nil {
				r.cfg.Log.Warn("pruning handled mail replies failed", "err", err)
			} else if n > 0 {
				r.cfg.Log.Debug("pruned handled mail replies", "count", n)
			}
		}
	}
}

// workers runs the computer's moves and the queued analyses until Close.
func (r *Runner) workers() {
	defer r.loops.Done()
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-r.stop
		cancel()
	}()
	r.cfg.Service.RunAI(ctx)
}
