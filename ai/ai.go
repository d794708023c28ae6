// Package ai is Tessera's computer opponent: information-set Monte Carlo
// tree search over the engine.State interface, so every registered game
// gets an AI without AI code of its own.
//
// The search never looks at what its seat cannot see. On the real position
// it calls only Players, ToMove, Over, Legal, Parse, Clone and, when the
// game implements engine.Determinizer, Determinize; every iteration works
// on a determinization (a copy whose hidden parts are drawn again), so two
// positions that differ only in hidden information give the same move for
// the same seed. It uses engine.FastPlayer for playouts when the game has
// it and falls back to Legal and Apply otherwise. See docs/ai.md.
package ai

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"tessera/engine"
)

// Level is a strength, by search budget.
type Level int

const (
	Easy Level = iota
	Normal
	Hard
)

// Levels lists the levels from weakest to strongest.
var Levels = []Level{Easy, Normal, Hard}

func (l Level) String() string {
	switch l {
	case Easy:
		return "easy"
	case Normal:
		return "normal"
	case Hard:
		return "hard"
	}
	return fmt.Sprintf("level(%d)", int(l))
}

// ParseLevel reads "easy", "normal" or "hard" (any case).
func ParseLevel(s string) (Level, error) {
	for _, l := range Levels {
		if strings.EqualFold(strings.TrimSpace(s), l.String()) {
			return l, nil
		}
	}
	return 0, engine.Illegalf("there is no AI level %q (try easy, normal or hard)", s)
}

// DefaultThink is the default time cap of a hard search (the setting
// ai.think).
const DefaultThink = 5 * time.Second

// Budget is how much one choice may search.
type Budget struct {
	// Iterations is the total number of iterations (each one playout),
	// summed over the workers. Reaching it makes the choice deterministic.
	Iterations int
	// Think caps the wall-clock time; 0 means no cap. A search stopped by
	// the cap (or by its context) returns its best move so far, which then
	// depends on the machine's speed.
	Think time.Duration
	// Workers is the number of independent trees (root parallelism), each
	// on its own goroutine with its own seed. It is part of the budget, not
	// of the machine: the same Workers give the same move on one core or
	// on eight.
	Workers int
	// Policy is how the trees play out and choose (the zero value: the
	// search before issue #28, uniform random playouts).
	Policy Policy
}

// Budget returns the level's budget, with think as the hard level's time
// cap (DefaultThink when think is 0). Easy and normal are capped at a
// fraction of it, so a slow engine never makes them slower than hard.
func (l Level) Budget(think time.Duration) Budget {
	if think <= 0 {
		think = DefaultThink
	}
	switch l {
	case Easy:
		return Budget{Iterations: 300, Think: think / 5, Workers: 2}
	case Normal:
		return Budget{Iterations: 3000, Think: think / 2, Workers: 2}
	default:
		return Budget{Iterations: 30000, Think: think, Workers: 2, Policy: HardPolicy}
	}
}

// Stats describes one search.
type Stats struct {
	Playouts int           // iterations run, summed over the workers
	Elapsed  time.Duration // wall-clock time of the search
	Stopped  bool          // the time cap or the context ended it before its iterations
	Nodes    int           // tree nodes, summed over the workers
	Root     []MoveStat    // the root's moves, most visited first
	Shortcut string        // why no search ran ("only move", "wins at once"), if so
}

// MoveStat is one root move's summed statistics.
type MoveStat struct {
	Move   string
	Visits int
	Mean   float64 // mean reward of the mover
	// LetsWin: the next mover can win at once after the move (seen only
	// in an engine.Finisher game without hidden information). Such a move
	// is played only when every move the search tried does the same.
	LetsWin bool
}

// ErrNotToMove is returned when the seat asked to choose is not to move.
var ErrNotToMove = errors.New("ai: the seat is not to move")

// ErrOver is returned for a finished game.
var ErrOver = errors.New("ai: the game is over")

// Choose picks the move of seat in st at a level, deterministically for a
// fixed seed when the level's iterations finish before its time cap
// (DefaultThink for hard). st is not changed.
func Choose(ctx context.Context, st engine.State, seat engine.Seat, level Level, seed uint64) (engine.Move, Stats, error) {
	return Search(ctx, st, seat, level.Budget(0), seed)
}

// Search picks the move of seat in st within a budget. It returns an error
// only when the game is over, seat is not to move, or the engine panicked
// (recovered); otherwise the move is one of Legal's. When ctx ends (or the
// budget's time cap passes) it returns its best move so far with
// Stats.Stopped set, after at least one iteration per tree: a caller that
// is shutting down should check ctx.Err() before playing it.
func Search(ctx context.Context, st engine.State, seat engine.Seat, b Budget, seed uint64) (move engine.Move, stats Stats, err error) {
	defer func() {
		if p := recover(); p != nil { // an engine bug must not take the bot down
			move, stats, err = nil, Stats{}, fmt.Errorf("ai: the engine panicked: %v", p)
		}
	}()
	start := time.Now()
	if st.Over() {
		return nil, Stats{}, ErrOver
	}
	if st.ToMove() != seat {
		return nil, Stats{}, ErrNotToMove
	}
	if b.Workers < 1 {
		b.Workers = 1
	}
	if b.Iterations < 1 {
		b.Iterations = 1
	}
	if b.Think > 0 { // the cap covers everything below, the shortcuts too
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, b.Think)
		defer cancel()
	}
	legal := st.Legal()
	switch len(legal) {
	case 0: // a correct engine passes by itself; nothing to choose
		return nil, Stats{}, fmt.Errorf("ai: no legal move for seat %d", seat+1)
	case 1:
		return legal[0], Stats{Elapsed: time.Since(start), Shortcut: "only move"}, nil
	}
	win, gains := scanRoot(ctx, st, seat, legal, b.Policy.scoped(st), seed)
	if win != nil {
		return win, Stats{Elapsed: time.Since(start), Shortcut: "wins at once"}, nil
	}
	move, stats, err = searchRoot(ctx, st, seat, legal, gains, b, seed)
	stats.Elapsed = time.Since(start)
	return move, stats, err
}
