// Package tilingking is TilingKing: players lay polyomino, polyhex or
// polyiamond pieces on a square, hex or triangle board; covered cells
// score, and a ring of one's own pieces (and neutral tiles) that encloses
// at most one piece of each opponent captures the inside as territory.
// Rules: docs/rules/tilingking.md.
package tilingking

import (
	"fmt"
	"sort"
	"strings"

	"tessera/engine"
)

// ID is the game's registry id.
const ID = "tilingking"

// Seat colours in seat order.
var seatColors = []engine.Color{engine.Red, engine.Blue, engine.Green, engine.Orange}
var seatNames = []string{"Red", "Blue", "Green", "Orange"}

func init() {
	engine.Register(engine.Game{
		ID:         ID,
		Name:       "TilingKing",
		MinPlayers: 2,
		MaxPlayers: 4,
		Options: []engine.Option{
			{Name: "board", Help: "square9 (default for 2 players), square11 (default for 3-4), hex or tri", Values: Kinds},
			{Name: "maxcapture", Default: "off", Help: "maxcapture=half: one capture may take at most half the board's non-neutral cells", Values: []string{"off", "half"}},
			{Name: "pie", Default: "off", Help: "pie=on (2 players): after the first piece the second player may answer swap and take it", Values: []string{"off", "on"}},
		},
		Summary: summary,
		New:     New,
	})
}

const summary = "**TilingKing**, 2-4 players. Lay your pieces (polyforms of 1-4 cells, turn and flip them freely) on the board; each covered cell is a point.\n" +
	"• A piece may not cover a black (neutral) tile, another piece, or another player's territory; you may build inside your own.\n" +
	"• **Capture**: after your piece, every region of cells not covered by your pieces or black tiles (cells touching even at a corner belong together) that touches the new piece and does not reach the board's edge, even at a corner, is enclosed. If it holds no other player's territory and at most **one** piece of each opponent, those pieces go back to their owners' hands and the whole region becomes your territory, worth a point a cell and closed to the others.\n" +
	"• No legal placement: you pass automatically. The game ends when everyone still playing has passed since the last piece. Score: cells covered plus territory; most wins, ties share.\n" +
	"• Boards: `square9` (2 players), `square11` (3-4), `hex`, `tri`. Pieces: square M1 ×2, D2 ×2, I3, L3, I4, O4, T4, L4, S4; hex M1 ×2, D2 ×2, I3, L3, T3, I4, L4, O4, S4, Y4; tri M1, D2, I3, I4, C4, T4 ×2 each. `/hand` draws them.\n" +
	"**Notation**: the cells the piece covers, any order: `c3 c4 d4` (the engine finds which piece it is). Hex and tri cells: row letter from the top, number from the left (`f6`). Also `pass`, `pass all` (pass every remaining turn), and `swap` with pie=on."

// Kind is what a move does.
type Kind int

// Move kinds.
const (
	Place Kind = iota
	Pass
	PassAll
	Swap
)

// Move is a placement (its piece and cells), a pass, a pass-all or a swap.
type Move struct {
	Kind  Kind
	Piece string
	Cells []int // in notation order
	text  string
	pl    *placement // set by Parse and Legal
}

func (m Move) String() string {
	switch m.Kind {
	case Pass:
		return "pass"
	case PassAll:
		return "pass all"
	case Swap:
		return "swap"
	}
	return m.text
}

// onBoard is a piece on the board.
type onBoard struct {
	Seat  engine.Seat
	Piece string
	Cells []int
	taken bool // marked for capture, only while a capture is worked out
}

// State is a position.
type State struct {
	engine.Table
	b        *board
	Kind     string
	Cover    []int8 // seat covering each cell, -1
	Terr     []int8 // territory owner of each cell, -1
	Pieces   []onBoard
	Hands    [][]string // pieces left, sorted
	Passed   []bool     // passed since the last placement
	PassAll  []bool
	Last     []int // cells of the last piece laid
	MaxHalf  bool
	Pie      bool
	Moves    int // moves made (placements, passes, swaps)
	SwapDone bool
	Lost     []int // pieces of each seat captured so far
	Captures []int // cells captured by each seat so far

	// The same position as masks and counts, for playouts: the cells each
	// seat covers (Cover), each seat's territory (Terr) and each seat's
	// pieces left by kind (Hands). Every move keeps them equal to the
	// fields above; Apply and Resign first rebuild them from the fields
	// (sync), so a position built by hand in a test stays right.
	cov   [4]mask
	terr  [4]mask
	count [4][maxKinds]int8
	// chose holds the seats that passed by choice (pass, pass all) since
	// the last placement, for EndReason.
	chose uint8
}

// Game is the id of the game's registration (engine.State).
func (st *State) Game() string { return ID }

// New sets up a game.
func New(setup engine.Setup) (engine.State, error) {
	n := setup.Players
	def := Square9
	if n >= 3 {
		def = Square11
	}
	kind := strings.ToLower(setup.Option("board", def))
	ok := false
	for _, k := range Kinds {
		ok = ok || k == kind
	}
	if !ok {
		return nil, engine.Illegalf("board=%s: choose square9, square11, hex or tri", engine.Shown(kind))
	}
	st := &State{Table: engine.NewTable(n), b: getBoard(kind), Kind: kind}
	switch v := strings.ToLower(setup.Option("maxcapture", "off")); v {
	case "half":
		st.MaxHalf = true
	case "off", "none", "no":
	default:
		return nil, engine.Illegalf("maxcapture=%s: write maxcapture=half (or leave it off)", engine.Shown(v))
	}
	switch v := strings.ToLower(setup.Option("pie", "off")); v {
	case "on", "yes", "true", "1":
		if n != 2 {
			return nil, engine.Illegalf("pie is for 2 players")
		}
		st.Pie = true
	case "off", "no", "false", "0":
	default:
		return nil, engine.Illegalf("pie=%s: write pie=on or pie=off", engine.Shown(v))
	}
	st.Cover = make([]int8, st.b.n)
	st.Terr = make([]int8, st.b.n)
	for i := range st.Cover {
		st.Cover[i], st.Terr[i] = -1, -1
	}
	st.Hands = make([][]string, n)
	for s := range st.Hands {
		st.Hands[s] = fullSet(st.b)
	}
	st.Pieces = make([]onBoard, 0, n*st.b.setPieces)
	st.Passed = make([]bool, n)
	st.PassAll = make([]bool, n)
	st.Lost = make([]int, n)
	st.Captures = make([]int, n)
	st.sync()
	return st, nil
}

func fullSet(b *board) []string {
	var h []string
	for _, p := range b.set {
		for k := 0; k < p.Count; k++ {
			h = append(h, p.Name)
		}
	}
	sort.Strings(h)
	return h
}

// Clone returns an independent copy. Its slices have room for a whole
// game (every piece on the board, full hands, the winners), so that moves
// played on it, as in a playout, allocate nothing; and fields of one type
// share one allocation, as a playout clones once per game and allocating
// is most of a clone's cost.
func (st *State) Clone() engine.State {
	c := *st
	n := st.N
	bools := make([]bool, 0, 3*n)
	c.Resigned, bools = carve(bools, st.Resigned, 0)
	c.Passed, bools = carve(bools, st.Passed, 0)
	c.PassAll, _ = carve(bools, st.PassAll, 0)
	ints := make([]int, 0, 3*n)
	c.Score, ints = carve(ints, st.Score, 0)
	c.Lost, ints = carve(ints, st.Lost, 0)
	c.Captures, _ = carve(ints, st.Captures, 0)
	c.Win = append(make([]engine.Seat, 0, n), st.Win...)
	cells := make([]int8, 0, len(st.Cover)+len(st.Terr))
	c.Cover, cells = carve(cells, st.Cover, 0)
	c.Terr, _ = carve(cells, st.Terr, 0)
	// Cells are never changed in place (nor Last, which is a placement's).
	c.Pieces = append(make([]onBoard, 0, max(len(st.Pieces), n*st.b.setPieces)), st.Pieces...)
	room := 0
	for _, h := range st.Hands {
		room += max(len(h), st.b.setPieces)
	}
	hands := make([]string, 0, room)
	c.Hands = make([][]string, len(st.Hands))
	for i, h := range st.Hands {
		c.Hands[i], hands = carve(hands, h, st.b.setPieces)
	}
	return &c
}

// carve appends src to buf and returns the copy, with room to grow to
// size, and what is left of buf. Appending to the copy beyond that room
// reallocates it instead of writing over the next copy.
func carve[T any](buf, src []T, size int) (copied, rest []T) {
	start := len(buf)
	buf = append(buf, src...)
	end := start + max(len(src), size)
	if end > cap(buf) {
		end = len(buf)
	}
	buf = buf[:end]
	return buf[start : start+len(src) : end], buf
}

// blocked is the set of cells seat s may not cover.
func (st *State) blocked(s engine.Seat) mask {
	m := st.b.neutral
	for i := 0; i < st.b.n; i++ {
		if st.Cover[i] >= 0 || (st.Terr[i] >= 0 && engine.Seat(st.Terr[i]) != s) {
			m.set(i)
		}
	}
	return m
}

// kinds are the distinct pieces in a hand, in order.
func distinct(h []string) []string {
	var out []string
	for i, p := range h {
		if i == 0 || h[i-1] != p {
			out = append(out, p)
		}
	}
	return out
}

func (st *State) canSwap() bool {
	return st.Pie && !st.SwapDone && st.Moves == 1 && st.Turn == 1 && len(st.Pieces) == 1 && st.Pieces[0].Seat == 0
}

// Legal lists the mover's placements (one per set of cells covered), and
// swap when the pie rule offers it. Pass and pass all are not listed.
func (st *State) Legal() []engine.Move {
	if st.Done {
		return nil
	}
	bl := st.blocked(st.Turn)
	var out []engine.Move
	for _, name := range distinct(st.Hands[st.Turn]) {
		for _, pl := range st.b.places[name] {
			if !pl.m.meets(bl) {
				out = append(out, Move{Kind: Place, Piece: pl.piece, Cells: pl.cells, text: pl.text, pl: pl})
			}
		}
	}
	if st.canSwap() {
		out = append(out, Move{Kind: Swap})
	}
	return out
}

// Parse reads a move of the seat to move.
func (st *State) Parse(text string) (engine.Move, error) {
	if st.Done {
		return nil, engine.Illegalf("the game is over")
	}
	words := strings.Fields(strings.ToLower(strings.NewReplacer(",", " ", ";", " ").Replace(text)))
	switch strings.Join(words, " ") {
	case "":
		return nil, engine.Illegalf("write the cells your piece covers, like %s, or pass", st.example())
	case "pass":
		return Move{Kind: Pass}, nil
	case "pass all", "passall":
		return Move{Kind: PassAll}, nil
	case "swap":
		if !st.canSwap() {
			if !st.Pie {
				return nil, engine.Illegalf("swap is only allowed with the pie option")
			}
			return nil, engine.Illegalf("swap is only allowed as the second player's first move, right after the first piece")
		}
		return Move{Kind: Swap}, nil
	}
	if len(words) > 4 {
		return nil, engine.Illegalf("a piece covers at most 4 cells; you wrote %d", len(words))
	}
	b := st.b
	var cells []int
	var m mask
	for _, w := range words {
		c, err := b.parse(w)
		if err != nil {
			return nil, engine.Illegalf("%v", err)
		}
		if m.has(c) {
			return nil, engine.Illegalf("%s is written twice", b.name(c))
		}
		m.set(c)
		cells = append(cells, c)
	}
	b.sortCells(cells)
	for _, c := range cells {
		if b.neutral.has(c) {
			return nil, engine.Illegalf("%s is a black (neutral) tile: no piece may cover it", b.name(c))
		}
	}
	pl := b.byMask[m]
	if pl == nil {
		if !connected(cells, b.side) {
			return nil, engine.Illegalf("%s do not form one piece: every cell must share a full side with another", b.text(cells))
		}
		return nil, engine.Illegalf("no piece has the shape of %s; the pieces are %s", b.text(cells), setWords(b))
	}
	hand := st.Hands[st.Turn]
	held := false
	for _, p := range hand {
		held = held || p == pl.piece
	}
	if !held {
		left := "none"
		if len(hand) > 0 {
			left = handWords(hand)
		}
		return nil, engine.Illegalf("%s is a %s (%s), and you have no %s left (you have %s)", pl.text, pl.piece, b.def(pl.piece).Words, pl.piece, left)
	}
	for _, c := range pl.cells {
		if st.Cover[c] >= 0 {
			who := "one of your pieces"
			if engine.Seat(st.Cover[c]) != st.Turn {
				who = seatNames[st.Cover[c]] + "'s piece"
			}
			return nil, engine.Illegalf("%s is already covered by %s", b.name(c), who)
		}
		if st.Terr[c] >= 0 && engine.Seat(st.Terr[c]) != st.Turn {
			return nil, engine.Illegalf("%s is %s's territory, closed to you", b.name(c), seatNames[st.Terr[c]])
		}
	}
	return Move{Kind: Place, Piece: pl.piece, Cells: pl.cells, text: pl.text, pl: pl}, nil
}

func (st *State) example() string {
	for _, pl := range st.b.places["L3"] {
		return pl.text
	}
	return st.b.places["D2"][0].text
}

func connected(cells []int, side [][]int) bool {
	if len(cells) == 0 {
		return false
	}
	in := map[int]bool{}
	for _, c := range cells {
		in[c] = true
	}
	seen := map[int]bool{cells[0]: true}
	stack := []int{cells[0]}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, d := range side[c] {
			if in[d] && !seen[d] {
				seen[d] = true
				stack = append(stack, d)
			}
		}
	}
	return len(seen) == len(cells)
}

func setWords(b *board) string {
	var parts []string
	for _, p := range b.set {
		parts = append(parts, p.Name+" "+p.Words)
	}
	return strings.Join(parts, ", ")
}

// handWords is "D2 ×2, I3, M1".
func handWords(h []string) string {
	var parts []string
	for i := 0; i < len(h); {
		j := i
		for j < len(h) && h[j] == h[i] {
			j++
		}
		if j-i > 1 {
			parts = append(parts, fmt.Sprintf("%s ×%d", h[i], j-i))
		} else {
			parts = append(parts, h[i])
		}
		i = j
	}
	return strings.Join(parts, ", ")
}

// score is the cells seat s covers or owns, each once.
func (st *State) score(s engine.Seat) (covered, territory int) {
	for i := range st.Cover {
		switch {
		case engine.Seat(st.Cover[i]) == s:
			covered++
		case engine.Seat(st.Terr[i]) == s:
			territory++
		}
	}
	return
}

// Apply plays a move.
func (st *State) Apply(mv engine.Move) (engine.Outcome, error) {
	m, ok := mv.(Move)
	if !ok {
		return engine.Outcome{}, engine.Illegalf("not a TilingKing move")
	}
	// Check again: a Move may have been built by hand.
	m2, err := st.Parse(m.String())
	if err != nil {
		return engine.Outcome{}, err
	}
	m = m2.(Move)
	st.sync()
	o := engine.Outcome{Seat: st.Turn, Move: m.String()}
	st.step(&o, m.Kind, m.pl)
	return o, nil
}

// step plays a checked move for the seat to move, and the passes that
// follow. With a nil outcome (Play, PlayRandom) it builds no words: every
// change to the position is the same either way.
func (st *State) step(o *engine.Outcome, kind Kind, pl *placement) {
	seat := st.Turn
	st.Moves++
	switch kind {
	case Pass:
		st.Passed[seat] = true
		st.chose |= 1 << seat
	case PassAll:
		st.Passed[seat], st.PassAll[seat] = true, true
		st.chose |= 1 << seat
	case Swap:
		st.swap(o)
	case Place:
		st.place(o, seat, pl)
	}
	st.advance(o)
}

// add changes a seat's score, and records why when there is an outcome.
func (st *State) add(o *engine.Outcome, s engine.Seat, points int, reason string) {
	if o == nil {
		st.Score[s] += points
		return
	}
	st.Add(o, s, points, reason)
}

// say records an event when there is an outcome; text is only built then.
func say(o *engine.Outcome, s engine.Seat, text func() string) {
	if o != nil {
		o.Events = append(o.Events, engine.Event{Seat: s, Text: text()})
	}
}

// swap (pie rule): the first piece becomes seat 1's, seat 0 takes a full
// set and moves next.
func (st *State) swap(o *engine.Outcome) {
	p := &st.Pieces[0]
	p.Seat = 1
	m := maskOf(p.Cells)
	for _, c := range p.Cells {
		st.Cover[c] = 1
	}
	st.cov[0], st.cov[1] = st.cov[0].andNot(m), st.cov[1].or(m)
	st.Hands[0], st.Hands[1] = st.Hands[1], st.Hands[0]
	st.count[0], st.count[1] = st.count[1], st.count[0]
	st.SwapDone = true
	k := len(p.Cells)
	st.add(o, 0, -k, "swap: the first piece changes hands")
	st.add(o, 1, k, "swap: takes the first piece")
	say(o, 1, func() string {
		return "swaps: the first piece is now " + seatNames[1] + "'s, and " + seatNames[0] + " plays on with a full set"
	})
	st.Turn = st.prev(0) // advance moves on to seat 0
}

// prev is the seat before s (so that advance starts at s).
func (st *State) prev(s engine.Seat) engine.Seat {
	return engine.Seat((int(s) + st.N - 1) % st.N)
}

// place lays a piece and makes the captures it allows. A covered cell
// scores for its owner, a territory cell for its owner unless covered, so
// the piece gains the cells that were not its seat's territory already.
func (st *State) place(o *engine.Outcome, seat engine.Seat, pl *placement) {
	gain := pl.m.andNot(st.terr[seat]).count()
	for _, c := range pl.cells {
		st.Cover[c] = int8(seat)
	}
	st.cov[seat] = st.cov[seat].or(pl.m)
	st.Pieces = append(st.Pieces, onBoard{Seat: seat, Piece: pl.piece, Cells: pl.cells})
	st.takeFromHand(seat, pl.piece, pl.kind)
	for s := range st.Passed {
		st.Passed[s] = false
	}
	st.chose = 0
	st.Last = pl.cells
	if o != nil {
		st.Add(o, seat, gain, fmt.Sprintf("%s covers %d", pl.piece, gain))
	} else {
		st.Score[seat] += gain
	}
	st.capture(o, seat, pl)
}

// takeFromHand removes one piece from a seat's sorted hand, in place.
func (st *State) takeFromHand(s engine.Seat, piece string, kind int) {
	h := st.Hands[s]
	for i, p := range h {
		if p == piece {
			copy(h[i:], h[i+1:])
			st.Hands[s] = h[:len(h)-1]
			break
		}
	}
	if kind >= 0 {
		st.count[s][kind]--
	}
}

// giveBack returns a captured piece to its owner's sorted hand.
func (st *State) giveBack(s engine.Seat, piece string) {
	h := append(st.Hands[s], piece)
	i := len(h) - 1
	for ; i > 0 && h[i-1] > piece; i-- {
		h[i] = h[i-1]
	}
	h[i] = piece
	st.Hands[s] = h
	if k := st.b.kindOf(piece); k >= 0 {
		st.count[s][k]++
	}
}

// capture finds the regions the new piece encloses and takes those it
// may. The regions are disjoint, so judging and taking them one after the
// other is the same as judging them all on the position right after the
// placement; the captured pieces leave the board together at the end.
func (st *State) capture(o *engine.Outcome, seat engine.Seat, pl *placement) {
	b := st.b
	open := b.playable.andNot(st.cov[seat])
	var foreign mask
	for s := 0; s < st.N; s++ {
		if engine.Seat(s) != seat {
			foreign = foreign.or(st.terr[s])
		}
	}
	limit := b.free / 2
	gainedAll, taken := 0, false
	for seeds := pl.touch.and(open); !seeds.empty(); {
		region, enclosed := b.flood(seeds.first(), open)
		seeds = seeds.andNot(region)
		if !enclosed {
			continue
		}
		if region.meets(foreign) {
			say(o, seat, func() string {
				return fmt.Sprintf("encloses %s at %s but cannot capture them: they hold another player's territory", cellWords(region.count()), b.name(region.first()))
			})
			continue
		}
		var per [4]int
		pieces := 0
		for _, p := range st.Pieces {
			if p.Seat != seat && region.has(p.Cells[0]) {
				per[p.Seat]++
				pieces++
			}
		}
		refused := ""
		for s := 0; s < st.N; s++ {
			if per[s] >= 2 {
				refused = fmt.Sprintf("%d of %s's pieces are inside", per[s], seatNames[s])
				break
			}
		}
		if refused == "" && st.MaxHalf && region.count() > limit {
			refused = fmt.Sprintf("maxcapture=half allows at most %d cells", limit)
		}
		if refused != "" {
			say(o, seat, func() string {
				return fmt.Sprintf("encloses %s at %s but cannot capture them: %s", cellWords(region.count()), b.name(region.first()), refused)
			})
			continue
		}
		gained := region.andNot(st.terr[seat]).count()
		for w := 0; w < 2; w++ {
			for x := region[w]; x != 0; x &= x - 1 {
				st.Terr[w<<6|trailing(x)] = int8(seat)
			}
		}
		st.terr[seat] = st.terr[seat].or(region)
		if gained == 0 && pieces == 0 {
			continue
		}
		st.Captures[seat] += gained
		gainedAll += gained
		say(o, seat, func() string {
			return fmt.Sprintf("captures %s at %s", cellWords(region.count()), b.name(region.first()))
		})
		for k := range st.Pieces {
			if p := &st.Pieces[k]; p.Seat != seat && region.has(p.Cells[0]) {
				p.taken, taken = true, true
			}
		}
	}
	var lost [4]int
	if taken {
		kept := st.Pieces[:0]
		for _, p := range st.Pieces {
			if !p.taken {
				kept = append(kept, p)
				continue
			}
			for _, c := range p.Cells {
				st.Cover[c] = -1
			}
			st.cov[p.Seat] = st.cov[p.Seat].andNot(maskOf(p.Cells))
			st.giveBack(p.Seat, p.Piece)
			st.Lost[p.Seat]++
			lost[p.Seat] += len(p.Cells)
			say(o, p.Seat, func() string {
				return fmt.Sprintf("gets the captured %s (%s) back", p.Piece, b.text(p.Cells))
			})
		}
		clear(st.Pieces[len(kept):])
		st.Pieces = kept
	}
	// The captor gains the captured cells that were not its territory; an
	// owner loses the cells of its pieces taken (they hold no territory:
	// a region with another player's territory is never captured).
	for s := 0; s < st.N; s++ {
		if engine.Seat(s) == seat {
			st.add(o, seat, gainedAll, "capture")
		} else {
			st.add(o, engine.Seat(s), -lost[s], "piece captured")
		}
	}
}

func (st *State) allPassed() bool {
	for s := 0; s < st.N; s++ {
		if !st.Resigned[s] && !st.Passed[s] {
			return false
		}
	}
	return true
}

// advance gives the turn to the next seat still in the game, passing for
// those who chose pass all or cannot place, or ends the game.
func (st *State) advance(o *engine.Outcome) {
	s := st.Turn
	for i := 0; i <= st.N; i++ {
		if st.allPassed() {
			st.end(o)
			return
		}
		s = st.Next(s)
		switch {
		case st.PassAll[s]:
			st.Passed[s] = true
			st.chose |= 1 << s
			say(o, s, func() string { return "passes (pass all)" })
		case !st.hasPlacement(s):
			st.Passed[s] = true
			say(o, s, func() string { return "has no legal placement and passes" })
		default:
			st.Turn = s
			return
		}
	}
	st.end(o)
}

// end finishes the game by score. Without an outcome it reuses the
// winners' slice, so that a playout's last move allocates nothing either;
// the winners are the same as FinishByScore's.
func (st *State) end(o *engine.Outcome) {
	if o != nil {
		st.FinishByScore(o)
		return
	}
	best, win := 0, st.Win[:0]
	for s := 0; s < st.N; s++ {
		if st.Resigned[s] {
			continue
		}
		switch {
		case len(win) == 0 || st.Score[s] > best:
			best, win = st.Score[s], append(win[:0], engine.Seat(s))
		case st.Score[s] == best:
			win = append(win, engine.Seat(s))
		}
	}
	st.Done, st.Win = true, win
}

// Resign applies the platform's rule; the resigned seat's pieces stay.
func (st *State) Resign(s engine.Seat) engine.Outcome {
	var o engine.Outcome
	st.sync()
	if st.Table.Resign(&o, s) {
		return o
	}
	if st.Done {
		return o
	}
	if st.Turn == s {
		st.advance(&o)
	} else if st.allPassed() {
		st.end(&o)
	}
	return o
}

// Hand is the seat's pieces left, sorted.
func (st *State) Hand(s engine.Seat) any {
	return append([]string{}, st.Hands[s]...)
}

// View is the public summary: every hand is public.
func (st *State) View(viewer engine.Seat) engine.View {
	v := engine.View{Seats: st.SeatViews()}
	for s := range v.Seats {
		sv := &v.Seats[s]
		sv.Color = seatColors[s]
		sv.Label = seatNames[s]
		sv.InHand = len(st.Hands[s])
		c, t := st.score(engine.Seat(s))
		sv.Info = append(sv.Info, fmt.Sprintf("%d covered + %d territory", c, t))
		left := "none"
		if len(st.Hands[s]) > 0 {
			left = strings.ReplaceAll(strings.ReplaceAll(handWords(st.Hands[s]), ", ", " "), " ×", "×")
		}
		sv.Info = append(sv.Info, "left: "+left)
		switch {
		case st.PassAll[s] && !st.Resigned[s]:
			sv.Info = append(sv.Info, "passes every turn (pass all)")
		case st.Passed[s] && !st.Resigned[s] && !st.Done:
			sv.Info = append(sv.Info, "passed")
		}
		if engine.Seat(s) == viewer {
			sv.Hand = st.Hand(engine.Seat(s)).([]string)
		}
	}
	switch {
	case st.Done && len(st.Win) == 1:
		v.Status = "Game over: " + seatNames[st.Win[0]] + " wins"
	case st.Done && len(st.Win) > 1:
		var names []string
		for _, w := range st.Win {
			names = append(names, seatNames[w])
		}
		v.Status = "Game over: " + strings.Join(names, " and ") + " share the win"
	case st.Done:
		v.Status = "Game over"
	default:
		v.Status = seatNames[st.Turn] + " to move"
	}
	v.Legend = []string{
		fmt.Sprintf("Board %s: black cells are neutral, beige cells are empty", st.Kind),
		"Cells tinted in a player's colour and bordered in it: that player's territory, closed to the others",
		"Pink outline: the last piece",
	}
	if st.MaxHalf {
		v.Legend = append(v.Legend, fmt.Sprintf("maxcapture=half: at most %d cells per capture", st.b.free/2))
	}
	if st.canSwap() {
		v.Legend = append(v.Legend, "Pie rule: Blue may answer swap")
	}
	return v
}

func cellWords(n int) string {
	if n == 1 {
		return "1 cell"
	}
	return fmt.Sprintf("%d cells", n)
}
