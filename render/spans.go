package render

import (
	"encoding/binary"
	"hash/maphash"
	"math"
	"slices"
	"sync"

	"github.com/golang/freetype/raster"
	"golang.org/x/image/math/fixed"
)

// The span cache: a board of a kind is drawn from the same few hundred
// shapes at the same places, game after game (a cell's triangles, its
// outline, the grid), in different colours. Rasterising a shape (building
// its cells, stroking its outline, turning cells into spans) was most of
// drawing a board; painting its spans is cheap. So each fill and stroke
// keeps its spans, found by exactly what the rasteriser read (the path in
// 26.6 pixels, the line width, the canvas's width and rows), and the next
// picture that has the same shape paints the kept spans in its own
// colour. The rasteriser is deterministic, so the painter is given the
// same spans and paints the same bytes (TestSpanCacheSameBytes).
//
// The rasteriser is given rows in blocks of spanRows, more than the
// picture has: a row's spans depend only on the path, and the painter
// stops at the picture's last row, so a shape is shared by pictures whose
// heights differ by a line of the panel.

const spanRows = 256

// maxCachedSpans bounds the spans kept (each 12 bytes): two generations of
// at most this many, about 12 MB in all. A late board of the largest game
// has about 150,000.
const maxCachedSpans = 500_000

// span is a raster.Span kept small: coordinates fit in 16 bits (pictures
// are under 2,000 px tall) and coverage in 16 bits (0 to 0xffff).
type span struct {
	y      int32
	x0, x1 uint16
	alpha  uint16
}

type shapeKind uint8

const (
	shapeFill shapeKind = iota + 1
	shapeStroke
)

type shapeKey struct {
	kind      shapeKind
	lineWidth fixed.Int26_6
	w, h      int
}

type shape struct {
	key   shapeKey
	path  raster.Path
	spans []span
}

// shapeCache keeps shapes in two generations: when the current one is
// full the old one is dropped, and a shape found in the old one moves
// into the current one, so the shapes in use stay.
type shapeCache struct {
	sync.Mutex
	cur, old map[uint64][]*shape
	n        int // spans in cur
	seed     maphash.Seed
}

var shapes = &shapeCache{cur: map[uint64][]*shape{}, old: map[uint64][]*shape{}, seed: maphash.MakeSeed()}

func shapeHash(k shapeKey, p raster.Path) uint64 {
	var b [4 * 64]byte
	var h maphash.Hash
	h.SetSeed(shapes.seed)
	binary.LittleEndian.PutUint32(b[0:], uint32(k.kind))
	binary.LittleEndian.PutUint32(b[4:], uint32(k.lineWidth))
	binary.LittleEndian.PutUint32(b[8:], uint32(k.w))
	binary.LittleEndian.PutUint32(b[12:], uint32(k.h))
	h.Write(b[:16])
	for len(p) > 0 {
		n := min(len(p), 64)
		for i, v := range p[:n] {
			binary.LittleEndian.PutUint32(b[4*i:], uint32(v))
		}
		h.Write(b[:4*n])
		p = p[n:]
	}
	return h.Sum64()
}

// cachedShape returns the kept spans of the shape, or nil.
func cachedShape(sum uint64, k shapeKey, p raster.Path) *shape {
	shapes.Lock()
	defer shapes.Unlock()
	for _, s := range shapes.cur[sum] {
		if s.key == k && slices.Equal(s.path, p) {
			return s
		}
	}
	for _, s := range shapes.old[sum] {
		if s.key == k && slices.Equal(s.path, p) {
			shapes.keep(sum, s) // still in use: into the new generation
			return s
		}
	}
	return nil
}

// keep adds a shape to the current generation, starting a new one when it
// is full. Called with the lock held.
func (c *shapeCache) keep(sum uint64, s *shape) {
	if c.n+len(s.spans) > maxCachedSpans {
		c.old, c.cur, c.n = c.cur, map[uint64][]*shape{}, 0
	}
	c.cur[sum] = append(c.cur[sum], s)
	c.n += len(s.spans)
}

func keepShape(sum uint64, s *shape) {
	if len(s.spans) > maxCachedSpans/4 {
		return // a picture-sized shape: rare, and not worth a generation
	}
	shapes.Lock()
	shapes.keep(sum, s)
	shapes.Unlock()
}

// recorder paints spans and notes them.
type recorder struct {
	p     *painter
	spans []span
	ok    bool // every span fitted a span
}

func (r *recorder) Paint(ss []raster.Span, done bool) {
	for _, s := range ss {
		if s.Y < 0 || s.Y > math.MaxInt32 || s.X0 < 0 || s.X1 > 0xffff || s.X0 > s.X1 || s.Alpha > 0xffff {
			r.ok = false
			continue
		}
		r.spans = append(r.spans, span{int32(s.Y), uint16(s.X0), uint16(s.X1), uint16(s.Alpha)})
	}
	r.p.Paint(ss, done)
}

// rasterize paints the rasteriser's spans for a path already added to it,
// keeping them under sum and k.
func (c *canvas) rasterize(sum uint64, k shapeKey, path raster.Path) {
	rec := &recorder{p: &c.paint, spans: make([]span, 0, 64), ok: true}
	c.r.Rasterize(rec)
	if rec.ok {
		keepShape(sum, &shape{key: k, path: slices.Clone(path), spans: slices.Clip(rec.spans)})
	}
}

// paintSpans paints kept spans as Paint paints the rasteriser's.
func (p *painter) paintSpans(ss []span) {
	for _, s := range ss {
		if !p.paintOne(int(s.y), int(s.x0), int(s.x1), uint32(s.alpha)) {
			return
		}
	}
}
