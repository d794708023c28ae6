package lab

import (
	"context"
	"strconv"
	"strings"
	"time"

	"tessera/ai"
	"tessera/engine"
)

// Player is one contestant of a lab run: an AI level, a fixed MCTS budget,
// or a baseline.
type Player struct {
	Name  string // as given: "hard", "greedy", "mcts2000"
	kind  string // "ai", "random", "greedy"
	level ai.Level
	iters int // > 0: a fixed iteration budget instead of the level's
}

// ParsePlayer reads a player: easy, normal or hard (the AI levels),
// mctsN (the search with N iterations, e.g. mcts2000), random (uniform over
// the legal moves) or greedy (ai.GreedyMove).
func ParsePlayer(s string) (Player, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	switch s {
	case "random", "greedy":
		return Player{Name: s, kind: s}, nil
	}
	if l, err := ai.ParseLevel(s); err == nil {
		return Player{Name: s, kind: "ai", level: l}, nil
	}
	if rest, ok := strings.CutPrefix(s, "mcts"); ok {
		if n, err := strconv.Atoi(rest); err == nil && n > 0 {
			return Player{Name: s, kind: "ai", iters: n}, nil
		}
	}
	return Player{}, engine.Illegalf("there is no lab player %q (try easy, normal, hard, mctsN, random or greedy)", s)
}

// budget is the player's search budget with think as the time cap (0: none).
func (p Player) budget(think time.Duration) ai.Budget {
	b := p.level.Budget(0)
	if p.iters > 0 {
		b.Iterations = p.iters
	}
	b.Think = think
	return b
}

// choice is one move with what it cost.
type choice struct {
	move     engine.Move
	playouts int
	stopped  bool
	elapsed  time.Duration
}

// choose picks the move of the seat to move in st.
func (p Player) choose(ctx context.Context, st engine.State, seed uint64, think time.Duration) (choice, error) {
	r := engine.NewRand(seed)
	start := time.Now()
	switch p.kind {
	case "random":
		return choice{move: ai.RandomMove(st, &r), elapsed: time.Since(start)}, nil
	case "greedy":
		return choice{move: ai.GreedyMove(st, &r), elapsed: time.Since(start)}, nil
	}
	m, stats, err := ai.Search(ctx, st, st.ToMove(), p.budget(think), seed)
	return choice{move: m, playouts: stats.Playouts, stopped: stats.Stopped, elapsed: stats.Elapsed}, err
}
