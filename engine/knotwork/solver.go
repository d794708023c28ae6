package knotwork

import (
	"math/bits"

	"tessera/engine"
)

// The puzzles' solver, behind Hint: it completes the position into a
// solution, a full 5x5 square, by backtracking.
//
// A solution fills some 5x5 window holding the design (tiles and the cells
// open marks point into) with the tiles left, every shared edge matching
// and no mark on the window's border. It can be reached by legal moves
// exactly when every tile of it is joined to the design through marks
// (each new tile must cover an open mark; the window rule then always
// holds, as every mark points inside the window), so any of its tiles on
// a target cell is a legal move that keeps a solution in reach.
//
// The search tries each window that holds the design and fills its empty
// cells row by row from the north-west corner, so each cell has its
// north and west edges fixed (by a tile or the border) and often more:
// the candidates are the masks of the types left that fit. It cuts:
//   - a group of tiles joined by marks that has no open mark left and is
//     not the design: it can never be reached;
//   - the design without an open mark while cells are still empty;
//   - for the hard puzzle, a knot that closes before the very last join
//     (strand ends are kept joined as in the game, so a closing join is
//     seen at once): a second knot would follow.
// The work is bounded by a number of search nodes; when it runs out the
// answer is "gave up", never a wrong "no solution".

// SolveResult is what the solver found.
type SolveResult int

// Results of Solve.
const (
	Solved     SolveResult = iota // a solution extends the position
	NoSolution                    // the search was exhaustive: none does
	GaveUp                        // the node budget ran out first
)

func (r SolveResult) String() string {
	return [...]string{"solved", "no solution", "gave up"}[r]
}

// HintBudget bounds the search nodes of one Hint (each a few tens of
// nanoseconds; see the tests for the nodes real positions take).
const HintBudget = 1_000_000

// Hint gives one placement of a solution that extends the position, and
// false when there is none (or none was found within HintBudget nodes:
// Solve tells the two apart). It is for puzzles; a game has no hint.
func (st *State) Hint() (engine.Move, bool) {
	m, res, _ := st.Solve(HintBudget)
	if res != Solved {
		return nil, false
	}
	return m, true
}

// SearchHint is Hint that also says whether a "none" is certain: found
// is false and exhaustive true when no solution extends the position,
// exhaustive false when the search gave up within HintBudget nodes.
func (st *State) SearchHint() (m engine.Move, found, exhaustive bool) {
	mv, res, _ := st.Solve(HintBudget)
	if res == Solved {
		return mv, true, true
	}
	return nil, false, res == NoSolution
}

// Solve searches a solution from the position within budget nodes and
// returns a placement of it that is legal now, the result and the nodes
// searched. It does not change the position.
func (st *State) Solve(budget int) (Move, SolveResult, int) {
	if st.Puzzle == NoPuzzle || st.Done {
		return Move{}, NoSolution, 0
	}
	f := st.view()
	if st.Puzzle == Hard && f.nknots > 0 {
		return Move{}, NoSolution, 0 // a knot is closed: one more tile means two knots
	}
	if f.open == [2]uint64{} {
		return Move{}, NoSolution, 0 // the design is closed: no tile can join it
	}
	s := &solver{hard: st.Puzzle == Hard, budget: budget}
	for o := 0; o < 3; o++ {
		for k := EndCap; k < kinds; k++ {
			s.left[k] += st.Supply[o][k]
		}
	}
	for x0 := max(0, int(f.c1)-(Window-1)); x0 <= min(int(f.c0), board.W-Window); x0++ {
		for y0 := max(0, int(f.r1)-(Window-1)); y0 <= min(int(f.r0), board.H-Window); y0++ {
			if s.try(st, f, x0, y0) {
				for c := 0; c < board.Len(); c++ { // the first target: a legal move
					if f.open[c/64]&(1<<(c%64)) != 0 {
						m := Move{Cell: c, Mask: s.mask[c]}
						if f.legal(st, st.Turn, m) {
							return m, Solved, s.nodes
						}
					}
				}
				return Move{}, NoSolution, s.nodes // cannot happen: a solution has a tile on a target
			}
			if s.nodes > s.budget {
				return Move{}, GaveUp, s.nodes
			}
		}
	}
	return Move{}, NoSolution, s.nodes
}

type solver struct {
	hard   bool
	budget int
	nodes  int
	left   [kinds]int
	mask   [81]uint8 // the board with the search's tiles
	x0, y0 int       // the window's south-west corner
	cells  []int     // the window's empty cells, in the order they are filled
	local  [81]int8  // window index (0..24) of a cell
	other  [81 * 8]int16
	undo   []int16 // pairs (strand end, old other) to restore
	// groups[i] is the state, before filling cells[i], of the groups of
	// tiles joined by marks: union-find over window indexes, with each
	// root's open marks and whether it holds the design.
	groups [Window*Window + 1]groups
}

type groups struct {
	parent [Window * Window]int8
	open   [Window * Window]int8
	design [Window * Window]bool
}

func (g *groups) find(i int8) int8 {
	for g.parent[i] != i {
		i = g.parent[i]
	}
	return i
}

func (s *solver) inWindow(c int) bool {
	x, y := int(colOf[c]), int(rowOf[c])
	return x >= s.x0 && x < s.x0+Window && y >= s.y0 && y < s.y0+Window
}

// try searches the window with south-west corner x0, y0.
func (s *solver) try(st *State, f *derived, x0, y0 int) bool {
	s.x0, s.y0 = x0, y0
	s.mask = st.Mask
	s.other = f.other
	s.undo = s.undo[:0]
	s.cells = s.cells[:0]
	g := &s.groups[0]
	design := int8(-1)
	for r := Window - 1; r >= 0; r-- {
		for c := 0; c < Window; c++ {
			cell := board.Index(x0+c, y0+r)
			i := int8((Window-1-r)*Window + c)
			s.local[cell] = i
			g.parent[i], g.open[i], g.design[i] = i, 0, false
			if st.Mask[cell] == 0 {
				s.cells = append(s.cells, cell)
				continue
			}
			if design < 0 {
				design = i
				g.design[i] = true
			}
			g.parent[i] = design // the design is one group
			for d := 0; d < 4; d++ {
				if j := int(nbr[cell][d]); st.Mask[cell]&(1<<d) != 0 && (j < 0 || st.Mask[j] == 0) {
					g.open[design]++
				}
			}
		}
	}
	return s.fill(0)
}

// fitting is the set of masks that fit the empty cell c: edges shared
// with tiles match, and edges on the window's border are blank.
func (s *solver) fitting(c int) uint16 {
	var must, fixed uint8
	for d := 0; d < 4; d++ {
		j := int(nbr[c][d])
		if j < 0 || !s.inWindow(j) {
			fixed |= 1 << d
			continue
		}
		if m := s.mask[j]; m != 0 {
			fixed |= 1 << d
			if m&(1<<((d+2)%4)) != 0 {
				must |= 1 << d
			}
		}
	}
	return fits[fixed][must]
}

// fill fills s.cells[i:].
func (s *solver) fill(i int) bool {
	if i == len(s.cells) {
		return true
	}
	s.nodes++
	if s.nodes > s.budget {
		return false
	}
	c := s.cells[i]
	var have uint16
	for k := EndCap; k < kinds; k++ {
		if s.left[k] > 0 {
			have |= kindSet[k]
		}
	}
	last := i == len(s.cells)-1
	for v := s.fitting(c) & have; v != 0; v &= v - 1 {
		m := uint8(bits.TrailingZeros16(v))
		k := KindOf[m]
		s.left[k]--
		s.mask[c] = m
		mark := len(s.undo)
		if s.join(i, c, m, last) && s.fill(i+1) {
			return true
		}
		for j := len(s.undo) - 2; j >= mark; j -= 2 {
			s.other[s.undo[j]] = s.undo[j+1]
		}
		s.undo = s.undo[:mark]
		s.mask[c] = 0
		s.left[k]++
		if s.nodes > s.budget {
			return false
		}
	}
	return false
}

// join lays mask m on cell c (the i-th to fill) in the groups and, for
// the hard puzzle, the strands; it reports false when the cuts say no
// solution can follow.
func (s *solver) join(i, c int, m uint8, last bool) bool {
	g := &s.groups[i+1]
	*g = s.groups[i]
	me := s.local[c]
	for d := 0; d < 4; d++ {
		if m&(1<<d) == 0 {
			continue
		}
		j := int(nbr[c][d])
		if s.mask[j] == 0 { // an empty cell of the window
			g.open[g.find(me)]++
			continue
		}
		a, b := g.find(me), g.find(s.local[j])
		g.open[b]--
		if a != b {
			if g.design[a] { // the design's root stays the root
				a, b = b, a
			}
			g.parent[a] = b
			g.open[b] += g.open[a]
			g.design[b] = g.design[b] || g.design[a]
		}
	}
	if r := g.find(me); g.open[r] == 0 && (!g.design[r] || !last) {
		return false
	}
	// Forward check: each empty neighbour must still take some tile left.
	var have uint16
	for k := EndCap; k < kinds; k++ {
		if s.left[k] > 0 {
			have |= kindSet[k]
		}
	}
	for d := 0; d < 4; d++ {
		if j := int(nbr[c][d]); j >= 0 && s.mask[j] == 0 && s.inWindow(j) && s.fitting(j)&have == 0 {
			return false
		}
	}
	if !s.hard {
		return true
	}
	base := int16(c * 8)
	for _, p := range Joins[m] {
		x, y := base+int16(p[0]), base+int16(p[1])
		s.undo = append(s.undo, x, s.other[x], y, s.other[y])
		s.other[x], s.other[y] = y, x
	}
	var links [8][2]int16
	n := 0
	for d := 0; d < 4; d++ {
		j := int(nbr[c][d])
		if m&(1<<d) == 0 || s.mask[j] == 0 {
			continue
		}
		for k := 0; k < 2; k++ {
			p := 2*d + k
			links[n] = [2]int16{base + int16(p), int16(j*8 + Across(p))}
			n++
		}
	}
	for l := 0; l < n; l++ {
		x, y := links[l][0], links[l][1]
		if s.other[x] == y {
			if !last || l != n-1 {
				return false // a knot closes before the last join
			}
			continue
		}
		ox, oy := s.other[x], s.other[y]
		s.undo = append(s.undo, ox, s.other[ox], oy, s.other[oy])
		s.other[ox], s.other[oy] = oy, ox
	}
	return true
}
