package ai

import (
	"slices"

	"tessera/engine"
)

// The two baselines the lab measures the levels against. Like the search
// they look only at what the seat to move may see.

// RandomMove is a move drawn uniformly from the legal moves (nil when there
// is none).
func RandomMove(st engine.State, r *engine.Rand) engine.Move {
	legal := st.Legal()
	if len(legal) == 0 {
		return nil
	}
	return legal[r.IntN(len(legal))]
}

// greedyReplyChecks bounds how many of its candidates Greedy checks for an
// opponent's winning reply (each check lists and tries every reply; in
// Glorieta that is ~8,000 moves), so a position where nearly every move
// loses cannot make it slow.
const greedyReplyChecks = 64

// GreedyMove is the one-ply baseline: a move that wins the game at once if
// there is one; else, among the moves with the best immediate score change
// for the mover (ties in random order), the first that does not let an
// opponent win at once with its reply, else the best-scoring move. Replies
// are checked only when the mover sees every hand (the game shows no
// hidden hand to it), since checking them would otherwise look at hidden
// tiles. In Glorieta, where no move scores, this is the issue's "a move that
// wins at once, else one that does not let the opponent win at once, else
// random"; in the scoring games it is "the best immediate score change".
func GreedyMove(st engine.State, r *engine.Rand) engine.Move {
	legal := st.Legal()
	if len(legal) == 0 {
		return nil
	}
	me := st.ToMove()
	order := make([]int, len(legal))
	for i := range order {
		order[i] = i
	}
	r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })

	gain := make([]int, len(legal))
	for _, i := range order {
		c := st.Clone()
		out, err := c.Apply(legal[i])
		if err != nil {
			gain[i] = -1 << 30
			continue
		}
		if c.Over() {
			if w := c.Winners(); len(w) == 1 && w[0] == me {
				return legal[i]
			}
		}
		gain[i] = out.Points(me)
	}
	// Stable by gain, so equal gains keep their random order.
	sorted := append([]int(nil), order...)
	slices.SortStableFunc(sorted, func(a, b int) int { return gain[b] - gain[a] })
	if !allVisible(st, me) {
		return legal[sorted[0]]
	}
	for k, i := range sorted {
		if k == greedyReplyChecks {
			break
		}
		c := st.Clone()
		if _, err := c.Apply(legal[i]); err == nil && !opponentWinsAtOnce(c, me) {
			return legal[i]
		}
	}
	return legal[sorted[0]]
}

// opponentWinsAtOnce reports whether the seat to move in st (not me) has a
// move that ends the game with it the sole winner.
func opponentWinsAtOnce(st engine.State, me engine.Seat) bool {
	if st.Over() {
		return false
	}
	them := st.ToMove()
	if them == me {
		return false
	}
	for _, m := range st.Legal() {
		c := st.Clone()
		if playMove(c, m) != nil {
			continue
		}
		if c.Over() {
			if w := c.Winners(); len(w) == 1 && w[0] == them {
				return true
			}
		}
	}
	return false
}

// allVisible reports whether the game shows seat every other seat's hand.
func allVisible(st engine.State, seat engine.Seat) bool {
	for i, sv := range st.View(seat).Seats {
		if engine.Seat(i) != seat && sv.Hidden {
			return false
		}
	}
	return true
}
