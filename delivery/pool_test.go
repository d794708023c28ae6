package delivery_test

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"tessera/delivery"
	"tessera/render"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/boltdb"
)

// gate is a transport that holds every call until want calls are in
// flight at once (or until it is opened), and records the most in flight.
type gate struct {
	*fakeSink
	want int

	mu      sync.Mutex
	in, top int
	full    chan struct{} // closed when want calls were in flight at once
	open    chan struct{} // closed: calls go through
	opened  bool
}

func newGate(want int) *gate {
	return &gate{fakeSink: newSink(), want: want, full: make(chan struct{}), open: make(chan struct{})}
}

func (g *gate) enter() {
	g.mu.Lock()
	g.in++
	g.top = max(g.top, g.in)
	if g.in == g.want && !g.opened {
		g.opened = true
		close(g.full)
		close(g.open)
	}
	g.mu.Unlock()
	<-g.open
	runtime.Gosched() // let the others interleave
}

func (g *gate) leave() {
	g.mu.Lock()
	g.in--
	g.mu.Unlock()
}

func (g *gate) Thread(ctx context.Context, channel, from, name string) (string, error) {
	g.enter()
	defer g.leave()
	return g.fakeSink.Thread(ctx, channel, from, name)
}

func (g *gate) Post(ctx context.Context, channel string, m service.Message, nonce string) (string, error) {
	g.enter()
	defer g.leave()
	return g.fakeSink.Post(ctx, channel, m, nonce)
}

func (g *gate) Edit(ctx context.Context, channel, id string, m service.Message) error {
	g.enter()
	defer g.leave()
	return g.fakeSink.Edit(ctx, channel, id, m)
}

func (g *gate) DM(ctx context.Context, user string, m service.Message, nonce string) error {
	g.enter()
	defer g.leave()
	return g.fakeSink.DM(ctx, user, m, nonce)
}

// games starts n two-player Elemental games, each in its own channel
// between its own players, and plays moves moves in each; nothing is
// delivered yet.
func games(t *testing.T, svc *service.Service, n, moves int) {
	t.Helper()
	k := 0
	req := func(u service.User, ch string) service.Request {
		k++
		return service.Request{User: u, GuildID: "g", ChannelID: ch, InteractionID: fmt.Sprint("i", k)}
	}
	for i := 1; i <= n; i++ {
		ch := fmt.Sprint("c", i)
		a := service.User{ID: fmt.Sprint(100 + i), Name: fmt.Sprint("A", i)}
		b := service.User{ID: fmt.Sprint(200 + i), Name: fmt.Sprint("B", i)}
		if _, err := svc.NewGame(req(a, ch), service.NewGameRequest{Game: "elemental", Opponents: []service.User{b}, Options: "borders=RBGY", Clock: ""}); err != nil {
			t.Fatal(err)
		}
		ref := strconv.Itoa(i)
		if _, err := svc.Click(req(b, ch), "accept:"+ref); err != nil {
			t.Fatal(err)
		}
		for m := 0; m < moves; m++ {
			u := []service.User{a, b}[m%2]
			c := svc.MoveChoices(req(u, ch), ref, "")
			if len(c) == 0 {
				t.Fatalf("game %d: no move for %s", i, u.Name)
			}
			if _, err := svc.Move(req(u, ch), ref, c[0].Value); err != nil {
				t.Fatalf("game %d move %d: %v", i, m, err)
			}
		}
	}
}

func openStore(t *testing.T) storage.Store {
	st, err := boltdb.Open(filepath.Join(t.TempDir(), "t.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// inOrder fails unless each game's announcements (their markers name the
// game and the outbox sequence) arrived in the order they were written.
func inOrder(t *testing.T, log []sent) {
	t.Helper()
	last := map[string]uint64{}
	for _, s := range log {
		game, seq, ok := strings.Cut(s.Msg.Marker, " · ")
		if !ok || strings.HasPrefix(seq, "place") {
			continue
		}
		n, err := strconv.ParseUint(seq, 36, 64)
		if err != nil {
			t.Fatalf("marker %q", s.Msg.Marker)
		}
		if n <= last[game] {
			t.Fatalf("%s: announcement %d after %d", game, n, last[game])
		}
		last[game] = n
	}
	if len(last) == 0 {
		t.Fatal("no announcement with a marker was delivered")
	}
}

// TestCourierParallel: with courier.workers 4, four games' announcements
// are in flight at once (the gate lets nothing through until they are),
// never more than four, and each game's arrive in order.
func TestCourierParallel(t *testing.T) {
	st := openStore(t)
	svc := service.New(st, service.Config{Renderer: render.Renderer{}, Courier: service.CourierConfig{Workers: 4}})
	games(t, svc, 10, 3)
	g := newGate(4)
	done := make(chan error, 1)
	go func() {
		_, err := delivery.New(svc, svc.Store()).Deliver(context.Background(), g)
		done <- err
	}()
	select {
	case <-g.full:
	case err := <-done:
		t.Fatalf("the courier finished (%v) without four deliveries in flight at once (at most %d)", err, g.top)
	case <-time.After(time.Minute): // a guard against a hang, not a measure
		t.Fatalf("never four deliveries in flight at once (at most %d)", g.top)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if g.top != 4 {
		t.Fatalf("%d deliveries in flight at once, want at most courier.workers (4)", g.top)
	}
	if n, _ := st.Outbox(t.Context()); n != 0 {
		t.Fatalf("%d announcements left", n)
	}
	inOrder(t, g.Take())
}

// TestCourierOneWorker: courier.workers 1 delivers one at a time, as the
// courier always did.
func TestCourierOneWorker(t *testing.T) {
	st := openStore(t)
	svc := service.New(st, service.Config{Renderer: render.Renderer{}, Courier: service.CourierConfig{Workers: 1}})
	games(t, svc, 4, 2)
	g := newGate(2)
	close(g.open) // nothing waits; top counts what overlapped
	g.opened = true
	if _, err := delivery.New(svc, svc.Store()).Deliver(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	if g.top != 1 {
		t.Fatalf("%d deliveries at once with one worker", g.top)
	}
	inOrder(t, g.Take())
}

// counting records every call, duplicates included (fakeSink's nonces
// would hide a second post), so that exactly-once can be checked.
type counting struct {
	*gate
	mu    sync.Mutex
	calls map[string]int
}

func (c *counting) count(key string) {
	c.mu.Lock()
	c.calls[key]++
	c.mu.Unlock()
	runtime.Gosched()
}

func (c *counting) Post(ctx context.Context, channel string, m service.Message, nonce string) (string, error) {
	c.count("post " + nonce)
	return c.gate.Post(ctx, channel, m, nonce)
}

func (c *counting) DM(ctx context.Context, user string, m service.Message, nonce string) error {
	c.count("dm " + nonce)
	return c.gate.DM(ctx, user, m, nonce)
}

func (c *counting) Thread(ctx context.Context, channel, from, name string) (string, error) {
	c.count("thread " + channel)
	return c.gate.Thread(ctx, channel, from, name)
}

// TestCourierTwoOwners: two services (two processes' couriers, each its
// own owner) deliver one store's outbox at the same time; the claims give
// each game to one of them at a time, so every post, direct message and
// thread is sent exactly once, and each game's in order. The transport
// holds every call until three are in flight, more than one courier's two
// workers: the first courier waits for the second, which must find games
// the first has not claimed.
func TestCourierTwoOwners(t *testing.T) {
	st := openStore(t)
	a := service.New(st, service.Config{Renderer: render.Renderer{}, Courier: service.CourierConfig{Workers: 2, Owner: "a"}})
	b := service.New(st, service.Config{Renderer: render.Renderer{}, Courier: service.CourierConfig{Workers: 2, Owner: "b"}})
	games(t, a, 20, 2) // more games than one round claims (16)
	sink := &counting{gate: newGate(3), calls: map[string]int{}}
	var wg sync.WaitGroup
	total := make([]int, 2)
	for i, svc := range []*service.Service{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for left := 1; left > 0; left, _ = st.Outbox(t.Context()) {
				n, err := delivery.New(svc, svc.Store()).Deliver(context.Background(), sink)
				if err != nil {
					t.Error(err)
					return
				}
				total[i] += n
			}
		}()
	}
	wg.Wait()
	if n, _ := st.Outbox(t.Context()); n != 0 {
		t.Fatalf("%d announcements left", n)
	}
	for k, n := range sink.calls {
		if n != 1 {
			t.Errorf("%s sent %d times", k, n)
		}
	}
	if total[0] == 0 || total[1] == 0 {
		t.Errorf("delivered %d by a and %d by b: not shared", total[0], total[1])
	}
	if len(sink.calls) < 20*4 {
		t.Fatalf("only %d posts, messages and threads", len(sink.calls))
	}
	inOrder(t, sink.Take())
}

// TestCourierShortLease: when a round outlasts a third of the lease, each
// game stops after its current announcement and is claimed again (which
// renews the lease) until all is delivered: Deliver still returns with
// nothing due left, each game in order.
func TestCourierShortLease(t *testing.T) {
	st := openStore(t)
	svc := service.New(st, service.Config{Renderer: render.Renderer{}, Courier: service.CourierConfig{Workers: 2, Lease: time.Nanosecond}})
	games(t, svc, 3, 4)
	sink := newSink()
	n, err := delivery.New(svc, svc.Store()).Deliver(context.Background(), sink)
	if err != nil {
		t.Fatal(err)
	}
	if left, _ := st.Outbox(t.Context()); left != 0 || n == 0 {
		t.Fatalf("delivered %d, %d left", n, left)
	}
	inOrder(t, sink.Take())
}
