package ai_test

import (
	"context"
	"fmt"
	"testing"

	"tessera/ai"
	"tessera/ai/aitest"
	"tessera/engine"
)

// TestFairness: for each game with hidden information, positions that
// differ only in what the AI's seat cannot see (the other hands, the order
// of the supply) give the same move with the same AI seed, at every level.
// The twin position is drawn by the game's Determinizer, whose contract is
// that it changes only the hidden parts; the engines' own tests check that
// (and that each unseen tile lands in each hidden place as often as it
// should).
func TestFairness(t *testing.T) {
	for _, setup := range []engine.Setup{
		{Game: "elemental", Players: 2, Seed: 3},
		{Game: "elemental", Players: 4, Seed: 3},
		{Game: "closure", Players: 2, Seed: 3},
		{Game: "closure", Players: 3, Seed: 3},
	} {
		t.Run(name(setup), func(t *testing.T) {
			st, err := engine.New(setup)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := st.(engine.Determinizer); !ok {
				t.Skipf("%s's state is not an engine.Determinizer yet: the AI falls back to Clone and sees hidden tiles; this test runs once the engine implements Determinize", setup.Game)
			}
			// Hard is normal's search with ten times the iterations: its
			// 30,000 run once per game, on the setup with the most hidden
			// hands, and easy and normal everywhere.
			levels := ai.Levels
			if testing.Short() || setup.Players == 2 {
				levels = []ai.Level{ai.Easy, ai.Normal}
			}
			for i, k := range []int{0, 9, 30} {
				a := randomPosition(t, setup, k, uint64(i))
				if a.Over() {
					continue
				}
				r := engine.NewRand(uint64(100 + i))
				b := aitest.HiddenTwin(a, a.ToMove(), &r)
				if i > 0 {
					levels = []ai.Level{ai.Easy, ai.Normal}
				}
				aitest.CheckFair(t, a, b, 42, levels...)
			}
		})
	}
}

// TestFairnessHarness runs the harness on a small game that has a
// Determinizer today: the other hands and the supply dealt differently
// give the same move at every level, and the search never calls anything
// on the real position that shows hidden cards (not even Clone).
func TestFairnessHarness(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		a := newCards(2, seed)
		r := engine.NewRand(seed)
		for k := 0; k < int(seed)%4; k++ { // a few moves in
			a.Apply(a.Legal()[r.IntN(len(a.Legal()))])
		}
		b := aitest.HiddenTwin(a, a.ToMove(), &r).(*cards)
		if fmt.Sprint(a.Hands[a.Turn]) != fmt.Sprint(b.Hands[b.Turn]) {
			t.Fatal("the twin changed the seat's own hand")
		}
		var peeked []string
		levels := []ai.Level{ai.Easy, ai.Normal}
		if seed == 1 && !testing.Short() {
			levels = ai.Levels
		}
		aitest.CheckFair(t, spy{a, &peeked}, spy{b, &peeked}, seed, levels...)
		if len(peeked) > 0 {
			t.Fatalf("the search called %v on the real position", peeked)
		}
	}
}

// TestFairnessHarnessCatchesACheat: the harness is not vacuous. A search
// that plays on a plain Clone of the real position (as the AI does for a
// game without a Determinizer) sees the hidden cards, and for some pair of
// twins it chooses differently.
func TestFairnessHarnessCatchesACheat(t *testing.T) {
	differ := 0
	for seed := uint64(1); seed <= 20; seed++ {
		a := newCards(2, seed)
		r := engine.NewRand(seed)
		b := aitest.HiddenTwin(a, a.ToMove(), &r)
		budget := ai.Budget{Iterations: 400, Workers: 2}
		ma, _, _ := ai.Search(context.Background(), cheat{a}, a.ToMove(), budget, 1)
		mb, _, _ := ai.Search(context.Background(), cheat{b.(*cards)}, a.ToMove(), budget, 1)
		if ma.String() != mb.String() {
			differ++
		}
	}
	if differ == 0 {
		t.Fatal("a search that sees the hidden cards chose the same move in every pair of twins: the harness could not catch it")
	}
}

// cheat hides the Determinizer, so the search clones the real position.
type cheat struct{ *cards }

func (c cheat) Determinize() {}
