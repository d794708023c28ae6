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
// by every seat.
func Rewards(st engine.State) []float64 {
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
	} else {
		for s := range out {
			out[s] = winWeight / float64(n)
		}
	}
	scores := st.Scores()
	if len(scores) != n {
		return out
	}
	top := 0
	for _, v := range scores {
		top = max(top, abs(v))
	}
	scale := 1 + float64(top)/4
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
		out[s] += marginWeight * (1 + math.Tanh(m/scale)) / 2
	}
	return out
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
