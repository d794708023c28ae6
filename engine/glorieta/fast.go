package glorieta

import (
	"tessera/engine"
	"tessera/engine/grid"
)

// This file is the machinery for fast random playouts (engine.FastPlayer):
// a uniform legal move drawn without listing the ~8,000 pairs, and a loop
// test kept up to date stone by stone instead of a flood fill of the whole
// board after every turn.
//
// The loop test. Members only ever grow (stones are never removed and a
// pink stone stays pink), so union-find over each seat's members works.
// When a cell w becomes a member of seat s, a loop appears exactly when
//   - two separate runs of member neighbours around w (runs taken
//     cyclically over w's six neighbours) already belong to one connected
//     group: w closes a cycle, and the non-member neighbours between the
//     two runs on one side are cut off from the outside; or
//   - some member cell now has six member neighbours (six around one: a
//     loop around a member cell, which encloses no non-member, so the
//     first test cannot see it; w itself is counted too, though w with six
//     member neighbours would have been enclosed before, a loop already).
// Together these are hole's definition: a non-member cell cut off from the
// outside, or a member cell none of whose neighbours reaches it (then all
// six are members, or one of them is a cut-off non-member). The property
// test TestIncrementalLoopMatchesHole compares them over many games.

// worldN is the number of world cells (the board, the ring and the ring
// outside it).
const worldN = 217

// worldNbr are the six neighbours of each world cell in clockwise order
// (grid.HexDirs), -1 off the world. Only cells of distance 8 lack some, and
// no member is ever there.
var worldNbr [worldN][6]int16

// runStarts lists, for each 6-bit mask of member neighbours, one neighbour
// (its direction) of each cyclic run of set bits.
var runStarts [64]struct {
	n   uint8
	dir [3]uint8
}

func init() {
	if world.Len() != worldN {
		panic("glorieta: world size")
	}
	for w := 0; w < worldN; w++ {
		q, r := world.Axial(w)
		for d, step := range grid.HexDirs {
			worldNbr[w][d] = int16(world.At(q+step[0], r+step[1]))
		}
	}
	for mask := 1; mask < 64; mask++ {
		rs := &runStarts[mask]
		for d := 0; d < 6; d++ {
			prev := (d + 5) % 6
			if mask&(1<<d) != 0 && mask&(1<<prev) == 0 {
				rs.dir[rs.n] = uint8(d)
				rs.n++
			}
		}
		if rs.n == 0 { // all six: one run without a start
			rs.dir[0], rs.n = 0, 1
		}
	}
}

// book is what fast play keeps about a position, derived from Stones and
// Pink alone. Its own copy of them tells whether it still describes the
// position: code that edits Stones or Pink directly (tests building
// positions) makes it stale, and Play rebuilds it.
type book struct {
	ok     bool
	stones [nCells]uint8
	pink   [nCells]bool

	// The empty cells, in no particular order, and each cell's index there.
	empties [nCells]uint8
	nEmpty  int
	// Each seat's stones that may be flipped (not pink), and each cell's
	// index in its owner's list.
	flippable [2][nCells]uint8
	nFlip     [2]int
	at        [nCells]uint8

	member [2][worldN]bool  // world cell counts for the seat
	parent [2][worldN]uint8 // union-find over each seat's members
	// nbrs has bit d of a world cell set when its neighbour in direction d
	// (grid.HexDirs) is a member: the runs of member neighbours are read
	// from it at once (runStarts).
	nbrs [2][worldN]uint8
}

// all6 is nbrs with all six neighbours members.
const all6 = 1<<6 - 1

// opposite is the direction back: the neighbour in direction d of w has w
// in direction opposite[d].
var opposite = [6]int{3, 4, 5, 0, 1, 2}

// synced reports whether the book describes the position.
func (st *State) synced() bool {
	return st.fast.ok && st.fast.stones == st.Stones && st.fast.pink == st.Pink
}

// rebuild computes the book from the position.
func (st *State) rebuild() {
	b := &st.fast
	*b = book{ok: true, stones: st.Stones, pink: st.Pink}
	for c := 0; c < nCells; c++ {
		switch {
		case st.Stones[c] == empty:
			b.at[c] = uint8(b.nEmpty)
			b.empties[b.nEmpty] = uint8(c)
			b.nEmpty++
		case !st.Pink[c]:
			s := st.Stones[c] - 1
			b.at[c] = uint8(b.nFlip[s])
			b.flippable[s][b.nFlip[s]] = uint8(c)
			b.nFlip[s]++
		}
	}
	for s := 0; s < 2; s++ {
		for _, w := range ringOf[s] {
			b.member[s][w] = true
		}
		for c := 0; c < nCells; c++ {
			if st.Pink[c] || st.Stones[c] == uint8(s)+1 {
				b.member[s][worldOf[c]] = true
			}
		}
		for w := 0; w < worldN; w++ {
			b.parent[s][w] = uint8(w)
		}
		for w := 0; w < worldN; w++ {
			if !b.member[s][w] {
				continue
			}
			for d, n := range worldNbr[w] {
				if n < 0 {
					continue
				}
				b.nbrs[s][n] |= 1 << opposite[d]
				if b.member[s][n] {
					b.union(s, w, int(n))
				}
			}
		}
	}
}

func (b *book) find(s, w int) int {
	p := &b.parent[s]
	for int(p[w]) != w {
		p[w] = p[p[w]] // path halving
		w = int(p[w])
	}
	return w
}

func (b *book) union(s, v, w int) {
	if rv, rw := b.find(s, v), b.find(s, w); rv != rw {
		b.parent[s][rv] = uint8(rw)
	}
}

// join makes world cell w (a board cell, not yet a member) a member of
// seat s and reports whether s now has a loop (see the top of the file).
func (b *book) join(s, w int) (loop bool) {
	nb := &worldNbr[w]
	m := &b.member[s]
	rs := &runStarts[b.nbrs[s][w]]
	var roots [3]int
	for i := 0; i < int(rs.n); i++ {
		roots[i] = b.find(s, int(nb[rs.dir[i]]))
		for j := 0; j < i; j++ {
			loop = loop || roots[j] == roots[i]
		}
	}
	m[w] = true
	b.parent[s][w] = uint8(w)
	for i := 0; i < int(rs.n); i++ {
		b.parent[s][roots[i]] = uint8(w)
	}
	nbrs := &b.nbrs[s]
	for d, n := range nb {
		nbrs[n] |= 1 << opposite[d]
		loop = loop || (m[n] && nbrs[n] == all6)
	}
	return loop || nbrs[w] == all6
}

// takeEmpty removes board cell c from the empty cells.
func (b *book) takeEmpty(c int) {
	i := b.at[c]
	b.nEmpty--
	last := b.empties[b.nEmpty]
	b.empties[i], b.at[last] = last, i
}

// addFlippable adds seat s's new stone on c.
func (b *book) addFlippable(s, c int) {
	b.at[c] = uint8(b.nFlip[s])
	b.flippable[s][b.nFlip[s]] = uint8(c)
	b.nFlip[s]++
}

// takeFlippable removes seat s's stone on c, now pink.
func (b *book) takeFlippable(s, c int) {
	i := b.at[c]
	b.nFlip[s]--
	last := b.flippable[s][b.nFlip[s]]
	b.flippable[s][i], b.at[last] = last, i
}

// setStone puts a stone of seat s on empty cell c, keeping the book when
// it is in step, and reports whether s now has a loop (only meaningful
// with the book in step).
func (st *State) setStone(s engine.Seat, c int, keep bool) (loop bool) {
	st.Stones[c] = uint8(s) + 1
	st.Empty--
	if !keep {
		return false
	}
	b := &st.fast
	b.stones[c] = st.Stones[c]
	b.takeEmpty(c)
	b.addFlippable(int(s), c)
	return b.join(int(s), worldOf[c])
}

// setPink flips seat s's stone on c and reports whether the opponent,
// whose member it becomes, now has a loop (with the book in step).
func (st *State) setPink(s engine.Seat, c int, keep bool) (loop bool) {
	st.Pink[c] = true
	if !keep {
		return false
	}
	b := &st.fast
	b.pink[c] = true
	b.takeFlippable(int(s), c)
	return b.join(int(opp(s)), worldOf[c])
}

// Why a game ended, for EndReason.
const (
	notEnded uint8 = iota
	endPlaced
	endFlipped
	endResigned
	endStuck
)

var endReasons = [...]string{"", "loop", "loop by flip", "resignation", "no legal action"}

// EndReason says why the game ended (engine.Ender): "loop" when a player
// closes their own loop with a stone, "loop by flip" when a flip completes
// the opponent's loop, "resignation" (also a time-out), "no legal action"
// (never happens in play, see the rules), or "" while the game goes on.
func (st *State) EndReason() string {
	if !st.Done {
		return ""
	}
	return endReasons[st.end]
}

// oneWinner holds the two possible winner lists. A finished Play shares
// them instead of allocating one per playout: Table never changes Win in
// place (Finish replaces it, Winners and CloneTable copy it), and the
// capacity of 1 makes any append copy.
var oneWinner = [2][]engine.Seat{{Yellow}, {Black}}

// finishByLoop ends the game won by seat w's loop without allocating: the
// loop's cells are found when the picture asks for them.
func (st *State) finishByLoop(w engine.Seat, why uint8) {
	st.Done = true
	st.Win = oneWinner[w][:1:1]
	st.Loop = nil
	st.loopPending = true
	st.end = why
}

// loop is the winning loop's world cells (empty unless a loop ended the
// game).
func (st *State) loop() []int {
	if st.Loop == nil && st.loopPending && len(st.Win) == 1 {
		w := st.Win[0]
		if h := st.hole(w); h >= 0 {
			return st.loopCells(w, h)
		}
	}
	return st.Loop
}

// endedByLoop reports whether a loop ended the game.
func (st *State) endedByLoop() bool { return len(st.Loop) > 0 || st.loopPending }

// Play applies a move like Apply, without the outcome's words.
func (st *State) Play(mv engine.Move) error {
	m, ok := mv.(Move)
	if !ok {
		return engine.Illegalf("not a Glorieta move")
	}
	if m.B >= 0 && m.B < m.A {
		m.A, m.B = m.B, m.A
	}
	if err := st.check(m); err != nil {
		return err
	}
	if !st.synced() {
		st.rebuild()
	}
	st.play(m)
	return nil
}

// PlayRandom plays a move drawn uniformly from the distinct legal moves
// (see draw).
func (st *State) PlayRandom(r *engine.Rand) {
	if st.Done {
		return
	}
	if !st.synced() {
		st.rebuild()
	}
	if m, _, ok := st.draw(r); ok {
		st.play(m)
	}
}

// RandomMove draws a move as PlayRandom would, without playing it
// (engine.Sampler), with the number of distinct legal moves.
func (st *State) RandomMove(r *engine.Rand) (engine.Move, int, bool) {
	if st.Done {
		return nil, 0, false
	}
	if !st.synced() {
		st.rebuild()
	}
	m, total, ok := st.draw(r)
	if !ok {
		return nil, 0, false
	}
	return m, total, true
}

// draw picks a legal move uniformly from the single stones (one per empty
// cell), the flips (one per unflipped stone of the mover) and the
// unordered pairs of empty cells, as Legal lists them, by counting them
// instead of listing them. It needs the book in step and a game going on.
func (st *State) draw(r *engine.Rand) (Move, int, bool) {
	b := &st.fast
	s := st.Turn
	n := st.mayPlace(s)
	e, f, pairs := 0, 0, 0
	if n >= 1 {
		e = b.nEmpty
	}
	if st.Started {
		f = b.nFlip[s]
	}
	if n == 2 {
		pairs = b.nEmpty * (b.nEmpty - 1) / 2
	}
	total := e + f + pairs
	if total == 0 { // cannot happen: a seat to move always has a move
		return Move{}, 0, false
	}
	switch k := r.IntN(total); {
	case k < e:
		return Move{A: int(b.empties[k]), B: -1}, total, true
	case k < e+f:
		return Move{Flip: true, A: int(b.flippable[s][k-e]), B: -1}, total, true
	}
	// Each pair has the chance pairs/total of this branch times
	// 2/(nEmpty·(nEmpty-1)) of two distinct uniform indices: 1/total.
	i := r.IntN(b.nEmpty)
	j := r.IntN(b.nEmpty - 1)
	if j >= i {
		j++
	}
	a, c := int(b.empties[i]), int(b.empties[j])
	return Move{A: min(a, c), B: max(a, c)}, total, true
}

// play is Apply's position change for a checked move, with the book in
// step, deciding loops from the book instead of hole.
func (st *State) play(m Move) {
	s := st.Turn
	st.Last = [2]int{m.A, m.B}
	if m.Flip {
		st.Flipped[s] = true
		if st.setPink(s, m.A, true) {
			st.finishByLoop(opp(s), endFlipped)
			return
		}
	} else {
		loop := st.setStone(s, m.A, true)
		if m.B >= 0 {
			loop = st.setStone(s, m.B, true) || loop
		}
		if !st.Started {
			st.Started = true
			st.Hands = [2]int{st.handful(), st.handful()}
		} else {
			st.Hands[s] -= 1 + btoi(m.B >= 0)
		}
		if loop {
			st.finishByLoop(s, endPlaced)
			return
		}
	}
	if st.Hands[s] == 0 && st.Started && st.Flipped[s] {
		st.Hands[s], st.Flipped[s] = st.handful(), false
	}
	next := opp(s)
	for i := 0; i < 2; i++ {
		if st.mayPlace(next) > 0 || (st.Started && st.fast.nFlip[next] > 0) {
			st.Turn = next
			return
		}
		next = opp(next)
	}
	st.Done, st.Win, st.end = true, nil, endStuck
}
