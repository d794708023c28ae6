package tilingking

import "math/bits"

// The board's placements as flat tables, for playouts: drawing a random
// legal placement, the automatic-pass check and the capture search work on
// cell masks and indexes instead of maps and name lists.

// maxKinds bounds the distinct pieces of a set (hex has 10), so that the
// hand counts of a position fit in a fixed array that Clone copies by value.
const maxKinds = 12

// anchored is one placement listed under its anchor, its lowest cell.
type anchored struct {
	m    mask
	id   uint16
	kind uint8
}

// index is what buildIndex adds to a board.
type index struct {
	all       []*placement // every placement, grouped by piece in set order
	kindStart []int        // placements of piece k are all[kindStart[k]:kindStart[k+1]]
	kindName  []string     // piece k's name
	setPieces int          // pieces in one player's set
	cellsMask mask         // every cell of the board
	playable  mask         // cells that are not neutral
	edgeMask  mask         // cells on the edge
	touchMask []mask       // the cells each cell touches (capture adjacency)
	// anchorAt[c] lists the placements whose lowest cell is c: every
	// placement exactly once, so a scan over the free cells' lists meets
	// each legal placement once.
	anchorStart []int
	anchorAt    []anchored
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
	for k, p := range b.set {
		b.kindName = append(b.kindName, p.Name)
		b.kindStart = append(b.kindStart, len(b.all))
		b.setPieces += p.Count
		for _, pl := range b.places[p.Name] {
			pl.id, pl.kind = len(b.all), k
			for _, c := range pl.cells {
				pl.touch = pl.touch.or(b.touchMask[c])
			}
			b.all = append(b.all, pl)
		}
	}
	b.kindStart = append(b.kindStart, len(b.all))
	if len(b.all) > 1<<16 {
		panic("tilingking: too many placements")
	}
	lists := make([][]anchored, b.n)
	for _, pl := range b.all {
		low := pl.m.first()
		lists[low] = append(lists[low], anchored{m: pl.m, id: uint16(pl.id), kind: uint8(pl.kind)})
	}
	for c := 0; c < b.n; c++ {
		b.anchorStart = append(b.anchorStart, len(b.anchorAt))
		b.anchorAt = append(b.anchorAt, lists[c]...)
	}
	b.anchorStart = append(b.anchorStart, len(b.anchorAt))
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
