// Package knotwork is Cameron Browne's knot-tile game, the tile form of his
// dice game Osbo: two players add path tiles to one shared Celtic-knot
// design that must stay within a 5x5 window; the longest knot (closed
// strand) through a player's own tiles wins. Rules: docs/rules/knotwork.md.
package knotwork

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"tessera/engine"
	"tessera/engine/grid"
)

// ID is the game's registry id.
const ID = "knotwork"

// board is the frame the design grows in: the design starts at e5 and must
// fit a 5x5 window, so it never leaves a 9x9 frame.
var board = grid.Square{W: 9, H: 9}

// Window is the side of the square the design must fit in.
const Window = 5

// Start is the cell of the neutral crossing that starts the game (e5).
var Start = board.Index(4, 4)

func init() {
	engine.Register(engine.Game{
		ID:         ID,
		Name:       "Knotwork",
		MinPlayers: 1, // 1 only for a puzzle (New says so)
		MaxPlayers: 2,
		Options: []engine.Option{
			{Name: "puzzle", Help: "easy or hard, for one player alone: easy fits all 25 tiles into the 5x5 window, hard makes them one single knot", Values: []string{"easy", "hard"}},
		},
		Summary: summary,
		New:     New,
		Puzzle:  &puzzle,
	})
}

const summary = `**Knotwork** (Cameron Browne's knot tiles, the tile form of Osbo), 2 players. Build one Celtic knot design together; score the longest knot through your own tiles.
• Tiles: marks on edges, two strands leave at each mark. **E** end-cap (1 mark), **S** straight (2 opposite), **C** corner (2 adjacent), **B** branch (3). Orange and Blue each own 2E 2S 4C 2B; the neutral (white) tiles are one E, S, C, B and the crossing that starts on e5. All supplies are open.
• Your turn: add one of your tiles or a neutral tile, any rotation, on an empty cell so that it covers at least one open mark (a mark with an empty cell next to it), every shared edge matches (mark to mark, blank to blank), and the tiles plus every cell an open mark points into still fit in a 5x5 window.
• No legal move: you pass (automatic). The game ends when neither player can move.
• A knot is a closed strand. Your knot score = your tiles it passes through. Best knot wins; ties go to your second best knot, and so on; all equal is a draw. Open strands score nothing.
**Notation**: the cell, then the tile's marked edges (any order; written N E S W), ` + "`*`" + ` for a neutral tile: ` + "`d4 NE`" + ` = your corner on d4 with marks north and east; ` + "`f5 NES*`" + ` = neutral branch; ` + "`e6 S`" + ` = your end-cap. Autocomplete lists your legal moves.
**Puzzles** (1 player, option ` + "`puzzle=easy`" + ` or ` + "`puzzle=hard`" + `): the crossing on e5, the other 24 tiles yours, the usual placement rules. Easy: fit all 25 tiles into the 5x5 window. Hard: make them one single knot. ` + "`undo`" + ` takes back the last tile; a hint shows a tile of a solution from where you are.`

// Kind is a tile type, by its marks.
type Kind int

// Tile types, in the order of their letters "ESCBX".
const (
	EndCap Kind = iota
	Straight
	Corner
	Branch
	Crossing
	kinds
)

// Letter is the type's letter in hands (B, C, E, S; X for the crossing).
func (k Kind) Letter() string { return string("ESCBX"[k]) }

func (k Kind) String() string {
	return [...]string{"end-cap", "straight", "corner", "branch", "crossing"}[k]
}

// Ports: each mark has two strand ends, named by the side of the mark's
// midpoint they lie on. Port 2d+k is on edge d (N, E, S, W); k counts
// clockwise around the tile, so k=0 is N-left, E-top, S-right, W-bottom.
const (
	NL = 0 // N-left
	NR = 1 // N-right
	ET = 2 // E-top
	EB = 3 // E-bottom
	SR = 4 // S-right
	SL = 5 // S-left
	WB = 6 // W-bottom
	WT = 7 // W-top
)

// PortName names a port ("N-left").
func PortName(p int) string {
	return [...]string{"N-left", "N-right", "E-top", "E-bottom", "S-right", "S-left", "W-bottom", "W-top"}[p]
}

// Across is the port of the neighbour that port p joins across its edge:
// the strands cross at the mark, so E-top meets W-bottom, S-left meets
// N-right and so on.
func Across(p int) int { return (p + 4) % 8 }

// base is each type in one orientation, exactly as the rules give it.
var base = [kinds]struct {
	mask  uint8
	pairs [][2]int
}{
	EndCap:   {1 << grid.S, [][2]int{{SL, SR}}},
	Straight: {1<<grid.N | 1<<grid.S, [][2]int{{NL, SL}, {NR, SR}}},
	Corner:   {1<<grid.W | 1<<grid.S, [][2]int{{WT, SR}, {WB, SL}}},
	Branch:   {1<<grid.W | 1<<grid.E | 1<<grid.S, [][2]int{{WT, ET}, {WB, SL}, {SR, EB}}},
	Crossing: {15, [][2]int{{NL, WT}, {NR, ET}, {EB, SR}, {SL, WB}}},
}

// Joins lists, for each mask of marked edges (bit d for side d), the port
// pairs joined by the tile's strands, each pair low port first, sorted.
// KindOf is the type of the tile with that mask.
var (
	Joins  [16][][2]int
	KindOf [16]Kind
)

func init() {
	for k := EndCap; k < kinds; k++ {
		b := base[k]
		for r := 0; r < 4; r++ {
			var m uint8
			for d := 0; d < 4; d++ {
				if b.mask&(1<<d) != 0 {
					m |= 1 << ((d + r) % 4)
				}
			}
			var pairs [][2]int
			for _, p := range b.pairs {
				a, c := (p[0]+2*r)%8, (p[1]+2*r)%8
				if a > c {
					a, c = c, a
				}
				pairs = append(pairs, [2]int{a, c})
			}
			sort.Slice(pairs, func(i, j int) bool { return pairs[i][0] < pairs[j][0] })
			if Joins[m] != nil && fmt.Sprint(Joins[m]) != fmt.Sprint(pairs) {
				panic("knotwork: rotation gives a different strand model for mask " + strconv.Itoa(int(m)))
			}
			Joins[m], KindOf[m] = pairs, k
		}
	}
	buildTables()
}

// Edges writes a mask in N E S W order ("NES").
func Edges(mask uint8) string {
	var b strings.Builder
	for d := grid.N; d <= grid.W; d++ {
		if mask&(1<<d) != 0 {
			b.WriteString(d.String())
		}
	}
	return b.String()
}

// Neutral is the owner index of the white tiles.
const Neutral = 2

// Set is the number of tiles of each type a supply starts with: Orange,
// Blue, neutral (this project's reconstruction of the 25-tile set).
var Set = [3][kinds]int{
	{EndCap: 2, Straight: 2, Corner: 4, Branch: 2},
	{EndCap: 2, Straight: 2, Corner: 4, Branch: 2},
	{EndCap: 1, Straight: 1, Corner: 1, Branch: 1, Crossing: 1},
}

var seatNames = [3]string{"Orange", "Blue", "neutral"}

// Move lays a tile: the cell, its marked edges as placed, and whether it
// is a neutral tile. In a puzzle it may instead take back the last tile
// (Undo, the other fields zero).
type Move struct {
	Cell    int
	Mask    uint8
	Neutral bool
	Undo    bool
}

func (m Move) String() string {
	if m.Undo {
		return "undo"
	}
	s := board.Name(m.Cell) + " " + Edges(m.Mask)
	if m.Neutral {
		s += "*"
	}
	return s
}

// Key numbers the move for a search (engine.Keyer): its cell, its
// marked edges and whether it is neutral; undo is one number of its own.
func (m Move) Key() uint64 {
	if m.Undo {
		return 1 << 62
	}
	k := uint64(m.Cell)<<9 | uint64(m.Mask)
	if m.Neutral {
		k |= 1 << 8
	}
	return k
}

// State is a position. Change its board only through Apply or Play (a
// State built by hand, with fx zero, rebuilds its derived data on first
// use).
type State struct {
	engine.Table
	Mask   [81]uint8 // marked edges of the tile on each cell; 0 = empty
	Owner  [81]int8  // 0 Orange, 1 Blue, 2 neutral
	Supply [3][kinds]int
	Placed int
	Last   int // last laid cell, -1 at the start
	// History is the cells in the order their tiles were laid (the first
	// Placed entries; e5 first), for a puzzle's undo.
	History [25]int8
	Puzzle  Level // a one-player puzzle, or NoPuzzle (puzzle.go)

	fx derived // kept up to date by each placement (fast.go)
}

// Game is the id of the game's registration (engine.State).
func (st *State) Game() string { return ID }

// New sets up a game: the neutral crossing on e5, Orange to move; or, for
// one player with the puzzle option, a puzzle (puzzle.go).
func New(setup engine.Setup) (engine.State, error) {
	level, err := puzzleOption(setup)
	if err != nil {
		return nil, err
	}
	st := &State{Table: engine.NewTable(setup.Players), Supply: Set, Last: -1, Puzzle: level}
	st.Mask[Start], st.Owner[Start] = 15, Neutral
	st.Supply[Neutral][Crossing]--
	st.History[0] = int8(Start)
	st.Placed = 1
	if level != NoPuzzle { // every tile is the player's own
		st.Supply = [3][kinds]int{}
		for o := 0; o < 3; o++ {
			for k := EndCap; k < Crossing; k++ {
				st.Supply[0][k] += Set[o][k]
			}
		}
	}
	st.fx.sync(st)
	return st, nil
}

// Clone returns an independent copy.
func (st *State) Clone() engine.State {
	c := *st
	c.Table = st.CloneTable()
	return &c
}

// box is a bounding box of cells.
type box struct{ c0, c1, r0, r1 int }

func emptyBox() box { return box{c0: 99, c1: -1, r0: 99, r1: -1} }

func (b *box) add(cell int) {
	c, r := board.XY(cell)
	b.c0, b.c1, b.r0, b.r1 = min(b.c0, c), max(b.c1, c), min(b.r0, r), max(b.r1, r)
}

func (b box) fits() bool { return b.c1-b.c0 < Window && b.r1-b.r0 < Window }

// targets are the empty cells that open marks point into, each once, in
// cell order. A mark pointing off the frame gives -1 (never with the
// window rule kept).
func (st *State) targets() []int {
	var seen [81]bool
	var out []int
	for i := 0; i < board.Len(); i++ {
		if st.Mask[i] == 0 {
			continue
		}
		for d := grid.N; d <= grid.W; d++ {
			if st.Mask[i]&(1<<d) == 0 {
				continue
			}
			j := board.Step(i, d)
			if j < 0 {
				out = append(out, -1)
			} else if st.Mask[j] == 0 && !seen[j] {
				seen[j] = true
				out = append(out, j)
			}
		}
	}
	sort.Ints(out)
	return out
}

// Region is the bounding box of the tiles and the cells open marks point
// into: the part of the frame the design already claims.
func (st *State) region() box {
	b := emptyBox()
	for i := 0; i < board.Len(); i++ {
		if st.Mask[i] != 0 {
			b.add(i)
		}
	}
	for _, t := range st.targets() {
		if t >= 0 {
			b.add(t)
		}
	}
	return b
}

// WindowOK reports whether the design keeps to the 5x5 window: the tiles
// plus every empty cell an open mark points into fit in 5x5.
func (st *State) WindowOK() bool {
	for _, t := range st.targets() {
		if t < 0 {
			return false
		}
	}
	return st.region().fits()
}

// need tells, for an empty cell, which edges must be marked (must) and
// which are fixed by a laid neighbour (fixed); open reports whether some
// neighbour's mark points into the cell.
func (st *State) need(cell int) (must, fixed uint8, open bool) {
	for d := grid.N; d <= grid.W; d++ {
		j := board.Step(cell, d)
		if j < 0 {
			fixed |= 1 << d // nothing can ever lie beyond the frame
			continue
		}
		if st.Mask[j] == 0 {
			continue
		}
		fixed |= 1 << d
		if st.Mask[j]&(1<<d.Opp()) != 0 {
			must |= 1 << d
			open = true
		}
	}
	return
}

// windowAfter checks the window rule for a tile with mask on an empty
// cell whose shared edges match; targets are the current open targets.
func (st *State) windowAfter(cell int, mask uint8, base box, targets []int) bool {
	b := base
	b.add(cell)
	for _, t := range targets {
		if t < 0 {
			return false
		}
		if t != cell {
			b.add(t)
		}
	}
	for d := grid.N; d <= grid.W; d++ {
		if mask&(1<<d) == 0 {
			continue
		}
		j := board.Step(cell, d)
		if j < 0 {
			return false
		}
		if st.Mask[j] == 0 {
			b.add(j)
		}
	}
	return b.fits()
}

func (st *State) tilesBox() box {
	b := emptyBox()
	for i := 0; i < board.Len(); i++ {
		if st.Mask[i] != 0 {
			b.add(i)
		}
	}
	return b
}

// CanMove reports whether seat has a legal placement.
func (st *State) CanMove(seat engine.Seat) bool { return st.view().canMove(seat) }

// Legal lists every distinct placement (cell, marked edges, own or
// neutral) of the seat to move: by cell, then mask, own tile before
// neutral.
func (st *State) Legal() []engine.Move {
	if st.Done {
		return nil
	}
	f := st.view()
	out := f.appendMoves(st, st.Turn, make([]engine.Move, 0, f.count(st.Turn)+1))
	if st.canUndo() {
		out = append(out, Move{Undo: true})
	}
	return out
}

const howTo = "write the cell and the tile's marked edges, like d4 NE (add * for a neutral tile: f5 NES*)"

// Parse reads "d4 NE", "f5 NES*", "e6 S" (edges in any order, any case).
func (st *State) Parse(text string) (engine.Move, error) {
	if st.Done {
		return nil, engine.Illegalf("the game is over")
	}
	s := strings.ToLower(strings.Join(strings.Fields(text), ""))
	if s == "undo" {
		return st.parseUndo()
	}
	i := 1
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if len(s) < 2 || s[0] < 'a' || s[0] > 'z' || i == 1 {
		return nil, engine.Illegalf("%s", howTo)
	}
	cell, err := board.Parse(s[:i])
	if err != nil {
		return nil, engine.Illegalf("%v", err)
	}
	var mask uint8
	neutral := false
	for _, ch := range s[i:] {
		switch ch {
		case '*':
			if neutral {
				return nil, engine.Illegalf("write * once, after the edges, for a neutral tile")
			}
			neutral = true
		case 'n', 'e', 's', 'w':
			d := grid.Dir(strings.IndexRune("nesw", ch))
			if mask&(1<<d) != 0 {
				return nil, engine.Illegalf("edge %s is written twice: list each marked edge once, like d4 NE", d)
			}
			mask |= 1 << d
		default:
			return nil, engine.Illegalf("%q is not an edge: %s", string(ch), howTo)
		}
	}
	if mask == 0 {
		return nil, engine.Illegalf("which edges of the tile are marked? %s", howTo)
	}
	if st.Puzzle != NoPuzzle {
		neutral = false // all the tiles are yours: * changes nothing
	}
	m := Move{Cell: cell, Mask: mask, Neutral: neutral}
	if err := st.check(st.Turn, m); err != nil {
		return nil, err
	}
	return m, nil
}

// supplyWords lists a supply ("2 corners, 1 branch" or "no tiles").
func (st *State) supplyWords(owner int) string {
	var parts []string
	for k := EndCap; k < kinds; k++ {
		if n := st.Supply[owner][k]; n > 0 {
			w := k.String()
			if n > 1 {
				w += "s"
			}
			if k == Branch && n > 1 {
				w = "branches"
			}
			parts = append(parts, fmt.Sprintf("%d %s", n, w))
		}
	}
	if len(parts) == 0 {
		return "no tiles"
	}
	return strings.Join(parts, ", ")
}

var sideNames = [4]string{"north", "east", "south", "west"}

// check tells why seat may not play m, or nil.
func (st *State) check(seat engine.Seat, m Move) error {
	if m.Undo || m.Cell < 0 || m.Cell >= board.Len() || m.Mask == 0 || m.Mask > 15 {
		return engine.Illegalf("not a placement: %s", howTo)
	}
	k := KindOf[m.Mask]
	if k == Crossing {
		return engine.Illegalf("there is only one crossing (4 marks): the neutral tile that started the game on %s", board.Name(Start))
	}
	if m.Neutral {
		if st.Supply[Neutral][k] == 0 {
			return engine.Illegalf("the neutral %s is already used (neutral tiles left: %s)", k, st.supplyWords(Neutral))
		}
	} else if st.Supply[seat][k] == 0 {
		hint := ""
		if st.Supply[Neutral][k] > 0 {
			hint = fmt.Sprintf("; the neutral %s is still there: add * to play it", k)
		}
		return engine.Illegalf("you have no %s left (you have %s)%s", k, st.supplyWords(int(seat)), hint)
	}
	name := board.Name(m.Cell)
	if st.Mask[m.Cell] != 0 {
		return engine.Illegalf("%s is already taken", name)
	}
	must, fixed, open := st.need(m.Cell)
	if !open {
		return engine.Illegalf("%s is not next to an open mark: a tile must cover a mark of the design that points into an empty cell", name)
	}
	for d := grid.N; d <= grid.W; d++ {
		if fixed&(1<<d) == 0 || m.Mask&(1<<d) == must&(1<<d) {
			continue
		}
		j := board.Step(m.Cell, d)
		switch {
		case j < 0:
			return engine.Illegalf("the %s edge of %s is on the frame's border and must be blank", sideNames[d], name)
		case must&(1<<d) != 0:
			return engine.Illegalf("the %s edge of %s must be marked: %s has a mark on its %s edge", sideNames[d], name, board.Name(j), sideNames[d.Opp()])
		default:
			return engine.Illegalf("the %s edge of %s must be blank: %s's %s edge is blank", sideNames[d], name, board.Name(j), sideNames[d.Opp()])
		}
	}
	if !st.windowAfter(m.Cell, m.Mask, st.tilesBox(), st.targets()) {
		return engine.Illegalf("%s would let the design grow beyond the 5x5 window: the tiles and every cell an open mark points into must fit in 5x5", m)
	}
	return nil
}

// Strands labels the strand ends: comp[cell*8+port] is the strand number
// (numbered in order of their first end), -1 where there is no port. A
// strand is closed (a knot) when none of its ends lies at an open mark.
func (st *State) Strands() (comp []int, closed []bool) {
	parent := make([]int, 81*8)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	union := func(a, b int) {
		a, b = find(a), find(b)
		if a < b {
			parent[b] = a
		} else if b < a {
			parent[a] = b
		}
	}
	open := make([]bool, 81*8)
	for i := 0; i < board.Len(); i++ {
		m := st.Mask[i]
		if m == 0 {
			continue
		}
		for _, p := range Joins[m] {
			union(i*8+p[0], i*8+p[1])
		}
		for d := grid.N; d <= grid.W; d++ {
			if m&(1<<d) == 0 {
				continue
			}
			j := board.Step(i, d)
			for k := 0; k < 2; k++ {
				p := 2*int(d) + k
				if j < 0 || st.Mask[j] == 0 {
					open[i*8+p] = true
				} else {
					union(i*8+p, j*8+Across(p))
				}
			}
		}
	}
	comp = make([]int, 81*8)
	num := map[int]int{}
	for i := 0; i < board.Len(); i++ {
		for p := 0; p < 8; p++ {
			x := i*8 + p
			comp[x] = -1
			if st.Mask[i]&(1<<(p/2)) == 0 {
				continue
			}
			r := find(x)
			n, ok := num[r]
			if !ok {
				n = len(closed)
				num[r] = n
				closed = append(closed, true)
			}
			comp[x] = n
			if open[x] {
				closed[n] = false
			}
		}
	}
	return comp, closed
}

// Knot is a closed strand: the tiles it passes through (each once, in cell
// order) and the score it gives each player.
type Knot struct {
	Cells []int
	Score [2]int
}

// Knots lists the closed strands, in order of their first cell.
func (st *State) Knots() []Knot {
	comp, closed := st.Strands()
	idx := make([]int, len(closed))
	var out []Knot
	for n, c := range closed {
		idx[n] = -1
		if c {
			idx[n] = len(out)
			out = append(out, Knot{})
		}
	}
	for i := 0; i < board.Len(); i++ {
		var here []int // knots already counted on this tile
		for p := 0; p < 8; p++ {
			n := comp[i*8+p]
			if n < 0 || idx[n] < 0 || contains(here, idx[n]) {
				continue
			}
			here = append(here, idx[n])
			k := &out[idx[n]]
			k.Cells = append(k.Cells, i)
			if o := st.Owner[i]; o < Neutral {
				k.Score[o]++
			}
		}
	}
	return out
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// KnotScores is each player's knot scores, high to low (zeros left out).
func KnotScores(knots []Knot) [2][]int {
	var out [2][]int
	for _, k := range knots {
		for s := 0; s < 2; s++ {
			if k.Score[s] > 0 {
				out[s] = append(out[s], k.Score[s])
			}
		}
	}
	for s := 0; s < 2; s++ {
		sort.Sort(sort.Reverse(sort.IntSlice(out[s])))
	}
	return out
}

// Compare compares two sorted knot-score lists: the first difference
// decides, a missing entry counts as 0. It returns >0 when a is better.
func Compare(a, b []int) int {
	for i := 0; i < len(a) || i < len(b); i++ {
		x, y := 0, 0
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			return x - y
		}
	}
	return 0
}

// Preview gives a move's score changes without playing it.
func (st *State) Preview(mv engine.Move) []engine.Delta {
	c := st.Clone().(*State)
	o, err := c.Apply(mv)
	if err != nil {
		return nil
	}
	return o.Deltas
}

// Apply lays a tile, scores the knots it closes, and passes for a player
// who cannot move; the game ends when neither can.
func (st *State) Apply(mv engine.Move) (engine.Outcome, error) {
	m, ok := mv.(Move)
	if !ok {
		return engine.Outcome{}, engine.Illegalf("not a Knotwork move")
	}
	if st.Done {
		return engine.Outcome{}, engine.Illegalf("the game is over")
	}
	seat := st.Turn
	if m.Undo {
		if _, err := st.parseUndo(); err != nil {
			return engine.Outcome{}, err
		}
		cell := st.undo()
		return engine.Outcome{Seat: seat, Move: m.String(), Events: []engine.Event{{Seat: seat, Text: "takes back the tile on " + board.Name(cell)}}}, nil
	}
	if err := st.check(seat, m); err != nil {
		return engine.Outcome{}, err
	}
	if st.Puzzle != NoPuzzle {
		return st.applyPuzzle(m), nil
	}
	o := engine.Outcome{Seat: seat, Move: m.String()}
	st.ensure()
	before, knots := [2]int{st.Score[0], st.Score[1]}, st.fx.nknots
	st.place(m)
	if st.fx.nknots > knots {
		for _, kn := range st.Knots() {
			if contains(kn.Cells, m.Cell) {
				o.Events = append(o.Events, engine.Event{Seat: seat, Text: fmt.Sprintf("closes a knot through %d tiles: Orange %d, Blue %d", len(kn.Cells), kn.Score[0], kn.Score[1])})
			}
		}
	}
	for s := 0; s < 2; s++ {
		if st.Score[s] > before[s] {
			o.Deltas = append(o.Deltas, engine.Delta{Seat: engine.Seat(s), Points: st.Score[s] - before[s], Reason: fmt.Sprintf("best knot: %d %s tiles", st.Score[s], strings.ToLower(seatNames[s]))})
		}
	}
	next := st.Next(seat)
	if st.turnOver() {
		o.Events = append(o.Events, engine.Event{Seat: next, Text: "has no legal move and passes"})
	}
	if st.Done {
		o.Over = true
		o.Events = append(o.Events, engine.Event{Seat: engine.NoSeat, Text: st.endWords()})
	}
	return o, nil
}

// endWords tells the knot scores that decided the game.
func (st *State) endWords() string {
	ks := KnotScores(st.Knots())
	word := func(s []int) string {
		if len(s) == 0 {
			return "no knot"
		}
		return strings.Trim(strings.Join(strings.Fields(fmt.Sprint(s)), ", "), "[]")
	}
	text := fmt.Sprintf("Neither player can move. Knot scores: Orange %s; Blue %s", word(ks[0]), word(ks[1]))
	if len(st.Win) == 2 {
		text += " (a draw)"
	}
	return text
}

// Resign applies the platform's rule: with 2 players the other one wins.
func (st *State) Resign(s engine.Seat) engine.Outcome {
	var o engine.Outcome
	st.Table.Resign(&o, s)
	return o
}

// Hand is the seat's own tiles left, as type letters, sorted.
func (st *State) Hand(s engine.Seat) any {
	out := []string{}
	for k := EndCap; k < kinds; k++ {
		for i := 0; i < st.Supply[s][k]; i++ {
			out = append(out, k.Letter())
		}
	}
	sort.Strings(out)
	return out
}

func (st *State) tilesLeft(owner int) int {
	n := 0
	for _, c := range st.Supply[owner] {
		n += c
	}
	return n
}

// View is the public position (supplies are open to all).
func (st *State) View(viewer engine.Seat) engine.View {
	if st.Puzzle != NoPuzzle {
		return st.puzzleView()
	}
	v := engine.View{Seats: st.SeatViews()}
	ks := KnotScores(st.Knots())
	colors := [2]engine.Color{engine.Orange, engine.Blue}
	for s := range v.Seats {
		sv := &v.Seats[s]
		sv.Label = seatNames[s]
		sv.Color = colors[s]
		sv.InHand = st.tilesLeft(s)
		sv.Hand = st.Hand(engine.Seat(s)).([]string)
		var letters []string
		for _, k := range []Kind{Branch, Corner, EndCap, Straight} {
			if n := st.Supply[s][k]; n > 0 {
				letters = append(letters, fmt.Sprintf("%d%s", n, k.Letter()))
			}
		}
		if len(letters) == 0 {
			letters = []string{"none"}
		}
		sv.Info = append(sv.Info, "Tiles left: "+strings.Join(letters, " "))
		if len(ks[s]) == 0 {
			sv.Info = append(sv.Info, "Knot scores: none yet")
		} else {
			var n []string
			for _, x := range ks[s] {
				n = append(n, strconv.Itoa(x))
			}
			sv.Info = append(sv.Info, "Knot scores: "+strings.Join(n, ", "))
		}
	}
	switch {
	case st.Done && len(st.Win) == 2:
		v.Status = "Game over: a draw"
	case st.Done && len(st.Win) == 1:
		v.Status = "Game over: " + seatNames[st.Win[0]] + " wins"
	case st.Done:
		v.Status = "Game over"
	default:
		v.Status = seatNames[st.Turn] + " to move"
	}
	var neu []string
	for k := EndCap; k < kinds; k++ {
		if st.Supply[Neutral][k] > 0 {
			neu = append(neu, k.Letter())
		}
	}
	if len(neu) == 0 {
		neu = []string{"none"}
	}
	v.Legend = []string{
		"Neutral tiles left: " + strings.Join(neu, " ") + " (play one with *, like f5 NES*)",
		"White tiles are neutral; the black frame is where the 5x5 window can still be",
	}
	return v
}
