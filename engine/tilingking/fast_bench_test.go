package tilingking

import (
	"fmt"
	"testing"

	"tessera/engine"
)

// benchSetups are the boards and player counts the benchmarks measure:
// the two of the issue (square9 with 2 players, square11 with 3) and the
// others.
var benchSetups = []struct {
	kind    string
	players int
}{
	{Square9, 2}, {Square11, 3}, {Square11, 4}, {Hex, 2}, {Hex, 3}, {Tri, 2}, {Tri, 4},
}

func benchStart(b *testing.B, kind string, players int) engine.State {
	st, err := engine.New(engine.Setup{Game: ID, Players: players, Options: map[string]string{"board": kind}})
	if err != nil {
		b.Fatal(err)
	}
	return st
}

// BenchmarkPlayoutLegalApply is the loop a search had before FastPlayer:
// Legal, a uniform choice, Apply, from the start to the end.
func BenchmarkPlayoutLegalApply(b *testing.B) {
	for _, bs := range benchSetups {
		b.Run(fmt.Sprintf("%s/%dp", bs.kind, bs.players), func(b *testing.B) {
			start := benchStart(b, bs.kind, bs.players)
			r := engine.NewRand(1)
			moves := 0
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				st := start.Clone()
				for !st.Over() {
					legal := st.Legal()
					if _, err := st.Apply(legal[r.IntN(len(legal))]); err != nil {
						b.Fatal(err)
					}
					moves++
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
			b.ReportMetric(float64(moves)/float64(b.N), "moves/playout")
		})
	}
}

// BenchmarkPlayoutFast is the same playouts with PlayRandom (a Clone of
// the start included).
func BenchmarkPlayoutFast(b *testing.B) {
	for _, bs := range benchSetups {
		b.Run(fmt.Sprintf("%s/%dp", bs.kind, bs.players), func(b *testing.B) {
			start := benchStart(b, bs.kind, bs.players)
			r := engine.NewRand(1)
			moves := 0
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				st := start.Clone()
				fp := st.(engine.FastPlayer)
				for !st.Over() {
					fp.PlayRandom(&r)
					moves++
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
			b.ReportMetric(float64(moves)/float64(b.N), "moves/playout")
		})
	}
}
