// Package glorieta is Glorieta 3.0 by Nick Bentley: two players lay stones
// on a hexhex-7 board inside a ring of yellow and black spaces; each
// handful of six stones obliges a flip of one of your stones to its pink
// side, which then counts for both players; the first loop wins.
// Rules: docs/rules/glorieta.md.
package glorieta

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"tessera/engine"
	"tessera/engine/grid"
)

// ID is the game's registry id.
const ID = "glorieta"

// The seats.
const (
	Yellow engine.Seat = 0
	Black  engine.Seat = 1
)

// Handful is the number of stones a player picks up at a time in the
// standard game; the option handful=N (1 to 6) picks up fewer, for the
// "shorter, more tactical game" the designer offers.
const Handful = 6

// The board: a hexagon of side 7, rows a-m from the top.
var board = grid.NewHex(7)

// nCells is the number of cells of the board.
const nCells = 127

// world is the board with the ring of coloured spaces (distance 7 from the
// centre) and one more ring outside it (distance 8), from which loops are
// looked for: a cell is surrounded when it cannot reach distance 8.
var world = grid.NewHex(9)

// Stone colours of a board cell.
const (
	empty uint8 = iota
	yellowStone
	blackStone
)

var (
	worldOf   [nCells]int // world index of each board cell
	boardOf   []int       // board cell of each world index, -1 off the board
	ringSeat  []int8      // seat whose colour a world cell has: 0, 1, or -1 (not a ring space)
	ringOf    [2][]int    // world indices of each seat's ring spaces
	worldAdj  [][]int     // neighbours of each world cell
	outside   []int       // world cells at distance 8
	singles   [nCells]engine.Move
	flips     [nCells]engine.Move
	pairMoves []engine.Move // [a*nCells+b] for a < b
)

func init() {
	boardOf = make([]int, world.Len())
	ringSeat = make([]int8, world.Len())
	worldAdj = make([][]int, world.Len())
	for w := range boardOf {
		boardOf[w], ringSeat[w] = -1, -1
		world.Adj(w, func(j int) { worldAdj[w] = append(worldAdj[w], j) })
	}
	for c := 0; c < nCells; c++ {
		q, r := board.Axial(c)
		worldOf[c] = world.At(q, r)
		boardOf[worldOf[c]] = c
	}
	// The ring: the 36 spaces of distance 7 that are not corners, clockwise
	// from the left end of the top side, coloured in pairs Y Y B B ...
	k := 0
	for i, p := range grid.HexRing(7) {
		if i%7 == 0 {
			continue // a corner: no space
		}
		s := Yellow
		if k%4 >= 2 {
			s = Black
		}
		w := world.At(p[0], p[1])
		ringSeat[w] = int8(s)
		ringOf[s] = append(ringOf[s], w)
		k++
	}
	outside = world.Ring(8)
	pairMoves = make([]engine.Move, nCells*nCells)
	for a := 0; a < nCells; a++ {
		singles[a] = Move{A: a, B: -1}
		flips[a] = Move{Flip: true, A: a, B: -1}
		for b := a + 1; b < nCells; b++ {
			pairMoves[a*nCells+b] = Move{A: a, B: b}
		}
	}
	engine.Register(engine.Game{
		ID:         ID,
		Name:       "Glorieta",
		MinPlayers: 2,
		MaxPlayers: 2,
		Options: []engine.Option{{
			Name:    "handful",
			Default: strconv.Itoa(Handful),
			Help:    "stones picked up at a time, 1 to 6 (fewer: a shorter, more tactical game)",
			Values:  []string{"1", "2", "3", "4", "5", "6"},
		}},
		Summary: summary,
		New:     New,
	})
}

const summary = "**Glorieta 3.0** (Nick Bentley), 2 players: **Yellow** (seat 1) and **Black** (seat 2). " +
	"Hexagonal board of 127 cells, rows a-m from the top, cells numbered from 1 at the left of each row (a1-a7, g1-g13, m1-m7), " +
	"inside a ring of yellow and black spaces.\n" +
	"• Yellow's first turn: one stone anywhere. Then each player holds a hand of 6 stones, Black moves first.\n" +
	"• Your turn: place **1 or 2** stones from your hand on empty cells, **or flip** one of your stones on the board to its pink side. " +
	"Pink stones count for **both** players and never flip back.\n" +
	"• You must flip at least once per handful. Hand empty and flipped: you pick up 6 more. Hand empty, not flipped: your next turn is a flip, then you pick up 6. Board full: every turn is a flip.\n" +
	"• **Loop**: a connected group of your stones, pink stones and ring spaces of your colour that surrounds at least one cell, whatever is in it (six around one is the smallest). " +
	"The first loop wins at once. A flip can complete your **opponent's** loop: then they win.\n" +
	"**Notation**: `g7` one stone; `g7 g8` or `g8,g7` two stones; `flip d4` flips your stone on d4. " +
	"Autocomplete lists single stones and flips; type a cell and a space to see the pairs.\n" +
	"**Variant** `handful=N` (1 to 6, default 6): hands of N stones instead of 6, for a shorter, more tactical game."

// Move is a turn: one or two stones placed, or a flip.
type Move struct {
	Flip bool
	A, B int // cells; B is -1 unless two stones are placed (then A < B)
}

// String is the canonical notation: "g7", "g7 g8" (board order), "flip g7".
func (m Move) String() string {
	if m.Flip {
		return "flip " + board.Name(m.A)
	}
	if m.B < 0 {
		return board.Name(m.A)
	}
	a, b := m.A, m.B
	if b < a {
		a, b = b, a
	}
	return board.Name(a) + " " + board.Name(b)
}

// Key numbers the move for a search (engine.Keyer), in the notation's
// terms: a flip names one cell, a pair is unordered. Flips, single stones
// and pairs each have their own bit, so that no pair's key is a single
// stone's (a1 with i9 was i10's before enginetest.Run's key check).
func (m Move) Key() uint64 {
	if m.Flip {
		return 1<<62 | uint64(m.A)
	}
	if m.B < 0 {
		return uint64(m.A)
	}
	a, b := m.A, m.B
	if b < a {
		a, b = b, a
	}
	return 1<<61 | uint64(a)<<20 | uint64(b)
}

// State is a position.
type State struct {
	engine.Table
	Stones   [nCells]uint8 // empty, yellowStone or blackStone: the stone's owner
	Pink     [nCells]bool  // the stone is pink side up
	Hands    [2]int        // stones in hand
	Flipped  [2]bool       // flipped during the current handful
	Started  bool          // Yellow's first stone is on the board
	Empty    int           // empty cells
	Last     [2]int        // cells of the last turn (-1: none)
	Loop     []int         `fast:"-"` // world cells of the winning loop, for the picture (FastPlayer.Play leaves it out)
	HandSize int           // stones in a handful (option handful, default Handful)

	// loopPending: a loop ended the game in Play, which leaves finding
	// its cells (for the picture) to loop(), so that playouts allocate
	// nothing.
	loopPending bool
	end         uint8 // why the game ended (EndReason)
	fast        book  // for Play and PlayRandom (fast.go)
}

// Game is the id of the game's registration (engine.State).
func (st *State) Game() string { return ID }

// New sets up an empty board with Yellow to place the first stone.
func New(setup engine.Setup) (engine.State, error) {
	if setup.Players != 2 {
		return nil, engine.Illegalf("Glorieta is for exactly 2 players")
	}
	size, err := strconv.Atoi(setup.Option("handful", strconv.Itoa(Handful)))
	if err != nil || size < 1 || size > Handful {
		return nil, engine.Illegalf("handful is the number of stones picked up at a time: write a whole number from 1 to %d, like handful=4 (not %q)", Handful, setup.Option("handful", ""))
	}
	st := &State{Table: engine.NewTable(2), Empty: nCells, Last: [2]int{-1, -1}, HandSize: size}
	st.rebuild() // Apply keeps it in step from here
	return st, nil
}

// Clone returns an independent copy.
func (st *State) Clone() engine.State {
	c := *st
	c.Table = st.CloneTable()
	c.Loop = append([]int(nil), st.Loop...)
	return &c
}

func opp(s engine.Seat) engine.Seat { return 1 - s }

func colourName(s engine.Seat) string {
	if s == Yellow {
		return "Yellow"
	}
	return "Black"
}

// owns reports whether board cell c holds a stone of seat s (pink or not).
func (st *State) owns(s engine.Seat, c int) bool { return st.Stones[c] == uint8(s)+1 }

// canFlip reports whether seat s has a stone that may be flipped.
func (st *State) canFlip(s engine.Seat) bool {
	for c := 0; c < nCells; c++ {
		if st.owns(s, c) && !st.Pink[c] {
			return true
		}
	}
	return false
}

// mayPlace is how many stones seat s may place this turn (0, 1 or 2).
func (st *State) mayPlace(s engine.Seat) int {
	if !st.Started {
		if s == Yellow {
			return 1
		}
		return 0
	}
	return min(st.Hands[s], st.Empty, 2)
}

// canAct reports whether seat s has a legal action.
func (st *State) canAct(s engine.Seat) bool {
	return st.mayPlace(s) > 0 || (st.Started && st.canFlip(s))
}

// Legal lists single stones (board order), then flips, then pairs of
// stones (each unordered pair once, in board order).
func (st *State) Legal() []engine.Move {
	if st.Done {
		return nil
	}
	s := st.Turn
	n := st.mayPlace(s)
	var out []engine.Move
	if n == 2 {
		out = make([]engine.Move, 0, st.Empty*(st.Empty+1)/2+nCells)
	}
	if n >= 1 {
		for c := 0; c < nCells; c++ {
			if st.Stones[c] == empty {
				out = append(out, singles[c])
			}
		}
	}
	if st.Started {
		for c := 0; c < nCells; c++ {
			if st.owns(s, c) && !st.Pink[c] {
				out = append(out, flips[c])
			}
		}
	}
	if n == 2 {
		for a := 0; a < nCells; a++ {
			if st.Stones[a] != empty {
				continue
			}
			row := pairMoves[a*nCells:]
			for b := a + 1; b < nCells; b++ {
				if st.Stones[b] == empty {
					out = append(out, row[b])
				}
			}
		}
	}
	return out
}

const notationHelp = "write one cell (g7), two cells (g7 g8) or flip and one of your stones (flip g7)"

// Parse reads "g7", "g7 g8", "g8,g7" or "flip g7" for the seat to move.
func (st *State) Parse(text string) (engine.Move, error) {
	if st.Done {
		return nil, engine.Illegalf("the game is over")
	}
	f := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
	if len(f) == 0 {
		return nil, engine.Illegalf("%s", notationHelp)
	}
	cell := func(s string) (int, error) {
		c, err := board.Parse(s)
		if err != nil {
			return -1, engine.Illegalf("%v", err)
		}
		return c, nil
	}
	var m Move
	if f[0] == "flip" {
		if len(f) != 2 {
			return nil, engine.Illegalf("flip one stone: write flip and the cell of one of your stones, like flip %s", st.flipExample())
		}
		c, err := cell(f[1])
		if err != nil {
			return nil, err
		}
		m = Move{Flip: true, A: c, B: -1}
	} else {
		if len(f) > 2 {
			return nil, engine.Illegalf("you may place at most 2 stones a turn: %s", notationHelp)
		}
		a, err := cell(f[0])
		if err != nil {
			return nil, err
		}
		m = Move{A: a, B: -1}
		if len(f) == 2 {
			b, err := cell(f[1])
			if err != nil {
				return nil, err
			}
			if a == b {
				return nil, engine.Illegalf("you named %s twice: write two different cells, or one", board.Name(a))
			}
			m.A, m.B = min(a, b), max(a, b)
		}
	}
	if err := st.check(m); err != nil {
		return nil, err
	}
	return m, nil
}

// flipExample names a stone the mover could flip, for messages.
func (st *State) flipExample() string {
	for c := 0; c < nCells; c++ {
		if st.owns(st.Turn, c) && !st.Pink[c] {
			return board.Name(c)
		}
	}
	return "d4"
}

// check tells why a move is not legal for the seat to move, or nil.
func (st *State) check(m Move) error {
	if st.Done {
		return engine.Illegalf("the game is over")
	}
	if m.A < 0 || m.A >= nCells || m.B < -1 || m.B >= nCells || m.A == m.B || (m.Flip && m.B >= 0) {
		return engine.Illegalf("not a Glorieta move")
	}
	s := st.Turn
	if m.Flip {
		c := m.A
		switch {
		case !st.Started:
			return engine.Illegalf("the first turn is Yellow's first stone: there is nothing to flip yet")
		case st.Stones[c] == empty:
			return engine.Illegalf("%s is empty: you can only flip one of your own stones", board.Name(c))
		case !st.owns(s, c):
			return engine.Illegalf("%s is %s's stone: you can only flip one of your own", board.Name(c), colourName(opp(s)))
		case st.Pink[c]:
			return engine.Illegalf("%s is already pink side up: flip another of your stones", board.Name(c))
		}
		return nil
	}
	n := 1
	if m.B >= 0 {
		n = 2
	}
	switch {
	case !st.Started && n == 2:
		return engine.Illegalf("Yellow's first turn places exactly one stone")
	case st.Started && st.Empty == 0:
		return engine.Illegalf("the board is full: every turn is now a flip (like flip %s)", st.flipExample())
	case st.Started && st.Hands[s] == 0:
		return engine.Illegalf("you have placed your whole handful without flipping: flip one of your stones now (like flip %s), then you pick up %d more", st.flipExample(), st.handful())
	case n > st.Hands[s] && st.Started:
		return engine.Illegalf("you have only 1 stone left: place one stone")
	}
	for _, c := range []int{m.A, m.B} {
		if c >= 0 && st.Stones[c] != empty {
			return engine.Illegalf("%s is taken: place on an empty cell", board.Name(c))
		}
	}
	return nil
}

// Apply plays a turn, then any passes, and ends the game on a loop.
func (st *State) Apply(mv engine.Move) (engine.Outcome, error) {
	m, ok := mv.(Move)
	if !ok {
		return engine.Outcome{}, engine.Illegalf("not a Glorieta move")
	}
	if m.B >= 0 && m.B < m.A {
		m.A, m.B = m.B, m.A
	}
	if err := st.check(m); err != nil {
		return engine.Outcome{}, err
	}
	s := st.Turn
	o := engine.Outcome{Seat: s, Move: m.String()}
	st.Last = [2]int{m.A, m.B}
	// Apply decides loops with hole, which needs nothing but the stones;
	// it keeps Play's book up to date when the book was in step.
	keep := st.synced()
	if m.Flip {
		st.setPink(s, m.A, keep)
		st.Flipped[s] = true
		// A flip adds a member to the opponent only: it can complete
		// their loop, never the mover's.
		if h := st.hole(opp(s)); h >= 0 {
			st.Loop = st.loopCells(opp(s), h)
			o.Events = append(o.Events, engine.Event{Seat: s, Text: fmt.Sprintf("flips %s, which completes %s's loop: %s wins", board.Name(m.A), colourName(opp(s)), colourName(opp(s)))})
			st.Finish(&o, opp(s))
			st.end = endFlipped
			return o, nil
		}
	} else {
		st.setStone(s, m.A, keep)
		if m.B >= 0 {
			st.setStone(s, m.B, keep)
		}
		if !st.Started {
			st.Started = true
			st.Hands = [2]int{st.handful(), st.handful()}
			o.Events = append(o.Events, engine.Event{Seat: engine.NoSeat, Text: fmt.Sprintf("Each player takes a hand of %s; Black moves next.", stones(st.handful()))})
		} else {
			st.Hands[s] -= 1 + btoi(m.B >= 0)
		}
		if h := st.hole(s); h >= 0 {
			st.Loop = st.loopCells(s, h)
			o.Events = append(o.Events, engine.Event{Seat: s, Text: "closes a loop and wins"})
			st.Finish(&o, s)
			st.end = endPlaced
			return o, nil
		}
		if st.Empty == 0 {
			o.Events = append(o.Events, engine.Event{Seat: engine.NoSeat, Text: "The board is full: from now on every turn is a flip."})
		}
	}
	if st.Hands[s] == 0 && st.Started {
		if st.Flipped[s] {
			st.Hands[s], st.Flipped[s] = st.handful(), false
			o.Events = append(o.Events, engine.Event{Seat: s, Text: fmt.Sprintf("has used the handful and flipped: picks up %d new %s", st.handful(), stoneWord(st.handful()))})
		} else if st.Empty > 0 {
			o.Events = append(o.Events, engine.Event{Seat: s, Text: "has no stones left and must flip one of their stones next turn"})
		}
	}
	st.advance(&o)
	return o, nil
}

// handful is the number of stones picked up at a time.
func (st *State) handful() int {
	if st.HandSize == 0 { // a State built without New
		return Handful
	}
	return st.HandSize
}

// stones writes a number of stones: "1 stone", "6 stones".
func stones(n int) string { return fmt.Sprintf("%d %s", n, stoneWord(n)) }

func stoneWord(n int) string {
	if n == 1 {
		return "stone"
	}
	return "stones"
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// advance gives the turn to the other seat, or back when it cannot act.
func (st *State) advance(o *engine.Outcome) {
	next := opp(st.Turn)
	for i := 0; i < 2; i++ {
		if st.canAct(next) {
			st.Turn = next
			return
		}
		o.Events = append(o.Events, engine.Event{Seat: next, Text: "has no stone left to flip on the full board and passes"})
		next = opp(next)
	}
	// Nobody can act: every stone on a full board would be pink, which is
	// a loop for both; this cannot happen, but never hang.
	st.Finish(o)
	st.end = endStuck
}

// Resign ends the game: the other player wins.
func (st *State) Resign(s engine.Seat) engine.Outcome {
	var o engine.Outcome
	wasDone := st.Done
	if st.Table.Resign(&o, s) && !wasDone {
		st.end = endResigned
	}
	return o
}

// members marks the world cells that count for seat s: its stones, pink
// stones and the ring spaces of its colour.
func (st *State) members(s engine.Seat) []bool {
	m := make([]bool, world.Len())
	for c := 0; c < nCells; c++ {
		if st.Pink[c] || st.owns(s, c) {
			m[worldOf[c]] = true
		}
	}
	for _, w := range ringOf[s] {
		m[w] = true
	}
	return m
}

func adj(i int, visit func(j int)) {
	for _, j := range worldAdj[i] {
		visit(j)
	}
}

// hole returns the first board cell (in board order) that seat s's members
// surround, or -1 when s has no loop.
//
// A cell is surrounded when it cannot reach the outside with every member
// other than itself as a wall. With out = the cells reachable from the
// outside through non-members: a non-member cell is surrounded when it is
// not in out; a member cell when none of its neighbours is in out (opening
// it joins exactly its neighbours' regions). Ring spaces touch the outside
// (distance 8 or a corner) and are never surrounded.
func (st *State) hole(s engine.Seat) int {
	m := st.members(s)
	out := grid.Flood(world.Len(), outside, adj, func(i int) bool { return !m[i] })
	for c := 0; c < nCells; c++ {
		w := worldOf[c]
		if !m[w] {
			if !out[w] {
				return c
			}
			continue
		}
		reach := false
		for _, j := range worldAdj[w] {
			reach = reach || out[j]
		}
		if !reach {
			return c
		}
	}
	return -1
}

// loopCells is the loop of seat s around board cell h (a cell that hole
// found): the walls next to h's enclosed region that are not themselves
// enclosed by it. On the hexagonal grid they form one connected group.
func (st *State) loopCells(s engine.Seat, h int) []int {
	m := st.members(s)
	hw := worldOf[h]
	region := grid.Flood(world.Len(), []int{hw}, adj, func(i int) bool { return i == hw || !m[i] })
	out := grid.Flood(world.Len(), outside, adj, func(i int) bool { return !region[i] })
	var loop []int
	for w := range m {
		if !m[w] || region[w] || !out[w] {
			continue
		}
		for _, j := range worldAdj[w] {
			if region[j] {
				loop = append(loop, w)
				break
			}
		}
	}
	return loop
}

// Hand is the seat's stone count as [n].
func (st *State) Hand(s engine.Seat) any { return []int{st.Hands[s]} }

// info is the side-panel line of a seat.
func (st *State) info(s engine.Seat) string {
	switch {
	case !st.Started && s == Yellow:
		return "places the first stone"
	case !st.Started:
		return fmt.Sprintf("takes %s after Yellow's first", stones(st.handful()))
	case st.Done:
		if st.Flipped[s] {
			return "flipped this handful"
		}
		return "not flipped this handful"
	case st.Empty == 0:
		return "board full: flips only"
	case st.Flipped[s]:
		return "flipped this handful"
	case st.Hands[s] == 0:
		return "must flip now"
	}
	return "not flipped yet this handful"
}

// View is public: stones in hand are open information.
func (st *State) View(viewer engine.Seat) engine.View {
	v := engine.View{Seats: st.SeatViews()}
	for s := range v.Seats {
		seat := engine.Seat(s)
		v.Seats[s].Label = colourName(seat)
		v.Seats[s].Color = [2]engine.Color{engine.Yellow, engine.Black}[s]
		v.Seats[s].InHand = st.Hands[s]
		v.Seats[s].Info = []string{st.info(seat)}
	}
	switch {
	case st.Done && len(st.Win) == 1 && st.endedByLoop():
		v.Status = fmt.Sprintf("Game over: %s wins with a loop", colourName(st.Win[0]))
	case st.Done && len(st.Win) == 1:
		v.Status = fmt.Sprintf("Game over: %s wins", colourName(st.Win[0]))
	case st.Done:
		v.Status = "Game over"
	case !st.Started:
		v.Status = "Yellow to move: place the first stone"
	case st.mayPlace(st.Turn) == 0:
		v.Status = colourName(st.Turn) + " to move: flip one of your stones"
	case st.mayPlace(st.Turn) == 1:
		v.Status = colourName(st.Turn) + " to move: place 1 stone or flip"
	default:
		v.Status = colourName(st.Turn) + " to move: place 1 or 2 stones or flip"
	}
	v.Legend = []string{
		"Pink stones count for both players; ring spaces for their colour.",
		"A loop of yours around any cell wins. A flip can complete your opponent's.",
	}
	if st.handful() != Handful {
		v.Legend = append(v.Legend, fmt.Sprintf("Variant: handfuls of %s instead of %d.", stones(st.handful()), Handful))
	}
	if st.Done && st.endedByLoop() {
		v.Legend = append(v.Legend, "Outlined: the winning loop.")
	} else if st.Last[0] >= 0 {
		v.Legend = append(v.Legend, "Marked: the last turn's cells.")
	}
	return v
}
