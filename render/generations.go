package render

import "sync"

// generations keeps values by band name in two generations, as the span
// cache keeps shapes: a value is added to the current generation, and
// when that would hold more than limit units (size of each value) the
// current one becomes the old one and the old one is dropped; a value
// found in the old generation moves back into the current one. It keeps
// the compressed bands (bandsKept) and the counted ones (coloursKept).
type generations[V any] struct {
	sync.Mutex
	cur, old map[bandKey]V
	n        int // units in cur
	limit    int
	size     func(V) int
}

func newGenerations[V any](limit int, size func(V) int) *generations[V] {
	return &generations[V]{cur: map[bandKey]V{}, old: map[bandKey]V{}, limit: limit, size: size}
}

// get is the value kept under k, or V's zero value.
func (c *generations[V]) get(k bandKey) V {
	c.Lock()
	defer c.Unlock()
	if v, ok := c.cur[k]; ok {
		return v
	}
	if v, ok := c.old[k]; ok {
		c.keep(k, v)
		return v
	}
	var none V
	return none
}

// kept is how many of keys have a value kept (it moves none).
func (c *generations[V]) kept(keys []bandKey) int {
	c.Lock()
	defer c.Unlock()
	n := 0
	for _, k := range keys {
		_, cur := c.cur[k]
		_, old := c.old[k]
		if cur || old {
			n++
		}
	}
	return n
}

// put keeps v under k unless the current generation has k already.
func (c *generations[V]) put(k bandKey, v V) {
	c.Lock()
	defer c.Unlock()
	if _, ok := c.cur[k]; !ok {
		c.keep(k, v)
	}
}

// keep adds v to the current generation. Called with the lock held.
func (c *generations[V]) keep(k bandKey, v V) {
	s := c.size(v)
	if c.n+s > c.limit {
		c.old, c.cur, c.n = c.cur, map[bandKey]V{}, 0
	}
	c.cur[k] = v
	c.n += s
}

// forget drops every value (benchmarks of a first picture).
func (c *generations[V]) forget() {
	c.Lock()
	defer c.Unlock()
	c.cur, c.old, c.n = map[bandKey]V{}, map[bandKey]V{}, 0
}
