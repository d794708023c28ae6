package web

import (
	"sync"
	"time"
)

// pageCache keeps pages for a short while: when a move is made, every
// open page of the game asks for the same new position at once, and all
// but the first get the bytes already made. A player's page is kept too,
// for that player alone (pageKey.viewer): reloaded, or asked again by
// the live update after each move, it costs a copy, not the position's
// legal moves, the board's SVG and the template again. A page is
// named by the record's version, so a move never serves an old one;
// what changes without a move (a player's rating, after another game)
// shows within the cache's life.
type pageCache struct {
	mu     sync.Mutex
	pages  map[pageKey]cached
	making map[pageKey]*making // pages being made: the others wait for them
	life   time.Duration
	now    func() time.Time
}

// making is one page being made, and what came of it once done is closed.
type making struct {
	done chan struct{}
	body *packedPage
	err  error
}

type pageKey struct {
	game, version uint64
	moves         int
	template      string
	// viewer is the player the page is made for ("" for spectators): a
	// player's page is kept for them alone, made with placeholders for
	// its CSRF token and form key (personal), which each answer fills in.
	viewer string
}

type cached struct {
	body *packedPage
	made time.Time
}

// pageCacheSize bounds the pages kept (all of them are dropped when it is
// reached: the cache serves bursts, not history).
const pageCacheSize = 256

func newPageCache(life time.Duration, now func() time.Time) *pageCache {
	return &pageCache{pages: map[pageKey]cached{}, making: map[pageKey]*making{}, life: life, now: now}
}

// do returns the page k names: kept, or being made by another request
// (then it waits for that one), or made now by build and kept. An error is
// not kept: the next request tries again. The page is kept packed
// (compressed once, cut at a player's placeholders: packed.go).
func (c *pageCache) do(k pageKey, build func() ([]byte, error)) (*packedPage, error) {
	c.mu.Lock()
	if p, ok := c.pages[k]; ok && c.now().Sub(p.made) <= c.life {
		c.mu.Unlock()
		return p.body, nil
	}
	if m, ok := c.making[k]; ok {
		c.mu.Unlock()
		<-m.done
		return m.body, m.err
	}
	m := &making{done: make(chan struct{}), err: errNotMade}
	c.making[k] = m
	c.mu.Unlock()
	defer func() { // even if build panics, the waiters are let go
		c.mu.Lock()
		delete(c.making, k)
		if m.err == nil {
			c.put(k, m.body)
		}
		c.mu.Unlock()
		close(m.done)
	}()
	var page []byte
	if page, m.err = build(); m.err == nil {
		m.body, m.err = pack(page, k.viewer != "", k.template != boardSVG)
	}
	return m.body, m.err
}

// errNotMade is what waiters get when the request making the page failed
// without an error of its own (it panicked).
const errNotMade = webError("web: the page was not made")

// put keeps a page; c.mu is held.
func (c *pageCache) put(k pageKey, body *packedPage) {
	if len(c.pages) >= pageCacheSize {
		clear(c.pages)
	}
	c.pages[k] = cached{body: body, made: c.now()}
}
