package service

import (
	"testing"

	"tessera"
	"tessera/engine"
	_ "tessera/engine/games"
)

// TestClosureReplayKeepsOneFraming: Closure's picture shows only the part
// of the table in play, so it grows as tiles are laid. In a replay every
// frame is drawn in the last position's frame: the same scene size and
// the same coordinates on its sides in every frame, so the board neither
// rescales nor jumps (issue #24, item 22: the frames rescaled as the board
// grew, with empty space below the smaller ones).
func TestClosureReplayKeepsOneFraming(t *testing.T) {
	g := &tessera.Game{ID: 7, Status: tessera.StatusFinished, Setup: engine.Setup{Game: "closure", Players: 2, Seed: 4},
		Players: []tessera.Player{{Name: "Ana"}, {Name: "Bo"}}}
	st, err := engine.New(g.Setup)
	if err != nil {
		t.Fatal(err)
	}
	r := engine.NewRand(11)
	for len(g.Moves) < 30 && !st.Over() {
		legal := st.Legal()
		m := legal[r.IntN(len(legal))]
		g.Moves = append(g.Moves, tessera.MoveEntry{Seat: int(st.ToMove()), Text: m.String()})
		if _, err := st.Apply(m); err != nil {
			t.Fatal(err)
		}
	}
	// The table grew over these moves: the first and last positions'
	// own pictures differ in frame, so the test can fail.
	first, _ := ReplayN(g, 0)
	if a, b := first.Board(), st.Board(); a.W == b.W && a.H == b.H && coordinates(a) == coordinates(b) {
		t.Fatal("the table did not grow: the test proves nothing")
	}
	frames, err := replayFrames(g, 1, len(g.Moves))
	if err != nil {
		t.Fatal(err)
	}
	want := frames[len(frames)-1].Scene
	for i, f := range frames {
		if f.Scene.W != want.W || f.Scene.H != want.H {
			t.Fatalf("frame %d is %gx%g, the last %gx%g", i, f.Scene.W, f.Scene.H, want.W, want.H)
		}
		if got := coordinates(f.Scene); got != coordinates(want) {
			t.Fatalf("frame %d shows columns and rows %q, the last %q", i, got, coordinates(want))
		}
	}
}

// coordinates are the texts a scene draws outside its cells (its
// coordinates), in order: the columns and rows it shows.
func coordinates(sc engine.Scene) string {
	s := ""
	for _, it := range sc.Items {
		if it.Text != "" && (it.At.X < 40 || it.At.Y < 40) {
			s += it.Text + " "
		}
	}
	return s
}
