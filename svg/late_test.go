package svg_test

import (
	"testing"

	"tessera/engine"
	_ "tessera/engine/games"
	"tessera/picture"
)

// late plays a seeded random game of g with its most seats to the last
// position before its end (or 600 moves), where a board holds the most
// it will: the position whose picture is the largest a page shows.
func late(t testing.TB, g engine.Game) engine.State {
	t.Helper()
	st, err := engine.New(engine.Setup{Game: g.ID, Players: g.MaxPlayers, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	r := engine.NewRand(11)
	for i := 0; i < 600 && !st.Over(); i++ {
		var m engine.Move
		if s, ok := st.(engine.Sampler); ok {
			m, _, _ = s.RandomMove(&r)
		} else {
			l := st.Legal()
			m = l[r.IntN(len(l))]
		}
		next := st.Clone()
		if _, err := next.Apply(m); err != nil {
			t.Fatalf("%s move %d %v: %v", g.ID, i, m, err)
		}
		if next.Over() {
			break
		}
		st = next
	}
	return st
}

// panelOf is the panel the posts show under the position, with names.
func panelOf(g engine.Game, st engine.State) picture.Panel {
	names := []string{"Ana", "Bo", "Cy", "Di", "Ed", "Flo"}
	return picture.NewPanel(g.Name+" · game #12", st.View(engine.NoSeat), names)
}
