package knotwork

import (
	"testing"

	"tessera/engine"
)

// TestGainsTellTheKnotClosed: Ted's design of the Osbo example (two
// end-caps over two corners) is one knot through its four tiles. With
// Blue's end-caps on d6 and e6 and Orange's corner on d5, Blue's own
// corner on e5 (NW) closes it through 3 Blue tiles and 1 Orange one; the
// neutral corner there through 2 Blue tiles and 1 Orange. Blue's own
// corner ranks first, the neutral one next, and a move that closes
// nothing, Blue's branch there with a mark open to the east, gains
// nothing (issue #24, item 19: every move showed (+0)).
func TestGainsTellTheKnotClosed(t *testing.T) {
	st := build(t, 1, "B d6 S", "B e6 S", "O d5 NE")
	moves := map[string]engine.Move{}
	for _, m := range st.Legal() {
		moves[m.String()] = m
	}
	// The window rule leaves e5 only; a branch there (marks N, E, W)
	// leaves its east mark open towards f5: no knot closes.
	own, neutral, other := moves["e5 NW"], moves["e5 NW*"], moves["e5 NEW"]
	if own == nil || neutral == nil || other == nil {
		t.Fatalf("legal moves %v lack e5 NW, e5 NW* or e5 NEW", moves)
	}
	g := st.Gains([]engine.Move{own, neutral, other})
	if want := "closes a knot: 3 of your tiles, 1 of Orange's"; g[0].Text != want {
		t.Errorf("e5 NW: %q, want %q", g[0].Text, want)
	}
	if want := "closes a knot: 2 of your tiles, 1 of Orange's"; g[1].Text != want {
		t.Errorf("e5 NW*: %q, want %q", g[1].Text, want)
	}
	if g[2] != (engine.Gain{}) {
		t.Errorf("%s closes nothing: %+v", other, g[2])
	}
	if !(g[0].Rank > g[1].Rank && g[1].Rank > g[2].Rank) {
		t.Errorf("ranks %d %d %d: want Blue's corner, the neutral one, then the rest", g[0].Rank, g[1].Rank, g[2].Rank)
	}
	if len(st.Knots()) != 0 {
		t.Error("Gains changed the position")
	}
}
