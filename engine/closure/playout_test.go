package closure

import (
	"testing"

	"tessera/engine"
	"tessera/engine/enginetest"
)

// TestRandomPlayouts plays random games to the end and checks the core
// invariants (legal moves parse back and apply, score = sum of deltas,
// clones are independent, replay from the record gives the same position)
// plus Closure's own: the 48 tiles are conserved across deck, discard
// pile, hands and table, hands never exceed four, and a finished game
// with two or more players left ended for one of the four reasons.
func TestRandomPlayouts(t *testing.T) {
	games := 16
	if testing.Short() {
		games = 8
	}
	ended := map[string]int{}
	resigned := map[int]int{} // by player count
	for i := 0; i < games; i++ {
		players := 2 + i%2
		setup := engine.Setup{Game: ID, Players: players, Seed: uint64(i)}
		if i%4 == 1 {
			setup.Options = map[string]string{"first": "2", "colors": "GR"[:1] + "B" + "R"[:players-2]}
		}
		resign := 0.0
		if i%4 == 3 || i%8 == 6 { // 3 players: 3, 7, 11, 15; 2 players: 6, 14
			resign = 0.015
		}
		st, rec := enginetest.Playout(t, setup, uint64(i), enginetest.PlayoutOptions{
			ResignChance: resign,
			Check: func(t testing.TB, s engine.State, o engine.Outcome) {
				checkConserved(t, s.(*State))
			},
		})
		for _, e := range rec {
			if e.Text == "resign" {
				resigned[players]++
			}
		}
		c := st.(*State)
		checkConserved(t, c)
		if c.Active() > 1 {
			if c.EndWhy == "" {
				t.Fatalf("seed %d: game over without a reason", i)
			}
			ended[c.EndWhy[:12]]++
		}
	}
	t.Logf("end reasons: %v; resignations by player count: %v", ended, resigned)
	if resigned[2] == 0 || resigned[3] == 0 {
		t.Fatalf("the playouts had no resignation with 2 or with 3 players: %v", resigned)
	}
}

func checkConserved(t testing.TB, st *State) {
	t.Helper()
	seen := map[int]int{}
	for _, x := range st.Deck {
		seen[x]++
	}
	for _, x := range st.Discards {
		seen[x]++
	}
	for _, h := range st.Hands {
		if len(h) > handSize {
			t.Fatalf("a hand holds %d tiles", len(h))
		}
		for _, x := range h {
			seen[x]++
		}
	}
	laid := 0
	for _, c := range st.Cells {
		if c.Tile != 0 {
			seen[int(c.Tile)]++
			laid++
		}
	}
	if laid != st.Laid {
		t.Fatalf("%d tiles on the table, Laid says %d", laid, st.Laid)
	}
	if len(seen) != NumTiles {
		t.Fatalf("%d distinct tiles in play, want %d", len(seen), NumTiles)
	}
	for x, n := range seen {
		if n != 1 || x < 1 || x > NumTiles {
			t.Fatalf("tile %d appears %d times", x, n)
		}
	}
}
