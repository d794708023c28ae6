package ai_test

import (
	"context"
	"strings"
	"testing"

	"tessera/ai"
	"tessera/engine"
)

// TestBlocksALoopOneStoneAway: Yellow has five stones around g7 (its
// neighbours f6 f7 g6 g8 h6 h7), so h7 closes a loop. Of Black's ~2,800
// moves only those that put a stone on h7 do not lose at once; every
// level finds one (Glorieta is an engine.Finisher).
func TestBlocksALoopOneStoneAway(t *testing.T) {
	st := replay(t, engine.Setup{Game: "glorieta", Players: 2, Seed: 1}, "f6", "a1 a2", "f7 g6", "a3 a4", "g8 h6")
	if got := len(st.Legal()); got < 1000 {
		t.Fatalf("Black has %d legal moves; the position is not what the test means", got)
	}
	for _, level := range ai.Levels {
		// Three seeds a level, but one for hard: its 30,000 iterations
		// cost as much as all the others together.
		seeds := uint64(3)
		if level == ai.Hard {
			seeds = 1
		}
		for seed := uint64(1); seed <= seeds; seed++ {
			b := level.Budget(0)
			b.Think = 0 // the iterations alone, so the test repeats on any machine
			m, _, err := ai.Search(context.Background(), st, st.ToMove(), b, seed)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(m.String(), "h7") {
				t.Errorf("%s, seed %d: Black plays %s and Yellow closes the loop with h7", level, seed, m)
			}
		}
	}
}

// TestNeverLetsAWinAtOnce: on the last positions of random Glorieta
// games, where loops are near, the easy level's move never leaves the
// opponent a win at once when some move would not.
func TestNeverLetsAWinAtOnce(t *testing.T) {
	checked := 0
	for g := uint64(0); g < 10; g++ {
		setup := engine.Setup{Game: "glorieta", Players: 2, Seed: g}
		n := gameLength(t, setup, g)
		for k := max(0, n-4); k < n; k++ {
			st := randomPosition(t, setup, k, g)
			if st.Over() {
				continue
			}
			if _, wins := st.(engine.Finisher).WinningMove(); wins {
				continue // the search plays a win at once itself (TestTakesWinInOne)
			}
			safe := 0
			for _, m := range st.Legal() {
				if !letsWin(t, st, m) {
					safe++
				}
			}
			if safe == 0 {
				continue
			}
			b := ai.Easy.Budget(0)
			b.Think = 0
			m, _, err := ai.Search(context.Background(), st, st.ToMove(), b, g)
			if err != nil {
				t.Fatal(err)
			}
			if letsWin(t, st, m) {
				t.Errorf("game %d, move %d: %s lets the opponent win at once; %d moves do not", g, k, m, safe)
			}
			checked++
		}
	}
	if checked < 6 {
		t.Fatalf("only %d positions checked", checked)
	}
	t.Logf("%d positions checked", checked)
}

// letsWin reports whether after m the next mover can win at once.
func letsWin(t *testing.T, st engine.State, m engine.Move) bool {
	t.Helper()
	c := st.Clone()
	if _, err := c.Apply(m); err != nil {
		t.Fatalf("%s: %v", m, err)
	}
	if c.Over() {
		return false
	}
	_, wins := c.(engine.Finisher).WinningMove()
	return wins
}

func replay(t *testing.T, setup engine.Setup, moves ...string) engine.State {
	t.Helper()
	st, err := engine.New(setup)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range moves {
		m, err := st.Parse(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if _, err := st.Apply(m); err != nil {
			t.Fatalf("%s: %v", text, err)
		}
	}
	return st
}
