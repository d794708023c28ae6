package ai

import (
	"testing"

	"tessera/engine"
	_ "tessera/engine/games"
)

// TestGreedyMoveTakesTheBestPoints: an informed playout move that looks
// at every legal move (Sample 0) is one with the best immediate score
// change for the mover, whether scored by Preview or by playing it on a
// copy (Apply), and with Sample k it is the best of the k it drew, so never
// worse than a uniform move on average and never an illegal one.
func TestGreedyMoveTakesTheBestPoints(t *testing.T) {
	for _, game := range []string{"elemental", "closure"} {
		for pos := 0; pos < 6; pos++ {
			st, err := engine.New(engine.Setup{Game: game, Players: 2, Seed: uint64(pos + 1)})
			if err != nil {
				t.Fatal(err)
			}
			r := engine.NewRand(uint64(pos))
			for k := 0; k < 3+4*pos && !st.Over(); k++ {
				st.(engine.FastPlayer).PlayRandom(&r)
			}
			if st.Over() {
				continue
			}
			st = st.(engine.Determinizer).Determinize(st.ToMove(), &r)
			mover := st.ToMove()
			best := -1 << 30
			legal := map[string]bool{}
			for _, m := range st.Legal() {
				legal[m.String()] = true
				tr := &tree{policy: Policy{Apply: true}}
				best = max(best, tr.gainByPlay(st, m, mover))
			}
			for _, p := range []Policy{{Greedy: 1}, {Greedy: 1, Apply: true}, {Greedy: 1, Sample: 3}} {
				tr := newTree(st, mover, 9, p)
				kl, pv := st.(engine.KeyLister), st.(engine.Previewer)
				m := tr.greedyMove(st, kl, pv)
				if m == nil || !legal[m.String()] {
					t.Fatalf("%s position %d, %+v: %v is not a legal move", game, pos, p, m)
				}
				g := tr.gainByPlay(st, m, mover)
				if p.Sample == 0 && g != best && !(game == "closure" && !p.Apply) {
					// Closure's Preview leaves out the final scoring a
					// move may trigger; the others must agree exactly.
					t.Fatalf("%s position %d, %+v: %s gains %d, the best gains %d", game, pos, p, m, g, best)
				}
			}
		}
	}
}

// TestInformedPlayoutOnlyWhereScored: the informed playouts need a game
// that lists its moves' keys and previews their points; the other games
// keep uniform playouts whatever the policy says.
func TestInformedPlayoutOnlyWhereScored(t *testing.T) {
	for _, c := range []struct {
		game string
		want bool
	}{
		{"elemental", true}, {"closure", true}, // KeyLister and Previewer
		{"knotwork", false}, {"glorieta", false}, {"tilingking", false},
	} {
		st, err := engine.New(engine.Setup{Game: c.game, Players: 2, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if got := informs(st); got != c.want {
			t.Errorf("%s: informs %v, want %v", c.game, got, c.want)
		}
	}
}
