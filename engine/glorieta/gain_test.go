package glorieta

import (
	"testing"

	"tessera/engine"
)

// gains is each named move's Gain in st.
func gains(t *testing.T, st *State, names ...string) []engine.Gain {
	t.Helper()
	var moves []engine.Move
	for _, n := range names {
		m, err := st.Parse(n)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		moves = append(moves, m)
	}
	return st.Gains(moves)
}

// TestGainsTellLoopsAndThreats: g7's six neighbours are f6 f7 g6 g8 h6
// h7 (TestSmallestLoop). With Yellow on four of them, Yellow's h6 h7
// closes the loop and wins; h6 alone leaves h7 as the one cell where a
// stone closes it, a threat Black must answer; a1 far away gains nothing
// (issue #24, item 19: Glorieta listed no gains, in cell order). And with
// Black on five of them and Yellow on h7, Yellow's flip of h7 completes
// Black's loop (TestFlipCompletesOpponentsLoop): it loses.
func TestGainsTellLoopsAndThreats(t *testing.T) {
	st := started(t, Yellow)
	put(t, st, Yellow, "f6 f7 g6 g8")
	put(t, st, Black, "b2")
	g := gains(t, st, "h6 h7", "h6", "a1")
	for i, want := range []engine.Gain{
		{Text: "wins: closes your loop", Rank: 1000},
		{Text: "threatens a loop at h7", Rank: 1},
		{},
	} {
		if g[i] != want {
			t.Errorf("move %d: %+v, want %+v", i, g[i], want)
		}
	}
	if st.Over() || st.Stones[cell(t, "h6")] != empty {
		t.Fatal("Gains changed the position")
	}

	st = started(t, Yellow)
	put(t, st, Black, "f6 f7 g6 g8 h6")
	put(t, st, Yellow, "h7 a1")
	g = gains(t, st, "flip h7", "flip a1")
	if want := (engine.Gain{Text: "loses: completes Black's loop", Rank: -1000}); g[0] != want {
		t.Errorf("flip h7: %+v, want %+v", g[0], want)
	}
	if g[1] != (engine.Gain{}) {
		t.Errorf("flip a1 changes nothing near a loop: %+v", g[1])
	}
}

// TestGainsAgreeWithApply: over random games, a move's Gain says it wins
// exactly when playing it ends the game with the mover's win, and that
// it loses exactly when it ends with the opponent's; a threatening
// move's cells each close the mover's loop with one more stone.
func TestGainsAgreeWithApply(t *testing.T) {
	for seed := uint64(1); seed <= 2; seed++ {
		s, err := New(engine.Setup{Game: ID, Players: 2, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		st := s.(*State)
		r := engine.NewRand(seed)
		for ply := 0; !st.Over(); ply++ {
			legal := st.Legal()
			if ply%10 != 0 { // every tenth position is checked
				if _, err := st.Apply(legal[r.IntN(len(legal))]); err != nil {
					t.Fatal(err)
				}
				continue
			}
			g := st.Gains(legal)
			mover := st.Turn
			checked := 0
			for i := ply % 7; i < len(legal); i += 53 { // a sample: pairs run to thousands
				c := st.Clone()
				if _, err := c.Apply(legal[i]); err != nil {
					t.Fatal(err)
				}
				won := c.Over() && len(c.Winners()) == 1 && c.Winners()[0] == mover
				lost := c.Over() && len(c.Winners()) == 1 && c.Winners()[0] != mover
				if won != (g[i].Rank == 1000) || lost != (g[i].Rank == -1000) {
					t.Fatalf("seed %d ply %d %s: gain %+v, but after it over %v winners %v", seed, ply, legal[i], g[i], c.Over(), c.Winners())
				}
				if g[i].Rank > 0 && g[i].Rank < 1000 && checked < 2 {
					checked++
					// Give the mover the turn again with one stone to place.
					next := c.(*State)
					next.Turn, next.Hands[mover] = mover, 1
					found := false
					for _, m := range next.Legal() {
						if n := next.Clone(); n.(*State).Turn == mover {
							if _, err := n.Apply(m); err == nil && n.Over() && n.Winners()[0] == mover {
								found = true
								break
							}
						}
					}
					if !found {
						t.Fatalf("seed %d ply %d %s: %q, but no stone then closes a loop", seed, ply, legal[i], g[i].Text)
					}
				}
			}
			if _, err := st.Apply(legal[r.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// BenchmarkGains: every legal move's Gain after 12 random moves (a
// player with two stones to place has thousands of pairs).
func BenchmarkGains(b *testing.B) {
	s, _ := New(engine.Setup{Game: ID, Players: 2, Seed: 3})
	r := engine.NewRand(1)
	for range 12 {
		l := s.Legal()
		s.Apply(l[r.IntN(len(l))])
	}
	legal := s.Legal()
	b.ReportMetric(float64(len(legal)), "moves")
	for b.Loop() {
		s.(*State).Gains(legal)
	}
}
