package lab

import (
	"testing"

	"tessera/ai"
)

// TestParsePlayerPolicy: mctsN is the search before issue #28 (the zero
// policy, so mcts30000 is the hard level before it), mctsN+POLICY adds
// the ideas measured in docs/ai.md, and a policy the lab cannot read is
// refused rather than silently played as the baseline.
func TestParsePlayerPolicy(t *testing.T) {
	for _, c := range []struct {
		in   string
		want ai.Policy
		ok   bool
	}{
		{"mcts30000", ai.Policy{}, true},
		{"mcts3000+", ai.Policy{}, true},
		{"mcts3000+g1", ai.Policy{Greedy: 1}, true},
		{"mcts3000+g0.5s8p2", ai.Policy{Greedy: 0.5, Sample: 8, GreedyPlies: 2}, true},
		{"MCTS3000+g1s4c3a1", ai.Policy{Greedy: 1, Sample: 4, Cut: 3, Apply: true}, true},
		// Hard's policy written out: it plays as the level does.
		{"mcts30000+o1g1s8p4m1t0.35q0.5e0.3w4i3", ai.HardPolicy, true},
		{"mcts3000+o1k8", ai.Policy{Order: true, JudgeScale: 8}, true},    // a judged margin of 8 points is three quarters won
		{"mcts3000+g2", ai.Policy{}, false},                               // a share above 1
		{"mcts3000+t1.5", ai.Policy{}, false},                             // a trim above 1
		{"mcts3000+q1.5", ai.Policy{}, false},                             // the same for informed games
		{"mcts3000+z1", ai.Policy{}, false},                               // no such idea
		{"mcts3000+o1x1", ai.Policy{Order: true, Omniscient: true}, true}, // the lab's measure only
		{"mcts3000+w4", ai.Policy{Decisive: 4}, true},                     // four decisive playout moves
		{"mcts3000+o1i3", ai.Policy{Order: true, Infer: 3}, true},         // hidden tiles weighed by the play, sharpness 3
		{"mcts3000+g", ai.Policy{}, false},                                // a letter without its number
		{"mcts3000+g-1", ai.Policy{}, false},                              // negative
		{"mcts+g1", ai.Policy{}, false},                                   // no budget
		{"mcts3000g1", ai.Policy{}, false},                                // no plus
		{"mcts3000+g1+s2", ai.Policy{}, false},                            // one plus only
	} {
		p, err := ParsePlayer(c.in)
		if (err == nil) != c.ok {
			t.Errorf("%q: error %v, want ok %v", c.in, err, c.ok)
			continue
		}
		if c.ok && p.budget(0).Policy != c.want {
			t.Errorf("%q: policy %+v, want %+v", c.in, p.budget(0).Policy, c.want)
		}
	}
	// The levels keep their own policy (ai.Level.Budget).
	hard, _ := ParsePlayer("hard")
	if hard.budget(0).Policy != ai.Hard.Budget(0).Policy {
		t.Errorf("hard plays %+v, the level %+v", hard.budget(0).Policy, ai.Hard.Budget(0).Policy)
	}
}
