package knotwork

import (
	"fmt"
	"slices"

	"tessera/engine"
)

// Gains says which moves close a knot, and through how many of each
// player's tiles (engine.Gainer): a knot scores only when it closes, so
// the points of every other move are 0. A knot through more of the
// mover's tiles than of the opponent's ranks first, one through more of
// the opponent's last. In a puzzle a knot is only told.
func (st *State) Gains(moves []engine.Move) []engine.Gain {
	out := make([]engine.Gain, len(moves))
	seat := st.Turn
	for i, mv := range moves {
		m, ok := mv.(Move)
		if !ok || m.Undo {
			continue
		}
		c := st.Clone().(*State)
		if _, err := c.Apply(m); err != nil {
			continue
		}
		n, tiles, mine, theirs := 0, 0, 0, 0
		for _, kn := range c.Knots() {
			if slices.Contains(kn.Cells, m.Cell) { // new: the cell was empty
				n++
				tiles += len(kn.Cells)
				mine += kn.Score[seat]
				theirs += kn.Score[1-seat]
			}
		}
		if n == 0 {
			continue
		}
		what := "closes a knot"
		if n > 1 {
			what = fmt.Sprintf("closes %d knots", n)
		}
		if st.Puzzle != NoPuzzle {
			out[i] = engine.Gain{Text: fmt.Sprintf("%s of %d tiles", what, tiles)}
			continue
		}
		out[i] = engine.Gain{
			Text: fmt.Sprintf("%s: %d of your tiles, %d of %s's", what, mine, theirs, seatNames[1-seat]),
			Rank: mine - theirs,
		}
	}
	return out
}
