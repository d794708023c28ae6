package knotwork

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"tessera/engine"
	"tessera/engine/enginetest"
	"tessera/engine/grid"
)

func puzzleSetup(level string) engine.Setup {
	return engine.Setup{Game: ID, Players: 1, Options: map[string]string{"puzzle": level}}
}

func newPuzzle(t testing.TB, level string) *State {
	t.Helper()
	st, err := engine.New(puzzleSetup(level))
	if err != nil {
		t.Fatal(err)
	}
	return st.(*State)
}

// TestPuzzleSetup: a puzzle is one player with puzzle=easy|hard; the
// crossing starts on e5 and the other 24 tiles are the player's. At the
// start each of the four cells next to the crossing takes the 7 masks
// with a mark towards it other than the crossing's (1 end-cap, 1
// straight, 2 corners, 3 branches), and each is one move (no neutral
// copy): 28 moves, and no undo yet.
func TestPuzzleSetup(t *testing.T) {
	for _, tc := range []struct {
		players int
		puzzle  string
		want    string
	}{
		{1, "", "add puzzle=easy or puzzle=hard"},
		{2, "easy", "for one player"},
		{1, "medium", "puzzle=easy"},
		{3, "", "exactly 2 players"}, // engine.New already says "1 to 2"
		{3, "hard", "for one player"},
	} {
		setup := engine.Setup{Game: ID, Players: tc.players}
		if tc.puzzle != "" {
			setup.Options = map[string]string{"puzzle": tc.puzzle}
		}
		if _, err := New(setup); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%d players, puzzle %q: %v, want %q", tc.players, tc.puzzle, err, tc.want)
		}
	}
	st := newPuzzle(t, "Easy")
	if st.Puzzle != Easy || st.Players() != 1 || st.Mask[Start] != 15 || st.Owner[Start] != Neutral {
		t.Fatalf("puzzle %v, %d players", st.Puzzle, st.Players())
	}
	want := strings.Split("B B B B B C C C C C C C C C E E E E E S S S S S", " ")
	if got := st.Hand(0); !reflect.DeepEqual(got, want) {
		t.Fatalf("hand %v", got)
	}
	legal := enginetest.LegalStrings(st)
	if len(legal) != 28 || strings.Contains(strings.Join(legal, ","), "undo") || strings.Contains(strings.Join(legal, ","), "*") {
		t.Fatalf("%d moves at the start: %v", len(legal), legal)
	}
	if _, err := st.Parse("undo"); err == nil || !strings.Contains(err.Error(), "nothing to undo") {
		t.Fatalf("undo at the start: %v", err)
	}
	// * is accepted and dropped: every tile is the player's own.
	if m, err := st.Parse("e6 S*"); err != nil || m.String() != "e6 S" {
		t.Fatalf("e6 S*: %v, %v", m, err)
	}
	game := start(t)
	if _, err := game.Parse("undo"); err == nil || !strings.Contains(err.Error(), "only for the puzzles") {
		t.Fatalf("undo in a game: %v", err)
	}
	if _, ok := game.Hint(); ok {
		t.Fatalf("a game has a hint")
	}
}

// solveByHints plays a puzzle from the start by following Hint alone,
// each hint sent as text through Parse and Apply, and returns the record.
func solveByHints(t *testing.T, st *State) []enginetest.Entry {
	t.Helper()
	var rec []enginetest.Entry
	for !st.Over() {
		m, ok := st.Hint()
		if !ok {
			t.Fatalf("no hint after %d tiles", st.Placed)
		}
		parsed, err := st.Parse(m.String())
		if err != nil {
			t.Fatalf("hint %s does not parse: %v", m, err)
		}
		if _, err := st.Apply(parsed); err != nil {
			t.Fatalf("hint %s refused: %v", m, err)
		}
		rec = append(rec, enginetest.Entry{Seat: 0, Text: m.String()})
		if len(rec) > 24 {
			t.Fatalf("not solved after 24 tiles")
		}
	}
	return rec
}

// TestPuzzlesSolvedByHints: both puzzles solved from the start by
// following Hint alone, and the result checked with the game's own rules:
// 25 tiles, every edge matching, no mark on the square's border, the
// window, and for the hard puzzle one knot through all 25 tiles.
func TestPuzzlesSolvedByHints(t *testing.T) {
	for _, level := range []string{"easy", "hard"} {
		t.Run(level, func(t *testing.T) {
			st := newPuzzle(t, level)
			rec := solveByHints(t, st)
			if len(rec) != 24 || !st.Over() || !reflect.DeepEqual(st.Winners(), []engine.Seat{0}) || st.EndReason() != "solved" {
				t.Fatalf("%d moves, over %v, winners %v, %q", len(rec), st.Over(), st.Winners(), st.EndReason())
			}
			if v := st.View(0); !strings.Contains(v.Status, "solved!") {
				t.Fatalf("status %q", v.Status)
			}
			if !sceneHas(st.Board(), "Solved!") {
				t.Fatalf("the picture does not say solved")
			}
			n := 0
			for i := 0; i < board.Len(); i++ {
				if st.Mask[i] == 0 {
					continue
				}
				n++
				for d := grid.N; d <= grid.W; d++ {
					j := board.Step(i, d)
					if mine, theirs := st.Mask[i]&(1<<d) != 0, j >= 0 && st.Mask[j]&(1<<d.Opp()) != 0; mine != theirs {
						t.Fatalf("%s edge %s does not match", board.Name(i), d)
					}
				}
			}
			knots := st.Knots()
			if n != 25 || !st.WindowOK() || st.tilesLeft(0) != 0 {
				t.Fatalf("%d tiles, window %v", n, st.WindowOK())
			}
			if level == "hard" && (len(knots) != 1 || len(knots[0].Cells) != 25) {
				t.Fatalf("%d knots, want one through all 25 tiles", len(knots))
			}
			t.Logf("%s, %d knots:\n%s", strings.Join(texts(rec), ", "), len(knots), square(st))
			again, err := enginetest.Replay(puzzleSetup(level), rec)
			if err != nil || enginetest.Fingerprint(again) != enginetest.Fingerprint(st) {
				t.Fatalf("replay: %v", err)
			}
		})
	}
}

func texts(rec []enginetest.Entry) []string {
	var out []string
	for _, e := range rec {
		out = append(out, e.Text)
	}
	return out
}

// square pictures the tiles as type letter and edges, north at the top.
func square(st *State) string {
	var b strings.Builder
	for r := board.H - 1; r >= 0; r-- {
		line := ""
		for c := 0; c < board.W; c++ {
			if m := st.Mask[board.Index(c, r)]; m != 0 {
				line += KindOf[m].Letter() + ":" + Edges(m) + strings.Repeat(" ", 6-len(Edges(m)))
			}
		}
		if line != "" {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

func sceneHas(sc engine.Scene, text string) bool {
	for _, it := range sc.Items {
		if strings.Contains(it.Text, text) {
			return true
		}
	}
	return false
}

// TestHardNotSolved: the easy puzzle's solution found by the hints has
// several knots, so laid in a hard puzzle it fills the board without
// solving it: the game goes on, says what is wrong, offers only undo and
// no hint; undo takes the last tile back to the very position before it.
func TestHardNotSolved(t *testing.T) {
	rec := solveByHints(t, newPuzzle(t, "easy"))
	st := newPuzzle(t, "hard")
	var before string
	for i, e := range rec {
		if i == len(rec)-1 {
			before = enginetest.Fingerprint(st)
		}
		enginetest.Play(t, st, e.Text)
	}
	knots := len(st.Knots())
	if knots < 2 {
		t.Fatalf("the easy solution is a single knot; pick another full board")
	}
	want := strconv.Itoa(knots) + " knots, not 1"
	if st.Over() || st.Placed != 25 || !strings.Contains(st.View(0).Status, want) || !sceneHas(st.Board(), want) {
		t.Fatalf("over %v, status %q", st.Over(), st.View(0).Status)
	}
	if got := enginetest.LegalStrings(st); !reflect.DeepEqual(got, []string{"undo"}) {
		t.Fatalf("legal %v", got)
	}
	if _, ok := st.Hint(); ok {
		t.Fatalf("a hint on a wrong full board")
	}
	if _, res, _ := st.Solve(HintBudget); res != NoSolution {
		t.Fatalf("solve: %v", res)
	}
	after := enginetest.Fingerprint(st)
	o := enginetest.Play(t, st, "undo")
	if enginetest.Fingerprint(st) != before || o.Move != "undo" || len(o.Events) != 1 || !strings.Contains(o.Events[0].Text, "takes back the tile on") {
		t.Fatalf("undo did not restore the position: %+v", o)
	}
	enginetest.Play(t, st, rec[len(rec)-1].Text)
	if enginetest.Fingerprint(st) != after {
		t.Fatalf("laying the tile again differs")
	}
}

// TestUndoRoundTrips: in random puzzle positions, a placement then undo
// (through Apply, and through Play) gives back the same position, and
// undo is listed exactly when a tile besides the crossing is down.
func TestUndoRoundTrips(t *testing.T) {
	for g := 0; g < 8; g++ {
		st := newPuzzle(t, []string{"easy", "hard"}[g%2])
		r := engine.NewRand(uint64(g))
		for n := 0; n < 30 && !st.Over(); n++ {
			legal := st.Legal()
			hasUndo := legal[len(legal)-1].String() == "undo"
			if hasUndo != (st.Placed > 1) {
				t.Fatalf("undo listed %v with %d tiles", hasUndo, st.Placed)
			}
			before := enginetest.Fingerprint(st)
			for _, m := range legal {
				if m.String() == "undo" {
					continue
				}
				c := st.Clone().(*State)
				if _, err := c.Apply(m); err != nil {
					t.Fatal(err)
				}
				if c.Over() {
					continue
				}
				if _, err := c.Apply(Move{Undo: true}); err != nil {
					t.Fatal(err)
				}
				p := st.Clone().(*State)
				if err := p.Play(m); err != nil {
					t.Fatal(err)
				}
				if err := p.Play(Move{Undo: true}); err != nil {
					t.Fatal(err)
				}
				if enginetest.Fingerprint(c) != before || enginetest.Fingerprint(p) != before || c.History != st.History || p.History != st.History {
					t.Fatalf("%s then undo differs from before", m)
				}
				checkDerived(t, p)
				break
			}
			st.PlayRandom(&r)
			checkDerived(t, st)
		}
	}
}

// TestPuzzlePlayouts: random puzzle play (undo included) through
// enginetest.Playout, which checks notation, clones, replay; a small
// chance of giving up ends each one. Every position keeps the 25 tiles,
// the window and a score of 0, and CheckFast holds on some of them.
func TestPuzzlePlayouts(t *testing.T) {
	for i := 0; i < 8; i++ {
		level := []string{"easy", "hard"}[i%2]
		positions := 0
		st, _ := enginetest.Playout(t, puzzleSetup(level), uint64(i), enginetest.PlayoutOptions{
			ResignChance: 0.02,
			MaxMoves:     5000,
			Check: func(t testing.TB, s engine.State, o engine.Outcome) {
				k := s.(*State)
				var count [kinds]int
				for kk := EndCap; kk < kinds; kk++ {
					count[kk] = k.Supply[0][kk] + k.Supply[1][kk] + k.Supply[2][kk]
				}
				for c := 0; c < board.Len(); c++ {
					if k.Mask[c] != 0 {
						count[KindOf[k.Mask[c]]]++
					}
				}
				if count != [kinds]int{5, 5, 9, 5, 1} || !k.WindowOK() || k.Score[0] != 0 {
					t.Fatalf("tiles %v, window %v, score %d", count, k.WindowOK(), k.Score[0])
				}
				if positions++; positions%25 == 0 && i%4 < 2 {
					enginetest.CheckFast(t, s, uint64(positions), 10)
				}
			},
		})
		if r := st.(engine.Ender).EndReason(); r != "resignation" && r != "solved" {
			t.Fatalf("puzzle ended by %q", r)
		}
	}
}

// TestSolveBounded: the solver stops at its node budget and says so
// (gave up), rather than answering "no solution"; with the full budget
// random puzzle positions are decided well within it.
func TestSolveBounded(t *testing.T) {
	st := newPuzzle(t, "hard")
	if _, res, nodes := st.Solve(10); res != GaveUp || nodes > 11 {
		t.Fatalf("budget 10: %v after %d nodes", res, nodes)
	}
	r := engine.NewRand(5)
	worst := 0
	results := map[SolveResult]int{}
	for g := 0; g < 200; g++ {
		st := newPuzzle(t, []string{"easy", "hard"}[g%2])
		for n := r.IntN(23); n > 0; n-- {
			f := st.view()
			if f.count(0) == 0 {
				break
			}
			if err := st.Play(f.pick(st, 0, r.IntN(f.count(0)))); err != nil {
				t.Fatal(err)
			}
		}
		m, res, nodes := st.Solve(HintBudget)
		results[res]++
		worst = max(worst, nodes)
		if res == Solved {
			if _, err := st.Clone().Apply(m); err != nil {
				t.Fatalf("hint %s refused: %v", m, err)
			}
		}
	}
	if results[GaveUp] > 0 || results[Solved] == 0 || results[NoSolution] == 0 {
		t.Fatalf("results %v", results)
	}
	t.Logf("results %v, most nodes %d", results, worst)
}

// FuzzParsePuzzle: in puzzle positions, Parse never panics, refuses with
// an IllegalError, and what it accepts round-trips and applies.
func FuzzParsePuzzle(f *testing.F) {
	for _, s := range []string{"undo", "UNDO", "e6 S", "e6 S*", "d5 E", "e4 NESW", "f5 w", "undo e6", "", "*"} {
		f.Add(s, uint8(5), true)
	}
	f.Fuzz(func(t *testing.T, text string, moves uint8, hard bool) {
		level := "easy"
		if hard {
			level = "hard"
		}
		st := newPuzzle(t, level)
		r := engine.NewRand(uint64(moves))
		for i := 0; i < int(moves%30); i++ {
			st.PlayRandom(&r)
		}
		m, err := st.Parse(text)
		if err != nil {
			if _, ok := err.(*engine.IllegalError); !ok {
				t.Fatalf("%q: error %T is not an IllegalError", text, err)
			}
			return
		}
		m2, err := st.Parse(m.String())
		if err != nil || m2 != m {
			t.Fatalf("%q parses as %q, which gives %v, %v", text, m, m2, err)
		}
		if _, err := st.Clone().Apply(m); err != nil {
			t.Fatalf("%q accepted by Parse but refused by Apply: %v", text, err)
		}
	})
}

// TestStuckPuzzle: four end-caps around the crossing close the design
// with 20 tiles left: no tile can join it, so the only move is undo, the
// status and the last move say so, and there is no hint (decided at once).
func TestStuckPuzzle(t *testing.T) {
	st := newPuzzle(t, "easy")
	var o engine.Outcome
	for _, m := range []string{"e6 S", "e4 N", "d5 E", "f5 W"} {
		o = enginetest.Play(t, st, m)
	}
	if _, closed := st.Strands(); len(closed) != len(st.Knots()) || st.Over() || st.CanMove(0) {
		t.Fatalf("open strands left, or over %v, or a move", st.Over())
	}
	if got := enginetest.LegalStrings(st); !reflect.DeepEqual(got, []string{"undo"}) {
		t.Fatalf("legal %v", got)
	}
	last := o.Events[len(o.Events)-1].Text
	if !strings.Contains(last, "no tile fits anywhere") || !strings.Contains(st.View(0).Status, "no tile fits") {
		t.Fatalf("event %q, status %q", last, st.View(0).Status)
	}
	if _, res, nodes := st.Solve(HintBudget); res != NoSolution || nodes != 0 {
		t.Fatalf("solve: %v after %d nodes", res, nodes)
	}
}

// TestPuzzleRegistration: the registration says what the platform needs
// to start a puzzle and answer /hint without knowing Knotwork: the option
// (whose listed values are the levels, easy first), each level's goal,
// and a hint that is SearchHint's, played on a copy (the position is
// left as it was). A game between two players gets no hint from it.
func TestPuzzleRegistration(t *testing.T) {
	g, _ := engine.Lookup(ID)
	p := g.Puzzle
	if p == nil || p.Option != "puzzle" || len(p.Levels) != 2 || p.Levels[0].Name != "easy" || p.Levels[1].Name != "hard" {
		t.Fatalf("puzzle registration: %+v", p)
	}
	var names []string
	for _, l := range p.Levels {
		names = append(names, l.Name)
		if l.Goal == "" {
			t.Fatalf("level %s has no goal", l.Name)
		}
	}
	if !reflect.DeepEqual(names, g.Options[0].Values) {
		t.Fatalf("levels %v, the option's values %v", names, g.Options[0].Values)
	}
	if _, ok := p.Level("medium"); ok {
		t.Fatal("a level medium")
	}
	for _, level := range names {
		st := newPuzzle(t, level)
		before := enginetest.Key(st)
		m, found, exhaustive := p.Hint(st)
		want, _, _ := st.SearchHint()
		if !found || !exhaustive || m.String() != want.String() || enginetest.Key(st) != before {
			t.Fatalf("%s: hint %v %v %v, SearchHint %v", level, m, found, exhaustive, want)
		}
	}
	if _, found, exhaustive := p.Hint(start(t)); found || !exhaustive {
		t.Fatalf("a game between two players: found %v, exhaustive %v", found, exhaustive)
	}
}
