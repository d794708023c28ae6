package glorieta

import (
	"fmt"
	"strings"

	"tessera/engine"
)

// Gains says what each move does towards a loop (engine.Gainer): stones
// that close the mover's loop win; a flip whose stone, pink, closes the
// opponent's loop loses; a placement that leaves empty cells where one
// more stone of the mover's would close a loop threatens one there (the
// opponent must answer). Wins rank first, then the moves that threaten
// the most cells, the rest in the order given, and losing flips last. It
// works on the fast book of a copy, as WinningMove does, so the position
// is unchanged and thousands of pairs take milliseconds.
func (st *State) Gains(moves []engine.Move) []engine.Gain {
	out := make([]engine.Gain, len(moves))
	if st.Done {
		return out
	}
	c := st.Clone().(*State)
	if !c.synced() {
		c.rebuild()
	}
	b := &c.fast
	seat := int(c.Turn)
	other := int(opp(c.Turn))
	var tmp book
	for i, mv := range moves {
		m, ok := mv.(Move)
		if !ok {
			continue
		}
		if m.Flip {
			// The flipped stone becomes a member of the opponent's too.
			tmp.member[other], tmp.parent[other], tmp.nbrs[other] = b.member[other], b.parent[other], b.nbrs[other]
			if tmp.join(other, worldOf[m.A]) {
				out[i] = engine.Gain{Text: "loses: completes " + colourName(opp(c.Turn)) + "'s loop", Rank: -1000}
			}
			continue
		}
		tmp.member[seat], tmp.parent[seat], tmp.nbrs[seat] = b.member[seat], b.parent[seat], b.nbrs[seat]
		loop := tmp.join(seat, worldOf[m.A])
		if m.B >= 0 {
			loop = tmp.join(seat, worldOf[m.B]) || loop
		}
		if loop {
			out[i] = engine.Gain{Text: "wins: closes your loop", Rank: 1000}
			continue
		}
		var at []string
		for d := 0; d < nCells; d++ {
			if c.Stones[d] == empty && d != m.A && d != m.B && tmp.closes(seat, worldOf[d]) {
				at = append(at, board.Name(d))
			}
		}
		if len(at) > 0 {
			out[i] = engine.Gain{Text: threat(at), Rank: len(at)}
		}
	}
	return out
}

// threat is "threatens a loop at g7" or "threatens loops at g7, h8".
func threat(at []string) string {
	if len(at) == 1 {
		return "threatens a loop at " + at[0]
	}
	if len(at) > 3 {
		return fmt.Sprintf("threatens loops at %s and %d more", strings.Join(at[:3], ", "), len(at)-3)
	}
	return "threatens loops at " + strings.Join(at, ", ")
}
