package tilingking

import (
	"testing"

	"tessera/engine"
)

// TestGainsSayCellsAndCaptures: on the hex board's hand-built ring (see
// boardCases: Red holds g5 g6 h4 and h6 i5 around h5, where Blue has an
// M1), Red's M1 on i4 closes the ring: it covers 1 cell, captures h5 (1
// cell of territory) and takes Blue's M1 back to Blue's hand (Blue -1),
// so Red gains 2. An I4 elsewhere covers 4 and gains 4, ranked above it;
// a pass gains nothing. Gains leaves the position as it was.
func TestGainsSayCellsAndCaptures(t *testing.T) {
	st := newGame(t, Hex, 2)
	st.put(t, blue, "h5")
	st.put(t, red, "g5 g6 h4")
	st.put(t, red, "h6 i5")
	st.Turn = red
	var i4, four engine.Move
	for _, m := range st.Legal() {
		switch mv := m.(Move); {
		case m.String() == "i4":
			i4 = m
		case four == nil && len(mv.Cells) == 4:
			four = m
		}
	}
	pass, err := st.Parse("pass")
	if err != nil {
		t.Fatal(err)
	}
	score := append([]int(nil), st.Score...)
	g := st.Gains([]engine.Move{i4, four, pass})
	if want := "+2: covers 1, captures 1 cell, Blue -1"; g[0].Text != want {
		t.Errorf("i4: %q, want %q", g[0].Text, want)
	}
	if want := "+4: covers 4"; g[1].Text != want {
		t.Errorf("%s: %q, want %q", four, g[1].Text, want)
	}
	if g[2].Text != "" || g[2].Rank != 0 {
		t.Errorf("pass: %+v, want nothing", g[2])
	}
	if !(g[1].Rank > g[0].Rank && g[0].Rank > g[2].Rank) {
		t.Errorf("ranks %d %d %d: want the I4, then the capture, then the pass", g[1].Rank, g[0].Rank, g[2].Rank)
	}
	if st.Score[red] != score[red] || st.Score[blue] != score[blue] || st.Cover[st.cells(t, "i4")[0]] != -1 {
		t.Error("Gains changed the position")
	}
}
