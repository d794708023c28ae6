package render

import (
	"encoding/binary"
	"hash/maphash"
	"sync"
)

// bandRows is the height of a band of rows compressed on its own (see
// encodeRows). Shorter bands are found again more often after a move,
// but each costs its own Huffman tables and cannot match into the band
// before: 64 rows make a late board's file about 1% larger than one
// stream would.
const bandRows = 64

// band is a band of rows compressed: its deflate blocks, the Adler-32 of
// its filtered rows and their length.
type band struct {
	data []byte
	sum  uint32
	n    int
}

// bandKey names a band by every byte its compressed blocks depend on.
type bandKey struct {
	h     uint64
	n     int
	flags uint8
}

// bandKeyOf is the key of a band of a PNG of colour type ct, rowBytes a
// row, whose rows are filtered from src; first and last say whether it is
// the picture's first band (whose first row has no row above) and its
// last (which ends the stream).
func bandKeyOf(ct byte, rowBytes int, first, last bool, src []byte) bandKey {
	var h maphash.Hash
	h.SetSeed(bandsKept.seed)
	var b [9]byte
	b[0] = ct
	binary.LittleEndian.PutUint64(b[1:], uint64(rowBytes))
	h.Write(b[:])
	h.Write(src)
	k := bandKey{h: h.Sum64(), n: len(src), flags: ct}
	if first {
		k.flags |= 1 << 6
	}
	if last {
		k.flags |= 1 << 7
	}
	return k
}

// maxBandBytes bounds the compressed bands kept: two generations of at
// most this many bytes (a late board's bands are about 250 KB, its
// truecolour and its paletted ones).
const maxBandBytes = 4 << 20

// bandCache keeps bands in two generations, as the span cache keeps
// shapes: when the current one is full the old one is dropped, and a band
// found in the old one moves into the current one.
type bandCache struct {
	sync.Mutex
	cur, old map[bandKey]*band
	n        int // bytes in cur
	seed     maphash.Seed
}

var bandsKept = &bandCache{cur: map[bandKey]*band{}, old: map[bandKey]*band{}, seed: maphash.MakeSeed()}

func (c *bandCache) get(k bandKey) *band {
	c.Lock()
	defer c.Unlock()
	if b, ok := c.cur[k]; ok {
		return b
	}
	if b, ok := c.old[k]; ok {
		c.keep(k, b)
		return b
	}
	return nil
}

func (c *bandCache) put(k bandKey, b *band) {
	c.Lock()
	defer c.Unlock()
	if _, ok := c.cur[k]; !ok {
		c.keep(k, b)
	}
}

// keep adds a band to the current generation. Called with the lock held.
func (c *bandCache) keep(k bandKey, b *band) {
	if c.n+len(b.data) > maxBandBytes {
		c.old, c.cur, c.n = c.cur, map[bandKey]*band{}, 0
	}
	c.cur[k] = b
	c.n += len(b.data)
}

// forget drops every band (benchmarks of a first picture).
func (c *bandCache) forget() {
	c.Lock()
	defer c.Unlock()
	c.cur, c.old, c.n = map[bandKey]*band{}, map[bandKey]*band{}, 0
}
