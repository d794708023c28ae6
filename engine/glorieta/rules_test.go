package glorieta

import (
	"sort"
	"strings"
	"testing"

	"tessera/engine"
	"tessera/engine/enginetest"
)

// Cell names used below, with their axial coordinates (q, r), r growing
// downwards. The six neighbours of g7 (0,0) are f6 (0,-1), f7 (1,-1),
// g6 (-1,0), g8 (1,0), h6 (-1,1) and h7 (0,1).
const aroundG7 = "f6 f7 g6 g8 h6 h7"

// started is a position just after Yellow's first turn with nothing on the
// board: both hands full, no flips, the given seat to move.
func started(t *testing.T, toMove engine.Seat) *State {
	t.Helper()
	s, err := New(engine.Setup{Game: ID, Players: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	st := s.(*State)
	st.Started = true
	st.Hands = [2]int{Handful, Handful}
	st.Turn = toMove
	return st
}

func cell(t *testing.T, name string) int {
	t.Helper()
	c, err := board.Parse(name)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// put places stones of seat s on the named cells (space-separated),
// without playing turns.
func put(t *testing.T, st *State, s engine.Seat, cells string) {
	t.Helper()
	for _, n := range strings.Fields(cells) {
		c := cell(t, n)
		if st.Stones[c] != empty {
			t.Fatalf("%s is taken", n)
		}
		st.Stones[c] = uint8(s) + 1
		st.Empty--
	}
}

// pinkOf places pink stones owned by s.
func pinkOf(t *testing.T, st *State, s engine.Seat, cells string) {
	t.Helper()
	put(t, st, s, cells)
	for _, n := range strings.Fields(cells) {
		st.Pink[cell(t, n)] = true
	}
}

func hands(st *State) [2]int { return [2]int{st.Hand(Yellow).([]int)[0], st.Hand(Black).([]int)[0]} }

func events(o engine.Outcome) string {
	var s []string
	for _, e := range o.Events {
		s = append(s, e.Text)
	}
	return strings.Join(s, " | ")
}

// loopNames lists the winning loop's cells: board cells by name, ring
// spaces as "ring".
func loopNames(st *State) []string {
	var out []string
	for _, w := range st.Loop {
		if c := boardOf[w]; c >= 0 {
			out = append(out, board.Name(c))
		} else {
			out = append(out, "ring")
		}
	}
	sort.Strings(out)
	return out
}

func sortedFields(s string) []string {
	f := strings.Fields(s)
	sort.Strings(f)
	return f
}

func TestFirstTurn(t *testing.T) {
	s, _ := New(engine.Setup{Game: ID, Players: 2})
	st := s.(*State)
	// Before Yellow's first stone nobody holds stones, Yellow (seat 1) is
	// to move and may only place one stone, on any of the 127 cells.
	if hands(st) != [2]int{0, 0} || st.ToMove() != Yellow {
		t.Fatalf("start: hands %v, to move %d", hands(st), st.ToMove())
	}
	legal := enginetest.LegalStrings(st)
	if len(legal) != 127 || legal[0] != "a1" || legal[126] != "m7" {
		t.Fatalf("first turn: %d legal moves (%v...), want the 127 cells", len(legal), legal[:3])
	}
	enginetest.Refused(t, st, "g7 g8", "exactly one stone")
	enginetest.Refused(t, st, "flip g7", "nothing to flip")
	o := enginetest.Play(t, st, "g7")
	// Then each player takes six stones and Black moves: 126 single stones
	// plus 126*125/2 = 7875 pairs; Black has no stone to flip.
	if hands(st) != [2]int{6, 6} || st.ToMove() != Black {
		t.Fatalf("after the first stone: hands %v, to move %d", hands(st), st.ToMove())
	}
	if n := len(st.Legal()); n != 126+7875 {
		t.Fatalf("Black's first turn: %d legal moves, want 8001", n)
	}
	if !strings.Contains(events(o), "hand of 6") {
		t.Fatalf("events %q do not announce the hands", events(o))
	}
	// Yellow's first stone belongs to no handful: Yellow has not flipped
	// and holds six.
	if st.Flipped != [2]bool{} {
		t.Fatal("a flip is recorded after the first stone")
	}
}

func TestOneAndTwoStones(t *testing.T) {
	st := started(t, Black)
	put(t, st, Yellow, "g7")
	// One stone: the hand goes 6 -> 5 and the turn passes.
	enginetest.Play(t, st, "f6")
	if hands(st) != [2]int{6, 5} || st.ToMove() != Yellow {
		t.Fatalf("after one stone: hands %v, to move %d", hands(st), st.ToMove())
	}
	// Two stones, written in any order with a space or a comma: the
	// canonical notation lists them in board order (a1 first ... m7 last).
	for _, text := range []string{"h7 h6", "h6,h7", " H7 , h6 "} {
		m, err := st.Parse(text)
		if err != nil || m.String() != "h6 h7" {
			t.Fatalf("%q parses as %v, %v; want h6 h7", text, m, err)
		}
	}
	o := enginetest.Play(t, st, "h7, h6")
	if o.Move != "h6 h7" || st.Stones[cell(t, "h6")] != yellowStone || st.Stones[cell(t, "h7")] != yellowStone {
		t.Fatalf("two stones: move %q, h6/h7 %d/%d", o.Move, st.Stones[cell(t, "h6")], st.Stones[cell(t, "h7")])
	}
	if hands(st) != [2]int{4, 5} || st.ToMove() != Black {
		t.Fatalf("after two stones: hands %v, to move %d", hands(st), st.ToMove())
	}
	enginetest.Refused(t, st, "a1 a2 a3", "at most 2")
	enginetest.Refused(t, st, "g7", "taken")
	enginetest.Refused(t, st, "a1 h7", "taken")
	enginetest.Refused(t, st, "a1 a1", "twice")
	enginetest.Refused(t, st, "a8", "off the board")
	enginetest.Refused(t, st, "", "write one cell")
	// Each unordered pair is listed once, after all singles and flips.
	legal := enginetest.LegalStrings(st)
	count := map[string]int{}
	firstPair := -1
	for i, s := range legal {
		count[s]++
		if strings.Contains(s, " ") && !strings.HasPrefix(s, "flip") && firstPair < 0 {
			firstPair = i
		}
		if firstPair >= 0 && (!strings.Contains(s, " ") || strings.HasPrefix(s, "flip")) {
			t.Fatalf("%q listed after the pairs", s)
		}
	}
	if count["a1 a2"] != 1 || count["a2 a1"] != 0 {
		t.Fatalf("pair a1/a2 listed %d+%d times", count["a1 a2"], count["a2 a1"])
	}
	// Black to move: 123 empty cells, black stone f6 to flip, 123*122/2 pairs.
	if len(legal) != 123+1+7503 || firstPair != 124 || legal[123] != "flip f6" {
		t.Fatalf("%d legal, first pair at %d, legal[123] %q", len(legal), firstPair, legal[123])
	}
}

func TestLastStoneEndsTurn(t *testing.T) {
	st := started(t, Black)
	put(t, st, Black, "a1 a2 a3 a4 a5 b1")
	st.Hands = [2]int{6, 1}
	st.Flipped[Black] = true
	// One stone left: no pairs, and the stone ends the turn. Black flipped
	// this handful, so at the end of this turn Black picks up six more.
	for _, s := range enginetest.LegalStrings(st) {
		if strings.Contains(s, " ") && !strings.HasPrefix(s, "flip") {
			t.Fatalf("pair %q listed with one stone in hand", s)
		}
	}
	enginetest.Refused(t, st, "g7 g8", "only 1 stone")
	o := enginetest.Play(t, st, "g7")
	if hands(st) != [2]int{6, 6} || st.Flipped[Black] || st.ToMove() != Yellow {
		t.Fatalf("after the last stone: hands %v, flipped %v, to move %d", hands(st), st.Flipped, st.ToMove())
	}
	if !strings.Contains(events(o), "picks up 6") {
		t.Fatalf("events %q", events(o))
	}
	// With two left, placing both also ends the hand.
	st.Hands[Yellow] = 2
	st.Flipped[Yellow] = true
	enginetest.Play(t, st, "m1 m2")
	if hands(st) != [2]int{6, 6} || st.ToMove() != Black {
		t.Fatalf("after the last two stones: hands %v, to move %d", hands(st), st.ToMove())
	}
}

func TestFlipObligation(t *testing.T) {
	st := started(t, Black)
	put(t, st, Black, "a1 a2 a3 a4 a5")
	put(t, st, Yellow, "m1")
	st.Hands = [2]int{5, 1}
	// Black places the last stone of the handful without having flipped:
	// no new stones; Black's next turn must be a flip.
	o := enginetest.Play(t, st, "b1")
	if hands(st) != [2]int{5, 0} || st.ToMove() != Yellow {
		t.Fatalf("hands %v, to move %d", hands(st), st.ToMove())
	}
	if !strings.Contains(events(o), "must flip") {
		t.Fatalf("events %q do not warn of the flip", events(o))
	}
	if v := st.View(engine.NoSeat); v.Seats[Black].Info[0] != "must flip now" {
		t.Fatalf("Black's info %q", v.Seats[Black].Info)
	}
	enginetest.Play(t, st, "m7")
	// The forced flip: exactly Black's six stones may be flipped.
	want := []string{"flip a1", "flip a2", "flip a3", "flip a4", "flip a5", "flip b1"}
	if got := enginetest.LegalStrings(st); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("forced flip: legal %v, want %v", got, want)
	}
	if v := st.View(engine.NoSeat); !strings.Contains(v.Status, "flip") {
		t.Fatalf("status %q", v.Status)
	}
	enginetest.Refused(t, st, "g7", "flip one of your stones now")
	enginetest.Refused(t, st, "flip m1", "Yellow's stone")
	enginetest.Refused(t, st, "flip g7", "empty")
	enginetest.Play(t, st, "flip a3")
	// After the flip Black picks up six: the handful is complete.
	if hands(st) != [2]int{4, 6} || st.Flipped[Black] || !st.Pink[cell(t, "a3")] || st.ToMove() != Yellow {
		t.Fatalf("after the forced flip: hands %v flipped %v", hands(st), st.Flipped)
	}
	// A flip on an earlier turn of the handful satisfies the obligation:
	// Yellow (4 in hand) flips now, keeps 4 and is marked as flipped...
	enginetest.Play(t, st, "flip m1")
	if hands(st) != [2]int{4, 6} || !st.Flipped[Yellow] {
		t.Fatalf("voluntary flip: hands %v flipped %v", hands(st), st.Flipped)
	}
	if v := st.View(engine.NoSeat); v.Seats[Yellow].Info[0] != "flipped this handful" {
		t.Fatalf("Yellow's info %q", v.Seats[Yellow].Info)
	}
	enginetest.Refused(t, st, "flip a3", "already pink")
	enginetest.Play(t, st, "c1")
	// ... may flip again (at least once per handful, not at most) ...
	enginetest.Play(t, st, "flip m7")
	enginetest.Play(t, st, "c2")
	// ... and picks up six as soon as the last stone is placed.
	enginetest.Play(t, st, "m2 m3")
	enginetest.Play(t, st, "c3")
	enginetest.Play(t, st, "m4 m5")
	if hands(st) != [2]int{6, 3} || st.Flipped[Yellow] {
		t.Fatalf("after a flipped handful: hands %v flipped %v", hands(st), st.Flipped)
	}
}

// fullRows is a full board without a loop for either player: rows a, c,
// d, g, h, k, l yellow and b, e, f, i, j, m black. Every row touches, at
// one of its ends, a ring space of its own colour or a corner gap (a, g, m
// touch corners; b1 and f1 touch black spaces, c1, d1, h1, k1, l1 yellow
// ones, e1, i1, j1 black ones), so each row reaches the outside through
// its own colour: the opponent cannot surround it. And every cell is
// next to a row of the other colour, which reaches the outside, so no
// cell is surrounded by its own colour either.
const yellowRows, blackRows = "acdghkl", "befijm"

func fullBoard(t *testing.T, leave string) *State {
	st := started(t, Black)
	for c := 0; c < nCells; c++ {
		if board.Name(c) == leave {
			continue
		}
		row := board.Name(c)[:1]
		s := Yellow
		if strings.Contains(blackRows, row) {
			s = Black
		}
		put(t, st, s, board.Name(c))
	}
	return st
}

func TestFullBoard(t *testing.T) {
	st := fullBoard(t, "m1")
	if st.hole(Yellow) >= 0 || st.hole(Black) >= 0 {
		t.Fatal("the striped board has a loop")
	}
	st.Hands = [2]int{3, 4}
	// Black fills the last cell (its own row m): no loop, the board is full.
	o := enginetest.Play(t, st, "m1")
	if st.Over() || !strings.Contains(events(o), "board is full") {
		t.Fatalf("filling the board: over %v, events %q", st.Over(), events(o))
	}
	// From now on every turn is a flip, whatever the hand holds: Yellow
	// may flip any of its 7+9+10+13+12+9+8 = 68 stones.
	legal := enginetest.LegalStrings(st)
	if len(legal) != 68 || !strings.HasPrefix(legal[0], "flip ") {
		t.Fatalf("full board: %d legal moves starting %q, want 68 flips", len(legal), legal[0])
	}
	enginetest.Refused(t, st, "a1", "board is full")
	if v := st.View(engine.NoSeat); v.Seats[Yellow].Info[0] != "board full: flips only" {
		t.Fatalf("info %q", v.Seats[Yellow].Info)
	}
	// a1 touches the top-left corner gap: as a pink stone it joins Black's
	// members but closes nothing (a2 still reaches the outside through
	// a3-a7, a black-free row ending at the top-right corner gap).
	enginetest.Play(t, st, "flip a1")
	// Black flips m4 (-3,6): it joins Yellow's members, but its yellow
	// neighbours l4 and l5 still touch m3 and m5, black stones that reach
	// the outside along row m. No loop.
	enginetest.Play(t, st, "flip m4")
	if st.Over() || st.ToMove() != Yellow || hands(st) != [2]int{3, 3} {
		t.Fatalf("after two flips: over %v, to move %d, hands %v", st.Over(), st.ToMove(), hands(st))
	}
	enginetest.Play(t, st, "flip a2")
	// But m1 is the only non-yellow neighbour of l1 (k1, k2, l2 and the
	// yellow spaces (-7,5), (-7,6) are the others): Black's flip of m1
	// completes Yellow's loop around l1, and Yellow wins.
	o = enginetest.Play(t, st, "flip m1")
	if !st.Over() || st.Winners()[0] != Yellow || !strings.Contains(events(o), "completes Yellow's loop: Yellow wins") {
		t.Fatalf("flip of m1: over %v winners %v events %q", st.Over(), st.Winners(), events(o))
	}
	if got := strings.Join(loopNames(st), " "); got != "k1 k2 l2 m1 ring ring" {
		t.Fatalf("loop %s", got)
	}
}

// A player with no legal action passes. In real play this cannot happen
// (a player who may not place holds an unflipped stone, unless the board
// is full and all their stones are pink, and then the other player's
// members cover the board: a loop has ended the game), so the mechanism
// is tested on a position that play never reaches.
func TestPassMechanism(t *testing.T) {
	st := fullBoard(t, "")
	for c := 0; c < nCells; c++ {
		if st.Stones[c] == yellowStone {
			st.Pink[c] = true
		}
	}
	var o engine.Outcome
	st.Turn = Black
	st.advance(&o)
	if st.Turn != Black || !strings.Contains(events(o), "passes") || o.Events[0].Seat != Yellow {
		t.Fatalf("pass: to move %d, events %+v", st.Turn, o.Events)
	}
	if st.hole(Black) < 0 {
		t.Fatal("an all-pink Yellow on a full board should give Black a loop")
	}
}

func TestSmallestLoop(t *testing.T) {
	// Five stones around g7 leave a gap: no loop. The sixth closes it.
	st := started(t, Yellow)
	put(t, st, Yellow, "f6 f7 g6 g8")
	put(t, st, Black, "a1")
	enginetest.Play(t, st, "h6")
	if st.Over() {
		t.Fatal("five stones around g7 are a loop")
	}
	enginetest.Play(t, st, "a2")
	o := enginetest.Play(t, st, "h7")
	if !st.Over() || len(st.Winners()) != 1 || st.Winners()[0] != Yellow || !o.Over {
		t.Fatalf("six around g7: over %v winners %v", st.Over(), st.Winners())
	}
	if !strings.Contains(events(o), "closes a loop and wins") {
		t.Fatalf("events %q", events(o))
	}
	if got := loopNames(st); strings.Join(got, " ") != aroundG7 {
		t.Fatalf("loop %v, want %s", got, aroundG7)
	}
	if st.ToMove() != engine.NoSeat || st.Legal() != nil {
		t.Fatal("a finished game has a seat to move or legal moves")
	}
	if v := st.View(engine.NoSeat); v.Status != "Game over: Yellow wins with a loop" || !v.Seats[Yellow].Winner {
		t.Fatalf("status %q", v.Status)
	}
	// No five cells anywhere around g7 surround anything: every set of 5
	// of the 19 cells within distance 2 of g7 (11628 sets).
	var near []int
	for c := 0; c < nCells; c++ {
		q, r := board.Axial(c)
		if (abs(q)+abs(r)+abs(q+r))/2 <= 2 {
			near = append(near, c)
		}
	}
	if len(near) != 19 {
		t.Fatalf("%d cells near g7", len(near))
	}
	empty := started(t, Yellow)
	var rec func(from, left int)
	rec = func(from, left int) {
		if left == 0 {
			if h := empty.hole(Yellow); h >= 0 {
				t.Fatalf("5 stones surround %s", board.Name(h))
			}
			return
		}
		for i := from; i < len(near); i++ {
			empty.Stones[near[i]] = yellowStone
			rec(i+1, left-1)
			empty.Stones[near[i]] = 0
		}
	}
	rec(0, 5)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func TestLargerLoop(t *testing.T) {
	// Around the two cells g7 and g8 run eight cells: f6 f7 f8 g6 g9 h6 h7
	// h8 (g8 (1,0) adds f8 (2,-1), g9 (2,0) and h8 (1,1)). Seven of them
	// leave a gap; the eighth closes a loop around two empty cells.
	st := started(t, Black)
	put(t, st, Black, "f6 f7 f8 g6 g9 h6")
	enginetest.Play(t, st, "h7")
	if st.Over() {
		t.Fatal("seven of eight are a loop")
	}
	enginetest.Play(t, st, "a1")
	enginetest.Play(t, st, "h8")
	if !st.Over() || st.Winners()[0] != Black {
		t.Fatalf("eight around g7-g8: over %v winners %v", st.Over(), st.Winners())
	}
	if got := strings.Join(loopNames(st), " "); got != "f6 f7 f8 g6 g9 h6 h7 h8" {
		t.Fatalf("loop %s", got)
	}
}

func TestLoopAroundOccupiedAndPinkCells(t *testing.T) {
	cases := []struct {
		name   string
		centre func(st *State)
	}{
		{"opponent's stone", func(st *State) { put(t, st, Black, "g7") }},
		{"own stone", func(st *State) { put(t, st, Yellow, "g7") }},
		{"pink stone", func(st *State) { pinkOf(t, st, Black, "g7") }},
		{"own pink stone", func(st *State) { pinkOf(t, st, Yellow, "g7") }},
	}
	for _, c := range cases {
		// Whatever g7 holds, six yellow stones around it make a loop: a
		// loop surrounds spaces whatever is in them.
		st := started(t, Yellow)
		c.centre(st)
		put(t, st, Yellow, "f6 f7 g6 g8 h6")
		enginetest.Play(t, st, "h7")
		if !st.Over() || st.Winners()[0] != Yellow {
			t.Fatalf("around %s: over %v winners %v", c.name, st.Over(), st.Winners())
		}
		if got := strings.Join(loopNames(st), " "); got != aroundG7 {
			t.Fatalf("around %s: loop %s", c.name, got)
		}
	}
	// A pink stone in the wall counts for both: four black stones and two
	// pink ones (one Yellow's, one Black's) around g7 are Black's loop,
	// closed by Black's last stone.
	st := started(t, Black)
	put(t, st, Black, "f6 f7 g6")
	pinkOf(t, st, Yellow, "g8")
	pinkOf(t, st, Black, "h6")
	enginetest.Play(t, st, "h7")
	if !st.Over() || st.Winners()[0] != Black {
		t.Fatalf("wall with pinks: over %v winners %v", st.Over(), st.Winners())
	}
	// The same wall is not Yellow's: f6 f7 g6 h7 are black.
	if st.hole(Yellow) >= 0 {
		t.Fatal("Yellow has a loop made of Black's stones")
	}
}

func TestLoopsThroughRingSpaces(t *testing.T) {
	// a2 (1,-6) touches the top side's first two ring spaces (1,-7) and
	// (2,-7), which are yellow (the top side reads Y Y B B Y Y from its
	// left end), and a1, a3, b2, b3. Four yellow stones and the two yellow
	// spaces surround a2: Yellow wins.
	st := started(t, Yellow)
	put(t, st, Yellow, "a1 a3 b2")
	enginetest.Play(t, st, "b3")
	if !st.Over() || st.Winners()[0] != Yellow {
		t.Fatalf("yellow ring loop: over %v winners %v", st.Over(), st.Winners())
	}
	if got := strings.Join(loopNames(st), " "); got != "a1 a3 b2 b3 ring ring" {
		t.Fatalf("loop %s", got)
	}
	// The same stones in black are no loop: a2 escapes through the yellow
	// spaces, which are not Black's.
	st = started(t, Black)
	put(t, st, Black, "a1 a3 b2")
	enginetest.Play(t, st, "b3")
	if st.Over() {
		t.Fatal("black stones make a loop through yellow spaces")
	}
	// a4 (3,-6) sits under the black spaces (3,-7) and (4,-7): a3, a5, b4,
	// b5 in black surround it.
	st = started(t, Black)
	put(t, st, Black, "a3 a5 b4")
	enginetest.Play(t, st, "b5")
	if !st.Over() || st.Winners()[0] != Black {
		t.Fatalf("black ring loop: over %v winners %v", st.Over(), st.Winners())
	}
	// A cell next to a corner gap can never be surrounded: a1 touches the
	// top-left corner (0,-7), where there is no space, and the corner
	// touches the outside. With a2, b1, b2 yellow and the yellow space
	// (1,-7), a1's only other neighbour, (-1,-6), is black: still no loop,
	// and there never can be one around a1.
	st = started(t, Yellow)
	put(t, st, Yellow, "a2 b1")
	enginetest.Play(t, st, "b2")
	if st.Over() {
		t.Fatal("a cell next to a corner gap is surrounded")
	}
}

func TestRingAroundD1(t *testing.T) {
	// A loop along the ring's side: d1 (-3,-3) touches the ring spaces
	// (-4,-3) and (-3,-4), both yellow (the upper-left side reads, from
	// the top-left corner down, B B Y Y B B), and the cells c1, d2, e1 and
	// e2. Four yellow stones there surround d1. Checked against the
	// geometry first.
	d1 := cell(t, "d1")
	var names []string
	rings := 0
	for _, w := range worldAdj[worldOf[d1]] {
		if c := boardOf[w]; c >= 0 {
			names = append(names, board.Name(c))
		} else {
			if ringSeat[w] != int8(Yellow) {
				t.Fatalf("d1 touches a ring space of seat %d", ringSeat[w])
			}
			rings++
		}
	}
	sort.Strings(names)
	if strings.Join(names, " ") != "c1 d2 e1 e2" || rings != 2 {
		t.Fatalf("d1 neighbours %v and %d ring spaces", names, rings)
	}
	st := started(t, Yellow)
	put(t, st, Yellow, "c1 d2 e1")
	enginetest.Play(t, st, "e2 a7")
	if !st.Over() || st.Winners()[0] != Yellow {
		t.Fatalf("loop around d1: over %v winners %v", st.Over(), st.Winners())
	}
}

func TestFlipCompletesOpponentsLoop(t *testing.T) {
	// Five black stones around g7 and a yellow stone on h7: Yellow's flip
	// of h7 makes it pink, a member for Black too, and closes Black's loop.
	// The flipped stone still counts for Yellow, whose members do not
	// change: Black wins.
	st := started(t, Yellow)
	put(t, st, Black, "f6 f7 g6 g8 h6")
	put(t, st, Yellow, "h7 a1")
	o := enginetest.Play(t, st, "flip h7")
	if !st.Over() || len(st.Winners()) != 1 || st.Winners()[0] != Black {
		t.Fatalf("flip into the opponent's loop: over %v winners %v", st.Over(), st.Winners())
	}
	if ev := events(o); !strings.Contains(ev, "flips h7, which completes Black's loop: Black wins") || o.Events[0].Seat != Yellow {
		t.Fatalf("event %q", ev)
	}
	if got := strings.Join(loopNames(st), " "); got != aroundG7 {
		t.Fatalf("loop %s", got)
	}
	if st.hole(Yellow) >= 0 {
		t.Fatal("Yellow has a loop too")
	}
	// A placement never makes a loop for the opponent: Yellow placing on
	// g7 inside Black's five leaves the game going.
	st = started(t, Yellow)
	put(t, st, Black, "f6 f7 g6 g8 h6")
	enginetest.Play(t, st, "g7 h7")
	if st.Over() {
		t.Fatal("a placement ended the game for the opponent")
	}
}

func TestResign(t *testing.T) {
	st := started(t, Yellow)
	o := st.Resign(Black)
	if !st.Over() || st.Winners()[0] != Yellow || !o.Over || o.Move != "resign" {
		t.Fatalf("resign: over %v winners %v outcome %+v", st.Over(), st.Winners(), o)
	}
	if v := st.View(engine.NoSeat); v.Status != "Game over: Yellow wins" {
		t.Fatalf("status %q", v.Status)
	}
}

func TestCloneIndependent(t *testing.T) {
	st := started(t, Yellow)
	put(t, st, Yellow, "f6 f7 g6 g8 h6")
	c := st.Clone().(*State)
	enginetest.Play(t, st, "h7")
	if c.Over() || c.Stones[cell(t, "h7")] != empty || len(c.Loop) != 0 {
		t.Fatal("clone changed with the original")
	}
}

func TestSummaryAndRing(t *testing.T) {
	g, ok := engine.Lookup(ID)
	if !ok || len(g.Summary) >= 1800 {
		t.Fatalf("summary: registered %v, %d chars", ok, len(g.Summary))
	}
	// 36 ring spaces, 18 of each colour, Y Y B B ... clockwise from the left
	// end of the top side.
	if len(ringOf[Yellow]) != 18 || len(ringOf[Black]) != 18 {
		t.Fatalf("ring: %d yellow, %d black", len(ringOf[Yellow]), len(ringOf[Black]))
	}
	if _, err := engine.New(engine.Setup{Game: ID, Players: 3}); err == nil {
		t.Fatal("3 players accepted")
	}
}
