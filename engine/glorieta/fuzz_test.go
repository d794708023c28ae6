package glorieta

import (
	"math/rand/v2"
	"testing"

	"tessera/engine"
)

// midGame plays a fixed random game for n turns from seed 7 (single
// stones, flips and pairs chosen evenly) and returns the position.
func midGame(tb testing.TB, n int) *State {
	tb.Helper()
	s, err := New(engine.Setup{Game: ID, Players: 2, Seed: 7})
	if err != nil {
		tb.Fatal(err)
	}
	st := s.(*State)
	rng := rand.New(rand.NewPCG(7, 7))
	for i := 0; i < n && !st.Over(); i++ {
		m := biased(st, rng)
		if _, err := st.Apply(m); err != nil {
			tb.Fatal(err)
		}
	}
	if st.Over() {
		tb.Fatal("the mid-game position is over")
	}
	return st
}

// biased picks a legal move choosing first between a single stone, a
// flip and a pair, so that flips and full boards come up more often than
// when every listed move is equally likely. It does not call Legal (too
// slow for hundreds of games); TestBiasedMatchesLegal checks it.
func biased(st *State, rng *rand.Rand) engine.Move {
	var free, mine []int
	for c := 0; c < nCells; c++ {
		switch {
		case st.Stones[c] == empty:
			free = append(free, c)
		case st.owns(st.Turn, c) && !st.Pink[c] && st.Started:
			mine = append(mine, c)
		}
	}
	n := st.mayPlace(st.Turn)
	for {
		switch k := rng.IntN(3); {
		case k == 0 && n >= 1:
			return Move{A: free[rng.IntN(len(free))], B: -1}
		case k == 1 && len(mine) > 0:
			return Move{Flip: true, A: mine[rng.IntN(len(mine))], B: -1}
		case k == 2 && n == 2:
			i := rng.IntN(len(free))
			j := rng.IntN(len(free) - 1)
			if j >= i {
				j++
			}
			return Move{A: min(free[i], free[j]), B: max(free[i], free[j])}
		}
	}
}

// TestBiasedMatchesLegal checks that biased only picks listed moves.
func TestBiasedMatchesLegal(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 5, 14, 20} {
		st := midGame(t, n)
		listed := map[engine.Move]bool{}
		for _, m := range st.Legal() {
			listed[m] = true
		}
		for i := 0; i < 200; i++ {
			if m := biased(st, rng); !listed[m] {
				t.Fatalf("after %d turns: biased picked %v, not listed", n, m)
			}
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"g7", "g7 g8", "g8,g7", "flip a1", "FLIP  b2", "a1, a2", "m7", "n1", "g0", "g14", "flip", "a1 a2 a3", "", " , ", "flip a1 a2", "g07", "g+7", "a-1", "é1"} {
		f.Add(s)
	}
	positions := []*State{midGame(f, 0), midGame(f, 1), midGame(f, 14)}
	f.Fuzz(func(t *testing.T, text string) {
		for _, st := range positions {
			m, err := st.Parse(text)
			if err != nil {
				if _, ok := err.(*engine.IllegalError); !ok {
					t.Fatalf("%q: error %T", text, err)
				}
				if err.Error() == "" {
					t.Fatalf("%q: empty message", text)
				}
				continue
			}
			s := m.String()
			m2, err := st.Parse(s)
			if err != nil || m2.String() != s || m2 != m {
				t.Fatalf("%q parses as %q, which parses back as %v, %v", text, s, m2, err)
			}
			c := st.Clone()
			if _, err := c.Apply(m); err != nil {
				t.Fatalf("%q: parsed but refused: %v", text, err)
			}
		}
	})
}

// TestBiasedPlayouts plays many quick games with flips and single stones
// as likely as pairs (more pinks, some full boards) and checks the
// invariants after every turn and a single winner with a loop at the end.
func TestBiasedPlayouts(t *testing.T) {
	games := 150
	if testing.Short() {
		games = 30
	}
	full := 0
	for i := 0; i < games; i++ {
		s, _ := New(engine.Setup{Game: ID, Players: 2, Seed: uint64(i)})
		st := s.(*State)
		rng := rand.New(rand.NewPCG(uint64(i), 3))
		for n := 0; !st.Over(); n++ {
			if n > 2000 {
				t.Fatalf("game %d does not end", i)
			}
			o, err := st.Apply(biased(st, rng))
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, st, o)
		}
		if st.Empty == 0 {
			full++
		}
		if w := st.Winners(); len(w) != 1 || st.hole(w[0]) < 0 {
			t.Fatalf("game %d: winners %v", i, w)
		}
	}
	t.Logf("%d games, %d reached a full board", games, full)
}

func BenchmarkLegal(b *testing.B) {
	st := midGame(b, 14)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = st.Legal()
	}
}

func BenchmarkApply(b *testing.B) {
	st := midGame(b, 14)
	legal := st.Legal()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c := *st // Apply changes no slice of a game in progress
		if _, err := c.Apply(legal[i%len(legal)]); err != nil {
			b.Fatal(err)
		}
	}
}
