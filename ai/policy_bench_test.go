package ai_test

import (
	"context"
	"fmt"
	"testing"

	"tessera/ai"
	"tessera/engine"
)

// BenchmarkPolicy is BenchmarkSearch's search (1,000 iterations, one
// tree, a few moves in) with each playout policy of docs/ai.md's table,
// so an idea's cost in CPU is measured beside the search before it.
func BenchmarkPolicy(b *testing.B) {
	policies := []struct {
		name string
		p    ai.Policy
	}{
		{"uniform", ai.Policy{}},
		{"g1", ai.Policy{Greedy: 1}},
		{"g1s8", ai.Policy{Greedy: 1, Sample: 8}},
		{"g1p2", ai.Policy{Greedy: 1, GreedyPlies: 2}},
		{"c4", ai.Policy{Cut: 4}},
		{"g1s4a1p2", ai.Policy{Greedy: 1, Sample: 4, Apply: true, GreedyPlies: 2}},
		{"o1", ai.Policy{Order: true}},
		{"o1g1s8p4", ai.Policy{Order: true, Greedy: 1, Sample: 8, GreedyPlies: 4}},
	}
	for _, game := range []string{"elemental", "closure"} {
		st, _ := engine.New(engine.Setup{Game: game, Players: 2, Seed: 1})
		r := engine.NewRand(1)
		for k := 0; k < 4; k++ {
			legal := st.Legal()
			st.Apply(legal[r.IntN(len(legal))])
		}
		for _, p := range policies {
			if game == "closure" && p.p.Greedy > 0 && !p.p.Apply && !p.p.Order {
				continue // Closure's informed moves without its KeyPoints (before issue #28's Order): tens of ms an iteration
			}
			b.Run(game+"/"+p.name, func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					ai.Search(context.Background(), st, st.ToMove(), ai.Budget{Iterations: 1000, Workers: 1, Policy: p.p}, uint64(i))
				}
			})
		}
	}
}

// BenchmarkHardMove is one hard move in each game, from the start and
// from 10, 20, 30 and 40 random moves in (a move costs most mid-game in
// Closure, where the open cells are most), with the search before issue
// #28 (mcts30000) and with hard's budget and policy today. Run it with
// -cpu 1 for the think time on one core (docs/ai.md, "Playouts and think
// time"); cpu-s/op is the process's CPU time a move, which the machine's
// load hardly changes.
func BenchmarkHardMove(b *testing.B) {
	for _, game := range []string{"elemental", "closure", "glorieta", "knotwork", "tilingking"} {
		for _, in := range []int{0, 10, 20, 30, 40} {
			st, _ := engine.New(engine.Setup{Game: game, Players: 2, Seed: 1})
			r := engine.NewRand(1)
			for k := 0; k < in && !st.Over(); k++ {
				st.(engine.FastPlayer).PlayRandom(&r)
			}
			if st.Over() { // a short game ended before this position
				continue
			}
			for _, p := range []struct {
				name string
				p    ai.Policy
			}{{"mcts30000", ai.Policy{}}, {"hard", ai.HardPolicy}} {
				b.Run(fmt.Sprintf("%s/%d/%s", game, in, p.name), func(b *testing.B) {
					budget := ai.Hard.Budget(0)
					budget.Think, budget.Policy = 0, p.p
					start, ok := cpuTime()
					for i := 0; i < b.N; i++ {
						ai.Search(context.Background(), st, st.ToMove(), budget, 1)
					}
					if end, _ := cpuTime(); ok { // with -cpu 1: the move's cost on one core
						b.ReportMetric((end-start)/float64(b.N), "cpu-s/op")
					}
				})
			}
		}
	}
}
