package tilingking

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"tessera/engine"
)

const (
	red    engine.Seat = 0
	blue   engine.Seat = 1
	green  engine.Seat = 2
	orange engine.Seat = 3
)

func newGame(t *testing.T, kind string, players int, opts ...string) *State {
	t.Helper()
	o := map[string]string{"board": kind}
	for _, w := range opts {
		k, v, _ := strings.Cut(w, "=")
		o[k] = v
	}
	st, err := engine.New(engine.Setup{Game: ID, Players: players, Options: o})
	if err != nil {
		t.Fatal(err)
	}
	return st.(*State)
}

func (st *State) cells(t *testing.T, text string) []int {
	t.Helper()
	var out []int
	for _, w := range strings.Fields(text) {
		c, err := st.b.parse(w)
		if err != nil {
			t.Fatalf("%s: %v", w, err)
		}
		out = append(out, c)
	}
	return out
}

// put lays a piece for seat without taking a turn or capturing (to build
// positions by hand). The shape must be one the seat still holds.
func (st *State) put(t *testing.T, seat engine.Seat, text string) {
	t.Helper()
	cells := st.cells(t, text)
	st.b.sortCells(cells)
	name := st.b.shapeName(cells)
	h := st.Hands[seat]
	k := -1
	for i, p := range h {
		if p == name {
			k = i
			break
		}
	}
	if name == "" || k < 0 {
		t.Fatalf("put %q for seat %d: shape %q not held (%v)", text, seat, name, h)
	}
	st.Hands[seat] = append(h[:k:k], h[k+1:]...)
	for _, c := range cells {
		if st.Cover[c] >= 0 || st.b.neutral.has(c) {
			t.Fatalf("put %q: %s is taken", text, st.b.name(c))
		}
		st.Cover[c] = int8(seat)
	}
	st.Pieces = append(st.Pieces, onBoard{Seat: seat, Piece: name, Cells: cells})
	c, tr := st.score(seat)
	st.Score[seat] = c + tr
}

// play makes seat's move through Parse and Apply.
func (st *State) play(t *testing.T, seat engine.Seat, text string) engine.Outcome {
	t.Helper()
	st.Turn = seat
	m, err := st.Parse(text)
	if err != nil {
		t.Fatalf("%s %q: %v", seatNames[seat], text, err)
	}
	o, err := st.Apply(m)
	if err != nil {
		t.Fatalf("%s %q: %v", seatNames[seat], text, err)
	}
	checkInvariants(t, st)
	return o
}

func (st *State) refused(t *testing.T, seat engine.Seat, text, want string) {
	t.Helper()
	st.Turn = seat
	_, err := st.Parse(text)
	if err == nil {
		t.Fatalf("%s %q accepted, want an error with %q", seatNames[seat], text, want)
	}
	if _, ok := err.(*engine.IllegalError); !ok {
		t.Fatalf("%q: error %T is not an IllegalError", text, err)
	}
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("%s %q: %q, want it to mention %q", seatNames[seat], text, err, want)
	}
}

// territory returns the names of seat's territory cells, sorted by cell.
func (st *State) territory(seat engine.Seat) string {
	var out []string
	for i := range st.Terr {
		if engine.Seat(st.Terr[i]) == seat {
			out = append(out, st.b.name(i))
		}
	}
	return strings.Join(out, " ")
}

func hasEvent(o engine.Outcome, seat engine.Seat, text string) bool {
	for _, e := range o.Events {
		if e.Seat == seat && strings.Contains(e.Text, text) {
			return true
		}
	}
	return false
}

// ring is a hand-built position of Red pieces (pre) and Red's move that
// surrounds the hole cells.
type ring struct {
	pre   []string
	move  string
	holes string
	cover int // cells Red covers after the move
}

// boardCase holds each board's hand-built rings, worked out on the maps
// in docs/rules/tilingking.md.
type boardCase struct {
	kind string
	// one: Red rings one cell that touches no neutral tile.
	one ring
	// neutral: Red rings a region with the help of a neutral tile.
	neutral ring
	// two: Red rings two cells (a neutral tile is part of the ring).
	two ring
	// leak: like a ring, but the region escapes at a corner (on hex,
	// where sides and corners coincide, through a gap).
	leak ring
	// edge: Red surrounds a cell on the board's edge.
	edge ring
}

// shift moves square cell names by (dc, dr): square11 repeats square9's
// rings two columns right and two rows up (the neutral g7 becomes i9).
func shift(text string, dc, dr int) string {
	var out []string
	for _, w := range strings.Fields(text) {
		n, _ := strconv.Atoi(w[1:])
		out = append(out, string(rune(w[0])+rune(dc))+strconv.Itoa(n+dr))
	}
	return strings.Join(out, " ")
}

func shiftRing(r ring) ring {
	s := ring{move: shift(r.move, 2, 2), holes: shift(r.holes, 2, 2), cover: r.cover}
	for _, p := range r.pre {
		s.pre = append(s.pre, shift(p, 2, 2))
	}
	return s
}

var square9Case = boardCase{
	kind: Square9,
	// h5's eight neighbours g4 g5 g6 h4 h6 i4 i5 i6: L4 g4-g6+h6, L3
	// h4 i4 i5, and the M1 on i6 closes the ring. h5 (column h, row 5) is
	// not on the edge. Red covers 4+3+1 = 8.
	one: ring{pre: []string{"g4 g5 g6 h6", "h4 i4 i5"}, move: "i6", holes: "h5", cover: 8},
	// Same as two: the ring around h5 h6 uses the neutral g7.
	neutral: ring{pre: []string{"g4 g5 g6", "h4 i4 i5 i6"}, move: "h7 i7", holes: "h5 h6", cover: 9},
	// h5 h6 touch g4 g5 g6 g7 h4 h7 i4 i5 i6 i7; g7 is neutral, Red covers
	// the rest with I3 g4-g6, L4 h4 i4-i6 and D2 h7 i7 (9 cells).
	two: ring{pre: []string{"g4 g5 g6", "h4 i4 i5 i6"}, move: "h7 i7", holes: "h5 h6", cover: 9},
	// Red covers h4 i4 i5 and g5 g6 h6 i6 but not g4: g5 and h4 meet only
	// at a corner, h5 touches the empty g4 there and the region runs on
	// to the edge.
	leak: ring{pre: []string{"h4 i4 i5"}, move: "g5 g6 h6 i6", holes: "h5", cover: 7},
	// i5 is on the edge; Red covers all its neighbours h4 h5 h6 i4 i6.
	edge: ring{pre: []string{"h4 h5 i4"}, move: "h6 i6", holes: "i5", cover: 5},
}

var boardCases = []boardCase{
	square9Case,
	{
		kind:    Square11,
		one:     shiftRing(square9Case.one),
		neutral: shiftRing(square9Case.neutral),
		two:     shiftRing(square9Case.two),
		leak:    shiftRing(square9Case.leak),
		edge:    shiftRing(square9Case.edge),
	},
	{
		kind: Hex,
		// h5 (lower half) touches h4 h6, g5 g6 above and i4 i5 below. The
		// ring h4-g5-g6-h6-i5-i4: L3 h4 g5 g6 (three consecutive ring cells
		// are a bent three), D2 h6 i5, M1 i4. Red covers 6.
		one: ring{pre: []string{"g5 g6 h4", "h6 i5"}, move: "i4", holes: "h5", cover: 6},
		// d4 touches c3 (neutral) c4 d3 d5 e4 e5: L3 c4 d5 e5, D2 d3 e4.
		neutral: ring{pre: []string{"c4 d5 e5"}, move: "d3 e4", holes: "d4", cover: 5},
		// h5 h6 touch g5 g6 g7 h4 h7 i4 i5 i6; i6 is neutral. I3 g5-g7, L3
		// h4 i4 i5, M1 h7: 7 cells.
		two: ring{pre: []string{"g5 g6 g7", "h4 i4 i5"}, move: "h7", holes: "h5 h6", cover: 7},
		// The first ring without i4: h5 reaches i4, then the open board.
		leak: ring{pre: []string{"g5 g6 h4"}, move: "h6 i5", holes: "h5", cover: 5},
		// a1 is a corner cell: its neighbours are a2 b1 b2.
		edge: ring{pre: []string{"a2 b2"}, move: "b1", holes: "a1", cover: 3},
	},
	{
		kind: Tri,
		// d8 (pointing down) touches c5-c9 above, d6 d7 d9 d10 beside and
		// e7-e9 below; none is neutral. Strips: I4 c5-c8, I3 c9 d9 d10
		// (c9 sits on d10), I3 e7-e9, and D2 d6 d7 closes it. 12 cells.
		one: ring{pre: []string{"c5 c6 c7 c8", "c9 d9 d10", "e7 e8 e9"}, move: "d6 d7", holes: "d8", cover: 12},
		// d5 (pointing up) touches c3 (neutral) c4 c5, d3 d4 d6 d7, e3-e7:
		// I4 e3-e6, I3 d6 d7 e7, D2 c4 c5, D2 d3 d4. 11 cells.
		neutral: ring{pre: []string{"e3 e4 e5 e6", "d6 d7 e7", "c4 c5"}, move: "d3 d4", holes: "d5", cover: 11},
		// d5 d6 touch c3 (neutral) c4-c7, d3 d4 d7 d8, e3-e7: I4 c4-c7, I3
		// d7 d8 e7, I4 e3-e6, D2 d3 d4. 13 cells.
		two: ring{pre: []string{"c4 c5 c6 c7", "d7 d8 e7", "e3 e4 e5 e6"}, move: "d3 d4", holes: "d5 d6", cover: 13},
		// The first ring without c9: c8 and d9 meet only at a corner, and
		// d8 reaches c9 through that corner, then row b and the edge.
		leak: ring{pre: []string{"c5 c6 c7 c8", "e7 e8 e9", "d6 d7"}, move: "d9 d10", holes: "d8", cover: 11},
		// a2 (on the top edge) touches a1 a3 a4 b2 b3 b4: I3 a1 b2 b3 and
		// I3 a3 a4 b4.
		edge: ring{pre: []string{"a1 b2 b3"}, move: "a3 a4 b4", holes: "a2", cover: 6},
	},
}

func (st *State) build(t *testing.T, r ring) {
	for _, p := range r.pre {
		st.put(t, red, p)
	}
}

// TestRingCaptureEmpty: a ring around empty cells captures them; Red
// scores the covered cells plus the territory.
func TestRingCaptureEmpty(t *testing.T) {
	for _, bc := range boardCases {
		for _, r := range []ring{bc.one, bc.neutral, bc.two} {
			st := newGame(t, bc.kind, 2)
			st.build(t, r)
			o := st.play(t, red, r.move)
			holes := st.cells(t, r.holes)
			if got, want := st.territory(red), r.holes; got != want {
				t.Errorf("%s %s: Red territory %q, want %q", bc.kind, r.move, got, want)
			}
			if want := r.cover + len(holes); st.Score[red] != want {
				t.Errorf("%s %s: Red scores %d, want %d", bc.kind, r.move, st.Score[red], want)
			}
			if !hasEvent(o, red, "captures") {
				t.Errorf("%s: no capture event in %+v", bc.kind, o.Events)
			}
		}
	}
}

// TestRingCaptureOnePiece: one Blue M1 inside a ring is captured: it goes
// back to Blue's hand (a full set again), Blue scores 0, the hole is Red's.
// Then Blue plays that M1 again elsewhere, may not play in Red's
// territory, and Red may build there (the cell still counts once).
func TestRingCaptureOnePiece(t *testing.T) {
	for _, bc := range boardCases {
		st := newGame(t, bc.kind, 2)
		r := bc.one
		st.put(t, blue, r.holes)
		st.build(t, r)
		o := st.play(t, red, r.move)
		if !hasEvent(o, blue, "gets the captured M1") {
			t.Errorf("%s: events %+v", bc.kind, o.Events)
		}
		if o.Points(blue) != -1 || o.Points(red) != len(strings.Fields(r.move))+1 {
			t.Errorf("%s: deltas %+v", bc.kind, o.Deltas)
		}
		if st.territory(red) != r.holes || st.Score[blue] != 0 || st.Score[red] != r.cover+1 {
			t.Fatalf("%s: territory %q scores %v", bc.kind, st.territory(red), st.Score)
		}
		if !reflect.DeepEqual(st.Hand(blue), any(fullSet(st.b))) {
			t.Errorf("%s: Blue's hand %v, want the full set", bc.kind, st.Hand(blue))
		}
		// Territory is closed to Blue.
		st.refused(t, blue, r.holes, "territory")
		// The captured M1 is played again (Blue has two M1 again).
		far := st.b.places["M1"][0].text
		st.play(t, blue, far)
		st.play(t, blue, st.b.places["M1"][1].text)
		if st.Score[blue] != 2 {
			t.Errorf("%s: Blue scores %d after two M1, want 2", bc.kind, st.Score[blue])
		}
		// Red builds inside its own territory: score unchanged.
		before := st.Score[red]
		st.play(t, red, r.holes)
		if st.Score[red] != before {
			t.Errorf("%s: building in own territory changed Red's score %d -> %d", bc.kind, before, st.Score[red])
		}
	}
}

// TestRefusedTwoPieces: two Blue M1 in the two-cell ring: no capture,
// both stay, and the event says why. One Blue M1 in it: captured (2 cells).
func TestRefusedTwoPieces(t *testing.T) {
	for _, bc := range boardCases {
		r := bc.two
		holes := strings.Fields(r.holes)
		st := newGame(t, bc.kind, 2)
		st.put(t, blue, holes[0])
		st.put(t, blue, holes[1])
		st.build(t, r)
		o := st.play(t, red, r.move)
		if st.territory(red) != "" || st.Score[blue] != 2 || st.Score[red] != r.cover {
			t.Errorf("%s: territory %q scores %v", bc.kind, st.territory(red), st.Score)
		}
		if !hasEvent(o, red, "2 of Blue's pieces are inside") {
			t.Errorf("%s: events %+v", bc.kind, o.Events)
		}

		st = newGame(t, bc.kind, 2)
		st.put(t, blue, holes[1])
		st.build(t, r)
		st.play(t, red, r.move)
		if st.territory(red) != r.holes || st.Score[blue] != 0 || st.Score[red] != r.cover+2 {
			t.Errorf("%s: one piece: territory %q scores %v", bc.kind, st.territory(red), st.Score)
		}
	}
}

// TestLeakAndEdge: a ring open at a corner, and a ring against the edge,
// capture nothing; Red scores only its covered cells.
func TestLeakAndEdge(t *testing.T) {
	for _, bc := range boardCases {
		for _, r := range []ring{bc.leak, bc.edge} {
			st := newGame(t, bc.kind, 2)
			st.put(t, blue, r.holes)
			st.build(t, r)
			o := st.play(t, red, r.move)
			if st.territory(red) != "" || st.Score[red] != r.cover || st.Score[blue] != 1 {
				t.Errorf("%s %s: territory %q scores %v", bc.kind, r.move, st.territory(red), st.Score)
			}
			if len(o.Events) != 0 {
				t.Errorf("%s: events %+v", bc.kind, o.Events)
			}
		}
	}
}

// TestThreeAndFourPlayers: one piece of each of two opponents inside is a
// capture (3 players: Blue and Green; 4 players: Blue and Orange); two of
// one opponent (Green) is not, whoever else is inside.
func TestThreeAndFourPlayers(t *testing.T) {
	for _, bc := range boardCases {
		r := bc.two
		holes := strings.Fields(r.holes)
		st := newGame(t, bc.kind, 3)
		st.put(t, blue, holes[0])
		st.put(t, green, holes[1])
		st.build(t, r)
		o := st.play(t, red, r.move)
		if st.territory(red) != r.holes || st.Score[blue] != 0 || st.Score[green] != 0 || st.Score[red] != r.cover+2 {
			t.Errorf("%s 3p: territory %q scores %v", bc.kind, st.territory(red), st.Score)
		}
		if !hasEvent(o, blue, "captured M1") || !hasEvent(o, green, "captured M1") {
			t.Errorf("%s 3p: events %+v", bc.kind, o.Events)
		}
		if st.Turn != blue {
			t.Errorf("%s 3p: %s to move after Red, want Blue", bc.kind, seatNames[st.Turn])
		}

		st = newGame(t, bc.kind, 4)
		st.put(t, blue, holes[0])
		st.put(t, orange, holes[1])
		st.build(t, r)
		st.play(t, red, r.move)
		if st.territory(red) != r.holes || st.Score[blue] != 0 || st.Score[orange] != 0 {
			t.Errorf("%s 4p: territory %q scores %v", bc.kind, st.territory(red), st.Score)
		}

		st = newGame(t, bc.kind, 4)
		st.put(t, green, holes[0])
		st.put(t, green, holes[1])
		st.build(t, r)
		st.play(t, red, r.move)
		if st.territory(red) != "" || st.Score[green] != 2 {
			t.Errorf("%s 4p two Green: territory %q scores %v", bc.kind, st.territory(red), st.Score)
		}
	}
}

// TestResignedPiecesStillCount: in a 3-player game Blue resigns; Blue's
// pieces stay on the board and count as Blue's for captures: one Blue and
// one Green piece are captured (Blue's goes back to Blue), two Blue pieces
// block the capture.
func TestResignedPiecesStillCount(t *testing.T) {
	for _, bc := range boardCases {
		r := bc.two
		holes := strings.Fields(r.holes)
		st := newGame(t, bc.kind, 3)
		st.put(t, blue, holes[0])
		st.put(t, green, holes[1])
		st.Resign(blue)
		st.build(t, r)
		st.play(t, red, r.move)
		if st.territory(red) != r.holes || len(st.Hands[blue]) != len(fullSet(st.b)) {
			t.Errorf("%s: territory %q, Blue's hand %v", bc.kind, st.territory(red), st.Hands[blue])
		}
		if st.Turn != green {
			t.Errorf("%s: %s to move, want Green (Blue resigned)", bc.kind, seatNames[st.Turn])
		}

		st = newGame(t, bc.kind, 3)
		st.put(t, blue, holes[0])
		st.put(t, blue, holes[1])
		st.Resign(blue)
		st.build(t, r)
		st.play(t, red, r.move)
		if st.territory(red) != "" || st.Score[blue] != 2 {
			t.Errorf("%s: resigned Blue's two pieces: territory %q scores %v", bc.kind, st.territory(red), st.Score)
		}
	}
}

// TestPlacementLimits: a piece may not cover a neutral tile, a piece, or
// another player's territory; cells must be on the board, form one piece,
// be at most 4, and have the shape of a piece the mover still holds.
func TestPlacementLimits(t *testing.T) {
	for _, bc := range boardCases {
		st := newGame(t, bc.kind, 2)
		var neutral string
		for i := 0; i < st.b.n; i++ {
			if st.b.neutral.has(i) {
				neutral = st.b.name(i)
				break
			}
		}
		st.refused(t, red, neutral, "neutral")
		r := bc.one
		st.put(t, blue, r.holes)
		st.refused(t, red, r.holes, "already covered by Blue's piece")
		st.build(t, r)
		st.play(t, red, r.move)
		st.refused(t, blue, r.holes, "Red's territory")
		st.refused(t, red, "a1 a1", "written twice")
		st.refused(t, red, "1a", "not a cell")
		st.refused(t, red, "a99", "off the board")
		st.refused(t, red, "a1 a2 a3 a4 a5", "at most 4")
		st.refused(t, red, "", "write the cells")
		// Two cells far apart do not form a piece.
		st.refused(t, red, st.b.name(0)+" "+st.b.name(st.b.n-1), "do not form one piece")
		// Red used up its M1s? Play the second one, then try a third.
		for len(st.Hands[red]) > 0 && strings.Contains(strings.Join(st.Hands[red], " "), "M1") {
			st.play(t, red, st.b.places["M1"][len(st.b.places["M1"])-1-countOf(st.Hands[red], "M1")].text)
		}
		st.Turn = red
		m1 := ""
		for _, pl := range st.b.places["M1"] {
			if !pl.m.meets(st.blocked(red)) {
				m1 = pl.text
				break
			}
		}
		st.refused(t, red, m1, "you have no M1 left")
	}
	// Hex: the pistol (three in a line with a bump) and the arch are not
	// in the hex set. g5 g6 g7 and f7, which touches both g6 and g7.
	st := newGame(t, Hex, 2)
	st.refused(t, red, "g5 g6 g7 f7", "no piece has the shape")
}

func countOf(h []string, p string) int {
	n := 0
	for _, x := range h {
		if x == p {
			n++
		}
	}
	return n
}

// TestShapeRecognition: the same piece written turned, flipped and in any
// cell order is recognised; each piece has the hand-counted number of
// orientations (square L4: 4 turns x 2 sides = 8; hex L4 has no symmetry,
// 6 x 2 = 12; tri triangles point up or down, 2), and the engine lists
// every placement of every orientation.
func TestShapeRecognition(t *testing.T) {
	for _, tc := range []struct {
		kind  string
		texts []string
		piece string
	}{
		// Square L4: upright, mirrored, lying, cells shuffled.
		{Square9, []string{"a1 a2 a3 b1", "b1 b2 b3 a1", "a1 b1 c1 c2", "c2 a1 c1 b1", "a2 b2 c2 a1"}, "L4"},
		{Square9, []string{"a1 b1 b2 c2", "a2 b2 b1 c1", "a1 a2 b2 b3", "b1 b2 a2 a3"}, "S4"},
		// Hex L4: g5-g7 and h7 (south-east of g7), mirrored with f8
		// (north-east of g7), upright along a diagonal d4 e4 f4 and g3.
		{Hex, []string{"g5 g6 g7 h7", "g5 g6 g7 f8", "h7 g7 g6 g5"}, "L4"},
		{Hex, []string{"c4 d5 e5", "g5 g6 h6"}, "L3"},
		{Hex, []string{"d4 d5 e5", "g5 g6 h5"}, "T3"},
		// Tri C4: a strip of three down-up-down with an up triangle on
		// the first or the last; T4: the big triangle c4 c5 c6 + d6.
		{Tri, []string{"b3 c4 c5 c6", "b5 c4 c5 c6"}, "C4"},
		{Tri, []string{"c4 c5 c6 d6", "d5 d6 d7 c5"}, "T4"},
		{Tri, []string{"c4 c5 c6 c7", "d6 d7 d8 d9"}, "I4"},
	} {
		st := newGame(t, tc.kind, 2)
		for _, text := range tc.texts {
			m, err := st.Parse(text)
			if err != nil {
				t.Errorf("%s %q: %v", tc.kind, text, err)
				continue
			}
			if got := m.(Move).Piece; got != tc.piece {
				t.Errorf("%s %q is %s, want %s", tc.kind, text, got, tc.piece)
			}
		}
	}
	want := map[string]map[string]int{
		Square9: {"M1": 1, "D2": 2, "I3": 2, "L3": 4, "I4": 2, "O4": 1, "T4": 4, "L4": 8, "S4": 4},
		// Hex: a line has 3 directions; the bent three and the worm have a
		// mirror or half-turn symmetry (6); the triangle and propeller
		// point two ways; the rhombus lies 3 ways.
		Hex: {"M1": 1, "D2": 3, "I3": 3, "L3": 6, "T3": 2, "I4": 3, "L4": 12, "O4": 3, "S4": 6, "Y4": 2},
		// Tri: 2, 3, 6 and 14 fixed polyiamonds of 1-4 cells.
		Tri: {"M1": 2, "D2": 3, "I3": 6, "I4": 6, "C4": 6, "T4": 2},
	}
	for kind, counts := range want {
		b := getBoard(kind)
		for _, p := range b.set {
			if got := len(b.lattice.Orientations(p.Cells)); got != counts[p.Name] {
				t.Errorf("%s %s: %d orientations, want %d", kind, p.Name, got, counts[p.Name])
			}
			for _, pl := range b.places[p.Name] {
				if b.shapeName(pl.cells) != p.Name || len(pl.cells) != len(p.Cells) {
					t.Fatalf("%s placement %s of %s recognised as %s", kind, pl.text, p.Name, b.shapeName(pl.cells))
				}
			}
		}
		// Every set's shapes are distinct.
		if len(b.shapes) != len(b.set) {
			t.Errorf("%s: %d distinct shapes for %d pieces", kind, len(b.shapes), len(b.set))
		}
	}
}

// TestPassAll: in a 3-player game Red passes all; Blue and Green place;
// Red is passed for automatically; when Blue and Green pass the game ends
// (Red's automatic pass counts). Blue and Green tie on 1 and share the win.
func TestPassAll(t *testing.T) {
	for _, kind := range Kinds {
		st := newGame(t, kind, 3)
		st.play(t, red, "pass all")
		if st.Turn != blue {
			t.Fatalf("%s: %s to move", kind, seatNames[st.Turn])
		}
		first, last := st.b.places["M1"][0].text, st.b.places["M1"][len(st.b.places["M1"])-1].text
		st.play(t, blue, first)
		o := st.play(t, green, last)
		if !hasEvent(o, red, "passes (pass all)") || st.Turn != blue {
			t.Fatalf("%s: events %+v, %s to move", kind, o.Events, seatNames[st.Turn])
		}
		st.play(t, blue, "pass")
		if st.Over() {
			t.Fatalf("%s: over before Green passed", kind)
		}
		o = st.play(t, green, "pass")
		if !st.Over() || !o.Over || !reflect.DeepEqual(st.Winners(), []engine.Seat{blue, green}) {
			t.Fatalf("%s: over %v winners %v scores %v", kind, st.Over(), st.Winners(), st.Score)
		}
		if len(st.Legal()) != 0 || st.ToMove() != engine.NoSeat {
			t.Fatalf("%s: finished game has moves", kind)
		}
	}
}

// TestTies: Red and Blue each lay an M1 (1 point each), then both pass:
// a tie, both win. Pass is not in Legal but parses.
func TestTies(t *testing.T) {
	for _, kind := range Kinds {
		st := newGame(t, kind, 2)
		for _, m := range st.Legal() {
			if m.String() == "pass" || m.String() == "pass all" {
				t.Fatalf("%s: Legal lists %q", kind, m)
			}
		}
		st.play(t, red, st.b.places["M1"][0].text)
		st.play(t, blue, st.b.places["M1"][1].text)
		st.play(t, red, "pass")
		st.play(t, blue, "pass")
		if !st.Over() || !reflect.DeepEqual(st.Winners(), []engine.Seat{red, blue}) || st.View(engine.NoSeat).Status != "Game over: Red and Blue share the win" {
			t.Fatalf("%s: winners %v scores %v status %q", kind, st.Winners(), st.Score, st.View(engine.NoSeat).Status)
		}
	}
}

// TestResignThreePlayers: Blue (4 points, the most) resigns on its turn;
// Green moves next, Blue is skipped from then on, Blue's I4 stays on the
// board; Red and Green (1 each) pass and share the win: a resigned player
// ranks below everyone. Also: a resignation that leaves only players who
// have all passed ends the game.
func TestResignThreePlayers(t *testing.T) {
	for _, kind := range Kinds {
		st := newGame(t, kind, 3)
		st.play(t, red, st.b.places["M1"][0].text)
		st.play(t, blue, st.b.places["I4"][len(st.b.places["I4"])-1].text)
		st.play(t, green, st.b.places["M1"][1].text)
		st.play(t, red, "pass")
		if st.Turn != blue {
			t.Fatalf("%s: %s to move", kind, seatNames[st.Turn])
		}
		o := st.Resign(blue)
		if st.Turn != green || st.Over() || !hasEvent(o, blue, "resigns") {
			t.Fatalf("%s: after Blue resigns: %s to move, over %v", kind, seatNames[st.Turn], st.Over())
		}
		if st.Score[blue] != 4 || len(st.Pieces) != 3 {
			t.Fatalf("%s: Blue's piece left the board", kind)
		}
		st.play(t, green, "pass")
		// Red passed and Green passed since the last placement: over.
		if !st.Over() || !reflect.DeepEqual(st.Winners(), []engine.Seat{red, green}) {
			t.Fatalf("%s: over %v winners %v", kind, st.Over(), st.Winners())
		}

		// Red and Blue pass; Green, to move, resigns: the others have all
		// passed, so the game ends; Red and Blue tie on 0.
		st = newGame(t, kind, 3)
		st.play(t, red, "pass")
		st.play(t, blue, "pass")
		st.Resign(green)
		if !st.Over() || !reflect.DeepEqual(st.Winners(), []engine.Seat{red, blue}) {
			t.Fatalf("%s: resignation did not end the game: winners %v", kind, st.Winners())
		}

		// Two of three resign: the last one wins whatever the score.
		st = newGame(t, kind, 3)
		st.play(t, red, st.b.places["I4"][0].text)
		st.Resign(red)
		st.Resign(green)
		if !st.Over() || !reflect.DeepEqual(st.Winners(), []engine.Seat{blue}) {
			t.Fatalf("%s: winners %v", kind, st.Winners())
		}
	}
}

// TestAutomaticPass: Blue holds no pieces; after Red's move the engine
// passes for Blue and says so; when Red passes, the game ends.
func TestAutomaticPass(t *testing.T) {
	st := newGame(t, Square9, 2)
	st.Hands[blue] = nil
	st.Turn = red
	m, _ := st.Parse("a1")
	o, _ := st.Apply(m)
	if !hasEvent(o, blue, "has no legal placement and passes") || st.Turn != red {
		t.Fatalf("events %+v, %s to move", o.Events, seatNames[st.Turn])
	}
	m, _ = st.Parse("pass")
	st.Apply(m)
	if !st.Over() || !reflect.DeepEqual(st.Winners(), []engine.Seat{red}) {
		t.Fatalf("over %v winners %v", st.Over(), st.Winners())
	}
}

// TestMaxCaptureHalf: Red walls the whole rim of the 9x9 board (32
// cells); the inside is 49 cells less 5 neutral = 44. The board has 81-5
// = 76 non-neutral cells, half is 38: with maxcapture=half the capture is
// refused, without it Red takes all 44.
func TestMaxCaptureHalf(t *testing.T) {
	for _, opt := range []string{"maxcapture=half", "maxcapture=off"} {
		st := newGame(t, Square9, 2, opt)
		var last int
		for i := 0; i < st.b.n; i++ {
			if st.b.edge[i] && st.b.name(i) != "i9" {
				st.Cover[i] = int8(red)
				st.Pieces = append(st.Pieces, onBoard{Seat: red, Piece: "wall", Cells: []int{i}})
			}
			last = i
		}
		_ = last
		st.Turn = red
		m, err := st.Parse("i9")
		if err != nil {
			t.Fatal(err)
		}
		o, _ := st.Apply(m)
		got := len(strings.Fields(st.territory(red)))
		if opt == "maxcapture=half" && (got != 0 || !hasEvent(o, red, "at most 38 cells")) {
			t.Errorf("%s: captured %d, events %+v", opt, got, o.Events)
		}
		if opt == "maxcapture=off" && got != 44 {
			t.Errorf("%s: captured %d, want 44", opt, got)
		}
	}
}

// TestPie: with pie=on Blue may answer Red's first piece with swap: the
// piece becomes Blue's (2 points), Red takes a full set and moves.
func TestPie(t *testing.T) {
	st := newGame(t, Square9, 2, "pie=on")
	st.play(t, red, "e4 f4")
	legal := st.Legal()
	if legal[len(legal)-1].String() != "swap" {
		t.Fatalf("swap not offered")
	}
	o := st.play(t, blue, "swap")
	if st.Turn != red || st.Score[red] != 0 || st.Score[blue] != 2 || o.Points(blue) != 2 {
		t.Fatalf("after swap: %s to move, scores %v", seatNames[st.Turn], st.Score)
	}
	if len(st.Hands[red]) != 11 || len(st.Hands[blue]) != 10 {
		t.Fatalf("hands %v", st.Hands)
	}
	st.play(t, red, "a1")
	st.refused(t, blue, "swap", "second player's first move")
	st2 := newGame(t, Square9, 2)
	st2.play(t, red, "a1")
	st2.refused(t, blue, "swap", "pie option")
	if _, err := engine.New(engine.Setup{Game: ID, Players: 3, Options: map[string]string{"pie": "on"}}); err == nil {
		t.Errorf("pie accepted with 3 players")
	}
}

// TestSetup: defaults by player count, bad options.
func TestSetup(t *testing.T) {
	for n, want := range map[int]string{2: Square9, 3: Square11, 4: Square11} {
		st, err := engine.New(engine.Setup{Game: ID, Players: n})
		if err != nil || st.(*State).Kind != want {
			t.Errorf("%d players: %v %v", n, err, st)
		}
	}
	for _, o := range []map[string]string{{"board": "octo"}, {"maxcapture": "third"}, {"pie": "maybe"}} {
		if _, err := engine.New(engine.Setup{Game: ID, Players: 2, Options: o}); err == nil {
			t.Errorf("%v accepted", o)
		}
	}
	if len(summary) >= 1800 {
		t.Errorf("summary has %d characters", len(summary))
	}
	// The sets: cells per player, and the neutral tiles.
	for kind, want := range map[string][2]int{Square9: {32, 5}, Square11: {32, 5}, Hex: {35, 7}, Tri: {36, 6}} {
		b := getBoard(kind)
		if b.cells != want[0] || b.n-b.free != want[1] {
			t.Errorf("%s: %d cells per set, %d neutral", kind, b.cells, b.n-b.free)
		}
	}
	st := newGame(t, Square9, 2)
	if !reflect.DeepEqual(st.Hand(red), any([]string{"D2", "D2", "I3", "I4", "L3", "L4", "M1", "M1", "O4", "S4", "T4"})) {
		t.Errorf("square hand %v", st.Hand(red))
	}
}
