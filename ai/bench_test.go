package ai_test

import (
	"context"
	"testing"

	"tessera/ai"
	"tessera/engine"
)

// BenchmarkSearch is one search of 1,000 iterations on one tree, from a
// position a few moves in, per game: compare with `tessera playouts` to see
// what the tree costs beside the playouts.
func BenchmarkSearch(b *testing.B) {
	for _, setup := range []engine.Setup{
		{Game: "elemental", Players: 2, Seed: 1},
		{Game: "closure", Players: 2, Seed: 1},
		{Game: "knotwork", Players: 2, Seed: 1},
		{Game: "tilingking", Players: 2, Seed: 1},
	} {
		b.Run(setup.Game, func(b *testing.B) {
			st, _ := engine.New(setup)
			r := engine.NewRand(1)
			for k := 0; k < 4; k++ {
				legal := st.Legal()
				st.Apply(legal[r.IntN(len(legal))])
			}
			for i := 0; i < b.N; i++ {
				ai.Search(context.Background(), st, st.ToMove(), ai.Budget{Iterations: 1000, Workers: 1}, uint64(i))
			}
		})
	}
}
