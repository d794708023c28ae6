// Package elemental is Elemental Connection (from Twelve Tiles): 70 tiles
// with a colour on each edge, laid on an 8x8 board with coloured borders;
// matching edges score, mismatching edges cost. Rules: docs/rules/elemental.md.
package elemental

import (
	"fmt"
	"sort"
	"strings"

	"tessera/engine"
	"tessera/engine/grid"
)

// ID is the game's registry id.
const ID = "elemental"

// Colours, in the letters of the notation.
const colours = "RBGY"

var colourNames = map[byte]string{'R': "red (fire)", 'B': "blue (water)", 'G': "green (earth)", 'Y': "yellow (air)"}

var colourRGB = map[byte]engine.Color{'R': engine.Red, 'B': engine.Blue, 'G': engine.Green, 'Y': engine.Yellow}

var board = grid.Square{W: 8, H: 8}

const handSize = 2

func init() {
	engine.Register(engine.Game{
		ID:         ID,
		Name:       "Elemental Connection",
		MinPlayers: 2,
		MaxPlayers: 4,
		Options: []engine.Option{
			{Name: "borders", Help: "border colours north, east, south, west, e.g. borders=RBGY (default: drawn at random)"},
		},
		Summary: summary,
		New:     New,
		Banked:  true, // every placement's points are its player's for good, and the end counts nothing more
	})
}

const summary = `**Elemental Connection** (Twelve Tiles), 2-4 players, 8x8 board a1-h8.
Each tile has a colour on every edge: **R** fire, **B** water, **G** earth, **Y** air. You hold 2 tiles.
• Place a tile next to one on the board (the first goes anywhere), rotated as you like, then draw back to 2.
• Connections (same colour edge to edge): 1/3/6/10 points for 1/2/3/4 in one move. Misconnections: -1 each. An edge on the board's border of its own colour: +1.
• The game ends when all 64 cells are full; most points wins. No misconnection all game: a Perfect Game.
**Notation**: the cell, then the tile's edge colours clockwise from north as placed: ` + "`d5 RGBY`" + ` = north R, east G, south B, west Y. Autocomplete lists your legal moves with their points.`

// Tile is four edge colours, clockwise from north (N, E, S, W).
type Tile [4]byte

func (t Tile) String() string { return string(t[:]) }

// Rotate turns the tile clockwise by k quarter turns.
func (t Tile) Rotate(k int) Tile {
	var r Tile
	for d := 0; d < 4; d++ {
		r[(d+k)%4] = t[d]
	}
	return r
}

// Canonical is the alphabetically smallest rotation: the tile's code.
func (t Tile) Canonical() Tile {
	best := t
	for k := 1; k < 4; k++ {
		if r := t.Rotate(k); r.String() < best.String() {
			best = r
		}
	}
	return best
}

// AllTiles is the set: the 70 colourings that differ under rotation, each
// once, in code order.
func AllTiles() []Tile { return append([]Tile(nil), allTiles...) }

// allTiles is the set, worked out once: every new game and every random
// playout from the start begins with it.
var allTiles = enumerateTiles()

func enumerateTiles() []Tile {
	seen := map[Tile]bool{}
	var out []Tile
	for a := 0; a < 4; a++ {
		for b := 0; b < 4; b++ {
			for c := 0; c < 4; c++ {
				for d := 0; d < 4; d++ {
					t := Tile{colours[a], colours[b], colours[c], colours[d]}.Canonical()
					if !seen[t] {
						seen[t] = true
						out = append(out, t)
					}
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// ParseTile reads four colour letters (any case).
func ParseTile(s string) (Tile, error) {
	s = strings.ToUpper(strings.TrimSpace(s))
	var t Tile
	if len(s) != 4 {
		return t, engine.Illegalf("%q is not a tile: write its four edge colours clockwise from north, like RGBY", s)
	}
	for i := 0; i < 4; i++ {
		if strings.IndexByte(colours, s[i]) < 0 {
			return t, engine.Illegalf("%q is not a tile: the colours are R, B, G and Y", s)
		}
		t[i] = s[i]
	}
	return t, nil
}

// Move places a tile: the cell and the edges as placed.
type Move struct {
	Cell  int
	Edges Tile
}

func (m Move) String() string { return board.Name(m.Cell) + " " + m.Edges.String() }

// State is a position.
type State struct {
	engine.Table
	Borders Tile // colour of the north, east, south, west border
	Cells   [64]Tile
	Filled  [64]bool
	Placed  int
	Bag     []Tile
	Hands   [][]Tile
	Last    int // last placed cell, -1 before the first
	Misses  int // misconnections so far

	front frontier // the open cells, for Play (fast.go)
	laid  laidLog  // who laid which cell, in order, for Infer (infer.go)
}

// Key numbers the move for a search (engine.Keyer): its cell and its
// four edge colours, as the notation names them.
func (m Move) Key() uint64 {
	return uint64(m.Cell)<<32 | uint64(m.Edges[0])<<24 | uint64(m.Edges[1])<<16 | uint64(m.Edges[2])<<8 | uint64(m.Edges[3])
}

// Game is the id of the game's registration (engine.State).
func (st *State) Game() string { return ID }

// New sets up a game: border colours (from the option or the seed), the
// shuffled bag with Setup.Deck on top, two tiles to each seat in order.
func New(setup engine.Setup) (engine.State, error) {
	rng := engine.NewRand(setup.Seed)
	// The border permutation is always drawn, so that the bag's order for a
	// seed does not depend on whether the borders are fixed.
	perm := []byte(colours)
	rng.Shuffle(4, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	var borders Tile
	copy(borders[:], perm)
	if v := setup.Option("borders", ""); v != "" {
		t, err := ParseTile(v)
		seen := map[byte]bool{}
		for _, c := range t {
			seen[c] = true
		}
		if err != nil || len(seen) != 4 {
			return nil, engine.Illegalf("borders=%s: give the four colours R, B, G, Y once each, north first, like borders=RBGY", engine.Shown(v))
		}
		borders = t
	}
	bag := AllTiles()
	rng.Shuffle(len(bag), func(i, j int) { bag[i], bag[j] = bag[j], bag[i] })
	if len(setup.Deck) > 0 {
		var top []Tile
		for _, code := range setup.Deck {
			t, err := ParseTile(code)
			if err != nil {
				return nil, err
			}
			top = append(top, t.Canonical())
		}
		var err error
		if bag, err = engine.OnTop(bag, top, Tile.String); err != nil {
			return nil, err
		}
	}
	st := &State{Table: engine.NewTable(setup.Players), Borders: borders, Bag: bag, Last: -1}
	st.Hands = make([][]Tile, setup.Players)
	for s := 0; s < setup.Players; s++ {
		for len(st.Hands[s]) < handSize && len(st.Bag) > 0 {
			st.Hands[s] = append(st.Hands[s], st.Bag[0])
			st.Bag = st.Bag[1:]
		}
	}
	return st, nil
}

// Clone returns an independent copy. The bag and the hands share one
// new array (each hand with room for handSize tiles), so that a search,
// which clones often, pays one allocation for them.
func (st *State) Clone() engine.State {
	c := *st
	c.Table = st.CloneTable()
	room := len(st.Bag)
	for _, h := range st.Hands {
		room += max(len(h), handSize)
	}
	buf := make([]Tile, 0, room)
	buf = append(buf, st.Bag...)
	c.Bag = buf[:len(st.Bag):len(st.Bag)]
	c.Hands = make([][]Tile, len(st.Hands))
	for i, h := range st.Hands {
		at := len(buf)
		buf = append(buf, h...)
		c.Hands[i] = buf[at : len(buf) : at+max(len(h), handSize)]
		buf = buf[:at+max(len(h), handSize)]
	}
	return &c
}

// canPlace reports whether the cell is open for the next tile.
func (st *State) canPlace(cell int) bool {
	if st.Filled[cell] {
		return false
	}
	if st.Placed == 0 {
		return true
	}
	ok := false
	board.Orth(cell, func(j int) { ok = ok || st.Filled[j] })
	return ok
}

// Legal lists every placement of the mover: each tile in hand, each
// distinct orientation, each open cell.
func (st *State) Legal() []engine.Move {
	if st.Done {
		return nil
	}
	var cells []int
	for i := 0; i < board.Len(); i++ {
		if st.canPlace(i) {
			cells = append(cells, i)
		}
	}
	var out []engine.Move
	for _, t := range st.Hands[st.Turn] {
		for _, o := range orientations(t) {
			for _, c := range cells {
				out = append(out, Move{Cell: c, Edges: o})
			}
		}
	}
	return out
}

// orientations are the distinct rotations of a tile.
func orientations(t Tile) []Tile {
	out := []Tile{t}
	for k := 1; k < 4; k++ {
		r := t.Rotate(k)
		dup := false
		for _, o := range out {
			dup = dup || o == r
		}
		if !dup {
			out = append(out, r)
		}
	}
	return out
}

// Parse reads "d5 RGBY" for the mover.
func (st *State) Parse(text string) (engine.Move, error) {
	if st.Done {
		return nil, engine.Illegalf("the game is over")
	}
	f := strings.Fields(text)
	if len(f) == 1 && len(f[0]) >= 6 { // "d5RGBY"
		s := f[0]
		f = []string{s[:len(s)-4], s[len(s)-4:]}
	}
	if len(f) != 2 {
		return nil, engine.Illegalf("write the cell and the tile's colours clockwise from north, like d5 RGBY")
	}
	cell, err := board.Parse(f[0])
	if err != nil {
		return nil, engine.Illegalf("%v", err)
	}
	t, err := ParseTile(f[1])
	if err != nil {
		return nil, err
	}
	held := false
	for _, h := range st.Hands[st.Turn] {
		held = held || h == t.Canonical()
	}
	if !held {
		return nil, engine.Illegalf("you hold %s, not %s", st.handWords(st.Turn), t)
	}
	if st.Filled[cell] {
		return nil, engine.Illegalf("%s is already taken", board.Name(cell))
	}
	if !st.canPlace(cell) {
		return nil, engine.Illegalf("%s touches no tile: place next to a tile on the board", board.Name(cell))
	}
	return Move{Cell: cell, Edges: t}, nil
}

func (st *State) handWords(s engine.Seat) string {
	var codes []string
	for _, t := range st.Hands[s] {
		codes = append(codes, t.String())
	}
	switch len(codes) {
	case 0:
		return "no tiles"
	case 1:
		return codes[0]
	}
	return strings.Join(codes[:len(codes)-1], ", ") + " and " + codes[len(codes)-1]
}

// score counts connections, misconnections and matching borders of a tile
// placed at cell.
func (st *State) score(cell int, t Tile) (c, m, b int) {
	for d := grid.N; d <= grid.W; d++ {
		j := board.Step(cell, d)
		switch {
		case j < 0:
			if t[d] == st.Borders[d] {
				b++
			}
		case !st.Filled[j]:
		case st.Cells[j][d.Opp()] == t[d]:
			c++
		default:
			m++
		}
	}
	return
}

func deltas(seat engine.Seat, c, m, b int) []engine.Delta {
	var out []engine.Delta
	plural := func(n int, w string) string {
		if n == 1 {
			return fmt.Sprintf("1 %s", w)
		}
		return fmt.Sprintf("%d %ss", n, w)
	}
	if c > 0 {
		out = append(out, engine.Delta{Seat: seat, Points: c * (c + 1) / 2, Reason: plural(c, "connection")})
	}
	if m > 0 {
		out = append(out, engine.Delta{Seat: seat, Points: -m, Reason: plural(m, "misconnection")})
	}
	if b > 0 {
		out = append(out, engine.Delta{Seat: seat, Points: b, Reason: "border"})
	}
	return out
}

// Preview gives a move's score changes without playing it.
func (st *State) Preview(mv engine.Move) []engine.Delta {
	m := mv.(Move)
	c, mis, b := st.score(m.Cell, m.Edges)
	return deltas(st.Turn, c, mis, b)
}

// Apply plays a placement.
func (st *State) Apply(mv engine.Move) (engine.Outcome, error) {
	m, ok := mv.(Move)
	if !ok {
		return engine.Outcome{}, engine.Illegalf("not an Elemental Connection move")
	}
	// Check again: a Move may have been built by hand.
	if _, err := st.Parse(m.String()); err != nil {
		return engine.Outcome{}, err
	}
	st.front.ok = false // Play builds it again from the board
	seat := st.Turn
	o := engine.Outcome{Seat: seat, Move: m.String()}
	c, mis, b := st.score(m.Cell, m.Edges)
	for _, d := range deltas(seat, c, mis, b) {
		st.Add(&o, d.Seat, d.Points, d.Reason)
	}
	st.Misses += mis
	st.Cells[m.Cell], st.Filled[m.Cell] = m.Edges, true
	st.laid.add(st.Placed, m.Cell, seat)
	st.Placed++
	st.Last = m.Cell
	hand := st.Hands[seat]
	for i, t := range hand {
		if t == m.Edges.Canonical() {
			st.Hands[seat] = append(hand[:i:i], hand[i+1:]...)
			break
		}
	}
	for len(st.Hands[seat]) < handSize && len(st.Bag) > 0 {
		st.Hands[seat] = append(st.Hands[seat], st.Bag[0])
		st.Bag = st.Bag[1:]
	}
	st.advance(&o)
	return o, nil
}

// advance ends the game on a full board, or gives the turn to the next
// seat still in the game that holds a tile (a seat with none passes).
func (st *State) advance(o *engine.Outcome) {
	if st.Placed == board.Len() {
		st.end(o)
		return
	}
	s := st.Turn
	for i := 0; i < st.N; i++ {
		s = st.Next(s)
		if len(st.Hands[s]) > 0 {
			st.Turn = s
			return
		}
		o.Events = append(o.Events, engine.Event{Seat: s, Text: "has no tile and passes"})
	}
	st.end(o) // nobody can move: cannot happen with 70 tiles, but never hang
}

func (st *State) end(o *engine.Outcome) {
	st.FinishByScore(o)
	if st.Misses == 0 && st.Placed == board.Len() {
		o.Events = append(o.Events, engine.Event{Seat: engine.NoSeat, Text: "A Perfect Game: not a single misconnection!"})
	}
}

// Resign applies the platform's rule; the game goes on without the seat.
func (st *State) Resign(s engine.Seat) engine.Outcome {
	var o engine.Outcome
	if st.Table.Resign(&o, s) || st.Turn != s {
		return o
	}
	st.advance(&o)
	return o
}

// Hand is the seat's tiles as codes, sorted.
func (st *State) Hand(s engine.Seat) any {
	out := []string{}
	for _, t := range st.Hands[s] {
		out = append(out, t.String())
	}
	sort.Strings(out)
	return out
}

// Perfect reports whether no misconnection has been made.
func (st *State) Perfect() bool { return st.Misses == 0 }

// View is the public summary plus the viewer's own hand.
func (st *State) View(viewer engine.Seat) engine.View {
	v := engine.View{Seats: st.SeatViews()}
	for s := range v.Seats {
		v.Seats[s].InHand = len(st.Hands[s])
		v.Seats[s].Hidden = true
		if engine.Seat(s) == viewer {
			v.Seats[s].Hand = st.Hand(engine.Seat(s)).([]string)
		}
	}
	names := [4]string{"north", "east", "south", "west"}
	var parts []string
	for d := 0; d < 4; d++ {
		parts = append(parts, names[d]+" "+strings.Fields(colourNames[st.Borders[d]])[0])
	}
	v.Legend = []string{"Borders: " + strings.Join(parts, ", "), fmt.Sprintf("Tiles in bag: %d", len(st.Bag))}
	if st.Misses == 0 && st.Placed > 0 {
		v.Legend = append(v.Legend, "No misconnection yet")
	}
	return v
}
