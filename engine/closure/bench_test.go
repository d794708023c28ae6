package closure

import (
	"math/rand/v2"
	"testing"

	"tessera/engine"
)

// midGame plays a seeded random 3-player game until 30 tiles are laid.
func midGame(tb testing.TB) *State {
	s, err := engine.New(engine.Setup{Game: ID, Players: 3, Seed: 42})
	if err != nil {
		tb.Fatal(err)
	}
	st := s.(*State)
	rng := rand.New(rand.NewPCG(42, 1))
	for st.Laid < 30 && !st.Over() {
		legal := st.Legal()
		if _, err := st.Apply(legal[rng.IntN(len(legal))]); err != nil {
			tb.Fatal(err)
		}
	}
	if st.Over() {
		tb.Fatal("the benchmark game ended early")
	}
	return st
}

func BenchmarkLegal(b *testing.B) {
	st := midGame(b)
	b.ReportAllocs()
	for b.Loop() {
		st.Legal()
	}
}

func BenchmarkApply(b *testing.B) {
	st := midGame(b)
	legal := st.Legal()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		c := st.Clone()
		if _, err := c.Apply(legal[i%len(legal)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkPreview and BenchmarkKeyPoints score every legal placement of
// the same position: the flood of the table against the union-finds
// (engine.KeyScorer), which a search calls for every move it orders.
func BenchmarkPreview(b *testing.B) {
	st := midGame(b)
	legal := st.Legal()
	b.ReportAllocs()
	for b.Loop() {
		for _, m := range legal {
			st.Preview(m)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(legal)), "ns/move")
}

func BenchmarkKeyPoints(b *testing.B) {
	st := midGame(b)
	keys := st.LegalKeys(nil)
	b.ReportAllocs()
	for b.Loop() {
		for _, k := range keys {
			st.KeyPoints(k)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(keys)), "ns/move")
}
