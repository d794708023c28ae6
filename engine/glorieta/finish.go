package glorieta

import (
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
	for c := 0; c < nCells; c++ {
		if st.Stones[c] == empty && b.closes(seat, worldOf[c]) {
			return Move{A: c, B: -1}, true
		}
	}
	if n < 2 {
		return nil, false
	}
	// The groups of each empty cell's runs of member neighbours, distinct
	// (two runs of one group would have closed a loop above).
	var groups [nCells][3]int16
	var nGroups [nCells]uint8
	for c := 0; c < nCells; c++ {
		if st.Stones[c] == empty {
			nGroups[c] = uint8(b.runGroups(seat, worldOf[c], &groups[c]))
		}
	}
	var tmp book
	near := nearCells()
	for c := 0; c < nCells; c++ {
		// A first stone with no member beside it stays a group of its own
		// until the second joins it, and a ring through it needs two
		// member neighbours: it cannot take part in a loop the second
		// stone alone would not close. So one of the two has a member
		// beside it, and it is enough to take that one as c.
		wc := worldOf[c]
		if st.Stones[c] != empty || b.around[seat][wc] == 0 {
			continue
		}
		tmp.member[seat], tmp.parent[seat], tmp.around[seat] = b.member[seat], b.parent[seat], b.around[seat]
		tmp.join(seat, wc)
		for _, d := range near.cells[c] {
			if st.Stones[d] == empty && tmp.closes(seat, worldOf[d]) {
				return Move{A: min(c, int(d)), B: max(c, int(d))}, true
			}
		}
		joined := groups[c][:nGroups[c]]
		if len(joined) < 2 {
			continue
		}
		for d := 0; d < nCells; d++ {
			if st.Stones[d] == empty && !near.is[c][d] && d != c && sharesTwo(groups[d][:nGroups[d]], joined) {
				return Move{A: min(c, d), B: max(c, d)}, true
			}
		}
	}
	return nil, false
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
// runs of seat s's member neighbours around world cell w, and returns how
// many.
func (b *book) runGroups(s, w int, out *[3]int16) int {
	nb := &worldNbr[w]
	rs := &runStarts[b.memberMask(s, w)]
	k := 0
	for i := 0; i < int(rs.n); i++ {
		r := int16(b.root(s, int(nb[rs.dir[i]])))
		dup := false
		for j := 0; j < k; j++ {
			dup = dup || out[j] == r
		}
		if !dup {
			out[k] = r
			k++
		}
	}
	return k
}

// closes reports whether making world cell w (a board cell, not a member)
// a member of seat s would give s a loop: join's test, without joining.
func (b *book) closes(s, w int) bool {
	around := &b.around[s]
	if around[w] == 0 { // every way to a loop below needs a member beside w
		return false
	}
	nb := &worldNbr[w]
	m := &b.member[s]
	rs := &runStarts[b.memberMask(s, w)]
	var roots [3]int
	for i := 0; i < int(rs.n); i++ {
		roots[i] = b.root(s, int(nb[rs.dir[i]]))
		for j := 0; j < i; j++ {
			if roots[j] == roots[i] {
				return true
			}
		}
	}
	for _, n := range nb {
		if m[n] && around[n] == 5 {
			return true
		}
	}
	return around[w] == 6
}

// root is find without path halving, so that a query leaves the book as
// it was.
func (b *book) root(s, w int) int {
	p := &b.parent[s]
	for int(p[w]) != w {
		w = int(p[w])
	}
	return w
}
