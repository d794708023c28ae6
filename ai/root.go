package ai

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"

	"tessera/engine"
)

// searchRoot runs b.Workers independent trees (root parallelism), each
// with its own seed and its share of the iterations, and sums their root
// statistics. Summing is in worker order and the choice breaks ties by
// notation, so the move depends only on the seed and the budget, not on
// how the goroutines were scheduled.
func searchRoot(ctx context.Context, st engine.State, seat engine.Seat, legal []engine.Move, gains map[moveKey]float64, b Budget, seed uint64) (engine.Move, Stats, error) {
	trees := make([]*tree, b.Workers)
	share := make([]int, b.Workers)
	done := make([]int, b.Workers)
	stopped := make([]bool, b.Workers)
	fail := make([]error, b.Workers)
	b.Iterations = b.Policy.iterations(st, b.Iterations)
	for w := range trees {
		share[w] = b.Iterations / b.Workers
		if w < b.Iterations%b.Workers {
			share[w]++
		}
		trees[w] = newTree(st, seat, mix(seed, uint64(w)+1), b.Policy)
		trees[w].rootGain = gains
	}
	// The trees run in rounds of settleRound iterations each, in step, and
	// between rounds the search ends early when the most visited move can
	// no longer be overtaken by the iterations left: the move is then the
	// one the whole budget would choose, found sooner. The rounds' ends
	// depend only on the trees, so this keeps the choice deterministic.
	for {
		var wg sync.WaitGroup
		for w, t := range trees {
			if done[w] >= share[w] || stopped[w] {
				continue
			}
			end := min(share[w], done[w]+settleRound)
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() {
					if p := recover(); p != nil { // an engine bug must not take the bot down
						fail[w] = fmt.Errorf("ai: the engine panicked during the search: %v", p)
						stopped[w] = true
					}
				}()
				for done[w] < end {
					if done[w] > 0 && ctx.Err() != nil { // one iteration at least, so the move is never blind
						stopped[w] = true
						return
					}
					t.iterate()
					done[w]++
				}
			}()
		}
		wg.Wait()
		left := 0
		for w := range trees {
			if !stopped[w] {
				left += share[w] - done[w]
			}
		}
		if left == 0 || settleEarly && settled(trees, left) {
			break
		}
	}
	for _, err := range fail {
		if err != nil {
			return nil, Stats{}, err
		}
	}

	type sum struct {
		visits int
		reward float64
		lets   bool // the next mover wins at once (a decided child)
	}
	sums := map[moveKey]*sum{}
	var stats Stats
	for w, t := range trees {
		stats.Playouts += done[w]
		stats.Nodes += t.nodes
		stats.Stopped = stats.Stopped || stopped[w]
		for _, c := range t.root.children {
			s := sums[c.key]
			if s == nil {
				s = &sum{}
				sums[c.key] = s
			}
			s.visits += c.visits
			s.reward += c.reward[seat]
			s.lets = s.lets || c.decided != nil
		}
	}
	for _, m := range legal {
		if s := sums[keyOf(m)]; s != nil && s.visits > 0 {
			stats.Root = append(stats.Root, MoveStat{Move: m.String(), Visits: s.visits, Mean: s.reward / float64(s.visits), LetsWin: s.lets})
		}
	}
	// The most visited move (the robust child) of those that do not let
	// the next mover win at once (a sure loss, where a move the playouts
	// merely expect to lose may still be answered wrongly); ties to the
	// better mean, then to the first in notation order.
	slices.SortStableFunc(stats.Root, func(a, b MoveStat) int {
		switch {
		case a.LetsWin != b.LetsWin:
			if b.LetsWin {
				return -1
			}
			return 1
		case a.Visits != b.Visits:
			return b.Visits - a.Visits
		case a.Mean > b.Mean:
			return -1
		case a.Mean < b.Mean:
			return 1
		}
		if a.Move < b.Move {
			return -1
		} else if a.Move > b.Move {
			return 1
		}
		return 0
	})
	if len(stats.Root) == 0 { // no iteration got through (refused moves): any legal move, by seed
		r := engine.NewRand(seed)
		return legal[r.IntN(len(legal))], stats, nil
	}
	for _, m := range legal {
		if m.String() == stats.Root[0].Move {
			return m, stats, nil
		}
	}
	return legal[0], stats, nil // not reached: the root's moves are the seat's own
}

// settleRound is how many iterations each tree runs between two looks at
// whether the choice is settled: often enough to stop soon after, seldom
// enough that the looks cost nothing beside the iterations.
const settleRound = 512

// settleEarly lets a settled search end early (tests turn it off to see
// that the whole budget chooses the same).
var settleEarly = true

// settled reports whether the root move with the most visits, summed over
// the trees, has more than any other can reach in left more iterations
// (each adds one visit to one root move at most): the whole budget would
// then choose it too. Moves that let the next mover win at once are left
// out, as the choice leaves them out; while every move tried is such a
// move, a later one may not be, and the search goes on.
func settled(trees []*tree, left int) bool {
	visits := map[moveKey]int{}
	for _, t := range trees {
		for _, c := range t.root.children {
			if c.decided == nil {
				visits[c.key] += c.visits
			}
		}
	}
	if len(visits) == 0 {
		return false
	}
	first, second := 0, 0
	for _, v := range visits {
		switch {
		case v > first:
			first, second = v, first
		case v > second:
			second = v
		}
	}
	return first > second+left
}

// scanRoot applies each of seat's moves once and returns a move that wins
// at once (ends the game with seat the sole winner; the best-rewarded one if
// there are several), since no search can do better than a sure win, and
// otherwise each move's immediate score change for seat, by notation, which
// orders the root's expansion. In a game with hidden information it works
// on a few determinizations (a win must win in each; the gain is their
// mean), so nothing depends on what seat cannot see. It gives up (no win,
// no gains) when ctx ends.
func scanRoot(ctx context.Context, st engine.State, seat engine.Seat, legal []engine.Move, p Policy, seed uint64) (engine.Move, map[moveKey]float64) {
	r := engine.NewRand(mix(seed, 0))
	tries := 1
	d := dealer(st, seat, p)
	hidden := d != nil
	if hidden {
		tries = 4
	}
	worlds := make([]engine.State, tries)
	before := make([]int, tries)
	for i := range worlds {
		if hidden {
			worlds[i] = d.Determinize(seat, &r)
		} else {
			worlds[i] = st.Clone() // the real position's scores are not read, only a copy's
		}
		if sc := worlds[i].Scores(); int(seat) < len(sc) {
			before[i] = sc[seat]
		}
	}
	gains := make(map[moveKey]float64, len(legal))
	var found engine.Move
	bestReward := -1.0
	for i, m := range legal {
		if i%32 == 31 && ctx.Err() != nil {
			return nil, nil
		}
		worst, gain := 2.0, 0.0
		for k, w := range worlds {
			c := w.Clone()
			if err := playMove(c, m); err != nil {
				worst, gain = -1, math.Inf(-1)
				break
			}
			if sc := c.Scores(); int(seat) < len(sc) {
				gain += float64(sc[seat]-before[k]) / float64(tries)
			}
			if ws := c.Winners(); !c.Over() || len(ws) != 1 || ws[0] != seat {
				worst = -1
				continue
			}
			worst = min(worst, Rewards(c)[seat])
		}
		gains[keyOf(m)] = gain
		if worst > bestReward {
			found, bestReward = m, worst
		}
	}
	return found, gains
}

// mix derives independent seeds from one (splitmix64's finaliser).
func mix(seed, k uint64) uint64 {
	z := seed + 0x9e3779b97f4a7c15*(k+1)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
