package web

import (
	"sync"
	"time"
)

// pageCache keeps spectators' pages for a short while: when a move is
// made, every open page of the game asks for the same new position at
// once, and all but the first get the bytes already made. A page is
// named by the record's version, so a move never serves an old one;
// what changes without a move (a player's rating, after another game)
// shows within the cache's life.
type pageCache struct {
	mu    sync.Mutex
	pages map[pageKey]cached
	life  time.Duration
	now   func() time.Time
}

type pageKey struct {
	game, version uint64
	moves         int
	template      string
}

type cached struct {
	body []byte
	made time.Time
}

// pageCacheSize bounds the pages kept (all of them are dropped when it is
// reached: the cache serves bursts, not history).
const pageCacheSize = 256

func newPageCache(life time.Duration, now func() time.Time) *pageCache {
	return &pageCache{pages: map[pageKey]cached{}, life: life, now: now}
}

func (c *pageCache) get(k pageKey) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.pages[k]
	if !ok || c.now().Sub(p.made) > c.life {
		return nil, false
	}
	return p.body, true
}

func (c *pageCache) put(k pageKey, body []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.pages) >= pageCacheSize {
		clear(c.pages)
	}
	c.pages[k] = cached{body: body, made: c.now()}
}
