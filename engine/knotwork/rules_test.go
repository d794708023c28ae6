package knotwork

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"tessera/engine"
)

// build lays tiles by hand: each entry is "O d4 NE", "B f5 EW" or
// "N e5 NESW" (owner Orange, Blue or neutral, cell, marked edges). The
// supplies are the set minus the laid tiles, and turn is to move.
func build(t *testing.T, turn engine.Seat, tiles ...string) *State {
	t.Helper()
	st := &State{Table: engine.NewTable(2), Supply: Set, Last: -1}
	st.Turn = turn
	for _, e := range tiles {
		f := strings.Fields(e)
		cell, err := board.Parse(f[1])
		if err != nil {
			t.Fatal(err)
		}
		var mask uint8
		for _, ch := range f[2] {
			mask |= 1 << strings.IndexRune("NESW", ch)
		}
		owner := int8(strings.Index("OBN", f[0]))
		st.Mask[cell], st.Owner[cell] = mask, owner
		st.Supply[owner][KindOf[mask]]--
		st.Placed++
	}
	return st
}

func cellOf(t *testing.T, s string) int {
	t.Helper()
	c, err := board.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func pairNames(pairs [][2]int) string {
	var out []string
	for _, p := range pairs {
		a, b := PortName(p[0]), PortName(p[1])
		if a > b {
			a, b = b, a
		}
		out = append(out, a+"~"+b)
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

// TestTileStrands checks every type in every rotation against the strand
// model of the issue. Each expectation is written by hand from the
// picture of the tile, not computed by rotating: a mark's two ports are
// named by the side of the midpoint they lie on.
func TestTileStrands(t *testing.T) {
	j := func(pairs ...string) string { sort.Strings(pairs); return strings.Join(pairs, " ") }
	want := map[string]struct {
		kind  Kind
		pairs string
	}{
		// End-caps: one U-turn joining the mark's two ports.
		"N": {EndCap, j("N-left~N-right")},
		"E": {EndCap, j("E-bottom~E-top")},
		"S": {EndCap, j("S-left~S-right")},
		"W": {EndCap, j("W-bottom~W-top")},
		// Straights: two parallel strands, left to left and right to right
		// (top to top, bottom to bottom).
		"NS": {Straight, j("N-left~S-left", "N-right~S-right")},
		"EW": {Straight, j("E-top~W-top", "E-bottom~W-bottom")},
		// Corners: the inner arc joins the two ports nearest the corner,
		// the outer arc the two farthest. W-S as given: W-top~S-right
		// (outer), W-bottom~S-left (inner).
		"SW": {Corner, j("S-right~W-top", "S-left~W-bottom")},
		"NW": {Corner, j("N-left~W-top", "N-right~W-bottom")},
		"NE": {Corner, j("E-top~N-right", "E-bottom~N-left")},
		"ES": {Corner, j("E-bottom~S-right", "E-top~S-left")},
		// Branches: one strand along the blank side joining the two marks
		// beside it on the ports nearest the blank side, and the two inner
		// corner arcs. Blank N as given: W-top~E-top, W-bottom~S-left,
		// S-right~E-bottom.
		"ESW": {Branch, j("E-top~W-top", "S-left~W-bottom", "E-bottom~S-right")},
		"NSW": {Branch, j("N-right~S-right", "N-left~W-top", "S-left~W-bottom")},
		"NEW": {Branch, j("E-bottom~W-bottom", "N-left~W-top", "E-top~N-right")},
		"NES": {Branch, j("N-left~S-left", "E-top~N-right", "E-bottom~S-right")},
		// The crossing: the four corner arcs.
		"NESW": {Crossing, j("N-left~W-top", "E-top~N-right", "E-bottom~S-right", "S-left~W-bottom")},
	}
	for m := uint8(1); m < 16; m++ {
		w, ok := want[Edges(m)]
		if !ok {
			t.Fatalf("no expectation for %s", Edges(m))
		}
		if KindOf[m] != w.kind || pairNames(Joins[m]) != w.pairs {
			t.Errorf("%s: %s %s, want %s %s", Edges(m), KindOf[m], pairNames(Joins[m]), w.kind, w.pairs)
		}
		// Every port of every mark is used exactly once.
		var used [8]int
		for _, p := range Joins[m] {
			used[p[0]]++
			used[p[1]]++
		}
		for p := 0; p < 8; p++ {
			if want := int(m>>(p/2)) & 1; used[p] != want {
				t.Errorf("%s: port %s used %d times", Edges(m), PortName(p), used[p])
			}
		}
	}
	// Across a shared edge the strands cross: left E-top to right
	// W-bottom, E-bottom to W-top; upper S-left to lower N-right, S-right
	// to N-left.
	for a, b := range map[int]int{ET: WB, EB: WT, SL: NR, SR: NL} {
		if Across(a) != b || Across(b) != a {
			t.Errorf("across %s: %s, want %s", PortName(a), PortName(Across(a)), PortName(b))
		}
	}
}

// TestOsboExample is Fred's and Ted's 2x2 designs of the Osbo rules.
// Fred: four corners turned to the middle; Ted: two end-caps (marks
// south) over two corners. Ted's design is one closed path of length 6
// (3 marks, each crossed twice), Fred's two closed paths of length 4.
// A path's Osbo length is the marks it crosses: its ports over 2.
func TestOsboExample(t *testing.T) {
	for _, tc := range []struct {
		name    string
		tiles   []string
		lengths []int
	}{
		{"Fred", []string{"O d6 ES", "O e6 SW", "O d5 NE", "O e5 NW"}, []int{4, 4}},
		{"Ted", []string{"O d6 S", "O e6 S", "O d5 NE", "O e5 NW"}, []int{6}},
	} {
		st := build(t, 0, tc.tiles...)
		comp, closed := st.Strands()
		ports := make([]int, len(closed))
		for _, n := range comp {
			if n >= 0 {
				ports[n]++
			}
		}
		var lengths []int
		for n, c := range closed {
			if !c {
				t.Fatalf("%s: strand %d is open", tc.name, n)
			}
			lengths = append(lengths, ports[n]/2)
		}
		if !reflect.DeepEqual(lengths, tc.lengths) {
			t.Errorf("%s: knot lengths %v, want %v", tc.name, lengths, tc.lengths)
		}
		// Every knot of both designs passes through all four tiles.
		for _, k := range st.Knots() {
			if len(k.Cells) != 4 || k.Score != [2]int{4, 0} {
				t.Errorf("%s: knot %+v", tc.name, k)
			}
		}
	}
}

// TestStartAndLegal: the start has the neutral crossing on e5 with four
// open marks, pointing at e6, f5, e4 and d5. On each of those cells the
// mark facing the crossing is required and the other three edges are
// free: 8 masks, less the crossing (there is only one) = 7, each as
// Orange's own or as neutral (both supplies hold E, S, C, B) = 14; every
// one fits the window (at most 3x4). 4 x 14 = 56 moves.
func TestStartAndLegal(t *testing.T) {
	s, err := engine.New(engine.Setup{Game: ID, Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	st := s.(*State)
	if st.Mask[cellOf(t, "e5")] != 15 || st.Owner[cellOf(t, "e5")] != Neutral || st.ToMove() != 0 {
		t.Fatalf("bad start")
	}
	legal := st.Legal()
	if len(legal) != 56 {
		t.Fatalf("%d legal moves at the start, want 56", len(legal))
	}
	cells := map[string]int{}
	for _, m := range legal {
		cells[board.Name(m.(Move).Cell)]++
	}
	if !reflect.DeepEqual(cells, map[string]int{"e6": 14, "f5": 14, "e4": 14, "d5": 14}) {
		t.Fatalf("cells %v", cells)
	}
	if got := st.Hand(0); !reflect.DeepEqual(got, []string{"B", "B", "C", "C", "C", "C", "E", "E", "S", "S"}) {
		t.Fatalf("hand %v", got)
	}
	if _, err := engine.New(engine.Setup{Game: ID, Players: 3}); err == nil {
		t.Fatalf("3 players accepted")
	}
}

// TestEdgeMatching: e5 crossing, e6 Orange corner (marks E, S), f5 Orange
// end-cap (mark W). f6 touches e6's east mark (so its west edge must be
// marked) and f5's blank north edge (so its south edge must be blank).
func TestEdgeMatching(t *testing.T) {
	st := build(t, 1, "N e5 NESW", "O e6 ES", "O f5 W")
	for text, wantErr := range map[string]string{
		"f6 W":    "",
		"f6 NW":   "",
		"f6 EW":   "",
		"f6 N":    "the west edge of f6 must be marked: e6 has a mark on its east edge",
		"f6 SW":   "the south edge of f6 must be blank: f5's north edge is blank",
		"f6 NSW":  "the south edge of f6 must be blank",
		"g6 W":    "g6 is not next to an open mark",
		"e6 S":    "e6 is already taken",
		"e4 S":    "the north edge of e4 must be marked: e5 has a mark on its south edge",
		"e4 NESW": "there is only one crossing",
		"e4 NE*":  "",
	} {
		_, err := st.Parse(text)
		switch {
		case wantErr == "" && err != nil:
			t.Errorf("%s: refused: %v", text, err)
		case wantErr != "" && (err == nil || !strings.Contains(err.Error(), wantErr)):
			t.Errorf("%s: error %v, want %q", text, err, wantErr)
		}
	}
}

// TestWindowRule is Browne's example from the Osbo rules: a column of,
// from top to bottom, a straight (e6), the crossing (e5), a straight (e4)
// and a branch with its south side blank (e3); the crossing's and the
// branch's east and west marks point at d and f. The design claims rows 3
// to 7 (the top straight's mark points at e7) and columns d to f. Move x,
// a crossing on e7, points its north mark at e8: rows 3 to 8 = 6 rows,
// illegal. Move y, a branch on e7 with its north side blank, keeps rows
// 3 to 7 and columns d to f: legal.
func TestWindowRule(t *testing.T) {
	st := build(t, 0, "O e6 NS", "N e5 NESW", "B e4 NS", "O e3 NEW")
	e7 := cellOf(t, "e7")
	if !st.WindowOK() {
		t.Fatalf("the example position breaks the window")
	}
	if st.windowAfter(e7, 15, st.tilesBox(), st.targets()) {
		t.Errorf("x (crossing on e7) keeps the window")
	}
	if !st.windowAfter(e7, 1<<1|1<<2|1<<3, st.tilesBox(), st.targets()) {
		t.Errorf("y (branch ESW on e7) breaks the window")
	}
	if _, err := st.Parse("e7 ESW"); err != nil {
		t.Errorf("y refused: %v", err)
	}
	_, err := st.Parse("e7 NS")
	if err == nil || !strings.Contains(err.Error(), "5x5 window") {
		t.Errorf("straight on e7 (north mark like x): %v", err)
	}
	// No legal move on e7 has a north mark.
	for _, m := range st.Legal() {
		if mv := m.(Move); mv.Cell == e7 && mv.Mask&1 != 0 {
			t.Errorf("listed %s", mv)
		}
	}
	// Sideways too: the branch's west mark points at d3; straights on d3
	// and c3 point at b3: columns b to f = 5, fine. A straight on b3
	// would point at a3 (columns a to f = 6): illegal; an end-cap on b3
	// closes the row inside the window: legal.
	st2 := build(t, 0, "O e6 NS", "N e5 NESW", "B e4 NS", "O e3 NEW", "B d3 EW", "O c3 EW")
	if _, err := st2.Parse("b3 EW*"); err == nil || !strings.Contains(err.Error(), "5x5") {
		t.Errorf("b3 EW*: %v", err)
	}
	if _, err := st2.Parse("b3 E"); err != nil {
		t.Errorf("b3 E: %v", err)
	}
}

// TestPassing: Orange holds four end-caps, Blue and the neutral supply
// nothing. Each Orange move leaves Blue without a move, so Blue passes
// and Orange moves again; after the fourth end-cap no open mark is left,
// neither can move and the game ends. The four end-caps close the
// crossing's four arcs into one knot through 5 tiles (e5 W-top, N-left,
// e6, N-right, E-top, f5, E-bottom, S-right, e4, S-left, W-bottom, d5,
// back to W-top): Orange 4, Blue nothing: Orange wins with 4.
func TestPassing(t *testing.T) {
	st := build(t, 0, "N e5 NESW")
	st.Supply = [3][kinds]int{{EndCap: 4}}
	for i, text := range []string{"e6 S", "f5 W", "e4 N", "d5 E"} {
		m, err := st.Parse(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		o, err := st.Apply(m)
		if err != nil {
			t.Fatal(err)
		}
		passed := false
		for _, e := range o.Events {
			passed = passed || e.Seat == 1 && strings.Contains(e.Text, "passes")
		}
		if !passed {
			t.Fatalf("%s: Blue did not pass: %+v", text, o.Events)
		}
		if i < 3 && (st.Over() || st.ToMove() != 0) {
			t.Fatalf("%s: Orange should move again", text)
		}
		if i < 3 && st.Score[0] != 0 {
			t.Fatalf("open strands scored")
		}
		if i == 3 {
			if !st.Over() || !reflect.DeepEqual(st.Winners(), []engine.Seat{0}) || !reflect.DeepEqual(st.Scores(), []int{4, 0}) {
				t.Fatalf("end: over %v winners %v scores %v", st.Over(), st.Winners(), st.Scores())
			}
			if o.Points(0) != 4 || !o.Over {
				t.Fatalf("outcome %+v", o)
			}
		}
	}
	ks := st.Knots()
	if len(ks) != 1 || len(ks[0].Cells) != 5 {
		t.Fatalf("knots %+v", ks)
	}
}

// knotGroups is a hand-built design of two groups side by side (internal
// tests may lay tiles anywhere), tiles within the set:
//   - d8 d7 e8 e7: Ted's 2x2 (end-caps d8, e8 over corners d7, e7): one
//     knot through all four; Blue d8 e7, Orange e8 d7: Orange 2, Blue 2;
//   - g8 g7 h7 (owners given per test) and h8 missing: Ted's 2x2 again,
//     closed by the last move h8 S* (the neutral end-cap), whose only
//     open mark is h7's north mark. Columns d to h, rows 7 to 8.
func knotGroups(t *testing.T, turn engine.Seat, g8, g7, h7 string) *State {
	st := build(t, turn, "B d8 S", "O e8 S", "O d7 NE", "B e7 NW", g8+" g8 S", g7+" g7 NE", h7+" h7 NW")
	st.Score = []int{2, 2} // the best knots so far: Ted's group
	return st
}

// closeLast plays h8 S* and checks that it ends the game.
func closeLast(t *testing.T, st *State) {
	t.Helper()
	m, err := st.Parse("h8 s *")
	if err != nil {
		t.Fatal(err)
	}
	o, err := st.Apply(m)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Over() || !o.Over || len(st.Knots()) != 2 {
		t.Fatalf("h8 S* did not end the game: %+v", o)
	}
}

// TestTieBrokenBySecondKnot: Ted's group gives Orange 2, Blue 2; the
// second group (g8 Blue, g7 and h7 Orange, h8 neutral) Orange 2, Blue 1.
// Sorted lists: Orange 2, 2; Blue 2, 1. The best knots tie at 2; the
// second knots decide: Orange wins. The scores (best knots) stay 2 and 2.
func TestTieBrokenBySecondKnot(t *testing.T) {
	st := knotGroups(t, 1, "B", "O", "O")
	// Blue's moves: h8 needs a south mark, a blank west edge (g8's east
	// is blank) and no east mark (column i would make 6 columns): the
	// end-cap S (only the neutral one: Blue's two are on d8 and g8) or
	// the straight NS (Blue's or neutral).
	var legal []string
	for _, m := range st.Legal() {
		legal = append(legal, m.String())
	}
	if fmt.Sprint(legal) != "[h8 S* h8 NS h8 NS*]" {
		t.Fatalf("legal %v", legal)
	}
	closeLast(t, st)
	if !reflect.DeepEqual(st.Winners(), []engine.Seat{0}) || !reflect.DeepEqual(st.Scores(), []int{2, 2}) {
		t.Fatalf("winners %v scores %v", st.Winners(), st.Scores())
	}
	if ks := KnotScores(st.Knots()); !reflect.DeepEqual(ks, [2][]int{{2, 2}, {2, 1}}) {
		t.Fatalf("knot scores %v", ks)
	}
	if v := st.View(engine.NoSeat); v.Status != "Game over: Orange wins" || v.Seats[0].Info[1] != "Knot scores: 2, 2" || v.Seats[1].Info[1] != "Knot scores: 2, 1" {
		t.Fatalf("view %+v", v)
	}
}

// TestFullDraw: Ted's group Orange 2, Blue 2; the second group (g8 Blue,
// g7 Orange, h7 and h8 neutral) Orange 1, Blue 1. Lists: Orange 2, 1;
// Blue 2, 1: all equal, a draw: both seats are winners.
func TestFullDraw(t *testing.T) {
	st := knotGroups(t, 0, "B", "O", "N")
	closeLast(t, st)
	if ks := KnotScores(st.Knots()); !reflect.DeepEqual(ks, [2][]int{{2, 1}, {2, 1}}) {
		t.Fatalf("knot scores %v", ks)
	}
	if !reflect.DeepEqual(st.Winners(), []engine.Seat{0, 1}) {
		t.Fatalf("winners %v, want both (a draw)", st.Winners())
	}
	if v := st.View(engine.NoSeat); v.Status != "Game over: a draw" || !v.Seats[0].Winner || !v.Seats[1].Winner {
		t.Fatalf("view %+v", v)
	}
}

// TestCompare: the first difference decides, a missing entry counts 0.
func TestCompare(t *testing.T) {
	for _, tc := range []struct {
		a, b []int
		sign int
	}{
		{[]int{5}, []int{4, 4}, 1},
		{[]int{3, 1}, []int{3}, 1},
		{[]int{3}, []int{3, 1}, -1},
		{[]int{3, 2}, []int{3, 2}, 0},
		{nil, nil, 0},
		{nil, []int{1}, -1},
	} {
		c := Compare(tc.a, tc.b)
		if (c > 0) != (tc.sign > 0) || (c < 0) != (tc.sign < 0) {
			t.Errorf("Compare(%v, %v) = %d", tc.a, tc.b, c)
		}
	}
}

// TestNotation: input accepts the edges in any order and case, the * and
// spaces anywhere after the cell; String writes N E S W order.
func TestNotation(t *testing.T) {
	s, _ := New(engine.Setup{Game: ID, Players: 2})
	st := s.(*State)
	for in, want := range map[string]string{
		"e6 S":      "e6 S",
		"E6s":       "e6 S",
		"e6 sn":     "e6 NS",
		"e6 wse":    "e6 ESW",
		"e6 * es":   "e6 ES*",
		"e6 SEN*":   "e6 NES*",
		" d5  e  ":  "d5 E",
		"f5 W*":     "f5 W*",
		"e4 n w e ": "e4 NEW",
	} {
		m, err := st.Parse(in)
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		if m.String() != want {
			t.Errorf("%q: %s, want %s", in, m, want)
		}
	}
	for in, want := range map[string]string{
		"":        "write the cell",
		"e6":      "which edges",
		"e6 NN":   "written twice",
		"e6 S**":  "once",
		"e6 X":    "not an edge",
		"j6 S":    "off the board",
		"6e S":    "write the cell",
		"e6 NESW": "only one crossing",
	} {
		_, err := st.Parse(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
	// Own supply empty: the error points at the neutral tile.
	st.Supply[0][Straight] = 0
	if _, err := st.Parse("e6 NS"); err == nil || !strings.Contains(err.Error(), "add *") {
		t.Errorf("no straight: %v", err)
	}
}

// TestResign: in a 2-player game the other player wins at once.
func TestResign(t *testing.T) {
	s, _ := New(engine.Setup{Game: ID, Players: 2})
	o := s.Resign(0)
	if !s.Over() || !reflect.DeepEqual(s.Winners(), []engine.Seat{1}) || !o.Over || len(s.Legal()) != 0 {
		t.Fatalf("resign: over %v winners %v", s.Over(), s.Winners())
	}
	if _, err := s.Parse("e6 S"); err == nil {
		t.Fatalf("move accepted after the game")
	}
}

// TestSceneAndView: the board and hand pictures are drawable (finite
// sizes, readable text) and the view lists supplies and knot scores.
func TestSceneAndView(t *testing.T) {
	st := knotGroups(t, 1, "B", "O", "O")
	closeLast(t, st)
	sc := st.Board()
	if sc.W <= 0 || sc.H <= 0 || len(sc.Items) == 0 {
		t.Fatalf("empty scene")
	}
	for _, it := range append(sc.Items, st.HandScene(0).Items...) {
		if it.Text != "" && it.Size < 18 {
			t.Errorf("text %q size %v", it.Text, it.Size)
		}
	}
	v := st.View(0)
	if v.Seats[0].Label != "Orange" || v.Seats[1].Color != engine.Blue || v.Seats[0].InHand != 6 {
		t.Fatalf("view %+v", v.Seats[0])
	}
	if got := fmt.Sprint(v.Seats[0].Info); got != "[Tiles left: 2B 1C 1E 2S Knot scores: 2, 2]" {
		t.Errorf("info %s", got)
	}
}

// TestFinishedExample replays the finished game of the README picture:
// 23 moves, one knot through 24 tiles (d6 stays empty), Orange 10 and
// Blue 9 of them; Orange wins; Orange has no tile left, Blue one corner.
func TestFinishedExample(t *testing.T) {
	st, err := engine.New(engine.Setup{Game: ID, Players: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range strings.Split("e6 NES*,d5 ES*,e4 NE,d4 N*,f4 SW,f5 NEW,g5 NW,g6 S,f3 NE,e7 ESW,f6 NSW,g3 NW,d7 EW,g4 S,f7 ESW,c7 ES,c6 NS,c5 NS,c4 NS*,c3 NE,g7 W,d3 EW,e3 W", ",") {
		m, err := st.Parse(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if _, err := st.Apply(m); err != nil {
			t.Fatal(err)
		}
	}
	k := st.(*State)
	if !st.Over() || !reflect.DeepEqual(st.Scores(), []int{10, 9}) || !reflect.DeepEqual(st.Winners(), []engine.Seat{0}) {
		t.Fatalf("over %v scores %v winners %v", st.Over(), st.Scores(), st.Winners())
	}
	if fmt.Sprint(st.Hand(0), st.Hand(1)) != "[] [C]" || len(k.Knots()) != 1 || len(k.Knots()[0].Cells) != 24 {
		t.Fatalf("hands %v %v knots %+v", st.Hand(0), st.Hand(1), k.Knots())
	}
}

// TestSummary: the /rules text fits Discord's limit and shows the notation.
func TestSummary(t *testing.T) {
	g, ok := engine.Lookup(ID)
	if !ok || len(g.Summary) >= 1800 || !strings.Contains(g.Summary, "`f5 NES*`") {
		t.Fatalf("summary: %d bytes", len(g.Summary))
	}
}
