package render

import (
	"encoding/binary"
	"hash/maphash"
	"image"
	"sync"
	"sync/atomic"
)

// bandRows is the height of a band of rows compressed on its own (see
// encodeRows). Shorter bands are found again more often after a move,
// but each costs its own Huffman tables and cannot match into the band
// before: 64 rows make a late board's file about 1% larger than one
// stream would.
const bandRows = 64

// band is a band of rows compressed: its deflate blocks, the Adler-32 of
// its filtered rows and their length. The sum is set once (1<<32 | the
// sum; 0 while unknown): a band compressed for a file likely to be given
// up leaves it for the file that is written, if any (see encodeRows).
type band struct {
	data []byte
	sum  atomic.Uint64
	n    int
}

// adler is the band's Adler-32, if known.
func (b *band) adler() (uint32, bool) {
	s := b.sum.Load()
	return uint32(s), s != 0
}

func (b *band) setAdler(sum uint32) { b.sum.Store(1<<32 | uint64(sum)) }

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

// kept is how many bands of keys are kept (it moves none).
func (c *bandCache) kept(keys []bandKey) int {
	c.Lock()
	defer c.Unlock()
	n := 0
	for _, k := range keys {
		if c.cur[k] != nil || c.old[k] != nil {
			n++
		}
	}
	return n
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

// rgbBandKeys names img's bands of bandRows rows as encodeRGB's bands
// are named (see encodeRows): each by every byte its filtered rows are
// made of, its own rows and the row above. It returns nil when img's
// rows are not contiguous (its bands are then neither kept nor found).
func rgbBandKeys(img *image.RGBA) []bandKey {
	b := img.Bounds()
	width, height := b.Dx(), b.Dy()
	if img.Stride != 4*width || width == 0 || height == 0 {
		return nil
	}
	nb := (height + bandRows - 1) / bandRows
	keys := make([]bandKey, nb)
	for i := range keys {
		y0, y1 := i*bandRows, min((i+1)*bandRows, height)
		keys[i] = bandKeyOf(2, 3*width, y0 == 0, i == nb-1, img.Pix[max(0, y0-1)*img.Stride:y1*img.Stride])
	}
	return keys
}

// maxKeptRuns bounds the counted bands kept (see coloursKept): two
// generations of at most this many runs (8 bytes each); a late board has
// about 90,000.
const maxKeptRuns = 400_000

// coloursKept keeps bands of rows counted for a palette (see
// colourTable), named as their truecolour bands are (rgbBandKeys), in
// two generations as bandsKept keeps compressed bands. A board drawn
// with a palette is most often its game's previous board with one tile,
// the last move's marks and the panel changed: its other bands are
// counted already.
var coloursKept = &colourCache{cur: map[bandKey]*bandColours{}, old: map[bandKey]*bandColours{}}

type colourCache struct {
	sync.Mutex
	cur, old map[bandKey]*bandColours
	n        int // runs in cur
}

func (c *colourCache) get(k bandKey) *bandColours {
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

func (c *colourCache) put(k bandKey, b *bandColours) {
	c.Lock()
	defer c.Unlock()
	if _, ok := c.cur[k]; !ok {
		c.keep(k, b)
	}
}

// keep adds a band to the current generation. Called with the lock held.
func (c *colourCache) keep(k bandKey, b *bandColours) {
	if c.n+len(b.runs) > maxKeptRuns {
		c.old, c.cur, c.n = c.cur, map[bandKey]*bandColours{}, 0
	}
	c.cur[k] = b
	c.n += len(b.runs)
}

// forget drops every band (benchmarks of a first picture).
func (c *colourCache) forget() {
	c.Lock()
	defer c.Unlock()
	c.cur, c.old, c.n = map[bandKey]*bandColours{}, map[bandKey]*bandColours{}, 0
}
