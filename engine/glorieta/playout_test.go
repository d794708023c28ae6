package glorieta

import (
	"strings"
	"testing"

	"tessera/engine"
	"tessera/engine/enginetest"
)

// TestRandomPlayouts plays random games to the end with the shared checks
// (notation round trips, clones, replay from the record gives the same
// position) and Glorieta's own: no loop before the end, exactly one
// winner who owns a loop (or whose opponent resigned), hands within 0-6,
// an empty hand only while a flip is owed, and no pass ever.
func TestRandomPlayouts(t *testing.T) {
	games := 12
	if testing.Short() {
		games = 4
	}
	for i := 0; i < games; i++ {
		resign := 0.0
		if i%6 == 5 {
			resign = 0.02
		}
		setup := engine.Setup{Game: ID, Players: 2, Seed: uint64(i)}
		st, rec := enginetest.Playout(t, setup, uint64(i), enginetest.PlayoutOptions{
			ResignChance: resign,
			Check: func(t testing.TB, s engine.State, o engine.Outcome) {
				checkInvariants(t, s.(*State), o)
			},
		})
		g := st.(*State)
		if w := g.Winners(); len(w) != 1 {
			t.Fatalf("seed %d: winners %v", i, w)
		}
		w := g.Winners()[0]
		if g.Active() == 2 && (g.hole(w) < 0 || len(g.Loop) == 0) {
			t.Fatalf("seed %d: %s won without a loop", i, colourName(w))
		}
		t.Logf("seed %d: %d moves, %s wins, %d empty cells", i, len(rec), colourName(w), g.Empty)
	}
}

func checkInvariants(t testing.TB, st *State, o engine.Outcome) {
	t.Helper()
	for _, e := range o.Events {
		if strings.Contains(e.Text, "passes") {
			t.Fatalf("a pass happened: %+v", o.Events)
		}
	}
	if !st.Over() && (st.hole(Yellow) >= 0 || st.hole(Black) >= 0) {
		t.Fatalf("after %q a loop exists but the game goes on", o.Move)
	}
	if st.Over() && st.Active() == 2 && st.hole(opp(st.Winners()[0])) >= 0 {
		t.Fatalf("after %q the loser has a loop too", o.Move)
	}
	free := 0
	for c := 0; c < nCells; c++ {
		if st.Stones[c] == empty {
			free++
		}
		if st.Pink[c] && st.Stones[c] == empty {
			t.Fatalf("a pink empty cell")
		}
	}
	if free != st.Empty {
		t.Fatalf("Empty %d, counted %d", st.Empty, free)
	}
	for s := 0; s < 2; s++ {
		if st.Hands[s] < 0 || st.Hands[s] > Handful {
			t.Fatalf("hand %d", st.Hands[s])
		}
		if st.Hands[s] == 0 && st.Flipped[s] && !st.Over() {
			t.Fatal("an empty hand after a flip was not refilled")
		}
	}
}
