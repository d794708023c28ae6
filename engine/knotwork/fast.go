package knotwork

import (
	"math/bits"

	"tessera/engine"
	"tessera/engine/grid"
)

// The fast machinery: what a placement changes is kept up to date by the
// placement itself instead of being recomputed from the whole board, so
// that the AI's random playouts (PlayRandom) and Apply share one cheap
// path. The position's rules data (Mask, Owner, Supply, Placed, Last and
// the Table) stay the source of truth; everything below is derived from
// them and can always be rebuilt (sync), which is what a hand-built or
// undone position gets.

// derived is the bookkeeping a placement updates.
type derived struct {
	ok bool // in step with the board; false: rebuild before use
	// open is the set of target cells: empty cells an open mark points
	// into (bit i%64 of word i/64).
	open [2]uint64
	// The region: the bounding box of the tiles and the targets (columns
	// c0..c1, rows r0..r1). Targets only turn into tiles, so it only grows.
	c0, c1, r0, r1 int8
	// fit[c], for a target cell c, is the set of masks (bit m) a tile on
	// c may have: its edges match and the window still holds. Only the
	// targets next to a placement change, unless the region grows.
	fit   [81]uint16
	union uint16 // the masks that fit some target
	// any[s] is the set of masks seat s can play as its own or the
	// neutral tile, both[s] those it can play as either (two moves).
	any, both [2]uint16
	// other[e] is, for a strand end e = cell*8+port not yet joined across
	// its edge, the end at the other end of its strand, so that a join
	// that closes a knot is seen at once (other[x] == y).
	other [81 * 8]int16
	// knots[s][n] counts the knots that pass n tiles of seat s (n > 0, up
	// to 24 in a puzzle): the sorted knot-score lists of the rules, as
	// histograms.
	knots  [2][Window*Window + 1]uint8
	nknots int8 // knots closed, all seats (the hard puzzle wants one)
}

// Geometry and tile tables, built once by buildTables after Joins (init
// functions run in file order, and this file comes first).
var (
	nbr      [81][4]int8   // neighbour of a cell across each edge, -1 off the frame
	colOf    [81]int8      // column of a cell
	rowOf    [81]int8      // row of a cell
	partner  [16][8]int8   // the port a tile's strand joins port p to (-1: no port)
	kindSet  [kinds]uint16 // the masks of each type, as a set (bit m)
	withEdge [4]uint16     // the masks marked on edge d
	// fits[fixed][must] is the set of masks m with m&fixed == must,
	// except the crossing, which is never played.
	fits [16][16]uint16
)

func buildTables() {
	for i := 0; i < board.Len(); i++ {
		c, r := board.XY(i)
		colOf[i], rowOf[i] = int8(c), int8(r)
		for d := grid.N; d <= grid.W; d++ {
			nbr[i][d] = int8(board.Step(i, d))
		}
	}
	for m := 0; m < 16; m++ {
		for p := range partner[m] {
			partner[m][p] = -1
		}
		for _, j := range Joins[m] {
			partner[m][j[0]], partner[m][j[1]] = int8(j[1]), int8(j[0])
		}
		if m > 0 {
			kindSet[KindOf[m]] |= 1 << m
		}
		for d := 0; d < 4; d++ {
			if m&(1<<d) != 0 {
				withEdge[d] |= 1 << m
			}
		}
	}
	for fixed := 0; fixed < 16; fixed++ {
		for must := 0; must < 16; must++ {
			for m := 1; m < 15; m++ {
				if m&fixed == must {
					fits[fixed][must] |= 1 << m
				}
			}
		}
	}
}

// ensure brings the derived data in step with the board (mutators only).
func (st *State) ensure() {
	if !st.fx.ok {
		st.fx.sync(st)
	}
}

// view is the derived data for a method that must not change the
// position (those may run concurrently): the kept one when it is in step,
// else a fresh copy.
func (st *State) view() *derived {
	if st.fx.ok {
		return &st.fx
	}
	f := new(derived)
	f.sync(st)
	return f
}

// sync rebuilds the derived data from the board, laying the tiles again
// in cell order.
func (f *derived) sync(st *State) {
	*f = derived{c0: 99, c1: -1, r0: 99, r1: -1}
	for i := 0; i < board.Len(); i++ {
		m := st.Mask[i]
		if m == 0 {
			continue
		}
		f.grow(i)
		f.strands(st, i, i)
		for d := 0; d < 4; d++ {
			if j := int(nbr[i][d]); m&(1<<d) != 0 && j >= 0 && st.Mask[j] == 0 {
				f.open[j/64] |= 1 << (j % 64)
				f.grow(j)
			}
		}
	}
	f.fitAll(st)
	f.supplies(st)
	f.ok = true
}

// grow adds a cell to the region and reports whether it grew.
func (f *derived) grow(cell int) bool {
	c, r := colOf[cell], rowOf[cell]
	if c >= f.c0 && c <= f.c1 && r >= f.r0 && r <= f.r1 {
		return false
	}
	f.c0, f.c1, f.r0, f.r1 = min(f.c0, c), max(f.c1, c), min(f.r0, r), max(f.r1, r)
	return true
}

// strands joins the strand ends of the tile on cell c inside the tile and
// across each marked edge to the laid neighbours on cells below upto, and
// records every knot that closes.
func (f *derived) strands(st *State, c, upto int) {
	m := st.Mask[c]
	base := int16(c * 8)
	for _, p := range Joins[m] {
		f.other[base+int16(p[0])], f.other[base+int16(p[1])] = base+int16(p[1]), base+int16(p[0])
	}
	for d := 0; d < 4; d++ {
		j := int(nbr[c][d])
		if m&(1<<d) == 0 || j < 0 || j >= upto || st.Mask[j] == 0 {
			continue
		}
		for k := 0; k < 2; k++ {
			p := 2*d + k
			x, y := base+int16(p), int16(j*8+Across(p))
			if f.other[x] == y {
				f.knot(st, int(x))
				continue
			}
			ox, oy := f.other[x], f.other[y]
			f.other[ox], f.other[oy] = oy, ox
		}
	}
}

// knot records the knot through strand end x, which has just closed:
// each seat's count of distinct tiles it passes.
func (f *derived) knot(st *State, x int) {
	var seen [2]uint64
	var score [3]int
	for e := x; ; {
		i := e >> 3
		if seen[i>>6]&(1<<(i&63)) == 0 {
			seen[i>>6] |= 1 << (i & 63)
			score[st.Owner[i]]++
		}
		q := int(partner[st.Mask[i]][e&7])
		e = int(nbr[i][q>>1])*8 + Across(q)
		if e == x {
			break
		}
	}
	f.nknots++
	for s := 0; s < 2; s++ {
		if score[s] > 0 {
			f.knots[s][score[s]]++
		}
	}
}

// best is seat s's best knot score (0: none).
func (f *derived) best(s int) int {
	for n := len(f.knots[s]) - 1; n > 0; n-- {
		if f.knots[s][n] > 0 {
			return n
		}
	}
	return 0
}

// compare compares the two seats' knot-score lists like Compare: >0 when
// Orange's is better.
func (f *derived) compare() int {
	for n := len(f.knots[0]) - 1; n > 0; n-- {
		if a, b := f.knots[0][n], f.knots[1][n]; a != b {
			return int(a) - int(b)
		}
	}
	return 0
}

// fitAll works out fit for every target, and union.
func (f *derived) fitAll(st *State) {
	f.union = 0
	for w := 0; w < 2; w++ {
		for b := f.open[w]; b != 0; b &= b - 1 {
			c := w*64 + bits.TrailingZeros64(b)
			f.fit[c] = f.fitting(st, c)
			f.union |= f.fit[c]
		}
	}
}

// fitting is the set of masks a tile on the empty cell c may have: every
// shared edge matches, no mark points off the frame, and the cells its
// new marks point into keep the region within the window.
func (f *derived) fitting(st *State, c int) uint16 {
	var must, fixed uint8
	for d := 0; d < 4; d++ {
		j := nbr[c][d]
		if j < 0 {
			fixed |= 1 << d
			continue
		}
		if m := st.Mask[j]; m != 0 {
			fixed |= 1 << d
			if m&(1<<((d+2)%4)) != 0 {
				must |= 1 << d
			}
		}
	}
	v := fits[fixed][must]
	x, y := colOf[c], rowOf[c]
	free := ^fixed
	if free&(1<<grid.E) != 0 && max(f.c1, x+1)-f.c0 >= Window {
		v &^= withEdge[grid.E]
	}
	if free&(1<<grid.W) != 0 && f.c1-min(f.c0, x-1) >= Window {
		v &^= withEdge[grid.W]
	}
	if free&(1<<grid.E|1<<grid.W) == 1<<grid.E|1<<grid.W && max(f.c1, x+1)-min(f.c0, x-1) >= Window {
		v &^= withEdge[grid.E] & withEdge[grid.W]
	}
	if free&(1<<grid.N) != 0 && max(f.r1, y+1)-f.r0 >= Window {
		v &^= withEdge[grid.N]
	}
	if free&(1<<grid.S) != 0 && f.r1-min(f.r0, y-1) >= Window {
		v &^= withEdge[grid.S]
	}
	if free&(1<<grid.N|1<<grid.S) == 1<<grid.N|1<<grid.S && max(f.r1, y+1)-min(f.r0, y-1) >= Window {
		v &^= withEdge[grid.N] & withEdge[grid.S]
	}
	return v
}

// supplies works out any and both from the supplies.
func (f *derived) supplies(st *State) {
	for s := 0; s < 2; s++ {
		f.any[s], f.both[s] = 0, 0
		for k := EndCap; k < kinds; k++ {
			own, neu := st.Supply[s][k] > 0, st.Supply[Neutral][k] > 0
			if own || neu {
				f.any[s] |= kindSet[k]
			}
			if own && neu {
				f.both[s] |= kindSet[k]
			}
		}
	}
}

// supply updates any and both after a tile of type k left a supply.
func (f *derived) supply(st *State, k Kind) {
	neu := st.Supply[Neutral][k] > 0
	for s := 0; s < 2; s++ {
		own := st.Supply[s][k] > 0
		f.any[s] &^= kindSet[k]
		f.both[s] &^= kindSet[k]
		if own || neu {
			f.any[s] |= kindSet[k]
		}
		if own && neu {
			f.both[s] |= kindSet[k]
		}
	}
}

// canMove reports whether seat s has a placement.
func (f *derived) canMove(s engine.Seat) bool { return f.union&f.any[s] != 0 }

// place lays m for the mover: the rules data and the derived data. The
// move must be legal.
func (st *State) place(m Move) {
	owner := int8(st.Turn)
	if m.Neutral {
		owner = Neutral
	}
	st.Supply[owner][KindOf[m.Mask]]--
	st.Mask[m.Cell], st.Owner[m.Cell] = m.Mask, owner
	st.History[st.Placed] = int8(m.Cell)
	st.Placed++
	st.Last = m.Cell
	f := &st.fx
	c := m.Cell
	f.open[c/64] &^= 1 << (c % 64)
	grown := false
	for d := 0; d < 4; d++ {
		if j := int(nbr[c][d]); m.Mask&(1<<d) != 0 && st.Mask[j] == 0 {
			f.open[j/64] |= 1 << (j % 64)
			grown = f.grow(j) || grown
		}
	}
	knots := f.nknots
	f.strands(st, c, board.Len())
	if f.nknots > knots && st.Puzzle == NoPuzzle { // puzzles score nothing
		for s := 0; s < 2; s++ {
			st.Score[s] = max(st.Score[s], f.best(s))
		}
	}
	if grown {
		f.fitAll(st)
	} else { // only the targets next to c changed
		f.union = 0
		for d := 0; d < 4; d++ {
			if j := int(nbr[c][d]); j >= 0 && f.open[j/64]&(1<<(j%64)) != 0 {
				f.fit[j] = f.fitting(st, j)
			}
		}
		for w := 0; w < 2; w++ {
			for b := f.open[w]; b != 0; b &= b - 1 {
				f.union |= f.fit[w*64+bits.TrailingZeros64(b)]
			}
		}
	}
	f.supply(st, KindOf[m.Mask])
}

// winners are the possible results, shared read-only (capacity = length,
// so an append never writes into them).
var winners = [3][]engine.Seat{{0}, {1}, {0, 1}}

// turnOver gives the turn to the other player, or passes for them (passed),
// or ends the game when neither can move.
func (st *State) turnOver() (passed bool) {
	f := &st.fx
	if st.Puzzle != NoPuzzle { // alone: no passing; over when solved
		if st.solved() {
			st.Done, st.Win = true, winners[0][:1:1]
		}
		return false
	}
	next := 1 - st.Turn // two players, none resigned: a resignation ends the game
	if f.canMove(next) {
		st.Turn = next
		return false
	}
	passed = next != st.Turn
	if f.canMove(st.Turn) {
		return passed
	}
	st.Done = true
	switch c := f.compare(); {
	case c > 0:
		st.Win = winners[0][:1:1]
	case c < 0:
		st.Win = winners[1][:1:1]
	default:
		st.Win = winners[2][:2:2]
	}
	return passed
}

// count is the number of distinct placements of seat s.
func (f *derived) count(s engine.Seat) int {
	n := 0
	for w := 0; w < 2; w++ {
		for b := f.open[w]; b != 0; b &= b - 1 {
			v := f.fit[w*64+bits.TrailingZeros64(b)]
			n += bits.OnesCount16(v&f.any[s]) + bits.OnesCount16(v&f.both[s])
		}
	}
	return n
}

// appendMoves appends seat s's placements: by cell, then mask, own tile
// before the neutral one (Legal's order).
func (f *derived) appendMoves(st *State, s engine.Seat, out []engine.Move) []engine.Move {
	for w := 0; w < 2; w++ {
		for b := f.open[w]; b != 0; b &= b - 1 {
			c := w*64 + bits.TrailingZeros64(b)
			for v := f.fit[c] & f.any[s]; v != 0; v &= v - 1 {
				m := uint8(bits.TrailingZeros16(v))
				k := KindOf[m]
				if st.Supply[s][k] > 0 {
					out = append(out, Move{Cell: c, Mask: m})
				}
				if st.Supply[Neutral][k] > 0 {
					out = append(out, Move{Cell: c, Mask: m, Neutral: true})
				}
			}
		}
	}
	return out
}

// pick is seat s's i-th placement in Legal's order.
func (f *derived) pick(st *State, s engine.Seat, i int) Move {
	for w := 0; w < 2; w++ {
		for b := f.open[w]; b != 0; b &= b - 1 {
			c := w*64 + bits.TrailingZeros64(b)
			v := f.fit[c] & f.any[s]
			if n := bits.OnesCount16(v) + bits.OnesCount16(f.fit[c]&f.both[s]); i >= n {
				i -= n
				continue
			}
			for ; v != 0; v &= v - 1 {
				m := uint8(bits.TrailingZeros16(v))
				k := KindOf[m]
				if st.Supply[s][k] > 0 {
					if i == 0 {
						return Move{Cell: c, Mask: m}
					}
					i--
				}
				if st.Supply[Neutral][k] > 0 {
					if i == 0 {
						return Move{Cell: c, Mask: m, Neutral: true}
					}
					i--
				}
			}
		}
	}
	panic("knotwork: pick beyond the placements")
}

// legal reports whether m is a placement of seat s here (cheaply).
func (f *derived) legal(st *State, s engine.Seat, m Move) bool {
	if m.Undo || m.Cell < 0 || m.Cell >= board.Len() || m.Mask == 0 || m.Mask > 15 || f.open[m.Cell/64]&(1<<(m.Cell%64)) == 0 {
		return false
	}
	k := KindOf[m.Mask]
	if (m.Neutral && st.Supply[Neutral][k] == 0) || (!m.Neutral && st.Supply[s][k] == 0) {
		return false
	}
	return f.fit[m.Cell]&(1<<m.Mask) != 0
}

// PlayRandom plays a placement drawn uniformly from the mover's distinct
// placements (as choosing from Legal would), and the passes that follow.
func (st *State) PlayRandom(r *engine.Rand) {
	if st.Done {
		return
	}
	m, ok := st.draw(r)
	switch {
	case ok && m.Undo:
		st.undo()
	case ok:
		st.place(m)
		st.turnOver()
	default: // only a hand-built position gets here
		st.turnOver()
	}
}

// draw is the move PlayRandom plays: uniform over Legal.
func (st *State) draw(r *engine.Rand) (Move, bool) {
	st.ensure()
	f := &st.fx
	n := f.count(st.Turn)
	undo := 0
	if st.canUndo() {
		undo = 1
	}
	if n+undo == 0 {
		return Move{}, false
	}
	if i := r.IntN(n + undo); i < n {
		return f.pick(st, st.Turn, i), true
	}
	return Move{Undo: true}, true
}

// Play applies a move from Legal or Parse like Apply, without the words.
func (st *State) Play(mv engine.Move) error {
	m, ok := mv.(Move)
	if !ok {
		return engine.Illegalf("not a Knotwork move")
	}
	if st.Done {
		return engine.Illegalf("the game is over")
	}
	if m.Undo {
		if _, err := st.parseUndo(); err != nil {
			return err
		}
		st.undo()
		return nil
	}
	st.ensure()
	if !st.fx.legal(st, st.Turn, m) {
		if m.Cell >= 0 && m.Cell < board.Len() && m.Mask > 0 && m.Mask < 16 {
			if err := st.check(st.Turn, m); err != nil {
				return err
			}
		}
		return engine.Illegalf("not a legal move here")
	}
	st.place(m)
	st.turnOver()
	return nil
}

// EndReason says why a finished game ended: "blocked" (neither player can
// move), "solved" (a puzzle) or "resignation" (also a time-out, which the
// platform applies as one, and a puzzle given up).
func (st *State) EndReason() string {
	switch {
	case !st.Done:
		return ""
	case st.Active() < st.N:
		return "resignation"
	case st.Puzzle != NoPuzzle:
		return "solved"
	default:
		return "blocked"
	}
}
