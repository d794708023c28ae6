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
			{Name: "board", Help: "square9 (default for 2 players), square11 (default for 3-4), hex or tri"},
			{Name: "maxcapture", Default: "off", Help: "maxcapture=half: one capture may take at most half the board's non-neutral cells"},
			{Name: "pie", Default: "off", Help: "pie=on (2 players): after the first piece the second player may answer swap and take it"},
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
}

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
		return nil, engine.Illegalf("board=%s: choose square9, square11, hex or tri", kind)
	}
	st := &State{Table: engine.NewTable(n), b: getBoard(kind), Kind: kind}
	switch v := strings.ToLower(setup.Option("maxcapture", "off")); v {
	case "half":
		st.MaxHalf = true
	case "off", "none", "no":
	default:
		return nil, engine.Illegalf("maxcapture=%s: write maxcapture=half (or leave it off)", v)
	}
	switch v := strings.ToLower(setup.Option("pie", "off")); v {
	case "on", "yes", "true", "1":
		if n != 2 {
			return nil, engine.Illegalf("pie is for 2 players")
		}
		st.Pie = true
	case "off", "no", "false", "0":
	default:
		return nil, engine.Illegalf("pie=%s: write pie=on or pie=off", v)
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
	st.Passed = make([]bool, n)
	st.PassAll = make([]bool, n)
	st.Lost = make([]int, n)
	st.Captures = make([]int, n)
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

// Clone returns an independent copy.
func (st *State) Clone() engine.State {
	c := *st
	c.Table = st.CloneTable()
	c.Cover = append([]int8(nil), st.Cover...)
	c.Terr = append([]int8(nil), st.Terr...)
	c.Pieces = append([]onBoard(nil), st.Pieces...) // Cells are never changed in place
	c.Hands = make([][]string, len(st.Hands))
	for i, h := range st.Hands {
		c.Hands[i] = append([]string(nil), h...)
	}
	c.Passed = append([]bool(nil), st.Passed...)
	c.PassAll = append([]bool(nil), st.PassAll...)
	c.Last = append([]int(nil), st.Last...)
	c.Lost = append([]int(nil), st.Lost...)
	c.Captures = append([]int(nil), st.Captures...)
	return &c
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

func (st *State) hasPlacement(s engine.Seat) bool {
	bl := st.blocked(s)
	for _, name := range distinct(st.Hands[s]) {
		for _, pl := range st.b.places[name] {
			if !pl.m.meets(bl) {
				return true
			}
		}
	}
	return false
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
				out = append(out, Move{Kind: Place, Piece: pl.piece, Cells: pl.cells, text: pl.text})
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
	return Move{Kind: Place, Piece: pl.piece, Cells: pl.cells, text: pl.text}, nil
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
	seat := st.Turn
	o := engine.Outcome{Seat: seat, Move: m.String()}
	st.Moves++
	switch m.Kind {
	case Pass:
		st.Passed[seat] = true
	case PassAll:
		st.Passed[seat], st.PassAll[seat] = true, true
	case Swap:
		st.swap(&o)
	case Place:
		st.place(&o, seat, m)
	}
	st.advance(&o)
	return o, nil
}

// swap (pie rule): the first piece becomes seat 1's, seat 0 takes a full
// set and moves next.
func (st *State) swap(o *engine.Outcome) {
	p := &st.Pieces[0]
	p.Seat = 1
	for _, c := range p.Cells {
		st.Cover[c] = 1
	}
	st.Hands[0], st.Hands[1] = st.Hands[1], st.Hands[0]
	st.SwapDone = true
	k := len(p.Cells)
	st.Add(o, 0, -k, "swap: the first piece changes hands")
	st.Add(o, 1, k, "swap: takes the first piece")
	o.Events = append(o.Events, engine.Event{Seat: 1, Text: "swaps: the first piece is now " + seatNames[1] + "'s, and " + seatNames[0] + " plays on with a full set"})
	st.Turn = st.prev(0) // advance moves on to seat 0
}

// prev is the seat before s (so that advance starts at s).
func (st *State) prev(s engine.Seat) engine.Seat {
	return engine.Seat((int(s) + st.N - 1) % st.N)
}

// place lays a piece and makes the captures it allows.
func (st *State) place(o *engine.Outcome, seat engine.Seat, m Move) {
	before := make([]int, st.N)
	for s := range before {
		c, t := st.score(engine.Seat(s))
		before[s] = c + t
	}
	gain := 0
	for _, c := range m.Cells {
		st.Cover[c] = int8(seat)
		if engine.Seat(st.Terr[c]) != seat {
			gain++
		}
	}
	st.Pieces = append(st.Pieces, onBoard{Seat: seat, Piece: m.Piece, Cells: m.Cells})
	h := st.Hands[seat]
	for i, p := range h {
		if p == m.Piece {
			st.Hands[seat] = append(h[:i:i], h[i+1:]...)
			break
		}
	}
	for s := range st.Passed {
		st.Passed[s] = false
	}
	st.Last = m.Cells
	st.Add(o, seat, gain, fmt.Sprintf("%s covers %d", m.Piece, gain))
	st.capture(o, seat, m.Cells)
	for s := 0; s < st.N; s++ {
		c, t := st.score(engine.Seat(s))
		d := c + t - before[s]
		if engine.Seat(s) == seat {
			d -= gain
			st.Add(o, seat, d, "capture")
		} else {
			st.Add(o, engine.Seat(s), d, "piece captured")
		}
	}
}

// capture finds the regions the new piece encloses and takes those it may.
func (st *State) capture(o *engine.Outcome, seat engine.Seat, newCells []int) {
	b := st.b
	open := func(i int) bool { return !b.neutral.has(i) && engine.Seat(st.Cover[i]) != seat }
	label := make([]int, b.n)
	for i := range label {
		label[i] = -1
	}
	var touching mask
	for _, c := range newCells {
		for _, j := range b.touch[c] {
			touching.set(j)
		}
	}
	count := 0
	stack := make([]int, 0, 32)
	var regions [][]int
	for s := 0; s < b.n; s++ {
		if label[s] >= 0 || !open(s) || !touching.has(s) {
			continue
		}
		label[s] = count
		stack = append(stack[:0], s)
		var cells []int
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			cells = append(cells, i)
			for _, j := range b.touch[i] {
				if label[j] < 0 && open(j) {
					label[j] = count
					stack = append(stack, j)
				}
			}
		}
		regions = append(regions, cells)
		count++
	}
	limit := b.free / 2
	var take []int // pieces to remove
	for _, cells := range regions {
		enclosed := true
		foreign := false
		var inside mask
		for _, c := range cells {
			enclosed = enclosed && !b.edge[c]
			foreign = foreign || (st.Terr[c] >= 0 && engine.Seat(st.Terr[c]) != seat)
			inside.set(c)
		}
		if !enclosed {
			continue
		}
		sort.Ints(cells)
		where := b.name(cells[0])
		if foreign {
			o.Events = append(o.Events, engine.Event{Seat: seat, Text: fmt.Sprintf("encloses %s at %s but cannot capture them: they hold another player's territory", cellWords(len(cells)), where)})
			continue
		}
		per := make([]int, st.N)
		var pieces []int
		for k, p := range st.Pieces {
			if p.Seat != seat && inside.has(p.Cells[0]) {
				per[p.Seat]++
				pieces = append(pieces, k)
			}
		}
		refused := ""
		for s, n := range per {
			if n >= 2 {
				refused = fmt.Sprintf("%d of %s's pieces are inside", n, seatNames[s])
				break
			}
		}
		if refused == "" && st.MaxHalf && len(cells) > limit {
			refused = fmt.Sprintf("maxcapture=half allows at most %d cells", limit)
		}
		if refused != "" {
			o.Events = append(o.Events, engine.Event{Seat: seat, Text: fmt.Sprintf("encloses %s at %s but cannot capture them: %s", cellWords(len(cells)), where, refused)})
			continue
		}
		gained := 0
		for _, c := range cells {
			if engine.Seat(st.Terr[c]) != seat {
				gained++
			}
			st.Terr[c] = int8(seat)
		}
		if gained == 0 && len(pieces) == 0 {
			continue
		}
		st.Captures[seat] += gained
		o.Events = append(o.Events, engine.Event{Seat: seat, Text: fmt.Sprintf("captures %s at %s", cellWords(len(cells)), where)})
		take = append(take, pieces...)
	}
	if len(take) == 0 {
		return
	}
	sort.Ints(take)
	kept := st.Pieces[:0:0]
	for k, p := range st.Pieces {
		if len(take) > 0 && take[0] == k {
			take = take[1:]
			for _, c := range p.Cells {
				st.Cover[c] = -1
			}
			st.Hands[p.Seat] = append(st.Hands[p.Seat], p.Piece)
			sort.Strings(st.Hands[p.Seat])
			st.Lost[p.Seat]++
			o.Events = append(o.Events, engine.Event{Seat: p.Seat, Text: fmt.Sprintf("gets the captured %s (%s) back", p.Piece, b.text(p.Cells))})
			continue
		}
		kept = append(kept, p)
	}
	st.Pieces = kept
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
			o.Events = append(o.Events, engine.Event{Seat: s, Text: "passes (pass all)"})
		case !st.hasPlacement(s):
			st.Passed[s] = true
			o.Events = append(o.Events, engine.Event{Seat: s, Text: "has no legal placement and passes"})
		default:
			st.Turn = s
			return
		}
	}
	st.end(o)
}

func (st *State) end(o *engine.Outcome) {
	st.FinishByScore(o)
}

// Resign applies the platform's rule; the resigned seat's pieces stay.
func (st *State) Resign(s engine.Seat) engine.Outcome {
	var o engine.Outcome
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
		fmt.Sprintf("Board %s: black cells are neutral", st.Kind),
		"Pale cells: territory, closed to the other players",
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
