package ai

// Analysis: each seat's chance of winning a position, as the seat to move
// can estimate it from what it sees, and the move it would prefer. It is
// the search of Search, run for its values instead of its choice: the
// same trees (one per worker, each on its own determinizations of the
// mover's information set), whose root children keep the summed reward
// vector of every seat (max^n), so one search gives every seat's chance.

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"tessera/engine"
)

// AnalysisBudget is the default budget of one position's analysis:
// 10,000 iterations on one tree, no time cap (deterministic for a seed),
// with AnalysisPolicy. A 64-move Elemental game takes about 13 s of one
// core with it (docs/benchmarks.md).
var AnalysisBudget = Budget{Iterations: 10000, Workers: 1, Policy: AnalysisPolicy}

// AnalysisPolicy is the analysis's playout policy: the search before
// issue #28, except that in a game where nothing is hidden and a win at
// once can be found (Glorieta) the first four moves of each playout take
// that win (Policy.Decisive, as hard's do). Uniform playouts miss the loop
// a player is about to close, so Glorieta's chances did not rise with the
// share of games won; with decisive playouts they do (docs/ai.md,
// "Calibration"), at about 2.6 times the CPU there.
var AnalysisPolicy = Policy{Decisive: 4, Measured: true}

// AnalysisBudgetOf is AnalysisBudget with n iterations a position (the
// setting ai.analysis_iterations); n < 1 keeps the default.
func AnalysisBudgetOf(n int) Budget {
	b := AnalysisBudget
	if n >= 1 {
		b.Iterations = n
	}
	return b
}

// Position is one position's analysis, from the information of the seat
// to move.
type Position struct {
	Seat engine.Seat // the seat to move (-1 when the game is over)
	// Win is each seat's chance of winning, as Seat estimates it: the
	// search's mean result over all its iterations (a shared win counts
	// 1/k). The chances sum to 1.
	Win []float64
	// Best is the move the search prefers (the most visited root move,
	// as Search chooses), and BestWin the chances after it.
	Best    string
	BestWin []float64
	// Moves are the root moves the search tried, most visited first, with
	// the chances after each.
	Moves    []MoveChance
	Playouts int
	Shortcut string // "over", "wins at once": no search was needed
}

// MoveChance is one root move's visits and the chances after it.
type MoveChance struct {
	Move   string
	Visits int
	Win    []float64
}

// minVisits is how often the search must have tried a move for its
// chances to stand for the move (Position.After); a move tried less was
// judged by a few playouts only.
const minVisits = 30

// After is the chances after move (canonical notation), when the search
// tried it at least minVisits times.
func (p Position) After(move string) ([]float64, bool) {
	for _, m := range p.Moves {
		if m.Move == move {
			return m.Win, m.Visits >= minVisits
		}
	}
	return nil, false
}

// Analyze estimates every seat's chance of winning st and the move the
// seat to move would prefer, from that seat's information only (the same
// calls on st as Search makes). The result is deterministic for a seed
// and a budget without a time cap. A finished game gives its result: 1
// for a sole winner, 1/k for k winners sharing. It returns ctx's error
// when ctx ends first, and an error when the engine panicked.
func Analyze(ctx context.Context, st engine.State, b Budget, seed uint64) (p Position, err error) {
	defer func() {
		if r := recover(); r != nil { // an engine bug must not take the bot down
			p, err = Position{}, fmt.Errorf("ai: the engine panicked during the analysis: %v", r)
		}
	}()
	n := st.Players()
	if st.Over() {
		return Position{Seat: -1, Win: resultChances(st), Shortcut: "over"}, nil
	}
	seat := st.ToMove()
	legal := st.Legal()
	if len(legal) == 0 {
		return Position{}, fmt.Errorf("ai: no legal move for seat %d", seat+1)
	}
	if b.Workers < 1 {
		b.Workers = 1
	}
	if b.Iterations < 1 {
		b.Iterations = 1
	}
	if b.Think > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, b.Think)
		defer cancel()
	}
	win, gains := scanRoot(ctx, st, seat, legal, b.Policy.scoped(st), seed)
	if err := ctx.Err(); err != nil && b.Think == 0 {
		return Position{}, err
	}
	if win != nil {
		w := make([]float64, n)
		w[seat] = 1
		return Position{Seat: seat, Win: w, Best: win.String(), BestWin: w,
			Moves: []MoveChance{{Move: win.String(), Visits: 1, Win: w}}, Shortcut: "wins at once"}, nil
	}
	return searchChances(ctx, st, seat, nil, gains, b, seed)
}

// searchChances runs b's trees on st, each iteration on a world dealt for
// viewer (by deal when it is set, else by the game's dealer for viewer),
// and sums the root's children into the chances of every seat: the
// search of Analyze and AnalyzeView. The seat to move is st's. A panic of
// the engine inside a tree is raised again here, for the caller's
// recover.
func searchChances(ctx context.Context, st engine.State, viewer engine.Seat, deal engine.Determinizer, gains map[moveKey]float64, b Budget, seed uint64) (p Position, err error) {
	n := st.Players()
	seat := st.ToMove()
	trees := make([]*tree, b.Workers)
	var wg sync.WaitGroup
	fail := make([]any, b.Workers)
	for w := range trees {
		share := b.Iterations / b.Workers
		if w < b.Iterations%b.Workers {
			share++
		}
		trees[w] = newTree(st, viewer, mix(seed, uint64(w)+1), b.Policy)
		if deal != nil {
			trees[w].deal = deal
		}
		trees[w].rootGain = gains
		wg.Add(1)
		go func(t *tree, share int) {
			defer wg.Done()
			defer func() { fail[w] = recover() }()
			for i := 0; i < share; i++ {
				if i > 0 && ctx.Err() != nil {
					return
				}
				t.iterate()
			}
		}(trees[w], share)
	}
	wg.Wait()
	for _, f := range fail {
		if f != nil {
			panic(f) // recovered above, as an error
		}
	}
	if err := ctx.Err(); err != nil && b.Think == 0 {
		return Position{}, err
	}
	type sum struct {
		move   string
		visits int
		reward []float64
	}
	var order []moveKey
	sums := map[moveKey]*sum{}
	total := make([]float64, n)
	visits := 0
	for _, t := range trees {
		for _, c := range t.root.children {
			s := sums[c.key]
			if s == nil {
				s = &sum{move: c.move.String(), reward: make([]float64, n)}
				sums[c.key] = s
				order = append(order, c.key)
			}
			s.visits += c.visits
			visits += c.visits
			for k, r := range c.reward {
				s.reward[k] += r
				total[k] += r
			}
		}
	}
	p = Position{Seat: seat, Win: chances(total, visits, n)}
	mean := map[string]float64{} // the mover's mean reward by move, which breaks Search's ties
	for _, k := range order {
		s := sums[k]
		if s.visits == 0 {
			continue
		}
		p.Playouts += s.visits
		p.Moves = append(p.Moves, MoveChance{Move: s.move, Visits: s.visits, Win: chances(s.reward, s.visits, n)})
		mean[s.move] = s.reward[seat] / float64(s.visits)
	}
	// Most visited first, as Search chooses; ties to the mover's better
	// mean reward, then to notation order, so the order is repeatable.
	slices.SortStableFunc(p.Moves, func(a, b MoveChance) int {
		switch {
		case a.Visits != b.Visits:
			return b.Visits - a.Visits
		case mean[a.Move] > mean[b.Move]:
			return -1
		case mean[a.Move] < mean[b.Move]:
			return 1
		}
		if a.Move < b.Move {
			return -1
		} else if a.Move > b.Move {
			return 1
		}
		return 0
	})
	if len(p.Moves) > 0 {
		p.Best, p.BestWin = p.Moves[0].Move, p.Moves[0].Win
	}
	return p, nil
}

// chances turns summed reward vectors into chances of winning. A reward
// is 0.9 for a sole win (shared among k winners) plus up to 0.1 for the
// margin (reward.go), so the result's share of a mean reward r is about
// (r − 0.05)/0.9; the shares are then scaled to sum to 1, as the results
// of one game do. This is the search's raw estimate; docs/ai.md measures
// how honest it is.
func chances(reward []float64, visits, n int) []float64 {
	out := make([]float64, n)
	if visits == 0 {
		for s := range out {
			out[s] = 1 / float64(n)
		}
		return out
	}
	total := 0.0
	for s := range out {
		v := (reward[s]/float64(visits) - marginWeight/2) / winWeight
		out[s] = min(1, max(0, v))
		total += out[s]
	}
	for s := range out {
		if total > 0 {
			out[s] /= total
		} else {
			out[s] = 1 / float64(n)
		}
	}
	return out
}

// resultChances is a finished game's result as chances: 1 for a sole
// winner, 1/k each for k winners sharing, 0 for the others (1/n each when
// the game names no winner).
func resultChances(st engine.State) []float64 {
	n := st.Players()
	out := make([]float64, n)
	var w []engine.Seat
	for _, s := range st.Winners() {
		if int(s) >= 0 && int(s) < n {
			w = append(w, s)
		}
	}
	if len(w) == 0 {
		for s := range out {
			out[s] = 1 / float64(n)
		}
		return out
	}
	for _, s := range w {
		out[s] += 1 / float64(len(w))
	}
	return out
}
