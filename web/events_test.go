package web

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"tessera/service"
)

// sseEvent is one event of a stream.
type sseEvent struct{ id, event, data string }

// openStream opens a game's event stream with the given Last-Event-ID
// ("" none) and returns its events as they come.
func (s *site) openStream(ctx context.Context, path, lastID string) <-chan sseEvent {
	s.t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", s.srv.URL+path, nil)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/event-stream" {
		s.t.Fatalf("events: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	out := make(chan sseEvent, 16)
	go func() {
		defer res.Body.Close()
		defer close(out)
		sc := bufio.NewScanner(res.Body)
		var e sseEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if e.event != "" {
					out <- e
				}
				e = sseEvent{}
			case strings.HasPrefix(line, "id: "):
				e.id = line[4:]
			case strings.HasPrefix(line, "event: "):
				e.event = line[7:]
			case strings.HasPrefix(line, "data: "):
				e.data = line[6:]
			}
		}
	}()
	return out
}

// next waits for a stream's next event (10 s at most: the poller reads
// every 5 ms in these tests).
func next(t *testing.T, events <-chan sseEvent) sseEvent {
	t.Helper()
	select {
	case e, ok := <-events:
		if !ok {
			t.Fatal("the stream ended")
		}
		return e
	case <-time.After(10 * time.Second):
		t.Fatal("no event within 10 s")
	}
	return sseEvent{}
}

// counter counts the open streams and tells each close.
type counter struct {
	open   atomic.Int64
	closed chan struct{}
}

func (c *counter) LiveOpened() { c.open.Add(1) }
func (c *counter) LiveClosed() { c.open.Add(-1); c.closed <- struct{}{} }

// TestLiveMove: a move made through the service (as Discord or the
// console would) reaches an open stream as an event naming the game's new
// version and move count; a page that reconnects with the Last-Event-ID
// it saw before a move gets that move at once.
func TestLiveMove(t *testing.T) {
	s := newSite(t)
	live := &counter{closed: make(chan struct{}, 16)}
	s.web.cfg.Live = live
	s.web.hub.live = live
	g := s.start("elemental", "borders=RBGY")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events := s.openStream(ctx, s.addr(g.ID)+"/events?v="+itoa(g.Version), "")

	st, mover, _ := s.turn(g)
	if _, err := s.svc.Move(s.req(mover), "", st.Legal()[0].String()); err != nil {
		t.Fatal(err)
	}
	after := s.game(g.ID)
	e := next(t, events)
	if e.event != "change" || e.id != itoa(after.Version) || !strings.Contains(e.data, `"moves":1`) {
		t.Fatalf("event %+v, want version %d with 1 move", e, after.Version)
	}
	if n := live.open.Load(); n != 1 {
		t.Errorf("%d live connections counted, want 1", n)
	}

	// Another page, which saw only the version before the move.
	ctx2, cancel2 := context.WithCancel(context.Background())
	back := s.openStream(ctx2, s.addr(g.ID)+"/events", itoa(g.Version))
	if e := next(t, back); e.id != itoa(after.Version) {
		t.Fatalf("reconnection got %+v, want version %d at once", e, after.Version)
	}
	cancel2()
	cancel()
	// Both streams close: the counter comes back to zero.
	for range 2 {
		select {
		case <-live.closed:
		case <-time.After(10 * time.Second):
			t.Fatalf("%d live connections still counted after 10 s", live.open.Load())
		}
	}
	if n := live.open.Load(); n != 0 {
		t.Fatalf("%d live connections counted, want 0", n)
	}
}

// TestLiveOtherProcess: a move made by another service on the same store
// (another process sharing the database) reaches the page's stream too:
// the poller reads the store, not this process's memory.
func TestLiveOtherProcess(t *testing.T) {
	s := newSite(t)
	g := s.start("elemental", "borders=RBGY")
	other := service.New(s.svc.Store(), s.svc.Config())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events := s.openStream(ctx, s.addr(g.ID)+"/events?v="+itoa(g.Version), "")
	st, mover, _ := s.turn(g)
	if _, err := other.Move(s.req(mover), "", st.Legal()[0].String()); err != nil {
		t.Fatal(err)
	}
	if e := next(t, events); e.id != itoa(s.game(g.ID).Version) {
		t.Fatalf("event %+v, want the other process's move", e)
	}
}
