package ai

import (
	"testing"

	"tessera/engine"
	"tessera/engine/enginetest"
	_ "tessera/engine/games"
)

// TestPlayoutLimit: playouts of a game with banked points stop after two
// moves per player; the other games play to the end.
func TestPlayoutLimit(t *testing.T) {
	for _, c := range []struct {
		game    string
		players int
		want    int
	}{
		{"elemental", 2, 4}, {"elemental", 4, 8},
		{"closure", 2, maxPlayout}, {"glorieta", 2, maxPlayout}, {"knotwork", 2, maxPlayout}, {"tilingking", 3, maxPlayout},
	} {
		st, err := engine.New(engine.Setup{Game: c.game, Players: c.players, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if got := playoutLimit(st); got != c.want {
			t.Fatalf("%s, %d players: %d moves, want %d", c.game, c.players, got, c.want)
		}
		// And a playout stops there (or at the end).
		played := st.Clone()
		r := engine.NewRand(1)
		n := 0
		for !played.Over() && n < c.want {
			played.(engine.FastPlayer).PlayRandom(&r)
			n++
		}
		limited := st.Clone()
		r = engine.NewRand(1)
		playout(limited, &r, playoutLimit(st))
		if enginetest.Fingerprint(limited) != enginetest.Fingerprint(played) {
			t.Fatalf("%s: the playout did not stop after %d moves", c.game, c.want)
		}
	}
}
