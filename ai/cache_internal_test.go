package ai

import (
	"context"
	"testing"

	"tessera/engine"
	_ "tessera/engine/games"
)

// TestWithoutLegalCache: with the cache budget spent, nodes list their
// moves again when they expand, and the search still plays legal moves and
// uses its whole budget.
func TestWithoutLegalCache(t *testing.T) {
	defer func(n int) { cacheMoves = n }(cacheMoves)
	cacheMoves = 0
	for _, setup := range []engine.Setup{{Game: "knotwork", Players: 2, Seed: 2}, {Game: "tilingking", Players: 3, Seed: 2}} {
		st, _ := engine.New(setup)
		r := engine.NewRand(1)
		for k := 0; k < 4; k++ {
			legal := st.Legal()
			st.Apply(legal[r.IntN(len(legal))])
		}
		m, stats, err := Search(context.Background(), st, st.ToMove(), Budget{Iterations: 300, Workers: 2}, 3)
		if err != nil || stats.Playouts != 300 {
			t.Fatal(err, stats.Playouts)
		}
		if _, err := st.Parse(m.String()); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		if stats.Nodes < 20 {
			t.Fatalf("%s: only %d nodes", setup.Game, stats.Nodes)
		}
	}
}
