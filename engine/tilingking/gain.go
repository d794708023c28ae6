package tilingking

import (
	"fmt"
	"strings"

	"tessera/engine"
)

// Gains says what each move gains its player (engine.Gainer): the points
// it scores, the cells its piece covers and those it captures, and the
// points it takes from each opponent whose piece it captures. Moves are
// ranked by the mover's points, then by what the opponents lose.
func (st *State) Gains(moves []engine.Move) []engine.Gain {
	out := make([]engine.Gain, len(moves))
	seat := st.Turn
	for i, m := range moves {
		c := st.Clone().(*State)
		o, err := c.Apply(m)
		if err != nil {
			continue
		}
		points, covers, captures := 0, 0, 0
		var lost []string
		taken := 0
		for _, d := range o.Deltas {
			switch {
			case d.Seat == seat:
				points += d.Points
				switch {
				case d.Reason == "capture":
					captures += d.Points
				case strings.Contains(d.Reason, " covers "):
					covers += d.Points
				}
			case d.Points < 0:
				lost = append(lost, fmt.Sprintf("%s %d", seatNames[d.Seat], d.Points))
				taken -= d.Points
			}
		}
		if points == 0 && taken == 0 {
			continue // a pass, or a piece on the mover's own territory
		}
		var parts []string
		if covers > 0 {
			parts = append(parts, fmt.Sprintf("covers %d", covers))
		}
		if m.(Move).Kind == Swap {
			parts = append(parts, "takes the first piece")
		}
		if captures > 0 {
			parts = append(parts, fmt.Sprintf("captures %s", cellWords(captures)))
		}
		parts = append(parts, lost...)
		out[i] = engine.Gain{Text: fmt.Sprintf("%+d: %s", points, strings.Join(parts, ", ")), Rank: points*1000 + taken}
	}
	return out
}
