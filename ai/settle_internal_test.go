package ai

import (
	"context"
	"testing"

	"tessera/engine"
	_ "tessera/engine/games"
)

// TestSettledSearchChoosesAsTheWholeBudget: a search that ends early
// because its choice is settled chooses the move the whole budget chooses,
// with no more playouts than the budget, for every game, at several
// stages, and some of them do end early (else the test shows nothing).
func TestSettledSearchChoosesAsTheWholeBudget(t *testing.T) {
	defer func() { settleEarly = true }()
	saved, searches := 0, 0
	budget := 0
	for _, c := range []struct {
		setup      engine.Setup
		iterations int
	}{
		{engine.Setup{Game: "knotwork", Players: 2, Seed: 4}, 10000},
		{engine.Setup{Game: "glorieta", Players: 2, Seed: 4}, 4000},
		{engine.Setup{Game: "tilingking", Players: 2, Seed: 4}, 6000},
		{engine.Setup{Game: "elemental", Players: 3, Seed: 4}, 3000},
		{engine.Setup{Game: "closure", Players: 2, Seed: 4}, 3000},
	} {
		setup := c.setup
		st, err := engine.New(setup)
		if err != nil {
			t.Fatal(err)
		}
		r := engine.NewRand(3)
		for ply := 0; !st.Over() && ply < 60; ply++ {
			if ply%7 == 3 {
				b := Budget{Iterations: c.iterations, Workers: 2}
				settleEarly = true
				early, es, err1 := Search(context.Background(), st, st.ToMove(), b, uint64(ply))
				settleEarly = false
				full, fs, err2 := Search(context.Background(), st, st.ToMove(), b, uint64(ply))
				if err1 != nil || err2 != nil {
					t.Fatal(err1, err2)
				}
				if early.String() != full.String() {
					t.Fatalf("%s ply %d: settled early on %s after %d playouts, the whole budget chose %s", setup.Game, ply, early, es.Playouts, full)
				}
				if es.Playouts > fs.Playouts || fs.Shortcut == "" && fs.Playouts != b.Iterations {
					t.Fatalf("%s ply %d: %d playouts early, %d in full", setup.Game, ply, es.Playouts, fs.Playouts)
				}
				saved += fs.Playouts - es.Playouts
				searches++
				budget += b.Iterations
			}
			legal := st.Legal()
			if _, err := st.Apply(legal[r.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	if saved == 0 {
		t.Fatalf("no search of %d ended early", searches)
	}
	t.Logf("%d searches, %d playouts saved (%.0f%%)", searches, saved, 100*float64(saved)/float64(budget))
}
