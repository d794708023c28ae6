package glorieta

import "tessera/engine"

// WinningMove finds a placement that closes the mover's loop at once
// (engine.Finisher): one stone, else two when the mover may place two. A
// flip never wins for its player (it adds a member to the opponent only),
// so none is tried. It reads the fast book (rebuilding it when stale, as a
// draw does) and tries each stone on a copy, so the position is unchanged.
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
	for c := 0; c < nCells; c++ {
		if st.Stones[c] == empty && b.closes(int(s), worldOf[c]) {
			return Move{A: c, B: -1}, true
		}
	}
	if n < 2 {
		return nil, false
	}
	var tmp book
	for c := 0; c < nCells; c++ {
		// A first stone with no member beside it stays a group of its own
		// until the second joins it, and a ring through it needs two
		// member neighbours: it cannot take part in a loop the second
		// stone alone would not close (and no single stone closes one).
		if st.Stones[c] != empty || b.around[s][worldOf[c]] == 0 {
			continue
		}
		tmp = *b
		tmp.join(int(s), worldOf[c])
		for d := c + 1; d < nCells; d++ {
			if st.Stones[d] == empty && tmp.closes(int(s), worldOf[d]) {
				return Move{A: c, B: d}, true
			}
		}
		for d := 0; d < c; d++ { // a partner earlier in board order that is not a first stone itself
			if st.Stones[d] == empty && b.around[s][worldOf[d]] == 0 && tmp.closes(int(s), worldOf[d]) {
				return Move{A: d, B: c}, true
			}
		}
	}
	return nil, false
}

// closes reports whether making world cell w (a board cell, not a member)
// a member of seat s would give s a loop: join's test, without joining.
func (b *book) closes(s, w int) bool {
	nb := &worldNbr[w]
	m := &b.member[s]
	mask := 0
	for d, n := range nb {
		if m[n] {
			mask |= 1 << d
		}
	}
	rs := &runStarts[mask]
	var roots [3]int
	for i := 0; i < int(rs.n); i++ {
		roots[i] = b.root(s, int(nb[rs.dir[i]]))
		for j := 0; j < i; j++ {
			if roots[j] == roots[i] {
				return true
			}
		}
	}
	around := &b.around[s]
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
