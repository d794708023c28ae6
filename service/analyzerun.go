package service

// The analysis of a game's positions, one after the other: the part of
// /analyze that needs neither the store nor a transport, shared by the
// worker (analyzeworker.go) and `tessera analyze --record`.

import (
	"context"
	"fmt"
	"slices"

	"tessera"
	"tessera/ai"
	"tessera/engine"
)

// DefaultAnalysisIterations is a position's search budget when the
// configuration gives none (ai.AnalysisBudget: about 13 s of one core
// for a 64-move Elemental game, docs/benchmarks.md).
var DefaultAnalysisIterations = ai.AnalysisBudget.Iterations

// MaxAnalysisIterations bounds the setting: an analysis holds the queue
// for its whole length.
const MaxAnalysisIterations = 200000

// AnalyzePositions analyses the positions of a game played from setup
// with moves (the record's entries), from position len(done) on, and
// returns every position: before each entry, then the end. Each
// position is judged by ai.AnalyzeStep (the mover's search, the move
// played from the mover's information, and where the game hides
// something a spectator's and each seat's own view), with iterations of
// search, deterministically for seed, its chances mapped by the game's
// calibration map (ai.Calibrated). progress, when set,
// is called after each position with all of them so far; its error stops
// the analysis and is returned, as is ctx's.
func AnalyzePositions(ctx context.Context, setup engine.Setup, moves []tessera.MoveEntry, iterations int, seed uint64, done []tessera.AnalysedPosition, progress func([]tessera.AnalysedPosition) error) ([]tessera.AnalysedPosition, error) {
	if iterations <= 0 {
		iterations = DefaultAnalysisIterations
	}
	st, err := engine.New(setup)
	if err != nil {
		return nil, err
	}
	out := slices.Clone(done)
	if len(out) > len(moves)+1 {
		out = out[:len(moves)+1]
	}
	for i, m := range moves[:min(len(out), len(moves))] { // to the first position not analysed
		if err := applyEntry(st, m); err != nil {
			return nil, fmt.Errorf("move %d %q: %w", i+1, m.Text, err)
		}
	}
	budget := ai.AnalysisBudgetOf(iterations)
	for i := len(out); i <= len(moves); i++ {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		played := ""
		if i < len(moves) && moves[i].Seat == int(st.ToMove()) && moves[i].End() == "" {
			played = moves[i].Text
		}
		step, err := ai.AnalyzeStep(ctx, st, played, budget, aiSeed(seed, i, 0))
		if err != nil {
			return out, fmt.Errorf("position after %s: %w", plural(i, "move"), err)
		}
		ap := tessera.AnalysedPosition{Seat: int(step.Mover), Win: step.Win, Best: step.Best, BestWin: step.BestWin,
			PlayedWin: step.PlayedWin, Public: step.Public, Own: step.Own}
		if i < len(moves) {
			ap.Played = moves[i].Text
			if err := applyEntry(st, moves[i]); err != nil {
				return out, fmt.Errorf("move %d %q: %w", i+1, moves[i].Text, err)
			}
		} else {
			ap.Best, ap.BestWin = "", nil
		}
		out = append(out, ap)
		if progress != nil {
			if err := progress(out); err != nil {
				return out, err
			}
		}
	}
	return out, nil
}

// CostlyMove is a move that cost its player: its chance before the move
// and after it, and the move its search preferred with the chance that
// one kept.
type CostlyMove struct {
	N      int    // the move's number, 1-based
	Seat   int    // its player, 0-based
	Played string // as recorded
	Before float64
	After  float64
	Best   string
	Kept   float64
}

// Costliest are the k moves (fewer if fewer lost anything) whose player's
// chance fell most across them, the worst first (ties to the earlier
// move). A move's "after" is its player's own search's estimate of the
// move played when it tried it enough, else the next position's (the
// next mover's estimate). A move the search itself preferred, and an
// entry that is not a move of the seat to move (a resignation out of
// turn, a timeout), are not counted.
func Costliest(ps []tessera.AnalysedPosition, k int) []CostlyMove {
	var out []CostlyMove
	for i := 0; i+1 < len(ps); i++ {
		p := ps[i]
		s := p.Seat
		if s < 0 || s >= len(p.Win) || p.Played == "" || p.Played == p.Best || tessera.EndOf(p.Played) != "" {
			continue
		}
		after := ps[i+1].Win
		if p.PlayedWin != nil {
			after = p.PlayedWin
		}
		if s >= len(after) {
			continue
		}
		c := CostlyMove{N: i + 1, Seat: s, Played: p.Played, Before: p.Win[s], After: after[s], Best: p.Best}
		if s < len(p.BestWin) {
			c.Kept = p.BestWin[s]
		}
		if c.Before-c.After <= 0 {
			continue
		}
		out = append(out, c)
	}
	slices.SortStableFunc(out, func(a, b CostlyMove) int {
		da, db := a.Before-a.After, b.Before-b.After
		switch {
		case da > db:
			return -1
		case da < db:
			return 1
		}
		return a.N - b.N
	})
	return out[:min(k, len(out))]
}
