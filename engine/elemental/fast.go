package elemental

import (
	"slices"

	"tessera/engine"
	"tessera/engine/grid"
)

// This file is the playout path (engine.FastPlayer) and what a search
// needs besides it (engine.Determinizer, engine.Ender). Apply stays the
// reference: Play must reach exactly the position Apply reaches, which the
// tests check move by move.
//
// A uniformly random legal move is drawn without listing the moves: every
// (tile, distinct orientation) pair of the hand goes with every open cell,
// so the legal moves are a product and one draw over it is uniform over
// the distinct legal moves, exactly as a uniform choice from Legal() is.

// frontier is the set of open cells (every empty cell before the first
// tile, afterwards the empty cells next to a tile), kept up to date by
// Play instead of scanned for. ok is false until it is built from the
// board: New, Apply and hand edits of the exported fields leave it unbuilt
// and the next Play builds it.
type frontier struct {
	ok    bool
	n     int
	cells [64]int8
	pos   [64]int8 // index in cells, -1 when the cell is not open
}

// neighbours[cell][d] is the cell in direction d, -1 off the board.
var neighbours [64][4]int8

// colourIndex maps a colour letter to 0..3 and anything else to 4.
var colourIndex [256]uint8

// shapes[code] are the distinct orientations of the tile whose edges have
// that base-4 code, canonTile[code] its canonical tile and codeTile[code]
// the tile itself.
var (
	shapes    [256]orientationSet
	canonTile [256]Tile
	codeTile  [256]Tile
)

type orientationSet struct {
	n int
	o [4]Tile
}

func init() {
	for i := range colourIndex {
		colourIndex[i] = 4
	}
	for i := 0; i < 4; i++ {
		colourIndex[colours[i]] = uint8(i)
	}
	for c := 0; c < board.Len(); c++ {
		for d := grid.N; d <= grid.W; d++ {
			neighbours[c][d] = int8(board.Step(c, d))
		}
	}
	for code := 0; code < 256; code++ {
		var t Tile
		for i := 0; i < 4; i++ {
			t[i] = colours[code>>(2*(3-i))&3]
		}
		os := orientations(t)
		shapes[code].n = len(os)
		copy(shapes[code].o[:], os)
		canonTile[code] = t.Canonical()
		codeTile[code] = t
	}
}

// tileCode is the base-4 code of a tile's edges, or -1 when an edge is not
// a colour.
func tileCode(t Tile) int {
	code := 0
	for i := 0; i < 4; i++ {
		c := colourIndex[t[i]]
		if c > 3 {
			return -1
		}
		code = code<<2 | int(c)
	}
	return code
}

// build makes the frontier from the board.
func (f *frontier) build(st *State) {
	f.n = 0
	for c := range f.pos {
		f.pos[c] = -1
	}
	for c := 0; c < board.Len(); c++ {
		if st.canPlace(c) {
			f.add(c)
		}
	}
	f.ok = true
}

func (f *frontier) add(c int) {
	f.pos[c] = int8(f.n)
	f.cells[f.n] = int8(c)
	f.n++
}

func (f *frontier) remove(c int) {
	i := f.pos[c]
	f.n--
	last := f.cells[f.n]
	f.cells[i], f.pos[last] = last, i
	f.pos[c] = -1
}

// lay updates the frontier for a tile placed on cell c (filled already
// marked on the board, placed counting the tile).
func (f *frontier) lay(st *State, c int) {
	if st.Placed == 1 { // the first tile: only its neighbours are open now
		f.n = 0
		for i := range f.pos {
			f.pos[i] = -1
		}
	} else {
		f.remove(c)
	}
	for _, j := range neighbours[c] {
		if j >= 0 && !st.Filled[j] && f.pos[j] < 0 {
			f.add(int(j))
		}
	}
}

// PlayRandom plays a uniformly random legal move for the seat to move.
func (st *State) PlayRandom(r *engine.Rand) {
	if st.Done {
		return
	}
	h, m := st.randomMove(r)
	st.play(h, m.Cell, m.Edges)
}

// randomMove draws the move PlayRandom plays, and the index in the
// mover's hand of its tile; the game must not be over.
func (st *State) randomMove(r *engine.Rand) (int, Move) {
	if !st.front.ok {
		st.front.build(st)
	}
	hand := st.Hands[st.Turn]
	k := 0
	for _, t := range hand {
		k += shapes[tileCode(t)].n
	}
	n := st.front.n
	i := r.IntN(k * n)
	o, cell := i/n, int(st.front.cells[i%n])
	for h, t := range hand {
		s := &shapes[tileCode(t)]
		if o < s.n {
			return h, Move{Cell: cell, Edges: s.o[o]}
		}
		o -= s.n
	}
	panic("elemental: the draw fell outside the hand")
}

// Play applies a move like Apply, without the outcome's words.
func (st *State) Play(mv engine.Move) error {
	m, ok := mv.(Move)
	if !ok {
		return engine.Illegalf("not an Elemental Connection move")
	}
	if st.Done {
		return engine.Illegalf("the game is over")
	}
	code := tileCode(m.Edges)
	if m.Cell < 0 || m.Cell >= board.Len() || code < 0 || !st.canPlace(m.Cell) {
		return st.refusal(m)
	}
	if !st.front.ok {
		st.front.build(st)
	}
	for h, t := range st.Hands[st.Turn] {
		if t == canonTile[code] {
			st.play(h, m.Cell, m.Edges)
			return nil
		}
	}
	return st.refusal(m)
}

// refusal says why Play refuses m, in Parse's words where it has them.
func (st *State) refusal(m Move) error {
	if m.Cell >= 0 && m.Cell < board.Len() {
		if _, err := st.Parse(m.String()); err != nil {
			return err
		}
	}
	return engine.Illegalf("%s is not a legal move", m)
}

// play places the tile held at index h of the mover's hand on cell, as
// edges, with the frontier built: Apply's scoring, draw and turn order.
func (st *State) play(h, cell int, edges Tile) {
	seat := st.Turn
	c, m, b := 0, 0, 0
	for d, j := range neighbours[cell] {
		switch {
		case j < 0:
			if edges[d] == st.Borders[d] {
				b++
			}
		case !st.Filled[j]:
		case st.Cells[j][(d+2)%4] == edges[d]:
			c++
		default:
			m++
		}
	}
	st.Score[seat] += c*(c+1)/2 - m + b
	st.Misses += m
	st.Cells[cell], st.Filled[cell] = edges, true
	st.laid.add(st.Placed, cell, seat)
	st.Placed++
	st.Last = cell
	st.front.lay(st, cell)
	// Take the tile out in place, keeping the order Apply keeps, and draw.
	hand := st.Hands[seat]
	copy(hand[h:], hand[h+1:])
	hand = hand[:len(hand)-1]
	for len(hand) < handSize && len(st.Bag) > 0 {
		hand = append(hand, st.Bag[0])
		st.Bag = st.Bag[1:]
	}
	st.Hands[seat] = hand
	if st.Placed == board.Len() {
		st.EndByScore()
		return
	}
	s := seat
	for i := 0; i < st.N; i++ {
		s = st.Next(s)
		if len(st.Hands[s]) > 0 {
			st.Turn = s
			return
		}
	}
	st.EndByScore()
}

// EndReason says why a finished game ended: "board full" (all 64 cells
// filled), "resignation" (one player left) or "no tiles" (nobody holds a
// tile, which 70 tiles for 64 cells never allow). It is "" while the game
// goes on.
func (st *State) EndReason() string {
	switch {
	case !st.Done:
		return ""
	case st.Placed == board.Len():
		return "board full"
	case st.Active() <= 1:
		return "resignation"
	}
	return "no tiles"
}

// Determinize returns a copy in which the tiles the viewer cannot see (the
// other seats' hands and the bag) are pooled in code order, shuffled with r
// and dealt back: each other hand keeps its size, the bag its size. The
// viewer's own hand and the board are kept; NoSeat sees no hand. The game
// has no random source of its own after the deal.
func (st *State) Determinize(viewer engine.Seat, r *engine.Rand) engine.State {
	return st.deal(viewer, r, nil)
}

// sortByCode puts tiles in the order of their codes. Tiles of one code are
// equal, so a count of each code gives the one sorted order without
// comparing: Determinize sorts about 60 tiles every iteration of a search,
// and a comparison sort was a fifth of hard's time. A tile that is not of
// the game (no code) falls back to the comparison sort.
func sortByCode(pool []Tile) {
	var count [256]uint16
	for _, t := range pool {
		code := tileCode(t)
		if code < 0 {
			slices.SortFunc(pool, func(a, b Tile) int { return tileCode(a) - tileCode(b) })
			return
		}
		count[code]++
	}
	k := 0
	for code, n := range count {
		for ; n > 0; n-- {
			pool[k] = codeTile[code]
			k++
		}
	}
}

// LegalKeys appends the keys of Legal's moves, in Legal's order (each tile
// in hand, each distinct orientation, open cells in cell order); it
// allocates nothing once dst has room.
func (st *State) LegalKeys(dst []uint64) []uint64 {
	if st.Done {
		return dst
	}
	var cells [64]int8
	n := 0
	for c := 0; c < board.Len(); c++ {
		open := st.front.ok && st.front.pos[c] >= 0
		if !st.front.ok {
			open = st.canPlace(c)
		}
		if open {
			cells[n] = int8(c)
			n++
		}
	}
	start := len(dst)
	for _, t := range st.Hands[st.Turn] {
		code := tileCode(t)
		if code < 0 { // not a tile of the game: the slow list
			return st.appendSlowKeys(dst[:start])
		}
		s := &shapes[code]
		for _, o := range s.o[:s.n] {
			for _, c := range cells[:n] {
				dst = append(dst, Move{Cell: int(c), Edges: o}.Key())
			}
		}
	}
	return dst
}

func (st *State) appendSlowKeys(dst []uint64) []uint64 {
	for _, m := range st.Legal() {
		dst = append(dst, m.(Move).Key())
	}
	return dst
}

// MoveOfKey is the move a key of LegalKeys names.
func (st *State) MoveOfKey(k uint64) engine.Move {
	return Move{Cell: int(k >> 32), Edges: Tile{byte(k >> 24), byte(k >> 16), byte(k >> 8), byte(k)}}
}

// KeyPoints is the points of the move a key names for the seat to move
// (engine.KeyScorer): what Preview's deltas sum to, without building the
// move or its words.
func (st *State) KeyPoints(k uint64) int {
	return st.points(int(k>>32), Tile{byte(k >> 24), byte(k >> 16), byte(k >> 8), byte(k)})
}

// points is what laying t on cell scores for its player: what Preview's
// deltas sum to.
func (st *State) points(cell int, t Tile) int {
	c, m, b := st.score(cell, t)
	return c*(c+1)/2 - m + b
}
