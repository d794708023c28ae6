package web

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestPageCacheMakesOnce: requests for one page while it is being made
// wait for it instead of making it again; an error is not kept; a page
// past its life is made again.
func TestPageCacheMakesOnce(t *testing.T) {
	now := time.Unix(0, 0)
	c := newPageCache(time.Minute, func() time.Time { return now })
	k := pageKey{game: 1, version: 2, moves: 3, template: "position"}
	var builds atomic.Int64
	started, release := make(chan struct{}), make(chan struct{})
	build := func() ([]byte, error) {
		if builds.Add(1) == 1 {
			close(started)
			<-release
		}
		return []byte("page"), nil
	}
	var wg sync.WaitGroup
	results := make(chan string, 20)
	wg.Add(1)
	go func() { defer wg.Done(); b, _ := c.do(k, build); results <- string(b.plain) }()
	<-started // the first is making it: the others find it being made, or made
	for range 19 {
		wg.Add(1)
		go func() { defer wg.Done(); b, _ := c.do(k, build); results <- string(b.plain) }()
	}
	close(release)
	wg.Wait()
	close(results)
	for r := range results {
		if r != "page" {
			t.Fatalf("a request got %q", r)
		}
	}
	if n := builds.Load(); n != 1 {
		t.Fatalf("made %d times, want once", n)
	}

	bad := pageKey{game: 9}
	if _, err := c.do(bad, func() ([]byte, error) { return nil, errors.New("store down") }); err == nil {
		t.Fatal("the error was lost")
	}
	if b, err := c.do(bad, func() ([]byte, error) { return []byte("ok"), nil }); err != nil || string(b.plain) != "ok" {
		t.Fatalf("after an error: %v, want a page made anew", err)
	}

	now = now.Add(time.Minute + time.Second)
	c.do(k, build)
	if n := builds.Load(); n != 2 {
		t.Fatalf("a page past its life was served (%d builds)", n)
	}
}
