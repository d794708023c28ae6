package elemental

import (
	"testing"

	"tessera/engine"
	"tessera/engine/enginetest"
)

// TestRandomPlayouts plays random games to the end and checks the core
// invariants plus Elemental's own: 70 tiles conserved between bag, hands
// and board, and every cell filled at the end.
func TestRandomPlayouts(t *testing.T) {
	games := 30
	if testing.Short() {
		games = 10
	}
	for i := 0; i < games; i++ {
		players := 2 + i%3
		setup := engine.Setup{Game: ID, Players: players, Seed: uint64(i)}
		resign := 0.0
		if i%5 == 4 {
			resign = 0.01
		}
		st, _ := enginetest.Playout(t, setup, uint64(i), enginetest.PlayoutOptions{
			ResignChance: resign,
			Check: func(t testing.TB, s engine.State, o engine.Outcome) {
				checkConserved(t, s.(*State))
			},
		})
		e := st.(*State)
		if e.Active() > 1 && e.Placed != 64 {
			t.Fatalf("seed %d: game over with %d cells filled", i, e.Placed)
		}
	}
}

func checkConserved(t testing.TB, st *State) {
	t.Helper()
	seen := map[Tile]int{}
	for _, x := range st.Bag {
		seen[x.Canonical()]++
	}
	for _, h := range st.Hands {
		for _, x := range h {
			seen[x.Canonical()]++
		}
	}
	for i := range st.Cells {
		if st.Filled[i] {
			seen[st.Cells[i].Canonical()]++
		}
	}
	if len(seen) != 70 {
		t.Fatalf("%d distinct tiles in play, want 70", len(seen))
	}
	for x, n := range seen {
		if n != 1 {
			t.Fatalf("tile %s appears %d times", x, n)
		}
	}
}
