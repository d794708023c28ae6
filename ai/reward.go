package ai

import (
	"math"

	"tessera/engine"
)

// winWeight and marginWeight split a seat's reward between the result and
// the score margin. The margin term lies in [0, 1], so the reward does too,
// and a win (at least 0.9 from the result) always outweighs a loss (at
// most 0.1 from the margin): the margin only orders positions with the
// same result, so a lost position still fights for points and a won one
// does not throw them away.
const (
	winWeight    = 0.9
	marginWeight = 0.1
)

// Rewards is the reward vector of a position, one entry per seat, each in
// [0, 1]: winWeight for a sole win, split equally among the winners of a
// shared win, nothing for a loss, plus marginWeight·(1+tanh(m/scale))/2
// where m is the seat's score minus the best other score and scale is
// 1 + a quarter of the largest absolute score (so the term saturates at
// margins comparable to the game's scores, whatever the game counts). A
// position that is not over (a playout cut short) counts as a win shared
// by every seat, except in a game whose points are banked
// (engine.Game's Banked), where its result is judged from the margin so far:
// winWeight·(1+tanh(m/bankedScale))/2.
func Rewards(st engine.State) []float64 { return rewards(st, isBanked(st), bankedScale) }

// rewards is Rewards, judging a position that is not over by its margin
// when judge is set (a game with banked points, or a playout cut short by
// the policy's Cut), with scale in place of bankedScale.
func rewards(st engine.State, judge bool, scale float64) []float64 {
	n := st.Players()
	out := make([]float64, n)
	if st.Over() {
		if w := st.Winners(); len(w) > 0 {
			for _, s := range w {
				if int(s) >= 0 && int(s) < n {
					out[s] += winWeight / float64(len(w))
				}
			}
		}
	}
	scores := st.Scores()
	banked := false
	if !st.Over() {
		banked = judge && len(scores) == n
	}
	if !st.Over() && !banked {
		for s := range out {
			out[s] = winWeight / float64(n)
		}
	}
	if len(scores) != n {
		return out
	}
	top := 0
	for _, v := range scores {
		top = max(top, abs(v))
	}
	marginScale := 1 + float64(top)/4
	for s := range out {
		other := math.MinInt
		for t, v := range scores {
			if t != s {
				other = max(other, v)
			}
		}
		m := 0.0
		if other != math.MinInt {
			m = float64(scores[s] - other)
		}
		out[s] += marginWeight * (1 + math.Tanh(m/marginScale)) / 2
		if banked { // the result, judged from the banked margin
			out[s] += winWeight * (1 + math.Tanh(m/scale)) / 2
		}
	}
	return out
}

// bankedScale is the margin, in points, at which a position of a game
// with banked points (engine.Game's Banked) that is not over counts as about
// three quarters won (tanh 1 = 0.76): a few placements' worth in
// Elemental, whose placements score from -4 to +14. Tuned against greedy
// on Elemental (ai.md).
const bankedScale = 5

// isBanked reports whether the points of st's game are banked (engine.Game's
// Banked); false for a position of no registered game.
func isBanked(st engine.State) bool {
	g, ok := engine.GameOf(st)
	return ok && g.Banked
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
