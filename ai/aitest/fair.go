// Package aitest holds the AI's fairness harness, for the tests of the ai
// package and of anything that seats an AI (the service, the bot).
package aitest

import (
	"context"
	"testing"

	"tessera/ai"
	"tessera/engine"
)

// HiddenTwin returns a position that differs from st only in what seat
// cannot see (the other hands, the order of the supply), drawn with r, or
// nil when the game has no engine.Determinizer (and so, by the engine's
// contract, no hidden information the AI may be kept from).
func HiddenTwin(st engine.State, seat engine.Seat, r *engine.Rand) engine.State {
	d, ok := st.(engine.Determinizer)
	if !ok {
		return nil
	}
	return d.Determinize(seat, r)
}

// CheckFair fails t unless the AI, with the same seed, chooses the same move
// for the seat to move in a and in b at every level. a and b must differ
// only in what that seat cannot see. The levels run without their time cap,
// so the choice is the deterministic one of the full iteration budget.
func CheckFair(t testing.TB, a, b engine.State, seed uint64, levels ...ai.Level) {
	t.Helper()
	seat := a.ToMove()
	if b.ToMove() != seat {
		t.Fatalf("the two positions have different seats to move (%d and %d): they differ in more than hidden information", seat+1, b.ToMove()+1)
	}
	for _, l := range levels {
		budget := l.Budget(0)
		budget.Think = 0
		ma, sa, erra := ai.Search(context.Background(), a, seat, budget, seed)
		mb, sb, errb := ai.Search(context.Background(), b, seat, budget, seed)
		if erra != nil || errb != nil {
			t.Fatalf("%s: %v / %v", l, erra, errb)
		}
		if ma.String() != mb.String() {
			t.Fatalf("%s: the AI plays %s in one position and %s in the other, which differs only in what seat %d cannot see (root %v / %v)", l, ma, mb, seat+1, head(sa.Root), head(sb.Root))
		}
	}
}

func head(r []ai.MoveStat) []ai.MoveStat {
	if len(r) > 5 {
		return r[:5]
	}
	return r
}
