package tilingking

import (
	"math/rand/v2"
	"testing"

	"tessera/engine"
)

// midGame plays a fixed number of random placements from a seed.
func midGame(tb testing.TB, kind string, players, moves int) *State {
	st, err := engine.New(engine.Setup{Game: ID, Players: players, Options: map[string]string{"board": kind}})
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for i := 0; i < moves && !st.Over(); i++ {
		legal := st.Legal()
		if _, err := st.Apply(legal[rng.IntN(len(legal))]); err != nil {
			tb.Fatal(err)
		}
	}
	return st.(*State)
}

// FuzzParse: Parse never panics, on any board and position; a move it
// accepts prints as notation that parses back to the same move, and Apply
// accepts it.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"c3 c4 d4", "pass", "pass all", "swap", "a1", "e5", "d5 d6 d7 c5", "g5 g6 g7 h7", "A1,B1", "k11 k10", "a1 a1", "", "z", "a0", "b-1", "i9 i8 h9 h8"} {
		f.Add(s, uint8(0))
		f.Add(s, uint8(7))
	}
	states := map[int]*State{}
	for k, kind := range Kinds {
		states[2*k] = midGame(f, kind, 2, 0)
		states[2*k+1] = midGame(f, kind, 3, 9)
	}
	f.Fuzz(func(t *testing.T, text string, which uint8) {
		st := states[int(which)%len(states)]
		m, err := st.Parse(text)
		if err != nil {
			if _, ok := err.(*engine.IllegalError); !ok {
				t.Fatalf("%q: error %T", text, err)
			}
			return
		}
		s := m.String()
		m2, err := st.Parse(s)
		if err != nil || m2.String() != s {
			t.Fatalf("%q -> %q does not round-trip: %v", text, s, err)
		}
		c := st.Clone()
		if _, err := c.Apply(m); err != nil {
			t.Fatalf("%q accepted by Parse, refused by Apply: %v", text, err)
		}
	})
}

// BenchmarkLegal: all placements of the mover in a mid-game position
// (square11, 3 players, 12 pieces laid).
func BenchmarkLegal(b *testing.B) {
	for _, kind := range Kinds {
		st := midGame(b, kind, 3, 12)
		b.Run(kind, func(b *testing.B) {
			n := 0
			for i := 0; i < b.N; i++ {
				n = len(st.Legal())
			}
			b.ReportMetric(float64(n), "moves")
		})
	}
}

// BenchmarkApply: parse and apply one placement (with the capture search
// and the next player's automatic-pass check) on a clone of a mid-game
// position.
func BenchmarkApply(b *testing.B) {
	for _, kind := range Kinds {
		st := midGame(b, kind, 3, 12)
		legal := st.Legal()
		b.Run(kind, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				c := st.Clone()
				if _, err := c.Apply(legal[i%len(legal)]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
