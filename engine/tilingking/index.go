package tilingking

import (
	"math"
	"math/bits"
	"slices"

	"tessera/engine/grid"
)

// The board's placements as flat tables, for playouts: drawing a random
// legal placement, the automatic-pass check and the capture search work on
// cell masks and indexes instead of maps and name lists.

// maxKinds bounds the distinct pieces of a set (hex has 10), so that the
// hand counts of a position fit in a fixed array that Clone copies by value.
const maxKinds = 12

// A pattern is one orientation of one piece: its cells' bits relative to
// its lowest cell (the anchor) in the board's bit layout (see emb). The
// anchors where seat s may lay it are, bit-parallel, the allowed anchors
// and the free cells shifted down by each offset; so counting every legal
// placement costs a few word operations per orientation instead of a test
// per placement.
type pattern struct {
	kind  uint8
	offs  []uint      // bits of the other cells above the anchor
	valid mask        // anchors where the pattern is a placement (in emb bits)
	ids   [128]uint16 // anchor bit -> placement id
}

// maxPatterns bounds the patterns of a board (square 28, hex 41, tri 24), for
// fixed arrays on the stack.
const maxPatterns = 96

// index is what buildIndex adds to a board.
type index struct {
	all       []*placement // every placement, grouped by piece in set order
	kindStart []int        // placements of piece k are all[kindStart[k]:kindStart[k+1]]
	kindName  []string     // piece k's name
	setPieces int          // pieces in one player's set
	single    uint16       // the one-cell pieces, as bits of their numbers
	cellsMask mask         // every cell of the board
	playable  mask         // cells that are not neutral
	edgeMask  mask         // cells on the edge
	touchMask []mask       // the cells each cell touches (capture adjacency)
	// emb is each cell's bit in the layout the patterns use (see layout).
	// identity says emb is the cell itself.
	emb      []uint8
	identity bool
	patterns []pattern
	// patternStart[k]: piece k's patterns are patterns[patternStart[k]:patternStart[k+1]].
	patternStart []int
}

func (b *board) buildIndex() {
	if len(b.set) > maxKinds {
		panic("tilingking: too many pieces in a set")
	}
	for i := 0; i < b.n; i++ {
		b.cellsMask.set(i)
		if b.edge[i] {
			b.edgeMask.set(i)
		}
		var t mask
		for _, j := range b.touch[i] {
			t.set(j)
		}
		b.touchMask = append(b.touchMask, t)
	}
	b.playable = b.cellsMask.andNot(b.neutral)
	b.layout()
	for k, p := range b.set {
		b.kindName = append(b.kindName, p.Name)
		b.kindStart = append(b.kindStart, len(b.all))
		b.patternStart = append(b.patternStart, len(b.patterns))
		b.setPieces += p.Count
		if len(p.Cells) == 1 {
			b.single |= 1 << k
		}
		byKey := map[string]int{}
		for _, pl := range b.places[p.Name] {
			pl.id, pl.kind = len(b.all), k
			for _, c := range pl.cells {
				pl.touch = pl.touch.or(b.touchMask[c])
			}
			b.all = append(b.all, pl)
			var em mask
			for _, c := range pl.cells {
				em.set(int(b.emb[c]))
			}
			anchor := em.first()
			var offs []uint
			key := ""
			for e := anchor + 1; e < 128; e++ {
				if em.has(e) {
					offs = append(offs, uint(e-anchor))
					key += string(rune(e - anchor))
				}
			}
			j, ok := byKey[key]
			if !ok {
				j = len(b.patterns)
				byKey[key] = j
				b.patterns = append(b.patterns, pattern{kind: uint8(k), offs: offs})
			}
			b.patterns[j].valid.set(anchor)
			b.patterns[j].ids[anchor] = uint16(pl.id)
		}
	}
	b.kindStart = append(b.kindStart, len(b.all))
	b.patternStart = append(b.patternStart, len(b.patterns))
	if len(b.all) > 1<<16 || len(b.patterns) > maxPatterns {
		panic("tilingking: too many placements or orientations")
	}
}

// layout numbers the cells for the patterns so that every translate of
// an orientation has the same offsets: by lattice translation (a, b) in
// their bounding box, then by the cell's class within a translation
// period (tri: the up and the down triangle). On square boards this is
// the cells' own order; on hex the axial coordinates in an 11x11 square
// (in row order the rows' lengths differ); on tri 8x8 translations of 2
// triangles.
func (b *board) layout() {
	p := b.lattice.Period
	div := func(x int) int { return int(math.Floor(float64(x) / float64(p))) }
	amin, amax, bmin := math.MaxInt, math.MinInt, math.MaxInt
	var classes []grid.Coord
	for _, c := range b.coord {
		amin, amax, bmin = min(amin, div(c[0])), max(amax, div(c[0])), min(bmin, div(c[1]))
		u := grid.Coord{c[0] - p*div(c[0]), c[1] - p*div(c[1])}
		if !slices.Contains(classes, u) {
			classes = append(classes, u)
		}
	}
	w := amax - amin + 1
	b.identity = true
	for i, c := range b.coord {
		u := grid.Coord{c[0] - p*div(c[0]), c[1] - p*div(c[1])}
		e := ((div(c[0])-amin)+w*(div(c[1])-bmin))*len(classes) + slices.Index(classes, u)
		if e < 0 || e >= 128 {
			panic("tilingking: board layout too large")
		}
		b.emb = append(b.emb, uint8(e))
		b.identity = b.identity && e == i
	}
}

// toEmb is a mask of cells in the patterns' layout.
func (b *board) toEmb(m mask) mask {
	if b.identity {
		return m
	}
	var e mask
	for w := 0; w < 2; w++ {
		for x := m[w]; x != 0; x &= x - 1 {
			e.set(int(b.emb[w<<6|trailing(x)]))
		}
	}
	return e
}

// anchors is where pattern p fits in the free cells (in emb bits).
func (p *pattern) anchors(free mask) mask {
	a := p.valid.and(free)
	for _, d := range p.offs {
		a = a.and(free.shr(d))
	}
	return a
}

// kindOf is the number of the piece with this name, or -1.
func (b *board) kindOf(name string) int {
	for k, n := range b.kindName {
		if n == name {
			return k
		}
	}
	return -1
}

// flood grows the region of open cells that touch from cell c, and says
// whether it is enclosed (reaches no edge cell). It stops as soon as the
// region reaches the edge: a region that is not enclosed captures nothing,
// and the part found is enough to skip the seeds in it.
func (b *board) flood(c int, open mask) (region mask, enclosed bool) {
	region.set(c)
	if b.edgeMask.has(c) {
		return region, false
	}
	frontier := region
	for {
		var next mask
		for w := 0; w < 2; w++ {
			for x := frontier[w]; x != 0; x &= x - 1 {
				t := &b.touchMask[w<<6|trailing(x)]
				next[0] |= t[0]
				next[1] |= t[1]
			}
		}
		next = next.and(open).andNot(region)
		if next.empty() {
			return region, true
		}
		region = region.or(next)
		if next.meets(b.edgeMask) {
			return region, false
		}
		frontier = next
	}
}

func trailing(x uint64) int { return bits.TrailingZeros64(x) }

// shr moves every cell bit down by d (0 < d < 128).
func (m mask) shr(d uint) mask {
	if d >= 64 {
		return mask{m[1] >> (d - 64), 0}
	}
	return mask{m[0]>>d | m[1]<<(64-d), m[1] >> d}
}

// nth is the i-th lowest bit of m (i < m.count()).
func (m mask) nth(i int) int {
	w := 0
	if c := bits.OnesCount64(m[0]); i >= c {
		w, i = 1, i-c
	}
	x := m[w]
	for ; i > 0; i-- {
		x &= x - 1
	}
	return w<<6 | trailing(x)
}
