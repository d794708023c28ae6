package web

import (
	"context"
	"net/http"
	"testing"
	"time"
)

// TestLiveStreamsCapped: each live page holds a connection and a
// goroutine, so past Config.MaxStreams a page is refused its stream (a
// 503 with Retry-After, the page itself still served) instead of running
// the process out of file descriptors; a stream that closes frees its
// place, whichever game it watched.
func TestLiveStreamsCapped(t *testing.T) {
	s := newSite(t)
	live := &counter{closed: make(chan struct{}, 16)}
	s.web.hub.live = live
	s.web.hub.max = 2
	g := s.start("elemental", "borders=RBGY")
	h := s.start("knotwork", "")

	ctx1, cancel1 := context.WithCancel(context.Background())
	defer cancel1()
	ctx2, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	s.openStream(ctx1, s.addr(g.ID)+"/events", "")
	s.openStream(ctx2, s.addr(h.ID)+"/events", "")

	status := func(path string) (int, string) {
		t.Helper()
		res, err := http.Get(s.srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode, res.Header.Get("Retry-After")
	}
	// The third stream, on either game, is refused; the page is not.
	for _, id := range []uint64{g.ID, h.ID} {
		if code, after := status(s.addr(id) + "/events"); code != http.StatusServiceUnavailable || after == "" {
			t.Fatalf("a third stream: %d, Retry-After %q; want 503 with Retry-After", code, after)
		}
	}
	if code, _ := status(s.addr(g.ID)); code != http.StatusOK {
		t.Fatalf("the page itself: %d, want 200", code)
	}

	// One closes (the other game's): a stream on g opens again.
	cancel2()
	select {
	case <-live.closed:
	case <-time.After(10 * time.Second):
		t.Fatal("the closed stream was not let go in 10 s")
	}
	ctx3, cancel3 := context.WithCancel(context.Background())
	defer cancel3()
	s.openStream(ctx3, s.addr(g.ID)+"/events", "") // fails the test unless 200
}
