package tilingking

import (
	"strings"
	"testing"

	"tessera/engine"
)

// TestLegendTellsTerritoryFromEmpty: the legend describes territory by
// what only territory looks like, and empty cells by their own look, and
// the picture draws them so (issue #24, item 22: it said "Pale cells:
// territory" while empty cells are pale too). A game is played until a
// player has territory; then each territory cell is filled with a tint
// of its owner's colour, never the empty cells' fill, and its region is
// bordered in the owner's full colour.
func TestLegendTellsTerritoryFromEmpty(t *testing.T) {
	var st *State
	for seed := uint64(1); st == nil && seed < 200; seed++ {
		g, err := engine.New(engine.Setup{Game: ID, Players: 2, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		r := engine.NewRand(seed)
		for !g.Over() {
			l := g.Legal()
			if _, err := g.Apply(l[r.IntN(len(l))]); err != nil {
				t.Fatal(err)
			}
			if s := g.(*State); hasTerritory(s) {
				st = s
				break
			}
		}
	}
	if st == nil {
		t.Fatal("no territory in 200 games")
	}
	legend := strings.Join(st.View(engine.NoSeat).Legend, "\n")
	for _, want := range []string{
		"tinted in a player's colour", // only territory is tinted...
		"bordered in it",              // ...and outlined in its owner's colour
		"beige cells are empty",       // empty cells by their own look
	} {
		if !strings.Contains(legend, want) {
			t.Errorf("the legend does not say %q:\n%s", want, legend)
		}
	}
	if strings.Contains(strings.ToLower(legend), "pale") {
		t.Errorf("the legend calls some cells pale, and empty cells are pale too:\n%s", legend)
	}
	// The picture as the legend says: territory fills are the owner's
	// tint, empty fills the beige, and a border of the owner's colour.
	sc := st.Board()
	fills := map[engine.Color]bool{}
	borders := map[engine.Color]bool{}
	for _, it := range sc.Items {
		if it.Path != nil && !it.Fill.None() {
			fills[it.Fill] = true
		}
		if it.Path != nil && it.Fill.None() && it.Width == 3 {
			borders[it.Stroke] = true
		}
	}
	for i := 0; i < st.b.n; i++ {
		if o := st.Terr[i]; o >= 0 && st.Cover[i] < 0 {
			tinted := tint(seatColors[o], 0.35)
			if tinted == emptyFill || !fills[tinted] {
				t.Fatalf("territory of seat %d is not drawn in its own tint %v", o+1, tinted)
			}
			if !borders[seatColors[o]] {
				t.Fatalf("territory of seat %d has no border in its colour", o+1)
			}
		}
	}
	if !fills[emptyFill] {
		t.Fatal("no empty cell drawn in the empty fill")
	}
}

func hasTerritory(st *State) bool {
	for i := range st.Terr {
		if st.Terr[i] >= 0 && st.Cover[i] < 0 {
			return true
		}
	}
	return false
}
