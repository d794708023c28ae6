package delivery_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"tessera"
	"tessera/delivery"
	"tessera/render"
	"tessera/service"
	"tessera/storage"
)

// errStoreFault is what the faulty store's failing calls answer: a
// database that hiccuped (a connection reset, a restart).
var errStoreFault = errors.New("injected store fault: connection reset by peer")

// faultyStore fails, once armed, every other read of a game and every
// third removal of delivered announcements (each call counted on its own,
// so that a round of the courier never meets the same failure twice in a
// row).
type faultyStore struct {
	storage.Store
	mu     sync.Mutex
	armed  bool
	calls  map[string]int
	failed int
}

func (f *faultyStore) arm() {
	f.mu.Lock()
	f.armed = true
	f.calls = map[string]int{}
	f.mu.Unlock()
}

// fault reports whether this call of method fails: every every-th one,
// starting with the first, while armed.
func (f *faultyStore) fault(method string, every int) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.armed {
		return nil
	}
	f.calls[method]++
	if f.calls[method]%every == 1 {
		f.failed++
		return fmt.Errorf("database t: %s: %w", method, errStoreFault)
	}
	return nil
}

func (f *faultyStore) Game(ctx context.Context, id uint64) (*tessera.Game, error) {
	if err := f.fault("Game", 2); err != nil {
		return nil, err
	}
	return f.Store.Game(ctx, id)
}

func (f *faultyStore) Delivered(ctx context.Context, seqs ...uint64) error {
	if err := f.fault("Delivered", 3); err != nil {
		return err
	}
	return f.Store.Delivered(ctx, seqs...)
}

// syncLog is a log written by the courier's workers.
type syncLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// postsOwed are the markers of the posts waiting in the outbox.
func postsOwed(t *testing.T, st storage.Store) map[string]bool {
	t.Helper()
	p, err := st.Pending(t.Context(), time.Unix(1<<40, 0), 100000)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, a := range p {
		if a.Kind == tessera.AnnouncePost {
			want[fmt.Sprintf("game %d · %s", a.GameID, strconv.FormatUint(a.Seq, 36))] = true
		}
	}
	if len(want) == 0 {
		t.Fatal("no post is owed: the test would show nothing")
	}
	return want
}

// deliverAll runs the courier until the outbox is empty, as the bot's
// courier loop does (a round that ends in an error is followed by
// another), and returns the rounds' errors and how many announcements are
// left. The retries' back-off is a few nanoseconds (RetryBase), so a
// round soon finds them due; the bound on rounds only stops a courier
// that never empties the outbox.
func deliverAll(svc *service.Service, sink delivery.Sink) (errs []error, left int) {
	for range 2000 {
		if _, err := delivery.New(svc, svc.Store()).Deliver(context.Background(), sink); err != nil {
			errs = append(errs, err)
		}
		n, err := svc.Store().Outbox(context.Background())
		if err == nil && n == 0 {
			return errs, 0
		}
	}
	n, _ := svc.Store().Outbox(context.Background())
	return errs, n
}

// arrivedOnce fails unless every owed post arrived exactly once.
func arrivedOnce(t *testing.T, want map[string]bool, log []sent) {
	t.Helper()
	got := map[string]int{}
	for _, s := range of(log, "post") {
		if want[s.Msg.Marker] {
			got[s.Msg.Marker]++
		}
	}
	for m := range want {
		if got[m] != 1 {
			t.Errorf("post %q arrived %d times, want once", m, got[m])
		}
	}
}

// TestCourierRetriesStoreFaults (issue #24 item 8): a store that fails
// every other read of a game and every third removal of delivered
// announcements while the courier delivers two games' starts and moves
// loses no post: each arrives once, nothing is dropped, on both adapters.
// (One failed read of the game used to drop the announcement for good.)
func TestCourierRetriesStoreFaults(t *testing.T) {
	eachAdapter(t, func(t *testing.T, a adapter) {
		f := &faultyStore{Store: a.Open(t, 1)[0]}
		var logs syncLog
		svc := service.New(f, service.Config{Renderer: render.Renderer{}, RetryBase: time.Nanosecond, Courier: service.CourierConfig{Workers: 4},
			Logger: slog.New(slog.NewTextHandler(&logs, nil))})
		games(t, svc, 2, 1)
		want := postsOwed(t, f)
		f.arm()
		sink := newSink()
		if _, left := deliverAll(svc, sink); left > 0 {
			t.Fatalf("%d announcements still in the outbox", left)
		}
		arrivedOnce(t, want, sink.Take())
		if f.failed == 0 {
			t.Fatal("no fault was injected: the test shows nothing")
		}
		if strings.Contains(logs.String(), "dropped") {
			t.Fatalf("an announcement was dropped:\n%s", logs.String())
		}
	})
}

// killingSink is a transport that, after each post it sends for the
// first time, has the test end every PostgreSQL connection of the
// database (a server restart in the middle of delivery) before it
// answers. A post sent again (its nonce makes it a no-op, as on Discord)
// kills nothing, so that the courier can get through.
type killingSink struct {
	*fakeSink
	kill chan chan struct{}
	mu   sync.Mutex
	seen map[string]bool
}

func (k *killingSink) Post(ctx context.Context, channel string, m service.Message, nonce string) (string, error) {
	id, err := k.fakeSink.Post(ctx, channel, m, nonce)
	k.mu.Lock()
	first := !k.seen[channel+nonce]
	k.seen[channel+nonce] = true
	k.mu.Unlock()
	if first {
		done := make(chan struct{})
		k.kill <- done
		<-done
	}
	return id, err
}

// TestCourierSurvivesKilledConnections (issue #24 item 8): every
// PostgreSQL connection of the database is terminated after each new post
// the courier sends (pg_terminate_backend, from the test's own connection),
// so its next read or write fails; every post still arrives, once. (It
// used to lose posts whenever the failing call was the read of the game.)
func TestCourierSurvivesKilledConnections(t *testing.T) {
	{
		a := postgresAdapter()
		st := a.Open(t, 1)[0]
		var logs syncLog
		svc := service.New(st, service.Config{Renderer: render.Renderer{}, RetryBase: time.Nanosecond, Courier: service.CourierConfig{Workers: 2},
			Logger: slog.New(slog.NewTextHandler(&logs, nil))})
		games(t, svc, 2, 2)
		want := postsOwed(t, st)
		sink := &killingSink{fakeSink: newSink(), kill: make(chan chan struct{}), seen: map[string]bool{}}
		var errs []error
		var left int
		finished := make(chan struct{})
		go func() {
			defer close(finished)
			errs, left = deliverAll(svc, sink)
		}()
		kills := 0
		for running := true; running; {
			select {
			case done := <-sink.kill:
				kills += a.Kill(t)
				close(done)
			case <-finished:
				running = false
			}
		}
		if left > 0 {
			t.Fatalf("%d announcements still in the outbox", left)
		}
		arrivedOnce(t, want, sink.Take())
		// A killed connection fails the next call made on it: a read of
		// a game (retried, logged) or a round's own write (the round ends
		// in an error).
		if retried := strings.Count(logs.String(), "will be retried"); kills == 0 || len(errs)+retried == 0 {
			t.Fatalf("%d connections killed, %d failed rounds, %d retries: the test shows nothing", kills, len(errs), retried)
		}
		if strings.Contains(logs.String(), "dropped") {
			t.Fatalf("an announcement was dropped:\n%s", logs.String())
		}
	}
}
