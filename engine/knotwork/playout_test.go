package knotwork

import (
	"math/rand/v2"
	"testing"

	"tessera/engine"
	"tessera/engine/enginetest"
)

// TestRandomPlayouts plays random games to the end and checks the core
// invariants plus Knotwork's own after every move: the 25 tiles conserved
// between the three supplies and the board, the window rule, every legal
// move listed once and exactly the placements Parse accepts, the scores
// equal to the best knot so far, and the game ending only when neither
// player can move.
func TestRandomPlayouts(t *testing.T) {
	games := 150
	if testing.Short() {
		games = 60
	}
	for i := 0; i < games; i++ {
		setup := engine.Setup{Game: ID, Players: 2, Seed: uint64(i)}
		resign := 0.0
		if i%10 == 9 {
			resign = 0.03
		}
		st, _ := enginetest.Playout(t, setup, uint64(i), enginetest.PlayoutOptions{
			ResignChance: resign,
			Check: func(t testing.TB, s engine.State, o engine.Outcome) {
				checkPosition(t, s.(*State), i%20 == 0)
			},
		})
		k := st.(*State)
		if k.Active() == 2 && (k.CanMove(0) || k.CanMove(1)) {
			t.Fatalf("seed %d: game over but a player can still move", i)
		}
	}
}

// checkPosition checks conservation, the window, the scores and (when
// full is set) that Legal is exactly the set of placements Parse accepts.
func checkPosition(t testing.TB, st *State, full bool) {
	t.Helper()
	var count [kinds]int
	for o := 0; o < 3; o++ {
		for k := EndCap; k < kinds; k++ {
			if st.Supply[o][k] < 0 {
				t.Fatalf("negative supply")
			}
			count[k] += st.Supply[o][k]
		}
	}
	placed := 0
	for i := 0; i < board.Len(); i++ {
		if st.Mask[i] != 0 {
			count[KindOf[st.Mask[i]]]++
			placed++
		}
	}
	want := [kinds]int{EndCap: 5, Straight: 5, Corner: 9, Branch: 5, Crossing: 1}
	if count != want || placed != st.Placed {
		t.Fatalf("tiles not conserved: %v (want %v), placed %d/%d", count, want, placed, st.Placed)
	}
	if !st.WindowOK() {
		t.Fatalf("window rule broken")
	}
	ks := KnotScores(st.Knots())
	for s := 0; s < 2; s++ {
		best := 0
		if len(ks[s]) > 0 {
			best = ks[s][0]
		}
		if st.Score[s] != best {
			t.Fatalf("seat %d score %d, best knot %d", s, st.Score[s], best)
		}
	}
	if full && !st.Done {
		listed := map[string]bool{}
		for _, m := range st.Legal() {
			if listed[m.String()] {
				t.Fatalf("%s listed twice", m)
			}
			listed[m.String()] = true
		}
		for c := 0; c < board.Len(); c++ {
			for mask := uint8(1); mask < 16; mask++ {
				for _, neu := range []bool{false, true} {
					m := Move{Cell: c, Mask: mask, Neutral: neu}
					_, err := st.Parse(m.String())
					if (err == nil) != listed[m.String()] {
						t.Fatalf("%s: Parse says %v but listed=%v", m, err, listed[m.String()])
					}
				}
			}
		}
	}
}

// FuzzParse checks that Parse never panics and that an accepted move
// round-trips through String.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"d5 NE", "e6 S", "f5 NES*", "e4 * n", "d5ew", "e6 SN", "a1 NESW", "e5 x", "z9 N", "e66 N", "", "*", "e6 NN"} {
		f.Add(s, uint8(3))
	}
	f.Fuzz(func(t *testing.T, text string, moves uint8) {
		st := midGame(int(moves % 12))
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

// midGame plays n seeded random moves from the start.
func midGame(n int) *State {
	s, _ := New(engine.Setup{Game: ID, Players: 2})
	st := s.(*State)
	rng := rand.New(rand.NewPCG(42, 7))
	for i := 0; i < n && !st.Done; i++ {
		legal := st.Legal()
		st.Apply(legal[rng.IntN(len(legal))])
	}
	return st
}

func BenchmarkLegal(b *testing.B) {
	st := midGame(6)
	b.ReportAllocs()
	for b.Loop() {
		st.Legal()
	}
}

func BenchmarkApply(b *testing.B) {
	st := midGame(6)
	legal := st.Legal()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		c := st.Clone()
		c.Apply(legal[i%len(legal)])
		i++
	}
}
