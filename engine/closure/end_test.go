package closure

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"tessera/engine"
	"tessera/engine/enginetest"
)

// End: the mover ends their own turn with more than 99 points. A
// non-mover above 99 (from a colour bonus, say) does not end the game
// until their own turn ends.
func TestEndOver99(t *testing.T) {
	// m13 = 46 GRGR (no arms). Blue holds 2 BBBG, Green 19 GGGG.
	st := build(t, 2, [][]int{{2}, {19}}, []int{}, lay{"m13", 46, 0})
	st.Score = []int{99, 100}
	// 2 at m14: its SW G faces m13's NW G; its arms S, W meet no arm
	// (46 has none): 0 points. Blue ends on 99, not more than 99, and
	// Green's 100 does not count on Blue's turn.
	enginetest.Play(t, st, "2 m14")
	if st.Over() {
		t.Fatalf("ended on Blue's turn with scores %v (%s)", st.Score, st.EndWhy)
	}
	// 19 GGGG at l13: its NE G faces m13's NW G; no arms: 0 points; Green
	// ends the turn with 100 > 99: the game ends, with final scoring.
	o := enginetest.Play(t, st, "19 l13")
	if !st.Over() || !strings.Contains(st.EndWhy, "Green ends the turn with more than 99 points") {
		t.Fatalf("over %v why %q", st.Over(), st.EndWhy)
	}
	// Final areas by hand: l13 GGGG (4 G) joins m13's NW G (l13's NE faces
	// it) and, through m13... m13 NW G touches m13 NE R and SW R only, and
	// m14's SW G (m14 SW faces m13 NW): green area l13 x4 + m13 NW + m14 SW
	// = 6. m14's B quadrants NW, NE, SE = blue 3. The rest are single
	// quadrants. Two largest: green 6 to Green, blue 3 to Blue. Hands are
	// empty (the deck is empty).
	want := []engine.Delta{
		{Seat: 1, Points: 6, Reason: "largest green area 6"},
		{Seat: 0, Points: 3, Reason: "2nd largest blue area 3"},
	}
	if !reflect.DeepEqual(o.Deltas, want) {
		t.Fatalf("final %v, want %v", o.Deltas, want)
	}
	if !reflect.DeepEqual(st.Winners(), []engine.Seat{1}) {
		t.Fatalf("winners %v", st.Winners())
	}
}

// End: all 48 tiles on the table. Random games that prefer placing are
// played until one lays all 48; it must end on that very move.
func TestEndAllTilesLaid(t *testing.T) {
	found := 0
	for seed := uint64(1); seed <= 60 && found < 3; seed++ {
		s, err := engine.New(engine.Setup{Game: ID, Players: 2, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		st := s.(*State)
		rng := rand.New(rand.NewPCG(seed, 3))
		for !st.Over() {
			legal := st.Legal()
			m := legal[rng.IntN(len(legal))]
			before := st.Laid
			if _, err := st.Apply(m); err != nil {
				t.Fatal(err)
			}
			if st.Laid == NumTiles && !st.Over() {
				t.Fatalf("seed %d: 48 tiles laid and the game goes on", seed)
			}
			if st.Over() && st.Laid == NumTiles && before == NumTiles-1 {
				if st.EndWhy != "all 48 tiles are on the table" {
					t.Fatalf("seed %d: ended because %q", seed, st.EndWhy)
				}
				found++
			}
		}
	}
	if found == 0 {
		t.Fatal("no random game laid all 48 tiles")
	}
}

// Final scoring: the largest single-colour areas (as many as seats), every
// area tied with the last qualifying size too; an unowned colour takes its
// place in the ranking; each tile in a hand gives every other seat 2.
func TestFinalAreasAndHands(t *testing.T) {
	// m13 = 4 BBGG, n13 = 32 BGBG (NW B, NE G, SE B, SW G). Arms are
	// ignored. Areas: blue m13 NW+NE + n13 NW (m13 NE faces n13 NW) = 3;
	// green m13 SW+SE + n13 SW (m13 SE faces n13 SW) = 3; n13 NE green 1
	// and n13 SE blue 1 (their in-tile neighbours are the other colour).
	lays := []lay{{"m13", 4, 0}, {"n13", 32, 0}}
	st := build(t, 2, [][]int{{}, {}}, []int{}, lays...)
	want := []engine.Delta{
		{Seat: 0, Points: 3, Reason: "largest blue area 3 (tied)"},
		{Seat: 1, Points: 3, Reason: "largest green area 3 (tied)"},
	}
	if got := st.finalScores(); !reflect.DeepEqual(got, want) {
		t.Fatalf("2 players: %v, want %v", got, want)
	}
	// Three seats: the third largest is 1, and both areas of 1 tie with it.
	st = build(t, 3, [][]int{{}, {}, {}}, []int{}, lays...)
	want = []engine.Delta{
		{Seat: 0, Points: 3, Reason: "largest blue area 3 (tied)"},
		{Seat: 1, Points: 3, Reason: "largest green area 3 (tied)"},
		{Seat: 1, Points: 1, Reason: "3rd largest green area 1 (tied)"},
		{Seat: 0, Points: 1, Reason: "3rd largest blue area 1 (tied)"},
	}
	if got := st.finalScores(); !reflect.DeepEqual(got, want) {
		t.Fatalf("3 players: %v, want %v", got, want)
	}
	// m13 = 7 BBRR instead: blue 3 as before, red m13 SW+SE = 2 (n13 SW is
	// green), and three areas of 1. With two seats: blue 3 and red 2 score,
	// red belongs to nobody, so Green's areas of 1 get nothing. Hands:
	// Blue holds 2 tiles (Green +4), Green holds 3 (Blue +6).
	st = build(t, 2, [][]int{{5, 6}, {10, 11, 12}}, []int{}, lay{"m13", 7, 0}, lay{"n13", 32, 0})
	want = []engine.Delta{
		{Seat: 0, Points: 3, Reason: "largest blue area 3"},
		{Seat: 1, Points: 4, Reason: "2 tiles left in Blue's hand"},
		{Seat: 0, Points: 6, Reason: "3 tiles left in Green's hand"},
	}
	if got := st.finalScores(); !reflect.DeepEqual(got, want) {
		t.Fatalf("unowned red: %v, want %v", got, want)
	}
	// Three players, Red holds 1 tile: Blue and Green +2 each.
	st = build(t, 3, [][]int{{}, {}, {9}}, []int{}, lay{"m13", 7, 0}, lay{"n13", 32, 0})
	got := st.finalScores()
	want = []engine.Delta{{Seat: 0, Points: 2, Reason: "1 tile left in Red's hand"}, {Seat: 1, Points: 2, Reason: "1 tile left in Red's hand"}}
	if !reflect.DeepEqual(got[len(got)-2:], want) {
		t.Fatalf("Red's hand: %v", got)
	}
}

// Resignation: with two players the other wins at once, without final
// scoring; with three the game goes on without the seat, who keeps their
// hand; the passes already in a row count against the players left.
func TestResign(t *testing.T) {
	st := build(t, 2, [][]int{{1}, {25}}, []int{}, lay{"m13", 46, 0})
	st.Score = []int{0, 30}
	o := st.Resign(1)
	if !st.Over() || !reflect.DeepEqual(st.Winners(), []engine.Seat{0}) || len(o.Deltas) != 0 || !o.Over {
		t.Fatalf("2 players: over %v winners %v deltas %v", st.Over(), st.Winners(), o.Deltas)
	}
	// Three players, all stuck on GGGG. Green (seat 2) resigns on their
	// own turn: Red moves next, Green keeps tile 25.
	st = build(t, 3, [][]int{{1}, {25}, {24}}, []int{}, lay{"m13", 19, 0})
	enginetest.Play(t, st, "pass")
	st.Resign(1)
	if st.Over() || st.Turn != 2 || !reflect.DeepEqual(st.Hand(1), []int{25}) {
		t.Fatalf("3 players: over %v turn %d hand %v", st.Over(), st.Turn, st.Hand(1))
	}
	enginetest.Play(t, st, "discard 24") // breaks the row
	enginetest.Play(t, st, "pass")       // Blue: row 1 of 2
	if st.Over() || st.Turn != 2 {
		t.Fatalf("Green was not skipped: turn %d", st.Turn)
	}
	o = enginetest.Play(t, st, "pass") // Red: row 2 of 2 players left: the end
	if !st.Over() {
		t.Fatal("two passes by the two players left did not end the game")
	}
	for _, w := range st.Winners() {
		if w == 1 {
			t.Fatal("a resigned seat won")
		}
	}
	// Blue and Red pass; Green, to move, resigns: two passes in a row and
	// two players left: the game ends at once.
	st = build(t, 3, [][]int{{1}, {25}, {24}}, []int{}, lay{"m13", 19, 0})
	st.Turn = 2
	enginetest.Play(t, st, "pass")
	enginetest.Play(t, st, "pass")
	o = st.Resign(1)
	if !st.Over() || !o.Over {
		t.Fatalf("resignation after a full row of passes did not end the game")
	}
}

// The starting-player draw: each seat draws, the highest starts; the set
// is shuffled again, Setup.Deck goes on top, and the starting player is
// dealt first. Option first=N skips the draw.
func TestStart(t *testing.T) {
	for seed := uint64(0); seed < 20; seed++ {
		s, err := engine.New(engine.Setup{Game: ID, Players: 3, Seed: seed, Deck: []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"}})
		if err != nil {
			t.Fatal(err)
		}
		st := s.(*State)
		hi := slices.Max(st.Drawn)
		if len(st.Drawn) != 3 || st.Drawn[st.Starter] != hi || st.Turn != st.Starter {
			t.Fatalf("seed %d: drawn %v starter %d", seed, st.Drawn, st.Starter)
		}
		ev := st.StartEvents()
		if len(ev) != 4 || ev[3].Seat != st.Starter || !strings.Contains(ev[3].Text, "highest") {
			t.Fatalf("seed %d: events %v", seed, ev)
		}
		for i := 0; i < 3; i++ {
			seat := (int(st.Starter) + i) % 3
			want := []int{4*i + 1, 4*i + 2, 4*i + 3, 4*i + 4}
			if !reflect.DeepEqual(st.Hand(engine.Seat(seat)), want) {
				t.Fatalf("seed %d: seat %d hand %v, want %v", seed, seat, st.Hand(engine.Seat(seat)), want)
			}
		}
		if len(st.Deck) != 36 {
			t.Fatalf("deck %d", len(st.Deck))
		}
	}
	s, err := engine.New(engine.Setup{Game: ID, Players: 2, Seed: 5, Options: map[string]string{"first": "2", "colors": "RG"}, Deck: []string{"17", "3", "40", "8", "1"}})
	if err != nil {
		t.Fatal(err)
	}
	st := s.(*State)
	if st.Turn != 1 || !reflect.DeepEqual(st.Hand(1), []int{3, 8, 17, 40}) || st.Drawn != nil {
		t.Fatalf("first=2: turn %d hands %v %v", st.Turn, st.Hand(0), st.Hand(1))
	}
	if st.Hands[0][0] != 1 || string(st.Colour) != "RG" || st.View(engine.NoSeat).Seats[0].Label != "Red" {
		t.Fatalf("seat 1 hand %v colours %s", st.Hands[0], st.Colour)
	}
	for _, bad := range []map[string]string{{"colors": "BB"}, {"colors": "BX"}, {"colors": "BGR"}, {"first": "3"}, {"first": "x"}} {
		if _, err := engine.New(engine.Setup{Game: ID, Players: 2, Options: bad}); err == nil {
			t.Errorf("options %v accepted", bad)
		}
	}
	for _, bad := range [][]string{{"0"}, {"49"}, {"3", "3"}, {"x"}} {
		if _, err := engine.New(engine.Setup{Game: ID, Players: 2, Deck: bad}); err == nil {
			t.Errorf("deck %v accepted", bad)
		}
	}
}

// Notation: the rotation may be left out when 0; a symmetric tile's
// equivalent turns are one move (and one entry in Legal).
func TestNotation(t *testing.T) {
	st := build(t, 2, [][]int{{1, 7, 8, 25}, {2}}, []int{})
	for in, want := range map[string]string{
		"7 m13 90": "7 m13 90", "7 M13 0": "7 m13", "7 m13 270°": "7 m13 270",
		"8 m13 180": "8 m13", "8 m13 270": "8 m13 90", "  7   m13  ": "7 m13",
	} {
		m, err := st.Parse(in)
		if err != nil || m.String() != want {
			t.Errorf("%q: got %v, %v; want %q", in, m, err, want)
		}
	}
	// 7 BBRR: 4 turns; 8 BGBG: 2; 1 and 25 are single-coloured: 6 moves.
	if n := len(st.Legal()); n != 6 {
		t.Errorf("%d legal moves, want 6: %v", n, enginetest.LegalStrings(st))
	}
	for in, want := range map[string]string{
		"":            "write the tile number",
		"7":           "write the tile number",
		"m13 7":       "not a tile number",
		"12 m13":      "you hold tiles 1, 7, 8 and 25, not 12",
		"7 m13 45":    "not a turn",
		"7 13m":       "not a cell",
		"pass please": "write the tile number",
		"discard":     "write the tile number",
	} {
		enginetest.Refused(t, st, in, want)
	}
}

// The /rules summary fits Discord's limit, and the registry knows the game.
func TestSummary(t *testing.T) {
	g, ok := engine.Lookup(ID)
	if !ok || len(g.Summary) >= 1800 || !strings.Contains(g.Summary, "17 m14 90") {
		t.Fatalf("summary of %d characters", len(g.Summary))
	}
	t.Logf("summary: %d characters", len(g.Summary))
}
