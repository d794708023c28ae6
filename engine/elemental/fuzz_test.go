package elemental

import (
	"testing"

	"tessera/engine"
)

// FuzzParse: no input crashes the parser, and an accepted move is legal
// and round-trips through its notation.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"d5 RGBY", "d5rgby", "  a1   bbbb ", "z9 RGBY", "d0 RGBY", "d5", "", "d5 RGB", "d-1 RGBY", "d+5 RGBY", "é5 RGBY", "d99999999999999999999 RGBY", "d5 RGBY extra", "\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		for _, placed := range []bool{false, true} {
			st, _ := engine.New(engine.Setup{Game: ID, Players: 2, Seed: 5})
			s := st.(*State)
			if placed {
				m := s.Legal()[0]
				s.Apply(m)
			}
			m, err := s.Parse(in)
			if err != nil {
				if _, ok := err.(*engine.IllegalError); !ok {
					t.Fatalf("%q: error of type %T", in, err)
				}
				continue
			}
			m2, err := s.Parse(m.String())
			if err != nil || m2.String() != m.String() {
				t.Fatalf("%q parsed as %q, which does not round-trip: %v", in, m, err)
			}
			if _, err := s.Clone().Apply(m); err != nil {
				t.Fatalf("%q accepted by Parse but refused by Apply: %v", in, err)
			}
		}
	})
}

func BenchmarkLegal(b *testing.B) {
	st := lateGame(b)
	b.ReportAllocs()
	for b.Loop() {
		st.Legal()
	}
}

func BenchmarkApply(b *testing.B) {
	st := lateGame(b)
	m := st.Legal()[0]
	b.ReportAllocs()
	for b.Loop() {
		c := st.Clone()
		if _, err := c.Apply(m); err != nil {
			b.Fatal(err)
		}
	}
}

// lateGame plays 50 moves of a game.
func lateGame(b *testing.B) engine.State {
	st, _ := engine.New(engine.Setup{Game: ID, Players: 2, Seed: 11})
	for i := 0; i < 50; i++ {
		l := st.Legal()
		st.Apply(l[(i*7)%len(l)])
	}
	return st
}
