package ai_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"tessera/ai"
	"tessera/engine"
)

// withoutKeys is a position that hides its engine.KeyLister (and so do its
// determinizations), keeping everything else a search uses.
type withoutKeys struct{ engine.State }

func (w withoutKeys) Determinize(v engine.Seat, r *engine.Rand) engine.State {
	return withoutKeys{w.State.(engine.Determinizer).Determinize(v, r)}
}
func (w withoutKeys) PlayRandom(r *engine.Rand) { w.State.(engine.FastPlayer).PlayRandom(r) }
func (w withoutKeys) Play(m engine.Move) error  { return w.State.(engine.FastPlayer).Play(m) }
func (w withoutKeys) Clone() engine.State       { return withoutKeys{w.State.Clone()} }
func (w withoutKeys) EndReason() string         { return w.State.(engine.Ender).EndReason() }

// TestKeyListerSearchesAlike: a search through engine.KeyLister is the
// same search as one through Legal (the keys only spare building moves):
// the same move and the same visits and means at the root, for the games
// that list keys, at several stages of their games.
func TestKeyListerSearchesAlike(t *testing.T) {
	for _, setup := range []engine.Setup{
		{Game: "elemental", Players: 2, Seed: 5},
		{Game: "elemental", Players: 4, Seed: 5},
		{Game: "closure", Players: 2, Seed: 5},
		{Game: "closure", Players: 3, Seed: 5},
	} {
		t.Run(name(setup), func(t *testing.T) {
			st, err := engine.New(setup)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := st.(engine.KeyLister); !ok {
				t.Fatalf("%s does not list keys", setup.Game)
			}
			r := engine.NewRand(9)
			for ply := 0; !st.Over() && ply < 40; ply++ {
				if ply%9 == 0 {
					b := ai.Budget{Iterations: 1500, Workers: 2}
					keyed, ks, err1 := ai.Search(context.Background(), st, st.ToMove(), b, uint64(ply))
					listed, ls, err2 := ai.Search(context.Background(), withoutKeys{st}, st.ToMove(), b, uint64(ply))
					if err1 != nil || err2 != nil {
						t.Fatal(err1, err2)
					}
					if keyed.String() != listed.String() || !slices.Equal(ks.Root, ls.Root) || ks.Nodes != ls.Nodes {
						t.Fatalf("ply %d: keyed %s (%d nodes, root %s), listed %s (%d nodes, root %s)", ply,
							keyed, ks.Nodes, top(ks.Root), listed, ls.Nodes, top(ls.Root))
					}
				}
				legal := st.Legal()
				if _, err := st.Apply(legal[r.IntN(len(legal))]); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

func top(root []ai.MoveStat) string {
	return fmt.Sprint(root[:min(3, len(root))])
}
