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
	// policy, with iters, is the search's policy (mctsN+...); the zero
	// value is the search before issue #28.
	policy ai.Policy
}

// ParsePlayer reads a player: easy, normal or hard (the AI levels),
// mctsN (the search with N iterations and the policy before issue #28, e.g.
// mcts30000, the hard level before it), mctsN+POLICY (the same with a
// policy of ai.Policy, see parsePolicy), random (uniform over the legal
// moves) or greedy (ai.GreedyMove).
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
		rest, spec, _ := strings.Cut(rest, "+")
		if n, err := strconv.Atoi(rest); err == nil && n > 0 {
			if p, ok := parsePolicy(spec); ok {
				return Player{Name: s, kind: "ai", iters: n, policy: p}, nil
			}
		}
	}
	return Player{}, engine.Illegalf("there is no lab player %q (try easy, normal, hard, mctsN, mctsN+POLICY such as mcts3000+g1s8, random or greedy)", s)
}

// budget is the player's search budget with think as the time cap (0: none).
func (p Player) budget(think time.Duration) ai.Budget {
	b := p.level.Budget(0)
	if p.iters > 0 {
		b.Iterations = p.iters
	}
	b.Think = think
	if p.iters > 0 {
		b.Policy = p.policy
	}
	return b
}

// parsePolicy reads a policy's letters, each followed by its number:
// gF (Greedy, the share of informed playout moves), sN (Sample), pN
// (GreedyPlies), cN (Cut), a1 (Apply), eF (Explore), m1 (Measured), o1
// (Order), tF (Trim), qF (GreedyTrim), x1 (Omniscient, the lab's
// measure only), wN (Decisive), kF (JudgeScale), iF (Infer). "g1s8" is every
// playout move informed from 8 drawn; "" is the zero policy.
func parsePolicy(spec string) (ai.Policy, bool) {
	var p ai.Policy
	for spec != "" {
		letter := spec[0]
		end := 1
		for end < len(spec) && (spec[end] == '.' || spec[end] >= '0' && spec[end] <= '9') {
			end++
		}
		num := spec[1:end]
		spec = spec[end:]
		f, err := strconv.ParseFloat(num, 64)
		if err != nil || f < 0 {
			return ai.Policy{}, false
		}
		switch letter {
		case 'g':
			if f > 1 {
				return ai.Policy{}, false
			}
			p.Greedy = f
		case 's':
			p.Sample = int(f)
		case 'p':
			p.GreedyPlies = int(f)
		case 'c':
			p.Cut = int(f)
		case 'a':
			p.Apply = f != 0
		case 'e':
			p.Explore = f
		case 'm':
			p.Measured = f != 0
		case 'o':
			p.Order = f != 0
		case 'x':
			p.Omniscient = f != 0
		case 'w':
			p.Decisive = int(f)
		case 't':
			if f > 1 {
				return ai.Policy{}, false
			}
			p.Trim = f
		case 'k':
			p.JudgeScale = f
		case 'i':
			p.Infer = f
		case 'q':
			if f > 1 {
				return ai.Policy{}, false
			}
			p.GreedyTrim = f
		default:
			return ai.Policy{}, false
		}
	}
	return p, true
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
