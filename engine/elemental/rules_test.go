package elemental

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"tessera/engine"
	"tessera/engine/enginetest"
)

// newState is a 2-player game with borders north R, east B, south G,
// west Y, and the given hands.
func newState(t *testing.T, players int, hands ...[]string) *State {
	t.Helper()
	st, err := engine.New(engine.Setup{Game: ID, Players: players, Seed: 1, Options: map[string]string{"borders": "RBGY"}})
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	for i, h := range hands {
		s.Hands[i] = nil
		for _, code := range h {
			tile, err := ParseTile(code)
			if err != nil {
				t.Fatal(err)
			}
			s.Hands[i] = append(s.Hands[i], tile.Canonical())
		}
	}
	return s
}

// lay puts a tile on the board directly, as if played earlier.
func lay(t *testing.T, s *State, cell, edges string) {
	t.Helper()
	i, err := board.Parse(cell)
	if err != nil {
		t.Fatal(err)
	}
	tile, _ := ParseTile(edges)
	s.Cells[i], s.Filled[i] = tile, true
	s.Placed++
}

func TestTileSet(t *testing.T) {
	tiles := AllTiles()
	// Burnside: (4^4 + 4 + 4^2 + 4) / 4 = 70 colourings up to rotation.
	if len(tiles) != 70 {
		t.Fatalf("%d tiles, want 70", len(tiles))
	}
	seen := map[Tile]bool{}
	for _, x := range tiles {
		if x.Canonical() != x || seen[x] {
			t.Fatalf("tile %s repeated or not canonical", x)
		}
		seen[x] = true
	}
	// RGBY rotated a quarter turn clockwise: west's Y comes to north.
	if got := (Tile{'R', 'G', 'B', 'Y'}).Rotate(1).String(); got != "YRGB" {
		t.Fatalf("RGBY rotated = %s, want YRGB", got)
	}
	if got := (Tile{'R', 'G', 'B', 'Y'}).Canonical().String(); got != "BYRG" {
		t.Fatalf("canonical RGBY = %s, want BYRG", got)
	}
}

func TestScoring(t *testing.T) {
	// The board around e4 (inside, no border): neighbours north e5,
	// east f4, south e3, west d4. Each case lays some neighbours and plays
	// RRRR at e4. A neighbour's facing edge is the one named in its code:
	// e5's south (3rd letter), f4's west (4th), e3's north (1st), d4's east (2nd).
	cases := []struct {
		name   string
		around map[string]string
		want   int
		deltas []string
	}{
		{"nothing to touch (first tile)", nil, 0, nil},
		{"1 connection", map[string]string{"e5": "GGRG"}, 1, []string{"1 connection +1"}},
		{"2 connections", map[string]string{"e5": "GGRG", "f4": "GGGR"}, 3, []string{"2 connections +3"}},
		{"3 connections", map[string]string{"e5": "GGRG", "f4": "GGGR", "e3": "RGGG"}, 6, []string{"3 connections +6"}},
		{"4 connections", map[string]string{"e5": "GGRG", "f4": "GGGR", "e3": "RGGG", "d4": "GRGG"}, 10, []string{"4 connections +10"}},
		{"1 misconnection", map[string]string{"e5": "RRBR"}, -1, []string{"1 misconnection -1"}},
		{"3 misconnections", map[string]string{"e5": "RRBR", "f4": "RRRB", "e3": "BRRR"}, -3, []string{"3 misconnections -3"}},
		{"2 connections and 2 misconnections: 3 - 2", map[string]string{"e5": "GGRG", "f4": "GGGR", "e3": "BRRR", "d4": "RBRR"}, 1, []string{"2 connections +3", "2 misconnections -2"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newState(t, 2, []string{"RRRR", "GGGG"})
			for cell, code := range c.around {
				lay(t, s, cell, code)
			}
			o := enginetest.Play(t, s, "e4 RRRR")
			if got := o.Points(0); got != c.want {
				t.Fatalf("points %d, want %d", got, c.want)
			}
			var ds []string
			for _, d := range o.Deltas {
				ds = append(ds, fmt.Sprintf("%s %+d", d.Reason, d.Points))
			}
			if !reflect.DeepEqual(ds, c.deltas) {
				t.Fatalf("deltas %v, want %v", ds, c.deltas)
			}
			if s.Scores()[0] != c.want {
				t.Fatalf("score %d, want %d", s.Scores()[0], c.want)
			}
		})
	}
}

func TestBorders(t *testing.T) {
	// Borders: north R, east B, south G, west Y.
	cases := []struct {
		move string
		want int
		why  string
	}{
		// a1 is the south-west corner: south edge G meets the green border,
		// west edge Y the yellow border: +2.
		{"a1 RRGY", 2, "corner, both border edges match"},
		// h8, north-east corner: north R matches, east G does not (border B):
		// +1, and the mismatch costs nothing.
		{"h8 RGRR", 1, "corner, one of two borders matches"},
		// a8, north-west corner: north B vs R, west B vs Y: 0, no penalty.
		{"a8 BBBB", 0, "corner, no border matches, no penalty"},
		// e1, south side: south G matches: +1.
		{"e1 BYGR", 1, "one border edge matches"},
		// h4, east side: east Y vs B: 0.
		{"h4 YYYY", 0, "border mismatch is not a misconnection"},
	}
	for _, c := range cases {
		s := newState(t, 2, []string{strings.Fields(c.move)[1], "GGGG"})
		o := enginetest.Play(t, s, c.move)
		if o.Points(0) != c.want {
			t.Errorf("%s (%s): %d points, want %d", c.move, c.why, o.Points(0), c.want)
		}
	}
	// A border edge never counts as a connection: a1 with a neighbour
	// north (a2 south edge G) matching: 1 connection (+1) plus 2 borders.
	s := newState(t, 2, []string{"GBGY", "GGGG"})
	lay(t, s, "a2", "RRGR")
	o := enginetest.Play(t, s, "a1 GBGY")
	if o.Points(0) != 1+2 {
		t.Fatalf("a1 GBGY next to a2: %d, want 3 (1 connection + 2 borders)", o.Points(0))
	}
}

func TestPlacementRules(t *testing.T) {
	s := newState(t, 2, []string{"RGBY", "GGGG"}, []string{"RRRR", "BBBB"})
	// First tile: anywhere.
	enginetest.Play(t, s, "h8 RGBY")
	// Seat 2 must play next to it: g8 or h7.
	if _, err := s.Parse("a1 RRRR"); err == nil || !strings.Contains(err.Error(), "touches no tile") {
		t.Fatalf("non-adjacent: %v", err)
	}
	if _, err := s.Parse("g7 RRRR"); err == nil {
		t.Fatal("diagonal placement accepted")
	}
	if _, err := s.Parse("h8 RRRR"); err == nil || !strings.Contains(err.Error(), "already taken") {
		t.Fatalf("occupied: %v", err)
	}
	if _, err := s.Parse("d9 RRRR"); err == nil || err.Error() != "d9 is off the board (a1-h8)" {
		t.Fatalf("off board: %v", err)
	}
	if _, err := s.Parse("g8 YYYY"); err == nil || err.Error() != "you hold RRRR and BBBB, not YYYY" {
		t.Fatalf("not held: %v", err)
	}
	if _, err := s.Parse("g8 RRRX"); err == nil || !strings.Contains(err.Error(), "R, B, G and Y") {
		t.Fatalf("bad colour: %v", err)
	}
	// Input is case-insensitive and tolerates spaces and a missing space.
	for _, in := range []string{"  G8   rrrr ", "g8rrrr", "G8 RRRR"} {
		m, err := s.Parse(in)
		if err != nil || m.String() != "g8 RRRR" {
			t.Fatalf("%q: %v %v", in, m, err)
		}
	}
	// Legal moves of seat 2: 2 cells x (RRRR: 1 orientation + BBBB: 1).
	if n := len(s.Legal()); n != 4 {
		t.Fatalf("%d legal moves, want 4", n)
	}
}

func TestDealAndDraw(t *testing.T) {
	// Seat 1 draws 2, then seat 2, then seat 3; deck order from --deck.
	deck := []string{"RRRR", "GGGG", "BBBB", "YYYY", "RRRG", "RRRB", "RRRY"}
	st, err := engine.New(engine.Setup{Game: ID, Players: 3, Seed: 3, Deck: deck})
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	want := [][]string{{"GGGG", "RRRR"}, {"BBBB", "YYYY"}, {"BRRR", "GRRR"}} // codes are the smallest rotation
	for i := range want {
		if got := s.Hand(engine.Seat(i)).([]string); !reflect.DeepEqual(got, want[i]) {
			t.Fatalf("seat %d hand %v, want %v", i+1, got, want[i])
		}
	}
	// After a move seat 1 draws the next tile, RRRY, back up to 2.
	enginetest.Play(t, s, "d4 RRRR")
	if got := s.Hand(0).([]string); !reflect.DeepEqual(got, []string{"GGGG", "RRRY"}) {
		t.Fatalf("after drawing: %v", got)
	}
	if s.ToMove() != 1 {
		t.Fatalf("seat %d to move, want 2", s.ToMove()+1)
	}
	if len(s.Bag) != 70-7 {
		t.Fatalf("bag %d, want 63", len(s.Bag))
	}
	// Listing a tile twice in the deck is refused.
	if _, err := engine.New(engine.Setup{Game: ID, Players: 2, Deck: []string{"RRRR", "rrrr"}}); err == nil {
		t.Fatal("duplicate deck tile accepted")
	}
}

func TestBordersOption(t *testing.T) {
	for _, bad := range []string{"RRGY", "RGB", "RGBX"} {
		if _, err := engine.New(engine.Setup{Game: ID, Players: 2, Options: map[string]string{"borders": bad}}); err == nil {
			t.Errorf("borders=%s accepted", bad)
		}
	}
	// Without the option, the borders are a permutation from the seed, and
	// the same seed gives the same bag whether or not the borders are fixed.
	a, _ := engine.New(engine.Setup{Game: ID, Players: 2, Seed: 9})
	b, _ := engine.New(engine.Setup{Game: ID, Players: 2, Seed: 9, Options: map[string]string{"borders": "YGBR"}})
	if !reflect.DeepEqual(a.(*State).Bag, b.(*State).Bag) {
		t.Fatal("fixing the borders changed the bag")
	}
	seen := map[byte]bool{}
	for _, c := range a.(*State).Borders {
		seen[c] = true
	}
	if len(seen) != 4 {
		t.Fatalf("default borders %s are not four colours", a.(*State).Borders)
	}
	if got := b.(*State).Borders.String(); got != "YGBR" {
		t.Fatalf("borders %s, want YGBR", got)
	}
}

// fillBut fills every cell except the named ones with tiles that touch
// nothing harmful, for end-of-game tests.
func fillBut(t *testing.T, s *State, free ...string) {
	skip := map[int]bool{}
	for _, f := range free {
		i, _ := board.Parse(f)
		skip[i] = true
	}
	for i := 0; i < board.Len(); i++ {
		if !skip[i] {
			s.Cells[i], s.Filled[i] = Tile{'R', 'R', 'R', 'R'}, true
			s.Placed++
		}
	}
}

func TestEndTiesAndPerfectGame(t *testing.T) {
	// 63 cells of RRRR, the last cell e4 free. Seat 1 plays RRRR there:
	// 4 connections, +10. Scores were 5 and 15: 15 all, a shared win.
	s := newState(t, 2, []string{"RRRR", "GGGG"})
	fillBut(t, s, "e4")
	s.Score = []int{5, 15}
	o := enginetest.Play(t, s, "e4 RRRR")
	if !o.Over || !s.Over() || s.ToMove() != engine.NoSeat {
		t.Fatal("a full board did not end the game")
	}
	if !reflect.DeepEqual(s.Winners(), []engine.Seat{0, 1}) {
		t.Fatalf("winners %v, want both (15-15)", s.Winners())
	}
	if len(s.Legal()) != 0 {
		t.Fatal("legal moves after the end")
	}
	// No misconnection all game: announced as a Perfect Game.
	perfect := false
	for _, e := range o.Events {
		perfect = perfect || strings.Contains(e.Text, "Perfect Game")
	}
	if !perfect {
		t.Fatalf("no Perfect Game announced: %v", o.Events)
	}

	// Same, but the last tile misconnects (GGGG among reds: -4): 1 vs 15,
	// seat 2 wins alone and the game is flawed.
	s = newState(t, 2, []string{"GGGG", "BBBB"})
	fillBut(t, s, "e4")
	s.Score = []int{5, 15}
	o = enginetest.Play(t, s, "e4 GGGG")
	if !reflect.DeepEqual(s.Winners(), []engine.Seat{1}) || s.Scores()[0] != 1 {
		t.Fatalf("winners %v scores %v, want seat 2 and 1-15", s.Winners(), s.Scores())
	}
	for _, e := range o.Events {
		if strings.Contains(e.Text, "Perfect") {
			t.Fatal("a flawed game announced as perfect")
		}
	}
}

func TestResign(t *testing.T) {
	// Two players: the game ends and the other wins whatever the score.
	s := newState(t, 2)
	s.Score = []int{30, 2}
	o := s.Resign(0)
	if !o.Over || !reflect.DeepEqual(s.Winners(), []engine.Seat{1}) {
		t.Fatalf("winners %v after seat 1 resigned", s.Winners())
	}
	// Three players: the game goes on without the resigned seat, who keeps
	// their tiles; seat 2 resigning on their turn passes it to seat 3.
	s = newState(t, 3)
	enginetest.Play(t, s, "d4 "+s.Hands[0][0].String())
	s.Resign(1)
	if s.Over() || s.ToMove() != 2 {
		t.Fatalf("over %v, to move %d; want seat 3", s.Over(), s.ToMove()+1)
	}
	if len(s.Hands[1]) != 2 {
		t.Fatal("the resigned seat lost its tiles")
	}
	m := s.Legal()[0]
	s.Apply(m)
	if s.ToMove() != 0 {
		t.Fatalf("seat %d to move after seat 3, want seat 1 (seat 2 skipped)", s.ToMove()+1)
	}
}
