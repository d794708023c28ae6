package closure

import (
	"fmt"
	"math/bits"
	"slices"

	"tessera/engine"
	"tessera/engine/grid"
)

// This file is the playout path (engine.FastPlayer) and what a search
// needs besides it (engine.Determinizer, engine.Ender). Apply stays the
// reference: Play must reach exactly the position Apply reaches, which the
// tests check move by move.
//
// Apply scores a placement by flooding the table (the line, each area);
// Play keeps the answers instead: union-finds of the lines, of the areas
// with their open edges, and of the single-colour areas of the final
// scoring, grown tile by tile. A uniformly random legal placement is drawn
// without listing the placements: each open cell keeps the set of faces
// (tile, distinct turn) that fit there. A few draws of (open cell, face
// of the hand) usually hit a placement that fits; when they do not, the
// number of placements of the hand is a sum of popcounts and one number
// drawn below it names one placement, each distinct placement exactly
// once. Both ways are uniform over the distinct placements.

// A faceSet has one bit per face: tile t turned r quarter turns is bit
// faceIndex(t, r), from 0 for tile 1 to 191 for tile 48 at 270.
type faceSet [3]uint64

func faceIndex(t, r int) int { return (t-1)*4 + r }

func (s *faceSet) set(i int)     { s[i>>6] |= 1 << (i & 63) }
func (s faceSet) has(i int) bool { return s[i>>6]&(1<<(i&63)) != 0 }
func (s faceSet) and(o faceSet) faceSet {
	return faceSet{s[0] & o[0], s[1] & o[1], s[2] & o[2]}
}
func (s faceSet) count() int {
	return bits.OnesCount64(s[0]) + bits.OnesCount64(s[1]) + bits.OnesCount64(s[2])
}

// nth is the index of the k-th set bit (k from 0).
func (s faceSet) nth(k int) int {
	for w := 0; w < 3; w++ {
		if c := bits.OnesCount64(s[w]); k >= c {
			k -= c
			continue
		}
		x := s[w]
		for ; k > 0; k-- {
			x &= x - 1
		}
		return w<<6 | bits.TrailingZeros64(x)
	}
	panic("closure: nth beyond the set")
}

var (
	// neighbours[cell][d] is the cell in direction d, -1 off the frame.
	neighbours [625][4]int16
	// colourIndex maps B, G, R to 0, 1, 2.
	colourIndex [256]uint8
	// fitAcross[d][a][b]: the faces that may go on a cell whose neighbour
	// in direction d shows colour a facing the face's quadrant d and
	// colour b facing its quadrant d+1 (the rule of fits).
	fitAcross [4][3][3]faceSet
	// anyFace, firstFace: every face; the faces that may open the game.
	anyFace, firstFace faceSet
	// tileFaces[t]: tile t's distinct turns.
	tileFaces [NumTiles + 1]faceSet
	// Why the game ended, as Apply writes it, for the counts Play meets,
	// so that Play does not format.
	whyPassed [8]string
	whyIdle   [40]string
)

// initFast fills the tables above; tiles.go's init calls it once the faces
// are known (init functions of one package run in file order, which is
// too easy to break).
func initFast() {
	for c := 0; c < board.Len(); c++ {
		for d := grid.N; d <= grid.W; d++ {
			neighbours[c][d] = int16(board.Step(c, d))
		}
	}
	colourIndex['B'], colourIndex['G'], colourIndex['R'] = 0, 1, 2
	for t := 1; t <= NumTiles; t++ {
		for _, r := range rots[t] {
			tileFaces[t].set(faceIndex(t, r))
		}
		for r := 0; r < 4; r++ {
			f, i := faces[t][r], faceIndex(t, r)
			anyFace.set(i)
			if f.colourCount() >= 2 {
				firstFace.set(i)
			}
			for d := 0; d < 4; d++ {
				for a := 0; a < 3; a++ {
					for b := 0; b < 3; b++ {
						if f.Col[d] == "BGR"[a] || f.Col[(d+1)%4] == "BGR"[b] {
							fitAcross[d][a][b].set(i)
						}
					}
				}
			}
		}
	}
	for n := range whyPassed {
		whyPassed[n] = fmt.Sprintf("every player has passed in turn (%d passes in a row)", n)
	}
	for n := range whyIdle {
		whyIdle[n] = fmt.Sprintf("four full rounds passed without a tile placed (%d turns)", n)
	}
}

// maxOpen bounds the open cells: a connected layout of n tiles has at
// most 2n+2 empty neighbours.
const maxOpen = 2*NumTiles + 2
const notOpen = 0xff

// fast is what Play keeps up to date. ok is false until it is built from
// the table: New, Apply and hand edits of the exported fields leave it
// unbuilt and the next Play builds it.
type fast struct {
	ok bool
	// The open cells and the faces that fit on each.
	n    int
	open [maxOpen]int16
	fit  [maxOpen]faceSet
	pos  [625]uint8 // index in open, notOpen when the cell is not open
	// Lines: a union-find over tiles, with the tiles each line touches.
	line     [NumTiles + 1]uint8
	lineSize [NumTiles + 1]uint8
	// Areas: a union-find over quadrants (tile*4 + q) with, at each root,
	// the area's size, its quadrant edges that face no tile, and its
	// colour (0 when mixed).
	area     [4 * (NumTiles + 1)]uint8
	areaSize [4 * (NumTiles + 1)]uint8
	areaOpen [4 * (NumTiles + 1)]int16
	areaCol  [4 * (NumTiles + 1)]byte
	// Single-colour areas (arms ignored), for the final scoring.
	mono     [4 * (NumTiles + 1)]uint8
	monoSize [4 * (NumTiles + 1)]uint8
}

func find(p []uint8, i int) int {
	for int(p[i]) != i {
		p[i] = p[p[i]]
		i = int(p[i])
	}
	return i
}

func (f *fast) addOpen(c int, fit faceSet) {
	if f.n == maxOpen { // only a table no game can reach (tiles apart) gets here
		return
	}
	f.pos[c] = uint8(f.n)
	f.open[f.n], f.fit[f.n] = int16(c), fit
	f.n++
}

// fits is the set of faces that may go on the i-th open cell.
func (f *fast) fits(i int) faceSet { return f.fit[i] }

func (f *fast) removeOpen(c int) {
	i := f.pos[c]
	if i == notOpen { // build lays tiles in cell order, not always next to others
		return
	}
	f.n--
	last := f.open[f.n]
	f.open[i], f.fit[i] = last, f.fit[f.n]
	f.pos[last] = i
	f.pos[c] = notOpen
}

// build makes everything from the table, laying its tiles one by one on
// an empty table of its own, outwards from m13 so that the layout stays
// connected (and its open cells within maxOpen). Any order gives the same
// sets and unions; this one is fixed by the table alone.
func (f *fast) build(st *State) {
	*f = fast{}
	for i := range f.pos {
		f.pos[i] = notOpen
	}
	f.addOpen(centre, firstFace)
	var table [625]Cell
	var queue [NumTiles]int16
	placed, head := 0, 0
	put := func(c int) {
		table[c] = st.Cells[c]
		placed++
		f.lay(&table, c, placed == 1)
		if placed <= len(queue) {
			queue[placed-1] = int16(c)
		}
	}
	if st.Cells[centre].Tile != 0 {
		put(centre)
	}
	for ; head < min(placed, len(queue)); head++ {
		for _, j := range neighbours[queue[head]] {
			if j >= 0 && st.Cells[j].Tile != 0 && table[j].Tile == 0 {
				put(int(j))
			}
		}
	}
	for c := range st.Cells { // tiles apart from m13's layout: only in hand-made tables
		if st.Cells[c].Tile != 0 && table[c].Tile == 0 {
			put(c)
		}
	}
	f.ok = true
}

// lay records the tile just put on cell c of the table (already there)
// and returns the points it scores for its line (0 unless it joins a line
// of 3 or more tiles). first says it is the first tile on the table.
func (f *fast) lay(table *[625]Cell, c int, first bool) (line int) {
	t := int(table[c].Tile)
	face := table[c].face()
	if first {
		for f.n > 0 {
			f.removeOpen(int(f.open[0]))
		}
	} else {
		f.removeOpen(c)
	}
	// Open cells around it, and what fits there now.
	for d := 0; d < 4; d++ {
		j := int(neighbours[c][d])
		if j < 0 || table[j].Tile != 0 {
			continue
		}
		e := (d + 2) % 4 // from j towards c
		need := fitAcross[e][colourIndex[face.Col[(e+3)%4]]][colourIndex[face.Col[(e+2)%4]]]
		if p := f.pos[j]; p != notOpen {
			f.fit[p] = f.fit[p].and(need)
		} else {
			f.addOpen(j, need)
		}
	}
	// Its own quadrants.
	f.line[t], f.lineSize[t] = uint8(t), 1
	for q := 0; q < 4; q++ {
		i := t*4 + q
		f.area[i], f.areaSize[i], f.areaCol[i] = uint8(i), 1, face.Col[q]
		f.mono[i], f.monoSize[i] = uint8(i), 1
		f.areaOpen[i] = 0
		for _, e := range [2]int{q, (q + 3) % 4} { // quadrant q lies on edges q and q-1
			if j := neighbours[c][e]; j < 0 || table[j].Tile == 0 {
				f.areaOpen[i]++
			}
		}
	}
	for q := 0; q < 4; q++ {
		r := (q + 1) % 4
		if !face.Arm[q] { // arm q lies between quadrants q and q+1
			f.joinArea(t*4+q, t*4+r)
		}
		if face.Col[q] == face.Col[r] {
			f.joinMono(t*4+q, t*4+r)
		}
	}
	joined := false
	for d := 0; d < 4; d++ {
		j := int(neighbours[c][d])
		if j < 0 || table[j].Tile == 0 {
			continue
		}
		u, g := int(table[j].Tile), table[j].face()
		o := (d + 2) % 4
		if face.Arm[d] && g.Arm[o] {
			joined = true
			a, b := find(f.line[:], t), find(f.line[:], u)
			if a != b {
				f.line[b] = uint8(a)
				f.lineSize[a] += f.lineSize[b]
			}
		}
		// The neighbour's quadrants o and o+1 lie on the shared edge,
		// which no longer faces an empty cell.
		f.areaOpen[find(f.area[:], u*4+o)]--
		f.areaOpen[find(f.area[:], u*4+(o+1)%4)]--
		// Across edge d our quadrant d faces its d+3, our d+1 its d+2.
		for _, p := range [2][2]int{{d, (d + 3) % 4}, {(d + 1) % 4, (d + 2) % 4}} {
			f.joinArea(t*4+p[0], u*4+p[1])
			if face.Col[p[0]] == g.Col[p[1]] {
				f.joinMono(t*4+p[0], u*4+p[1])
			}
		}
	}
	if n := int(f.lineSize[find(f.line[:], t)]); joined && n >= 3 {
		return n
	}
	return 0
}

func (f *fast) joinArea(x, y int) {
	a, b := find(f.area[:], x), find(f.area[:], y)
	if a == b {
		return
	}
	f.area[b] = uint8(a)
	f.areaSize[a] += f.areaSize[b]
	f.areaOpen[a] += f.areaOpen[b]
	if f.areaCol[a] != f.areaCol[b] {
		f.areaCol[a] = 0
	}
}

func (f *fast) joinMono(x, y int) {
	a, b := find(f.mono[:], x), find(f.mono[:], y)
	if a != b {
		f.mono[b] = uint8(a)
		f.monoSize[a] += f.monoSize[b]
	}
}

// handFaces is the set of faces the hand can lay.
func handFaces(hand []int) faceSet {
	var s faceSet
	for _, t := range hand {
		for w := range s {
			s[w] |= tileFaces[t][w]
		}
	}
	return s
}

// placements counts the legal placements of a hand.
func (f *fast) placements(hand faceSet) int {
	n := 0
	for i := 0; i < f.n; i++ {
		n += f.fits(i).and(hand).count()
	}
	return n
}

// PlayRandom plays a uniformly random legal move for the seat to move.
func (st *State) PlayRandom(r *engine.Rand) {
	if st.Done {
		return
	}
	st.play(st.randomMove(r))
}

// rejectionTries bounds the quick draws before the exact count.
const rejectionTries = 8

// randomMove draws the move PlayRandom plays; the game must not be over.
func (st *State) randomMove(r *engine.Rand) Move {
	if !st.fast.ok {
		st.fast.build(st)
	}
	f := &st.fast
	hand := st.Hands[st.Turn]
	// Most draws of an open cell and a face of the hand fit (a shared
	// edge refuses about four faces in nine), so a few tries of such a
	// draw, keeping the first that fits, usually find a placement; each
	// try is uniform over the pairs, so what is kept is uniform over the
	// placements. When the tries fail (or there is no placement), the
	// exact count below decides, which is uniform too.
	var list [4 * handSize]uint8
	k := 0
	for _, t := range hand {
		for _, r := range rots[t] {
			list[k] = uint8(faceIndex(t, r))
			k++
		}
	}
	if k > 0 && f.n > 0 {
		for try := 0; try < rejectionTries; try++ {
			i := r.IntN(f.n * k)
			c, fi := i/k, int(list[i%k])
			if f.fit[c].has(fi) {
				return Move{Kind: Place, Tile: fi/4 + 1, Cell: int(f.open[c]), Rot: fi % 4}
			}
		}
	}
	mine := handFaces(hand)
	var counts [maxOpen]uint8 // placements per open cell (at most 16)
	total := 0
	for i := 0; i < f.n; i++ {
		n := f.fits(i).and(mine).count()
		counts[i] = uint8(n)
		total += n
	}
	if total == 0 { // one discard per tile, and the pass
		if k := r.IntN(len(hand) + 1); k < len(hand) {
			return Move{Kind: Discard, Tile: hand[k]}
		}
		return Move{Kind: Pass}
	}
	k = r.IntN(total)
	for i := 0; ; i++ {
		if n := int(counts[i]); k >= n {
			k -= n
			continue
		}
		fi := f.fits(i).and(mine).nth(k)
		return Move{Kind: Place, Tile: fi/4 + 1, Cell: int(f.open[i]), Rot: fi % 4}
	}
}

// Play applies a move like Apply, without the outcome's words.
func (st *State) Play(mv engine.Move) error {
	m, ok := mv.(Move)
	if !ok {
		return engine.Illegalf("not a Closure move")
	}
	if st.Done {
		return engine.Illegalf("the game is over")
	}
	if !st.fast.ok {
		st.fast.build(st)
	}
	f := &st.fast
	legal := false
	switch m.Kind {
	case Place:
		if m.Tile >= 1 && m.Tile <= NumTiles && m.Cell >= 0 && m.Cell < board.Len() && m.Rot >= 0 && m.Rot < 4 && st.holds(st.Turn, m.Tile) {
			m.Rot = canon[m.Tile][m.Rot]
			p := f.pos[m.Cell]
			legal = p != notOpen && f.fits(int(p)).has(faceIndex(m.Tile, m.Rot))
		}
	case Discard, Pass:
		legal = (m.Kind == Pass || st.holds(st.Turn, m.Tile)) && f.placements(handFaces(st.Hands[st.Turn])) == 0
	}
	if !legal {
		_, err := st.Parse(m.String()) // the player's words for what is wrong
		if err == nil {
			err = engine.Illegalf("%s is not a legal move", m)
		}
		return err
	}
	st.play(m)
	return nil
}

// play is Apply for a legal move, with the fast state built and no words.
func (st *State) play(m Move) {
	seat := st.Turn
	st.Turns++
	switch m.Kind {
	case Place:
		st.Cells[m.Cell] = Cell{Tile: int8(m.Tile), Rot: int8(m.Rot), Turn: int16(st.Turns)}
		st.Laid++
		st.Last = m.Cell
		st.Score[seat] += st.fast.lay(&st.Cells, m.Cell, st.Laid == 1)
		st.scoreEnclosures(seat, m.Tile)
		st.Hands[seat] = take(st.Hands[seat], m.Tile)
		st.PassRow, st.Idle = 0, 0
	case Discard:
		st.Hands[seat] = take(st.Hands[seat], m.Tile)
		st.Discards = append(st.Discards, m.Tile)
		st.PassRow = 0
		st.Idle++
	case Pass:
		st.PassRow++
		st.Idle++
	}
	st.drawFast(seat)
	switch {
	case st.Laid == NumTiles:
		st.endFast(endAllLaid, "all 48 tiles are on the table")
	case st.Score[seat] > 99:
		st.endFast(endOver99, over99Why[colourIndex[st.Colour[seat]]])
	default:
		a := st.Active()
		switch {
		case st.PassRow >= a:
			st.endFast(endAllPassed, pick(whyPassed[:], st.PassRow, "every player has passed in turn (%d passes in a row)"))
		case st.Idle >= 4*a:
			st.endFast(endIdle, pick(whyIdle[:], st.Idle, "four full rounds passed without a tile placed (%d turns)"))
		default:
			st.Turn = st.Next(seat)
		}
	}
}

var over99Why = [3]string{
	"Blue ends the turn with more than 99 points",
	"Green ends the turn with more than 99 points",
	"Red ends the turn with more than 99 points",
}

func pick(made []string, n int, format string) string {
	if n >= 0 && n < len(made) {
		return made[n]
	}
	return fmt.Sprintf(format, n)
}

// scoreEnclosures gives the points of the areas the tile just laid
// closed: 2 per quadrant to the mover, and as much again to the owner of
// the colour of a single-colour area.
func (st *State) scoreEnclosures(mover engine.Seat, t int) {
	f := &st.fast
	var done [4]int
	for q := 0; q < 4; q++ {
		a := find(f.area[:], t*4+q)
		done[q] = a
		if slices.Contains(done[:q], a) || f.areaOpen[a] != 0 {
			continue
		}
		size := 2 * int(f.areaSize[a])
		st.Score[mover] += size
		if c := f.areaCol[a]; c != 0 {
			if o := st.Owner(c); o != engine.NoSeat {
				st.Score[o] += size
			}
		}
	}
}

// take removes tile t from the hand in place, keeping the others' order
// (Apply's remove, without a new array).
func take(h []int, t int) []int {
	i := slices.Index(h, t)
	if i < 0 {
		return h
	}
	copy(h[i:], h[i+1:])
	return h[:len(h)-1]
}

// drawFast is draw without allocating: the deck is shifted down instead
// of resliced, so that it keeps its array, and the emptied deck's array
// becomes the new discard pile.
func (st *State) drawFast(s engine.Seat) {
	for len(st.Hands[s]) < handSize {
		if len(st.Deck) == 0 {
			if len(st.Discards) == 0 {
				return
			}
			st.Deck, st.Discards = st.Discards, st.Deck[:0]
			st.Rng.Shuffle(len(st.Deck), func(i, j int) { st.Deck[i], st.Deck[j] = st.Deck[j], st.Deck[i] })
		}
		st.Hands[s] = append(st.Hands[s], st.Deck[0])
		copy(st.Deck, st.Deck[1:])
		st.Deck = st.Deck[:len(st.Deck)-1]
	}
}

// endFast is end without the outcome: the final scoring from the kept
// single-colour areas, then the winners.
func (st *State) endFast(cause endCause, why string) {
	st.EndWhy, st.ended = why, cause
	f := &st.fast
	// The sizes of the st.N largest areas (with repeats), largest first.
	var top [3]int
	areas := 0
	for c := range st.Cells {
		t := int(st.Cells[c].Tile)
		for q := 0; t != 0 && q < 4; q++ {
			i := t*4 + q
			if find(f.mono[:], i) != i {
				continue
			}
			areas++
			size := int(f.monoSize[i])
			for k := 0; k < st.N; k++ {
				if size > top[k] {
					size, top[k] = top[k], size
				}
			}
		}
	}
	if areas > 0 {
		cut := top[min(st.N, areas)-1]
		for c := range st.Cells {
			t := int(st.Cells[c].Tile)
			for q := 0; t != 0 && q < 4; q++ {
				i := t*4 + q
				if find(f.mono[:], i) != i || int(f.monoSize[i]) < cut {
					continue
				}
				if o := st.Owner(st.Cells[c].face().Col[q]); o != engine.NoSeat {
					st.Score[o] += int(f.monoSize[i])
				}
			}
		}
	}
	for s := 0; s < st.N; s++ {
		for o := 0; o < st.N; o++ {
			if o != s {
				st.Score[o] += 2 * len(st.Hands[s])
			}
		}
	}
	st.EndByScore()
}

// endCause is why a game ended.
type endCause uint8

const (
	endNone endCause = iota
	endAllLaid
	endAllPassed
	endIdle
	endOver99
)

// EndReason says why a finished game ended: "all tiles laid", "all
// passed" (every player still in the game passed in a row), "four idle
// rounds" (four rounds without a tile placed), "over 99" (the mover ended
// a turn above 99 points) or "resignation" (one player left). It is ""
// while the game goes on.
func (st *State) EndReason() string {
	if !st.Done {
		return ""
	}
	switch st.ended {
	case endAllLaid:
		return "all tiles laid"
	case endAllPassed:
		return "all passed"
	case endIdle:
		return "four idle rounds"
	case endOver99:
		return "over 99"
	}
	return "resignation"
}

// Determinize returns a copy in which the tiles the viewer cannot see (the
// other seats' hands and the deck) are pooled in number order, shuffled
// with r and dealt back: each other hand keeps its size, the deck its
// size. The viewer's hand, the table and the face-up discard pile are
// kept, and the game's own source (which shuffles the discards into a new
// deck) is reseeded from r. NoSeat sees no hand.
func (st *State) Determinize(viewer engine.Seat, r *engine.Rand) engine.State {
	c := st.Clone().(*State)
	pool := make([]int, 0, NumTiles)
	pool = append(pool, c.Deck...)
	for s, h := range c.Hands {
		if engine.Seat(s) != viewer {
			pool = append(pool, h...)
		}
	}
	slices.Sort(pool)
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	k := 0
	for s, h := range c.Hands {
		if engine.Seat(s) != viewer {
			k += copy(h, pool[k:])
		}
	}
	copy(c.Deck, pool[k:])
	c.Rng = engine.NewRand(r.Uint64())
	// Built from the table, so that the copy's draws do not depend on the
	// order in which the receiver's open cells were found.
	c.fast.build(c)
	return c
}

// LegalKeys appends the keys of Legal's moves, in Legal's order (tiles in
// number order, each distinct turn, open cells in cell order), from the
// fast state when it is built; it allocates nothing once dst has room.
func (st *State) LegalKeys(dst []uint64) []uint64 {
	if st.Done {
		return dst
	}
	if !st.fast.ok { // not built (a position from Apply): the slow list
		for _, m := range st.Legal() {
			dst = append(dst, m.(Move).Key())
		}
		return dst
	}
	f := &st.fast
	var cells [maxOpen]int16
	n := copy(cells[:], f.open[:f.n])
	slices.Sort(cells[:n])
	var hand [handSize + 8]int
	h := copy(hand[:], st.Hands[st.Turn])
	tiles := hand[:h]
	if h < len(st.Hands[st.Turn]) { // never in a game; stay correct anyway
		tiles = slices.Clone(st.Hands[st.Turn])
	}
	slices.Sort(tiles)
	start := len(dst)
	for _, t := range tiles {
		for _, r := range rots[t] {
			fi := faceIndex(t, r)
			for _, c := range cells[:n] {
				if f.fit[f.pos[c]].has(fi) {
					dst = append(dst, Move{Kind: Place, Tile: t, Cell: int(c), Rot: r}.Key())
				}
			}
		}
	}
	if len(dst) > start {
		return dst
	}
	for _, t := range tiles {
		dst = append(dst, Move{Kind: Discard, Tile: t}.Key())
	}
	return append(dst, Move{Kind: Pass}.Key())
}

// MoveOfKey is the move a key of LegalKeys names.
func (st *State) MoveOfKey(k uint64) engine.Move {
	switch k >> 60 {
	case 1:
		return Move{Kind: Discard, Tile: int(k & (1<<32 - 1))}
	case 2:
		return Move{Kind: Pass}
	}
	return Move{Kind: Place, Tile: int(k >> 32), Cell: int(k>>8) & 0xffffff, Rot: int(k & 3)}
}

// KeyPoints is what the move a key names scores now for the seat to move,
// less what it gives the others (engine.KeyScorer): Preview's deltas
// summed that way, read from the union-finds Play keeps instead of
// flooding the table, and without changing them. A discard or a pass
// scores nothing.
func (st *State) KeyPoints(k uint64) int {
	if k>>60 != 0 || st.Done {
		return 0
	}
	if !st.fast.ok {
		st.fast.build(st)
	}
	f := &st.fast
	t, c := int(k>>32), int(k>>8)&0xffffff
	if t < 1 || t > NumTiles || c < 0 || c >= board.Len() {
		return 0
	}
	face := faces[t][k&3]
	pts := make([]int, len(st.Hands))
	// The line: the tile joins the lines its arms meet.
	joined, size := false, 1
	var lines [4]int
	nl := 0
	for d := 0; d < 4; d++ {
		j := int(neighbours[c][d])
		if j < 0 || st.Cells[j].Tile == 0 || !face.Arm[d] || !st.Cells[j].face().Arm[(d+2)%4] {
			continue
		}
		joined = true
		if r := root(f.line[:], int(st.Cells[j].Tile)); !slices.Contains(lines[:nl], r) {
			lines[nl], nl = r, nl+1
			size += int(f.lineSize[r])
		}
	}
	if joined && size >= 3 {
		pts[st.Turn] += size
	}
	// The areas: a small union-find over the tile's four quadrants (0-3)
	// and the neighbours' areas they touch (4 on).
	var a areaMerge
	for q := 0; q < 4; q++ {
		open := 0
		for _, e := range [2]int{q, (q + 3) % 4} {
			if j := neighbours[c][e]; j < 0 || st.Cells[j].Tile == 0 {
				open++
			}
		}
		a.add(-1, 1, open, face.Col[q])
	}
	for d := 0; d < 4; d++ {
		j := int(neighbours[c][d])
		if j < 0 || st.Cells[j].Tile == 0 {
			continue
		}
		u := int(st.Cells[j].Tile)
		// Across edge d our quadrant d faces its d+3, our d+1 its d+2: the
		// neighbour's two quadrants on the shared edge.
		for _, p := range [2][2]int{{d, (d + 3) % 4}, {(d + 1) % 4, (d + 2) % 4}} {
			r := root(f.area[:], u*4+p[1])
			n := a.add(r, int(f.areaSize[r]), int(f.areaOpen[r]), f.areaCol[r])
			a.open[a.find(n)]-- // its quadrant's edge on the shared side no longer faces an empty cell
			a.join(p[0], n)
		}
	}
	for q := 0; q < 4; q++ {
		if !face.Arm[q] {
			a.join(q, (q+1)%4)
		}
	}
	var done [4]int
	for q := 0; q < 4; q++ {
		r := a.find(q)
		done[q] = r
		if slices.Contains(done[:q], r) || a.open[r] != 0 {
			continue
		}
		pts[st.Turn] += 2 * a.size[r]
		if col := a.col[r]; col != 0 {
			if o := st.Owner(col); o != engine.NoSeat {
				pts[o] += 2 * a.size[r]
			}
		}
	}
	g := 0
	for s, p := range pts {
		if engine.Seat(s) == st.Turn {
			g += p
		} else {
			g -= p
		}
	}
	return g
}

// root is find without path compression, for readers that must not
// change the union-finds.
func root(p []uint8, i int) int {
	for int(p[i]) != i {
		i = int(p[i])
	}
	return i
}

// areaMerge is KeyPoints' union-find of a placement's areas: each node is
// a quadrant of the new tile or an area of the table it touches, with the
// area's size, open edges and colour (0 when mixed).
type areaMerge struct {
	n      int
	ids    [12]int // the table's root of each node, -1 for the new tile's quadrants
	parent [12]int
	size   [12]int
	open   [12]int
	col    [12]byte
}

// add is the node of the table's area id (a new one when id is -1 or not
// yet seen).
func (a *areaMerge) add(id, size, open int, col byte) int {
	if id >= 0 {
		for i := 0; i < a.n; i++ {
			if a.ids[i] == id {
				return i
			}
		}
	}
	i := a.n
	a.n++
	a.ids[i], a.parent[i], a.size[i], a.open[i], a.col[i] = id, i, size, open, col
	return i
}

func (a *areaMerge) find(i int) int {
	for a.parent[i] != i {
		i = a.parent[i]
	}
	return i
}

func (a *areaMerge) join(x, y int) {
	x, y = a.find(x), a.find(y)
	if x == y {
		return
	}
	a.parent[y] = x
	a.size[x] += a.size[y]
	a.open[x] += a.open[y]
	if a.col[x] != a.col[y] {
		a.col[x] = 0
	}
}
