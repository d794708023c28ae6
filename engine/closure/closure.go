// Package closure is Closure by John Valentine: 48 square tiles of three
// colours crossed by black lines, laid edge to edge; players score for
// extending lines, for enclosing areas, and at the end for the largest
// single-colour areas. Rules: docs/rules/closure.md. The tile set is this
// project's reconstruction (see tiles.go).
package closure

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"tessera/engine"
	"tessera/engine/grid"
)

// ID is the game's registry id.
const ID = "closure"

// board is the frame the unbounded table is played in.
var board = grid.Square{W: 25, H: 25}

// centre is m13, where the first tile goes.
var centre = board.Index(12, 12)

const handSize = 4

var colourNames = map[byte]string{'R': "red", 'G': "green", 'B': "blue"}
var colourLabels = map[byte]string{'R': "Red", 'G': "Green", 'B': "Blue"}
var colourRGB = map[byte]engine.Color{'R': engine.Red, 'G': engine.Green, 'B': engine.Blue}

func init() {
	engine.Register(engine.Game{
		ID:         ID,
		Name:       "Closure",
		MinPlayers: 2,
		MaxPlayers: 3,
		Options: []engine.Option{
			{Name: "colors", Default: "BGR", Help: "colours of the seats in order, e.g. colors=GB (default seat 1 Blue, seat 2 Green, seat 3 Red)"},
			{Name: "first", Help: "seat that moves first, e.g. first=2 (default: each seat draws a tile, highest starts)"},
		},
		Summary: summary,
		New:     New,
	})
}

const summary = `**Closure** (John Valentine), 2-3 players. Each player owns a colour: blue, green or red.
Tiles are split into four quadrants (R/G/B) with black arms from the centre to some edge midpoints. You hold 4 tiles (private).
• The first tile has 2+ colours and goes on **m13**. Every later tile goes next to the layout; on each edge it shares, at least one of the two facing quadrant pairs must match in colour. Arms need not match.
• Only if you cannot place may you **discard** a tile or **pass**. Draw back to 4 after every turn.
• **Lines**: if your tile joins a line that now touches 3+ tiles, score its length.
• **Enclosures**: an area closed off on every side by arms scores you 2 per quadrant; if it is all one colour, that colour's owner also scores 2 per quadrant.
• The game ends when all 48 tiles are laid, when every player in a row has passed, after 4 rounds with no tile placed, or when the mover ends a turn above 99.
• Final: the largest single-colour areas (2 with two players, 3 with three, ties included) give their colour's owner 1 per quadrant; each tile left in a hand gives every other player 2.
**Notation**: tile number, cell, clockwise turn from the tile's picture: ` + "`17 m14 90`" + ` (0 may be left out: ` + "`17 m14`" + `), ` + "`discard 17`" + `, ` + "`pass`" + `. ` + "`/hand`" + ` shows your tiles with their numbers.`

// Kind of move.
type Kind uint8

// Move kinds.
const (
	Place Kind = iota
	Discard
	Pass
)

// Move is a placement (tile, cell, quarter turns clockwise), a discard or
// a pass.
type Move struct {
	Kind Kind
	Tile int
	Cell int
	Rot  int // quarter turns, 0..3
}

func (m Move) String() string {
	switch m.Kind {
	case Discard:
		return "discard " + strconv.Itoa(m.Tile)
	case Pass:
		return "pass"
	}
	s := strconv.Itoa(m.Tile) + " " + board.Name(m.Cell)
	if m.Rot != 0 {
		s += " " + strconv.Itoa(90*m.Rot)
	}
	return s
}

// Key numbers the move for a search (engine.Keyer), from exactly the
// fields its notation shows: a discard names only its tile, a pass
// nothing.
func (m Move) Key() uint64 {
	switch m.Kind {
	case Discard:
		return 1<<60 | uint64(m.Tile)
	case Pass:
		return 2 << 60
	}
	return uint64(m.Tile)<<32 | uint64(m.Cell)<<8 | uint64(m.Rot&3)
}

// Cell is one cell of the table: the tile on it (0: empty), its quarter
// turns and the turn at which it was played.
type Cell struct {
	Tile int8
	Rot  int8
	Turn int16
}

func (c Cell) face() Face { return faces[c.Tile][c.Rot] }

// State is a position.
type State struct {
	engine.Table
	Colour   []byte // owned colour of each seat
	Cells    [625]Cell
	Laid     int     // tiles on the table
	Deck     []int   // face down, Deck[0] drawn next
	Discards []int   // face up, last is the top
	Hands    [][]int // in the order drawn
	Rng      engine.Rand
	Turns    int // turns played (placements, discards, passes)
	PassRow  int // passes in a row
	Idle     int // turns in a row in which no tile was placed
	Last     int // last placed cell, -1 before the first
	Starter  engine.Seat
	Drawn    []int          // starting-player draw by seat, nil with option first
	Final    []engine.Delta `fast:"-"` // the final scoring's breakdown, for Apply's words (FastPlayer.Play leaves it out)
	EndWhy   string

	ended endCause // why the game ended, for EndReason
	fast  fast     // what Play keeps instead of flooding (fast.go)
}

// Game is the id of the game's registration (engine.State).
func (st *State) Game() string { return ID }

// New sets up a game: seat colours, the starting-player draw (or option
// first), the shuffled deck with Setup.Deck on top, four tiles to each
// seat starting with the first player.
func New(setup engine.Setup) (engine.State, error) {
	n := setup.Players
	cols := strings.ToUpper(setup.Option("colors", ""))
	if cols == "" {
		cols = "BGR"[:n]
	}
	if len(cols) != n {
		return nil, engine.Illegalf("colors=%s: give one colour letter per seat (%d), from R, G, B, like colors=%s", engine.Shown(cols), n, "BGR"[:n])
	}
	for i := 0; i < n; i++ {
		if strings.IndexByte("RGB", cols[i]) < 0 || strings.IndexByte(cols[:i], cols[i]) >= 0 {
			return nil, engine.Illegalf("colors=%s: use the letters R, G and B, each at most once, like colors=%s", engine.Shown(cols), "BGR"[:n])
		}
	}
	st := &State{Table: engine.NewTable(n), Colour: []byte(cols), Rng: engine.NewRand(setup.Seed), Last: -1}
	all := make([]int, NumTiles)
	for i := range all {
		all[i] = i + 1
	}
	if v := setup.Option("first", ""); v != "" {
		f, err := strconv.Atoi(v)
		if err != nil || f < 1 || f > n {
			return nil, engine.Illegalf("first=%s: give the seat that moves first, 1 to %d", engine.Shown(v), n)
		}
		st.Starter = engine.Seat(f - 1)
	} else {
		st.Rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
		st.Drawn = append([]int(nil), all[:n]...)
		for s := 1; s < n; s++ {
			if st.Drawn[s] > st.Drawn[st.Starter] {
				st.Starter = engine.Seat(s)
			}
		}
		slices.Sort(all)
	}
	st.Rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	if len(setup.Deck) > 0 {
		var top []int
		for _, code := range setup.Deck {
			t, err := strconv.Atoi(strings.TrimSpace(code))
			if err != nil || t < 1 || t > NumTiles {
				return nil, engine.Illegalf("deck: %q is not a tile number (1 to %d)", code, NumTiles)
			}
			top = append(top, t)
		}
		var err error
		if all, err = engine.OnTop(all, top, strconv.Itoa); err != nil {
			return nil, err
		}
	}
	st.Deck = all
	st.Hands = make([][]int, n)
	st.Turn = st.Starter
	for i := 0; i < n; i++ {
		s := (int(st.Starter) + i) % n
		st.Hands[s] = append([]int{}, st.Deck[:handSize]...)
		st.Deck = st.Deck[handSize:]
	}
	return st, nil
}

// StartEvents announce the starting-player draw.
func (st *State) StartEvents() []engine.Event {
	if st.Drawn == nil {
		return []engine.Event{{Seat: st.Starter, Text: fmt.Sprintf("moves first (option first=%d)", st.Starter+1)}}
	}
	var ev []engine.Event
	for s, t := range st.Drawn {
		ev = append(ev, engine.Event{Seat: engine.Seat(s), Text: fmt.Sprintf("draws tile %d", t)})
	}
	ev = append(ev, engine.Event{Seat: st.Starter, Text: fmt.Sprintf("drew the highest tile (%d) and moves first; the tiles go back and the set is shuffled again", st.Drawn[st.Starter])})
	return ev
}

// Clone returns an independent copy. The deck, the discard pile and the
// hands share one new array, each with room to grow (the deck and the
// pile to the whole set, a hand to four), so that a search, which clones
// for every iteration, pays one allocation for them and Play none.
func (st *State) Clone() engine.State {
	c := *st
	c.Table = st.CloneTable()
	// Colour and Drawn are set by New and never change: shared.
	room := func(n, want int) int { return max(n, want) }
	size := room(len(st.Deck), NumTiles) + room(len(st.Discards), NumTiles)
	for _, h := range st.Hands {
		size += room(len(h), handSize)
	}
	buf := make([]int, size)
	at := 0
	part := func(s []int, want int) []int {
		n := room(len(s), want)
		p := buf[at : at+len(s) : at+n]
		copy(p, s)
		at += n
		return p
	}
	c.Deck = part(st.Deck, NumTiles)
	c.Discards = part(st.Discards, NumTiles)
	c.Hands = make([][]int, len(st.Hands))
	for i, h := range st.Hands {
		c.Hands[i] = part(h, handSize)
	}
	c.Final = slices.Clone(st.Final)
	return &c
}

// Owner is the seat owning colour c, or NoSeat.
func (st *State) Owner(c byte) engine.Seat {
	for s, x := range st.Colour {
		if x == c {
			return engine.Seat(s)
		}
	}
	return engine.NoSeat
}

func (st *State) label(s engine.Seat) string { return colourLabels[st.Colour[s]] }

// at is the face on a cell, with the tile about to be placed on cell nc
// (nc < 0: none) taken as laid.
func (st *State) laid(cell, nc int) bool {
	return cell >= 0 && (cell == nc || st.Cells[cell].Tile != 0)
}

// fits tells why face f cannot go on cell (empty string: it can).
func (st *State) fits(cell int, f Face) string {
	if st.Cells[cell].Tile != 0 {
		return board.Name(cell) + " is already taken"
	}
	if st.Laid == 0 {
		if cell != centre {
			return "the first tile goes on " + board.Name(centre)
		}
		if f.colourCount() < 2 {
			return "the first tile must have at least two colours"
		}
		return ""
	}
	touch := false
	for d := grid.N; d <= grid.W; d++ {
		j := board.Step(cell, d)
		if j < 0 || st.Cells[j].Tile == 0 {
			continue
		}
		touch = true
		g := st.Cells[j].face()
		if f.Col[d] != g.Col[(d+3)%4] && f.Col[(d+1)%4] != g.Col[(d+2)%4] {
			return fmt.Sprintf("on its %s edge neither pair of facing quadrants matches the tile on %s (it shows %s%s there, yours %s%s)",
				dirWord[d], board.Name(j), string(g.Col[(d+3)%4]), string(g.Col[(d+2)%4]), string(f.Col[d]), string(f.Col[(d+1)%4]))
		}
	}
	if !touch {
		return board.Name(cell) + " touches no tile: place next to the layout"
	}
	return ""
}

var dirWord = [4]string{"north", "east", "south", "west"}

// ok is a fast fits for an empty cell next to the layout.
func (st *State) ok(cell int, f Face) bool {
	if st.Laid == 0 {
		return f.colourCount() >= 2
	}
	for d := grid.N; d <= grid.W; d++ {
		j := board.Step(cell, d)
		if j < 0 || st.Cells[j].Tile == 0 {
			continue
		}
		g := st.Cells[j].face()
		if f.Col[d] != g.Col[(d+3)%4] && f.Col[(d+1)%4] != g.Col[(d+2)%4] {
			return false
		}
	}
	return true
}

// open lists the empty cells next to the layout (m13 on an empty table),
// in cell order.
func (st *State) open() []int {
	if st.Laid == 0 {
		return []int{centre}
	}
	var out []int
	c0, r0, c1, r1 := st.crop()
	for r := r0; r <= r1; r++ {
		for c := c0; c <= c1; c++ {
			i := board.Index(c, r)
			if st.Cells[i].Tile != 0 {
				continue
			}
			touch := false
			board.Orth(i, func(j int) { touch = touch || st.Cells[j].Tile != 0 })
			if touch {
				out = append(out, i)
			}
		}
	}
	return out
}

// placements lists the legal placements of seat s (stop after the first
// when one is enough).
func (st *State) placements(s engine.Seat, one bool) []Move {
	hand := slices.Sorted(slices.Values(st.Hands[s]))
	var out []Move
	cells := st.open()
	for _, t := range hand {
		for _, r := range rots[t] {
			f := faces[t][r]
			for _, c := range cells {
				if st.ok(c, f) {
					out = append(out, Move{Kind: Place, Tile: t, Cell: c, Rot: r})
					if one {
						return out
					}
				}
			}
		}
	}
	return out
}

// Legal lists the placements (by tile, turn, cell), or, when there is
// none, one discard per tile in hand and the pass.
func (st *State) Legal() []engine.Move {
	if st.Done {
		return nil
	}
	var out []engine.Move
	for _, m := range st.placements(st.Turn, false) {
		out = append(out, m)
	}
	if len(out) > 0 {
		return out
	}
	for _, t := range slices.Sorted(slices.Values(st.Hands[st.Turn])) {
		out = append(out, Move{Kind: Discard, Tile: t})
	}
	return append(out, Move{Kind: Pass})
}

func (st *State) holds(s engine.Seat, t int) bool { return slices.Contains(st.Hands[s], t) }

func (st *State) handWords(s engine.Seat) string {
	h := slices.Sorted(slices.Values(st.Hands[s]))
	var w []string
	for _, t := range h {
		w = append(w, strconv.Itoa(t))
	}
	switch len(w) {
	case 0:
		return "no tiles"
	case 1:
		return "tile " + w[0]
	}
	return "tiles " + strings.Join(w[:len(w)-1], ", ") + " and " + w[len(w)-1]
}

const notation = "write the tile number, the cell and a clockwise turn of 0, 90, 180 or 270 (like 17 m14 90), or discard 17, or pass"

// Parse reads a move of the seat to move.
func (st *State) Parse(text string) (engine.Move, error) {
	if st.Done {
		return nil, engine.Illegalf("the game is over")
	}
	f := strings.Fields(strings.ToLower(text))
	if len(f) == 0 {
		return nil, engine.Illegalf("%s", notation)
	}
	switch f[0] {
	case "pass", "discard":
		if f[0] == "pass" && len(f) != 1 || f[0] == "discard" && len(f) != 2 {
			return nil, engine.Illegalf("%s", notation)
		}
		if p := st.placements(st.Turn, true); len(p) > 0 {
			return nil, engine.Illegalf("you can still place a tile (for example %s): you may %s only when no placement is possible", p[0], f[0])
		}
		if f[0] == "pass" {
			return Move{Kind: Pass}, nil
		}
		t, err := strconv.Atoi(f[1])
		if err != nil || !st.holds(st.Turn, t) {
			return nil, engine.Illegalf("you hold %s: discard one of them", st.handWords(st.Turn))
		}
		return Move{Kind: Discard, Tile: t}, nil
	}
	if len(f) < 2 || len(f) > 3 {
		return nil, engine.Illegalf("%s", notation)
	}
	t, err := strconv.Atoi(f[0])
	if err != nil || f[0][0] == '+' || f[0][0] == '-' {
		return nil, engine.Illegalf("%q is not a tile number: %s", f[0], notation)
	}
	if !st.holds(st.Turn, t) {
		return nil, engine.Illegalf("you hold %s, not %d", st.handWords(st.Turn), t)
	}
	cell, err := board.Parse(f[1])
	if err != nil {
		if strings.Contains(err.Error(), "off the board") {
			return nil, engine.Illegalf("%s is outside the 25x25 frame this game is played in (columns a-y, rows 1-25)", f[1])
		}
		return nil, engine.Illegalf("%v", err)
	}
	rot := 0
	if len(f) == 3 {
		switch strings.TrimSuffix(f[2], "°") {
		case "0":
		case "90":
			rot = 1
		case "180":
			rot = 2
		case "270":
			rot = 3
		default:
			return nil, engine.Illegalf("%q is not a turn: give 0, 90, 180 or 270 degrees clockwise", f[2])
		}
	}
	rot = canon[t][rot]
	if why := st.fits(cell, faces[t][rot]); why != "" {
		return nil, engine.Illegalf("%s cannot go there: %s", Move{Kind: Place, Tile: t, Cell: cell, Rot: rot}, why)
	}
	return Move{Kind: Place, Tile: t, Cell: cell, Rot: rot}, nil
}

// Preview gives a move's score changes during play (not the final
// scoring a move may trigger).
func (st *State) Preview(mv engine.Move) []engine.Delta {
	m, ok := mv.(Move)
	if !ok || m.Kind != Place {
		return nil
	}
	return st.score(st.Turn, m.Cell, faces[m.Tile][m.Rot])
}

func remove(h []int, t int) []int {
	i := slices.Index(h, t)
	if i < 0 {
		return h
	}
	return slices.Delete(slices.Clone(h), i, i+1)
}

// Apply plays a move, draws back up to four and checks the end.
func (st *State) Apply(mv engine.Move) (engine.Outcome, error) {
	m, ok := mv.(Move)
	if !ok {
		return engine.Outcome{}, engine.Illegalf("not a Closure move")
	}
	// Check again: a Move may have been built by hand.
	p, err := st.Parse(m.String())
	if err != nil {
		return engine.Outcome{}, err
	}
	m = p.(Move)
	st.fast.ok = false // Play builds it again from the table
	seat := st.Turn
	o := engine.Outcome{Seat: seat, Move: m.String()}
	st.Turns++
	switch m.Kind {
	case Place:
		for _, d := range st.score(seat, m.Cell, faces[m.Tile][m.Rot]) {
			st.Add(&o, d.Seat, d.Points, d.Reason)
		}
		st.Cells[m.Cell] = Cell{Tile: int8(m.Tile), Rot: int8(m.Rot), Turn: int16(st.Turns)}
		st.Laid++
		st.Last = m.Cell
		st.Hands[seat] = remove(st.Hands[seat], m.Tile)
		st.PassRow, st.Idle = 0, 0
	case Discard:
		st.Hands[seat] = remove(st.Hands[seat], m.Tile)
		st.Discards = append(st.Discards, m.Tile)
		st.PassRow = 0
		st.Idle++
	case Pass:
		st.PassRow++
		st.Idle++
	}
	st.draw(seat, &o)
	if st.Laid == NumTiles {
		st.end(&o, endAllLaid, "all 48 tiles are on the table")
	} else if st.Score[seat] > 99 {
		st.end(&o, endOver99, fmt.Sprintf("%s ends the turn with more than 99 points", st.label(seat)))
	} else if !st.checkStall(&o) {
		st.Turn = st.Next(seat)
	}
	return o, nil
}

// checkStall ends the game when every player in turn has passed or four
// rounds went by without a tile placed; it reports whether it did.
func (st *State) checkStall(o *engine.Outcome) bool {
	switch a := st.Active(); {
	case st.PassRow >= a:
		st.end(o, endAllPassed, fmt.Sprintf("every player has passed in turn (%d passes in a row)", st.PassRow))
	case st.Idle >= 4*a:
		st.end(o, endIdle, fmt.Sprintf("four full rounds passed without a tile placed (%d turns)", st.Idle))
	default:
		return false
	}
	return true
}

// draw fills the seat's hand back to four, turning the discard pile into
// a new (shuffled) deck when the deck runs out.
func (st *State) draw(s engine.Seat, o *engine.Outcome) {
	for len(st.Hands[s]) < handSize {
		if len(st.Deck) == 0 {
			if len(st.Discards) == 0 {
				return
			}
			st.Deck, st.Discards = st.Discards, nil
			st.Rng.Shuffle(len(st.Deck), func(i, j int) { st.Deck[i], st.Deck[j] = st.Deck[j], st.Deck[i] })
			o.Events = append(o.Events, engine.Event{Seat: engine.NoSeat, Text: fmt.Sprintf("The deck ran out: the discard pile (%d tiles) is shuffled into a new deck", len(st.Deck))})
		}
		st.Hands[s] = append(slices.Clone(st.Hands[s]), st.Deck[0])
		st.Deck = st.Deck[1:]
	}
}

// Resign applies the platform's rule. With three players the game goes on
// without the seat, and ends if the passes or idle turns already in a row
// now meet the end conditions for the players left.
func (st *State) Resign(s engine.Seat) engine.Outcome {
	var o engine.Outcome
	already := s >= 0 && int(s) < st.N && st.Resigned[s]
	if st.Table.Resign(&o, s) || already || !(s >= 0 && int(s) < st.N) {
		return o
	}
	if !st.checkStall(&o) && st.Turn == s {
		st.Turn = st.Next(s)
	}
	return o
}

// end does the final scoring and finishes the game.
func (st *State) end(o *engine.Outcome, cause endCause, why string) {
	st.EndWhy, st.ended = why, cause
	o.Events = append(o.Events, engine.Event{Seat: engine.NoSeat, Text: "The game ends: " + why + ". Final scoring:"})
	st.Final = st.finalScores()
	for _, d := range st.Final {
		st.Add(o, d.Seat, d.Points, d.Reason)
	}
	st.FinishByScore(o)
}

// Hand is the seat's tile numbers, sorted.
func (st *State) Hand(s engine.Seat) any {
	return slices.Sorted(slices.Values(append([]int{}, st.Hands[s]...)))
}

// View is the public summary plus the viewer's own hand.
func (st *State) View(viewer engine.Seat) engine.View {
	v := engine.View{Seats: st.SeatViews()}
	for s := range v.Seats {
		c := st.Colour[s]
		v.Seats[s].Label = colourLabels[c]
		v.Seats[s].Color = colourRGB[c]
		v.Seats[s].InHand = len(st.Hands[s])
		v.Seats[s].Hidden = true
		v.Seats[s].Info = []string{"owns " + colourNames[c]}
		if engine.Seat(s) == viewer {
			for _, t := range st.Hand(engine.Seat(s)).([]int) {
				v.Seats[s].Hand = append(v.Seats[s].Hand, strconv.Itoa(t))
			}
		}
	}
	switch {
	case st.Done && len(st.Win) > 0:
		var w []string
		for _, s := range st.Win {
			w = append(w, st.label(s))
		}
		v.Status = "Game over: " + strings.Join(w, " and ") + " win"
		if len(w) == 1 {
			v.Status += "s"
		}
	case st.Done:
		v.Status = "Game over"
	default:
		v.Status = st.label(st.Turn) + " to move"
	}
	v.Legend = []string{fmt.Sprintf("Turn %d · %s laid · deck %d · discard pile %d", st.Turns, plural(st.Laid, "tile", "tiles"), len(st.Deck), len(st.Discards))}
	if n := len(st.Discards); n > 0 {
		var w []string
		for _, t := range st.Discards[max(0, n-6):] {
			w = append(w, strconv.Itoa(t))
		}
		v.Legend = append(v.Legend, "Discards (top last): "+strings.Join(w, ", "))
	}
	if len(st.Colour) < 3 {
		for _, c := range []byte("RGB") {
			if st.Owner(c) == engine.NoSeat {
				v.Legend = append(v.Legend, colourLabels[c]+" belongs to nobody")
			}
		}
	}
	if !st.Done && (st.PassRow > 0 || st.Idle > 0) {
		a := st.Active()
		v.Legend = append(v.Legend, fmt.Sprintf("Passes in a row %d of %d · turns without a tile %d of %d", st.PassRow, a, st.Idle, 4*a))
	}
	if st.Done && st.EndWhy != "" {
		v.Legend = append(v.Legend, "Ended: "+st.EndWhy)
	}
	v.Legend = append(v.Legend, "Numbers on tiles: the turn each was played")
	return v
}
