package knotwork

import (
	"strings"
	"testing"
	"time"

	"tessera/engine/grid"
)

// The two puzzles of Browne's rules, solved with this project's 25-tile
// set by a small backtracking search:
//   - easy: all 25 tiles in a 5x5 square, every shared edge matching and
//     no mark on the square's border (a closed design, as the window rule
//     demands of a finished game);
//   - hard: the same, and all the strands form one single knot.
//
// The search fills the square row by row from the north-west corner: each
// cell then has its north and west edges fixed by laid tiles and its east
// and south edges on the border fixed blank, which makes it the most
// constrained empty cell (at most 4 masks fit). The hard search also keeps
// the strand ends joined so far and cuts as soon as a strand closes
// before the last join.

const side = 5

type solver struct {
	left   [kinds]int
	masks  [side * side]uint8
	single bool // hard puzzle: one knot
	other  [side * side * 8]int
	undo   []int // pairs (index, old value) of other
	nodes  int
}

func newSolver(single bool) *solver {
	s := &solver{single: single}
	for o := 0; o < 3; o++ {
		for k := EndCap; k < kinds; k++ {
			s.left[k] += Set[o][k]
		}
	}
	return s
}

// join links strand end x to strand end y; it reports whether that closed
// a strand.
func (s *solver) join(x, y int) bool {
	if s.other[x] == y {
		return true
	}
	ox, oy := s.other[x], s.other[y]
	s.undo = append(s.undo, ox, s.other[ox], oy, s.other[oy])
	s.other[ox], s.other[oy] = oy, ox
	return false
}

func (s *solver) solve(i int) bool {
	if i == side*side {
		return true
	}
	s.nodes++
	r, c := i/side, i%side
	var fixed, must uint8
	if r == 0 {
		fixed |= 1 << grid.N
	} else {
		fixed |= 1 << grid.N
		if s.masks[i-side]&(1<<grid.S) != 0 {
			must |= 1 << grid.N
		}
	}
	fixed |= 1 << grid.W
	if c > 0 && s.masks[i-1]&(1<<grid.E) != 0 {
		must |= 1 << grid.W
	}
	if c == side-1 {
		fixed |= 1 << grid.E
	}
	if r == side-1 {
		fixed |= 1 << grid.S
	}
	for m := uint8(1); m < 16; m++ {
		k := KindOf[m]
		if m&fixed != must || s.left[k] == 0 {
			continue
		}
		s.left[k]--
		s.masks[i] = m
		mark := len(s.undo)
		ok := true
		if s.single {
			for _, p := range Joins[m] {
				s.other[i*8+p[0]], s.other[i*8+p[1]] = i*8+p[1], i*8+p[0]
			}
			var links [][2]int
			if m&(1<<grid.N) != 0 {
				links = append(links, [2]int{i*8 + NL, (i-side)*8 + Across(NL)}, [2]int{i*8 + NR, (i-side)*8 + Across(NR)})
			}
			if m&(1<<grid.W) != 0 {
				links = append(links, [2]int{i*8 + WB, (i-1)*8 + Across(WB)}, [2]int{i*8 + WT, (i-1)*8 + Across(WT)})
			}
			for n, l := range links {
				if s.join(l[0], l[1]) && !(i == side*side-1 && n == len(links)-1) {
					ok = false // a knot closed before the last join
					break
				}
			}
		}
		if ok && s.solve(i+1) {
			return true
		}
		for j := len(s.undo) - 2; j >= mark; j -= 2 {
			s.other[s.undo[j]] = s.undo[j+1]
		}
		s.undo = s.undo[:mark]
		s.masks[i] = 0
		s.left[k]++
	}
	return false
}

// layout puts a solution on the board (rows 7 down to 3, columns c to g),
// dealing the tiles of each type to Orange, Blue and neutral as the set
// has them.
func layout(masks [side * side]uint8) *State {
	st := &State{}
	supply := Set
	for i, m := range masks {
		r, c := i/side, i%side
		cell := board.Index(2+c, 6-r)
		k := KindOf[m]
		owner := 0
		for supply[owner][k] == 0 {
			owner++
		}
		supply[owner][k]--
		st.Mask[cell], st.Owner[cell] = m, int8(owner)
	}
	return st
}

func picture(masks [side * side]uint8) string {
	var b strings.Builder
	for r := 0; r < side; r++ {
		for c := 0; c < side; c++ {
			m := masks[r*side+c]
			b.WriteString(KindOf[m].Letter() + ":" + Edges(m))
			b.WriteString(strings.Repeat(" ", 7-len(Edges(m))))
		}
		b.WriteString("\n")
	}
	return b.String()
}

func TestPuzzles(t *testing.T) {
	for _, tc := range []struct {
		name   string
		single bool
	}{{"easy: all 25 tiles in 5x5", false}, {"hard: one single knot", true}} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSolver(tc.single)
			t0 := time.Now()
			if !s.solve(0) {
				t.Fatalf("no solution (exhaustive search, %d nodes)", s.nodes)
			}
			t.Logf("solved in %d nodes, %v:\n%s", s.nodes, time.Since(t0), picture(s.masks))
			// Check the solution with the game's own rules: every tile of
			// the set used, the window rule, the edges and the knots.
			st := layout(s.masks)
			if st.Supply != [3][kinds]int{} {
				// layout leaves Supply zero: every tile is on the board.
				t.Fatalf("supply left: %v", st.Supply)
			}
			n := 0
			for i := 0; i < board.Len(); i++ {
				if st.Mask[i] == 0 {
					continue
				}
				n++
				for d := grid.N; d <= grid.W; d++ {
					j := board.Step(i, d)
					mine := st.Mask[i]&(1<<d) != 0
					theirs := j >= 0 && st.Mask[j]&(1<<d.Opp()) != 0
					if mine != theirs {
						t.Fatalf("%s edge %s does not match", board.Name(i), d)
					}
				}
			}
			if n != 25 || !st.WindowOK() {
				t.Fatalf("%d tiles, window ok %v", n, st.WindowOK())
			}
			knots := st.Knots()
			_, closed := st.Strands()
			if len(knots) != len(closed) {
				t.Fatalf("open strands in a closed design")
			}
			if tc.single && (len(knots) != 1 || len(knots[0].Cells) != 25) {
				t.Fatalf("%d knots, want one through all 25 tiles", len(knots))
			}
			t.Logf("%d knots", len(knots))
		})
	}
}
