package closure

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"tessera/engine"
	"tessera/engine/enginetest"
)

// lay is a tile put on the table by hand: cell, tile number, quarter turns.
type lay struct {
	cell      string
	tile, rot int
}

// build makes a hand-built position: seat 1 to move (option first=1),
// the given hands and deck, an empty discard pile and the laid tiles.
// Tiles not mentioned are out of the game.
func build(t *testing.T, players int, hands [][]int, deck []int, lays ...lay) *State {
	t.Helper()
	s, err := engine.New(engine.Setup{Game: ID, Players: players, Seed: 1, Options: map[string]string{"first": "1"}})
	if err != nil {
		t.Fatal(err)
	}
	st := s.(*State)
	st.Hands = hands
	st.Deck = deck
	st.Discards = nil
	for _, l := range lays {
		c, err := board.Parse(l.cell)
		if err != nil {
			t.Fatal(err)
		}
		st.Turns++
		st.Cells[c] = Cell{Tile: int8(l.tile), Rot: int8(l.rot), Turn: int16(st.Turns)}
		st.Laid++
		st.Last = c
	}
	return st
}

// The tile set: tile k is the k-th canonical colouring with arms where the
// neighbouring quadrants differ, tile k+24 the complementary arms.
func TestTileSet(t *testing.T) {
	cols := Colourings()
	if len(cols) != 24 {
		t.Fatalf("%d colourings, want 24", len(cols))
	}
	count := map[string]int{}
	for k := 1; k <= 48; k++ {
		count[tiles[k].Colours()]++
	}
	for _, c := range cols {
		if count[c] != 2 {
			t.Fatalf("colouring %s appears %d times, want 2", c, count[c])
		}
	}
	// By hand: tile 1 BBBB no arms, tile 25 BBBB all arms. Tile 2 is BBBG
	// (BBBB < BBBG < ...): SE=B, SW=G differ (S arm), SW=G, NW=B differ (W
	// arm). Tile 26 = BBBG with arms N and E. Tile 24 is RRRR.
	want := map[int][2]string{1: {"BBBB", "-"}, 25: {"BBBB", "NESW"}, 2: {"BBBG", "SW"}, 26: {"BBBG", "NE"}, 24: {"RRRR", "-"}, 8: {"BGBG", "NESW"}, 32: {"BGBG", "-"}}
	for k, w := range want {
		if got := [2]string{tiles[k].Colours(), tiles[k].Arms()}; got != w {
			t.Errorf("tile %d is %v, want %v", k, got, w)
		}
	}
	// Rotation: BBBG turned 90 clockwise puts the G (SW) at NW and the
	// arms S, W at W, N.
	if f := faces[2][1]; f.Colours() != "GBBB" || f.Arms() != "NW" {
		t.Errorf("tile 2 at 90 is %s %s, want GBBB NW", f.Colours(), f.Arms())
	}
	// BGBG looks the same turned 180: only 0 and 90 are distinct.
	if !reflect.DeepEqual(rots[8], []int{0, 1}) || !reflect.DeepEqual(rots[1], []int{0}) {
		t.Errorf("distinct turns: tile 8 %v, tile 1 %v", rots[8], rots[1])
	}
}

// The first tile needs two colours and goes on m13; a table with no
// placement possible leaves only discards and the pass.
func TestFirstTile(t *testing.T) {
	st := build(t, 2, [][]int{{1, 7, 19, 25}, {2, 3, 4, 5}}, []int{10, 11, 12})
	enginetest.Refused(t, st, "7 m14", "the first tile goes on m13")
	enginetest.Refused(t, st, "1 m13", "at least two colours")    // BBBB
	enginetest.Refused(t, st, "25 m13", "at least two colours")   // BBBB with arms
	enginetest.Refused(t, st, "7 z13", "outside the 25x25 frame") // column z
	enginetest.Refused(t, st, "7 m26", "outside the 25x25 frame")
	// Only tile 7 (BBRR, four distinct turns) may go, on m13: 4 moves.
	if got, want := enginetest.LegalStrings(st), []string{"7 m13", "7 m13 90", "7 m13 180", "7 m13 270"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("legal %v, want %v", got, want)
	}
	// A hand of single-colour tiles cannot start: discard one or pass.
	st = build(t, 2, [][]int{{1, 19, 24, 25}, {2, 3, 4, 5}}, []int{10, 11, 12})
	if got, want := enginetest.LegalStrings(st), []string{"discard 1", "discard 19", "discard 24", "discard 25", "pass"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("legal %v, want %v", got, want)
	}
	enginetest.Play(t, st, "discard 19")
	// Whoever places first obeys the first-tile rule: Green with 2..5.
	enginetest.Refused(t, st, "2 l13", "the first tile goes on m13")
	enginetest.Play(t, st, "2 m13 90")
	if st.Cells[centre].Tile != 2 || st.Cells[centre].Turn != 2 {
		t.Fatalf("m13 holds %+v, want tile 2 played at turn 2", st.Cells[centre])
	}
}

// Adjacency and the matching rule. m13 holds tile 7 BBRR (NW B, NE B,
// SE R, SW R; arms E, W).
func TestAdjacencyAndMatching(t *testing.T) {
	st := build(t, 2, [][]int{{2, 19, 20, 44}, {3, 4, 5, 43}}, []int{10, 11, 12}, lay{"m13", 7, 0})
	enginetest.Refused(t, st, "2 m13", "m13 is already taken")
	enginetest.Refused(t, st, "2 o13", "touches no tile")
	enginetest.Refused(t, st, "2 n14", "touches no tile") // diagonal only
	// n13 (east): its NW faces m13's NE (B), its SW faces m13's SE (R).
	// GGGG (19) matches neither pair: refused.
	enginetest.Refused(t, st, "19 n13", "neither pair of facing quadrants matches")
	// GGGR (20) at 0: NW G vs B no, SW R vs R yes: one pair is enough.
	// Tile 20 has arms S, W; m13's E arm meets its W arm: arms need not
	// match, and here they happen to meet, which is fine too.
	if _, err := st.Parse("20 n13"); err != nil {
		t.Fatalf("20 n13: %v", err)
	}
	// 20 at 90 is RGGG: NW R vs B no, SW G vs R no: refused.
	enginetest.Refused(t, st, "20 n13 90", "neither pair")
	// BBBG (2) at 0 on m14 (north): its SW (G) faces m13's NW (B), its SE
	// (B) faces m13's NE (B): matches. Arms: 2 has S, W; m13 has no N arm,
	// so the arms do not meet, and that is allowed.
	enginetest.Play(t, st, "2 m14")
	// Green: a tile at n14 now touches m14 only (diagonal to m13): 43 GGGG
	// against m14's E edge NE B / SE B: refused; n13 must match m13 only.
	enginetest.Refused(t, st, "43 n14", "neither pair")
}

// A player who can place may not discard or pass; one who cannot may do
// either, and Legal then lists one discard per tile plus the pass.
func TestDiscardOnlyWhenStuck(t *testing.T) {
	// m13 holds 46 GRGR (no arms): every edge shows one G and one R, so any
	// tile with a G or R quadrant fits somewhere turned right; only the
	// all-blue tiles 1 and 25 are stuck.
	st := build(t, 2, [][]int{{1, 25, 19}, {2}}, []int{10, 11, 12, 13}, lay{"m13", 46, 0})
	enginetest.Refused(t, st, "discard 1", "you can still place a tile")
	enginetest.Refused(t, st, "pass", "you can still place a tile")
	st = build(t, 2, [][]int{{1, 25}, {2}}, []int{10, 11, 12, 13}, lay{"m13", 46, 0})
	if got, want := enginetest.LegalStrings(st), []string{"discard 1", "discard 25", "pass"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("legal %v, want %v", got, want)
	}
	enginetest.Refused(t, st, "discard 19", "you hold tiles 1 and 25")
	o := enginetest.Play(t, st, "discard 25")
	// Discarded face up, then drew back to 4 from the deck: 10, 11, 12.
	if !reflect.DeepEqual(st.Discards, []int{25}) || !reflect.DeepEqual(st.Hand(0), []int{1, 10, 11, 12}) || len(o.Deltas) != 0 {
		t.Fatalf("discards %v hand %v deltas %v", st.Discards, st.Hand(0), o.Deltas)
	}
}

// When the deck runs out, the discard pile is shuffled into a new deck
// and drawing goes on from it.
func TestDeckRecycling(t *testing.T) {
	st := build(t, 2, [][]int{{1, 25}, {19}}, []int{10}, lay{"m13", 46, 0})
	st.Discards = []int{30, 31, 32}
	o := enginetest.Play(t, st, "discard 1")
	// Blue kept 25 and drew 10 (the deck is now empty), then the pile
	// 30, 31, 32, 1 became the deck and Blue drew two more of them.
	h := st.Hand(0).([]int)
	if len(h) != 4 || !slices.Contains(h, 10) || !slices.Contains(h, 25) || len(st.Deck) != 2 || len(st.Discards) != 0 {
		t.Fatalf("hand %v deck %v discards %v", h, st.Deck, st.Discards)
	}
	all := slices.Clone(st.Deck)
	for _, x := range h {
		if x != 10 && x != 25 {
			all = append(all, x)
		}
	}
	slices.Sort(all)
	if !reflect.DeepEqual(all, []int{1, 30, 31, 32}) {
		t.Fatalf("new deck plus the drawn tile: %v, want the old pile 1 30 31 32", all)
	}
	if len(o.Events) != 1 || !strings.Contains(o.Events[0].Text, "shuffled into a new deck") {
		t.Fatalf("events %v", o.Events)
	}
}

// Lines: a line of two scores nothing; joining a line that now touches
// three tiles scores 3; extending it again scores 4; a tile touching the
// line without meeting an arm scores nothing.
func TestLines(t *testing.T) {
	// m13 = 4 BBGG, arms E, W. l13 = 7 BBRR, arms E, W (its NE B faces
	// m13's NW B). They form a line of 2 (l13-E meets m13-W).
	st := build(t, 2, [][]int{{2, 1, 29}, {3, 4, 5, 6}}, []int{}, lay{"m13", 4, 0})
	st.Hands[0], st.Hands[1] = []int{7}, []int{2, 29, 1}
	o := enginetest.Play(t, st, "7 l13") // line of 2: nothing
	if len(o.Deltas) != 0 {
		t.Fatalf("line of two scored %v", o.Deltas)
	}
	// n13 = 2 BBBG at 0 (arms S, W; NW B faces m13's NE B): its W arm meets
	// m13's E arm: line l13-m13-n13, 3 tiles: +3 to Green (mover).
	o = enginetest.Play(t, st, "2 n13")
	want := []engine.Delta{{Seat: 1, Points: 3, Reason: "line through 3 tiles"}}
	if !reflect.DeepEqual(o.Deltas, want) {
		t.Fatalf("got %v, want %v", o.Deltas, want)
	}
	st.Hands[0] = []int{29}
	st.Turn = 0
	// n12 = 29 BBGR (arm N only; its NE B faces n13's SE B): its N arm meets
	// n13's S arm: the line now touches 4 tiles: +4.
	o = enginetest.Play(t, st, "29 n12")
	if want := []engine.Delta{{Seat: 0, Points: 4, Reason: "line through 4 tiles"}}; !reflect.DeepEqual(o.Deltas, want) {
		t.Fatalf("got %v, want %v", o.Deltas, want)
	}
	// m14 = 1 BBBB (no arms; its SW B faces m13's NW B) touches the line's
	// tile m13 but meets no arm: nothing.
	st.Turn = 1
	o = enginetest.Play(t, st, "1 m14")
	if len(o.Deltas) != 0 {
		t.Fatalf("tile meeting no arm scored %v", o.Deltas)
	}
}

// The rules' walkthrough: Blue closes four quadrants around one tile corner
// with a line through 4 tiles: +4 line, +8 enclosure, +8 to Blue as the
// owner of blue.
func TestWalkthroughEnclosure(t *testing.T) {
	// Around the corner shared by m13, m14, n14, n13:
	//   m13 = 26 BBBG at 0: arms N, E; its NE (B) is cut off by them.
	//   m14 = 27 BBBR at 90 (RBBB, arms E, S): its SE (B) is cut off.
	//   n13 = 14 BRBR at 0 (all arms): its NW (B) is cut off.
	//   n14 = 25 BBBB (all arms): its SW (B) is cut off.
	// Matching: m13 N edge NW B / m14 SW B; m13 E edge NE B / n13 NW B;
	// m14 E edge NE B / n14 NW B; n14 S edge SW B / n13 NW B.
	// Arms: m13-N meets m14-S, m13-E meets n13-W, m14-E meets n14-W,
	// n14-S meets n13-N: one line through the 4 tiles.
	st := build(t, 2, [][]int{{26, 14, 25}, {27}}, []int{}, lay{"m13", 26, 0})
	st.Hands[0], st.Hands[1] = []int{14, 25}, []int{27}
	st.Turn = 1
	if o := enginetest.Play(t, st, "27 m14 90"); len(o.Deltas) != 0 { // line of 2
		t.Fatalf("m14: %v", o.Deltas)
	}
	// n13 joins the line: 3 tiles, +3; no area is closed yet.
	if o := enginetest.Play(t, st, "14 n13"); !reflect.DeepEqual(o.Deltas, []engine.Delta{{Seat: 0, Points: 3, Reason: "line through 3 tiles"}}) {
		t.Fatalf("n13: %v", o.Deltas)
	}
	st.Turn = 0
	o := enginetest.Play(t, st, "25 n14")
	// n14's other quadrants face the empty n15 and o14, and its NW joins
	// m14's NE, which joins m14's NW on the open north edge: only the four
	// blue quadrants around the corner are enclosed.
	want := []engine.Delta{
		{Seat: 0, Points: 4, Reason: "line through 4 tiles"},
		{Seat: 0, Points: 8, Reason: "enclosed 4 quadrants"},
		{Seat: 0, Points: 8, Reason: "enclosed blue area of 4 quadrants"},
	}
	if !reflect.DeepEqual(o.Deltas, want) {
		t.Fatalf("got %v, want %v", o.Deltas, want)
	}
	if st.Score[0] != 3+20 {
		t.Fatalf("Blue has %d, want 23", st.Score[0])
	}
}

// Two enclosures closed by one tile, one all green (bonus to Green, who is
// not the mover) and one mixed (no bonus), and a line of 6.
func TestTwoEnclosuresAndBonusToOther(t *testing.T) {
	// All six tiles have four arms, so every quadrant is cut off inside
	// its tile and an area is the four quadrants around a corner.
	//   m14 = 22 GRGR   n14 = 43 GGGG
	//   m13 = 12 BGRG   n13 = 8 BGBG at 90 (GBGB)  <- placed last by Blue
	//   m12 = 16 BRGR   n12 = 9 BGBR at 180 (BRBG)
	// Corner m14/n14/m13/n13: m14 SE G, n14 SW G, m13 NE G, n13 NW G: all
	// green, 4 quadrants: +8 Blue, +8 Green.
	// Corner m13/n13/m12/n12: m13 SE R, n13 SW B, m12 NE R, n12 NW B: mixed:
	// +8 Blue only. n13's NE and SE face the empty o13: open.
	// Line: all six tiles' arms meet: +6.
	st := build(t, 2, [][]int{{8}, {1}}, []int{},
		lay{"m13", 12, 0}, lay{"m14", 22, 0}, lay{"n14", 43, 0}, lay{"m12", 16, 0}, lay{"n12", 9, 2})
	o := enginetest.Play(t, st, "8 n13 90")
	want := []engine.Delta{
		{Seat: 0, Points: 6, Reason: "line through 6 tiles"},
		{Seat: 0, Points: 8, Reason: "enclosed 4 quadrants"},
		{Seat: 1, Points: 8, Reason: "enclosed green area of 4 quadrants"},
		{Seat: 0, Points: 8, Reason: "enclosed 4 quadrants"},
	}
	if !reflect.DeepEqual(o.Deltas, want) {
		t.Fatalf("got %v, want %v", o.Deltas, want)
	}
	// Preview tells the same without playing.
	st2 := build(t, 2, [][]int{{8}, {1}}, []int{},
		lay{"m13", 12, 0}, lay{"m14", 22, 0}, lay{"n14", 43, 0}, lay{"m12", 16, 0}, lay{"n12", 9, 2})
	m, _ := st2.Parse("8 n13 90")
	if got := st2.Preview(m); !reflect.DeepEqual(got, want) {
		t.Fatalf("preview %v, want %v", got, want)
	}
	// With colors=GB the same green area pays the mover, who now owns
	// green, a second time.
	st3 := build(t, 2, [][]int{{8}, {1}}, []int{},
		lay{"m13", 12, 0}, lay{"m14", 22, 0}, lay{"n14", 43, 0}, lay{"m12", 16, 0}, lay{"n12", 9, 2})
	st3.Colour = []byte("GB")
	enginetest.Play(t, st3, "8 n13 90")
	if st3.Score[0] != 6+8+8+8 || st3.Score[1] != 0 {
		t.Fatalf("colors=GB scores %v, want [30 0]", st3.Score)
	}
}

// An enclosed area of an unowned colour (red, with two players) pays only
// the mover; with three players its owner, Red, gets the bonus.
func TestEnclosureUnownedColour(t *testing.T) {
	// Four four-armed tiles around the corner of m13, m14, n14, n13:
	//   m14 = 48 RRRR (SE R)        n14 = 22 GRGR at 0 (SW R)
	//   m13 = 16 BRGR at 0 (NE R)   n13 = 14 BRBR at 90 = RBRB (NW R), last
	// Matching: m13 N edge: NE R / m14 SE R. m14 E edge: SE R / n14 SW R.
	// n13 W edge: NW R / m13 NE R. n13 N edge: NW R / n14 SW R.
	// Line: the 4 tiles in a square, all arms meeting: +4. Enclosure of the
	// 4 red corner quadrants: +8 to Blue; red belongs to nobody.
	st := build(t, 2, [][]int{{14}, {1}}, []int{},
		lay{"m13", 16, 0}, lay{"m14", 48, 0}, lay{"n14", 22, 0})
	o := enginetest.Play(t, st, "14 n13 90")
	want := []engine.Delta{
		{Seat: 0, Points: 4, Reason: "line through 4 tiles"},
		{Seat: 0, Points: 8, Reason: "enclosed 4 quadrants"},
	}
	if !reflect.DeepEqual(o.Deltas, want) {
		t.Fatalf("got %v, want %v", o.Deltas, want)
	}
	// With three players red is seat 3's: the bonus goes to Red.
	st = build(t, 3, [][]int{{14}, {1}, {19}}, []int{},
		lay{"m13", 16, 0}, lay{"m14", 48, 0}, lay{"n14", 22, 0})
	o = enginetest.Play(t, st, "14 n13 90")
	if got := o.Points(2); got != 8 {
		t.Fatalf("Red got %d, want 8 (%v)", got, o.Deltas)
	}
}

// End: every player in turn has passed (as many passes in a row as
// players still in the game); a discard breaks the row.
func TestEndAllPassed(t *testing.T) {
	// m13 = 46 GRGR: the all-blue tiles 1 (Blue) and 25 (Green) never fit.
	st := build(t, 2, [][]int{{1}, {25}}, []int{}, lay{"m13", 46, 0})
	enginetest.Play(t, st, "pass")            // row 1
	o := enginetest.Play(t, st, "discard 25") // breaks the row; the pile [25] becomes the deck, Green draws 25 back
	if st.Over() || st.PassRow != 0 || !reflect.DeepEqual(st.Hand(1), []int{25}) {
		t.Fatalf("after a discard: over %v row %d hand %v (%v)", st.Over(), st.PassRow, st.Hand(1), o.Events)
	}
	enginetest.Play(t, st, "pass") // row 1
	if st.Over() {
		t.Fatal("ended after one pass")
	}
	o = enginetest.Play(t, st, "pass") // row 2 = 2 players: the game ends
	if !st.Over() || !o.Over || !strings.Contains(st.EndWhy, "every player has passed") {
		t.Fatalf("over %v why %q", st.Over(), st.EndWhy)
	}
	// Final scoring by hand: GRGR has four areas of one quadrant (no two
	// sides between equal colours); the 2 largest with ties at size 1 are
	// all four: green twice gives Green 1+1, red is nobody's. Each holds
	// one tile: the other scores 2.
	if st.Score[0] != 2 || st.Score[1] != 4 {
		t.Fatalf("scores %v, want [2 4] (%v)", st.Score, o.Deltas)
	}
	if !reflect.DeepEqual(st.Winners(), []engine.Seat{1}) {
		t.Fatalf("winners %v", st.Winners())
	}
}

// End: four full rounds in which no tile was placed (4 x players turns
// without a placement, counted from any turn), when the passes never make
// a full row.
func TestEndFourIdleRounds(t *testing.T) {
	for _, players := range []int{2, 3} {
		hands := [][]int{{1}, {25}, {24}}[:players]
		// With two players m13 = 46 GRGR and the all-blue tiles 1 and 25
		// never fit. Red's 24 RRRR would fit GRGR, so with three players
		// m13 = 19 GGGG (hand-built: a real start needs two colours) and 1,
		// 25, 24 are all stuck.
		lays := []lay{{"m13", 46, 0}}
		if players == 3 {
			lays = []lay{{"m13", 19, 0}}
		}
		st := build(t, players, hands, []int{}, lays...)
		// Blue alternates discard and pass; the others discard: the pass
		// row never reaches the player count. A discarded tile comes back
		// at once (the pile becomes the deck).
		n := 4 * players
		for i := 1; i <= n; i++ {
			if st.Over() {
				t.Fatalf("%d players: over after %d idle turns", players, i-1)
			}
			text := "discard " + strconv.Itoa(st.Hands[st.Turn][0])
			if st.Turn == 0 && i%2 == 1 {
				text = "pass"
			}
			enginetest.Play(t, st, text)
		}
		if !st.Over() || !strings.Contains(st.EndWhy, "four full rounds") || st.Idle != n {
			t.Fatalf("%d players: over %v why %q idle %d", players, st.Over(), st.EndWhy, st.Idle)
		}
	}
	// A placement resets the count.
	st := build(t, 2, [][]int{{1}, {2}}, []int{}, lay{"m13", 46, 0})
	enginetest.Play(t, st, "discard 1")
	enginetest.Play(t, st, "2 m14") // BBBG: its SW G faces m13's NW G
	if st.Idle != 0 {
		t.Fatalf("idle %d after a placement", st.Idle)
	}
}

// A tile that joins two lines scores the merged line once.
func TestLineMerge(t *testing.T) {
	// l13 = 4 BBGG and m13 = 7 BBRR (arms E, W): a line of 2; o13 = 21
	// GGRR (arms E, W) and p13 = 43 GGGG (four arms): another line of 2.
	// n13 = 8 BGBG (four arms): NW B faces m13's NE B, NE G faces o13's NW
	// G. Its W arm meets m13's E arm and its E arm meets o13's W arm: one
	// line through l13, m13, n13, o13, p13: +5, once.
	st := build(t, 2, [][]int{{8}, {1}}, []int{},
		lay{"l13", 4, 0}, lay{"m13", 7, 0}, lay{"o13", 21, 0}, lay{"p13", 43, 0})
	o := enginetest.Play(t, st, "8 n13")
	if want := []engine.Delta{{Seat: 0, Points: 5, Reason: "line through 5 tiles"}}; !reflect.DeepEqual(o.Deltas, want) {
		t.Fatalf("got %v, want %v", o.Deltas, want)
	}
}

// An area spanning six tiles, joined inside tiles where no arm separates
// two quadrants: 8 quadrants enclosed at once.
func TestLargeEnclosure(t *testing.T) {
	//   m14 = 26 at 90 (GBBB, arms E S)   n14 = 2 BBBG (arms S W)
	//   m13 = 28 BBGG (arms N S)          n13 = 31 BBRR (arms N S)
	//   m12 = 44 GGGR (arms N E)          n12 = 23 GRRR (arms N W), last
	// The area: m14 SE (cut off by its E and S arms), n14 SW (S, W arms),
	// m13 NE and SE (joined: m13 has no E arm), n13 NW and SW (joined: no W
	// arm), m12 NE (N, E arms), n12 NW (N, W arms): 8 quadrants, each of
	// whose edges faces a laid tile. Colours B, G, B, G, B, R, G, G: mixed,
	// so no bonus: +16 to the mover.
	// Line: n12-N meets n13-S, n13-N meets n14-S, n14-W meets m14-E, m14-S
	// meets m13-N, m13-S meets m12-N, m12-E meets n12-W: 6 tiles, +6.
	// n12's other quadrants lie on its open E or S edge.
	st := build(t, 2, [][]int{{23}, {1}}, []int{},
		lay{"m13", 28, 0}, lay{"n13", 31, 0}, lay{"m14", 26, 1}, lay{"n14", 2, 0}, lay{"m12", 44, 0})
	o := enginetest.Play(t, st, "23 n12")
	want := []engine.Delta{
		{Seat: 0, Points: 6, Reason: "line through 6 tiles"},
		{Seat: 0, Points: 16, Reason: "enclosed 8 quadrants"},
	}
	if !reflect.DeepEqual(o.Deltas, want) {
		t.Fatalf("got %v, want %v", o.Deltas, want)
	}
}
