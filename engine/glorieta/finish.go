package glorieta

import (
	"math/bits"
	"sync"

	"tessera/engine"
)

// WinningMove finds a placement that closes the mover's loop at once
// (engine.Finisher): one stone, else two when the mover may place two. A
// flip never wins for its player (it adds a member to the opponent only),
// so none is tried. It reads the fast book (rebuilding it when stale, as a
// draw does) and tries stones on a copy, so the position is unchanged.
//
// Two stones c and d close a loop that neither closes alone only through
// each other: d is then within two cells of c (its member neighbours, or
// those neighbours' counts of member neighbours, changed with c), or two
// of d's runs of member neighbours belong to groups that c joins into one.
// So for each first stone c the cells near it are tried on a copy with c
// joined, and the far ones only by comparing their runs' groups with the
// groups c joins: a search calls this at every new node near its root.
func (st *State) WinningMove() (engine.Move, bool) {
	if st.Done {
		return nil, false
	}
	s := st.Turn
	n := st.mayPlace(s)
	if n == 0 {
		return nil, false
	}
	if !st.synced() {
		st.rebuild()
	}
	b := &st.fast
	seat := int(s)
	// One stone. Each empty cell's runs of member neighbours are found
	// once, for this test and for the pairs below: their distinct groups
	// (two runs of one group close a loop), and the cells with two groups
	// listed, in order, as the only far second stones there can be.
	var groups [nCells][3]int16
	var nGroups [nCells]uint8
	var joiners [nCells]uint8
	nJoiners := 0
	for c := 0; c < nCells; c++ {
		if st.Stones[c] != empty {
			continue
		}
		wc := worldOf[c]
		k, dup := b.runGroups(seat, wc, &groups[c])
		if dup || b.surrounds(seat, wc) {
			return Move{A: c, B: -1}, true
		}
		nGroups[c] = uint8(k)
		if k >= 2 {
			joiners[nJoiners] = uint8(c)
			nJoiners++
		}
	}
	if n < 2 {
		return nil, false
	}
	// Two stones: each first stone c is joined on a copy of the mover's
	// part of the book, the cells near it tried, and c taken back.
	var tmp book
	tmp.member[seat], tmp.parent[seat], tmp.nbrs[seat] = b.member[seat], b.parent[seat], b.nbrs[seat]
	near := nearCells()
	for c := 0; c < nCells; c++ {
		// A first stone with no member beside it stays a group of its own
		// until the second joins it, and a ring through it needs two
		// member neighbours: it cannot take part in a loop the second
		// stone alone would not close. So one of the two has a member
		// beside it, and it is enough to take that one as c.
		wc := worldOf[c]
		if st.Stones[c] != empty || b.nbrs[seat][wc] == 0 {
			continue
		}
		u := tmp.try(seat, wc)
		for _, d := range near.cells[c] {
			if st.Stones[d] == empty && tmp.closes(seat, worldOf[d]) {
				return Move{A: min(c, int(d)), B: max(c, int(d))}, true
			}
		}
		tmp.untry(seat, u)
		joined := groups[c][:nGroups[c]]
		if len(joined) < 2 {
			continue
		}
		for _, d := range joiners[:nJoiners] {
			if !near.is[c][d] && int(d) != c && sharesTwo(groups[d][:nGroups[d]], joined) {
				return Move{A: min(c, int(d)), B: max(c, int(d))}, true
			}
		}
	}
	return nil, false
}

// tried is what try changed, for untry to take back.
type tried struct {
	w     int
	roots [3]int
	n     int
}

// try makes world cell w (a board cell, not a member) a member of seat s
// as join does, without its loop test, and returns what untry needs.
// The book is read with root only, so untry leaves it exactly as it was.
func (b *book) try(s, w int) tried {
	nb := &worldNbr[w]
	rs := &runStarts[b.nbrs[s][w]]
	t := tried{w: w, n: int(rs.n)}
	for i := 0; i < t.n; i++ {
		t.roots[i] = b.root(s, int(nb[rs.dir[i]]))
	}
	b.member[s][w] = true
	b.parent[s][w] = uint8(w)
	for i := 0; i < t.n; i++ {
		b.parent[s][t.roots[i]] = uint8(w)
	}
	for d, n := range nb {
		b.nbrs[s][n] |= 1 << opposite[d]
	}
	return t
}

// untry takes back try.
func (b *book) untry(s int, t tried) {
	for d, n := range worldNbr[t.w] {
		b.nbrs[s][n] &^= 1 << opposite[d]
	}
	for i := 0; i < t.n; i++ {
		b.parent[s][t.roots[i]] = uint8(t.roots[i])
	}
	b.member[s][t.w] = false // its parent is itself again, as a non-member's
}

// near lists, for each board cell, the other board cells at most two
// steps away.
type near struct {
	cells [nCells][]uint8
	is    [nCells][nCells]bool
}

// nearCells is built on first use (from worldOf and worldNbr, which other
// files' init functions fill).
var nearCells = sync.OnceValue(func() *near {
	boardOf := make(map[int]int, nCells)
	for c := 0; c < nCells; c++ {
		boardOf[worldOf[c]] = c
	}
	nr := &near{}
	for c := 0; c < nCells; c++ {
		add := func(w int) {
			if d, ok := boardOf[w]; ok && d != c && !nr.is[c][d] {
				nr.is[c][d] = true
				nr.cells[c] = append(nr.cells[c], uint8(d))
			}
		}
		for _, v := range worldNbr[worldOf[c]] {
			add(int(v))
			for _, u := range worldNbr[v] {
				if u >= 0 {
					add(int(u))
				}
			}
		}
	}
	return nr
})

// sharesTwo reports whether two of a's groups are in b.
func sharesTwo(a, b []int16) bool {
	k := 0
	for _, x := range a {
		for _, y := range b {
			if x == y {
				k++
				break
			}
		}
	}
	return k >= 2
}

// runGroups writes into out the distinct groups (union-find roots) of the
// runs of seat s's member neighbours around world cell w and returns how
// many, and whether two runs share a group (then w closes a loop).
func (b *book) runGroups(s, w int, out *[3]int16) (k int, dup bool) {
	nb := &worldNbr[w]
	rs := &runStarts[b.nbrs[s][w]]
	for i := 0; i < int(rs.n); i++ {
		r := int16(b.root(s, int(nb[rs.dir[i]])))
		seen := false
		for j := 0; j < k; j++ {
			seen = seen || out[j] == r
		}
		if seen {
			dup = true
			continue
		}
		out[k] = r
		k++
	}
	return k, dup
}

// closes reports whether making world cell w (a board cell, not a member)
// a member of seat s would give s a loop: join's test, without joining.
func (b *book) closes(s, w int) bool {
	nbrs := &b.nbrs[s]
	if nbrs[w] == 0 { // every way to a loop below needs a member beside w
		return false
	}
	nb := &worldNbr[w]
	rs := &runStarts[nbrs[w]]
	var roots [3]int
	for i := 0; i < int(rs.n); i++ {
		roots[i] = b.root(s, int(nb[rs.dir[i]]))
		for j := 0; j < i; j++ {
			if roots[j] == roots[i] {
				return true
			}
		}
	}
	return b.surrounds(s, w)
}

// surrounds reports whether making world cell w a member of seat s would
// leave a member with six member neighbours (w, or a neighbour whose only
// other neighbour is w): join's second test, without joining.
func (b *book) surrounds(s, w int) bool {
	nbrs := &b.nbrs[s]
	around := nbrs[w]
	if around == all6 {
		return true
	}
	nb := &worldNbr[w]
	for set := around; set != 0; set &= set - 1 { // the member neighbours
		d := bits.TrailingZeros8(set)
		if nbrs[nb[d]] == allBut[opposite[d]] {
			return true
		}
	}
	return false
}

// allBut is all6 without direction d's bit.
var allBut = [6]uint8{all6 &^ 1, all6 &^ 2, all6 &^ 4, all6 &^ 8, all6 &^ 16, all6 &^ 32}

// root is find without path halving, so that a query leaves the book as
// it was.
func (b *book) root(s, w int) int {
	p := &b.parent[s]
	for int(p[w]) != w {
		w = int(p[w])
	}
	return w
}
