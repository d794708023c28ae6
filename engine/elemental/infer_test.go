package elemental

import (
	"math"
	"testing"

	"tessera/engine"
)

// afterFirstMove is a 2-player game (borders north R, east B, south G,
// west Y) after seat 1 laid the given move from the hand {GGGG, YYYY}
// (seat 2 holds BBBB and RRYY), seen by seat 2.
func afterFirstMove(t *testing.T, move string) *State {
	t.Helper()
	s := dealt(t)
	m, err := s.Parse(move)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply(m); err != nil {
		t.Fatal(err)
	}
	return s
}

// dealt is that game before its first move, the hands dealt from the top
// of the bag (so every tile is in it once).
func dealt(t *testing.T) *State {
	t.Helper()
	st, err := engine.New(engine.Setup{Game: ID, Players: 2, Seed: 1, Options: map[string]string{"borders": "RBGY"},
		Deck: []string{"GGGG", "YYYY", "BBBB", "RRYY"}})
	if err != nil {
		t.Fatal(err)
	}
	return st.(*State)
}

func tile(t *testing.T, code string) Tile {
	t.Helper()
	x, err := ParseTile(code)
	if err != nil {
		t.Fatal(err)
	}
	return x.Canonical()
}

// TestInferredWeights: a tile the last mover may have kept weighs
// exp(-sharpness·excess), excess being how many points more than the tile
// it laid it could have scored on the board of that move. Worked by hand
// on the first move of a game, whose board was empty: any cell was open,
// and only border edges score.
func TestInferredWeights(t *testing.T) {
	for _, c := range []struct {
		why  string
		move string
		tile string
		want float64
	}{
		// d4 is inside the board: the tile laid scored 0.
		{"one border at most (north R, on the north rim): 1 more than 0", "d4 GGGG", "RRRR", math.Exp(-1)},
		{"R then B clockwise fits the north-east corner: 2 more", "d4 GGGG", "RBGY", math.Exp(-2)},
		{"the tile it kept may match the west border: 1 more", "d4 GGGG", "YYYY", math.Exp(-1)},
		// a1, the south-west corner, with G south and G west: 1 point
		// (south matches, west does not).
		{"RBGY scores 2 at a corner, 1 more than the 1 laid", "a1 GGGG", "RBGY", math.Exp(-1)},
		{"RRRR scores at most 1, no more than the 1 laid", "a1 GGGG", "RRRR", 1},
	} {
		s := afterFirstMove(t, c.move)
		in, ok := s.Inferred(1, 1).(*inferred)
		if !ok {
			t.Fatalf("%s: no inference after %s", c.why, c.move)
		}
		got, ok := in.weight[tile(t, c.tile)]
		if !ok || math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s: %s weighs %v (listed %v), want %v", c.why, c.tile, got, ok, c.want)
		}
		if _, seen := in.weight[tile(t, "BBBB")]; seen {
			t.Errorf("%s: the viewer's own tile BBBB is weighed as unseen", c.why)
		}
	}
	// The viewer's own move, or no move yet: nothing to infer.
	s := dealt(t)
	if _, ok := s.Inferred(0, 1).(*State); !ok {
		t.Error("inference before any move")
	}
	s = afterFirstMove(t, "d4 GGGG")
	if _, ok := s.Inferred(0, 1).(*State); !ok {
		t.Error("seat 1 infers its own hand from its own move")
	}
}

// TestInferredDrawsByWeight: the last mover's kept tile is drawn in
// proportion to its weight; its other tile and the bag are the rest,
// shuffled. Over many draws each tile's share of the kept slot is within
// five standard deviations of weight/total.
func TestInferredDrawsByWeight(t *testing.T) {
	s := afterFirstMove(t, "d4 GGGG")
	in := s.Inferred(1, 1).(*inferred)
	total := 0.0
	for _, w := range in.weight {
		total += w
	}
	const n = 20000
	kept := map[Tile]int{}
	r := engine.NewRand(3)
	for i := 0; i < n; i++ {
		d := in.Determinize(1, &r).(*State)
		if len(d.Hands[0]) != 2 || d.Hands[1][0] != s.Hands[1][0] || d.Hands[1][1] != s.Hands[1][1] {
			t.Fatalf("hands %v, the viewer's %v", d.Hands, s.Hands[1])
		}
		kept[d.Hands[0][0]]++
	}
	for x, w := range in.weight {
		p := w / total
		sd := math.Sqrt(n * p * (1 - p))
		if got := float64(kept[x]); math.Abs(got-n*p) > 5*sd+1 {
			t.Errorf("%s kept %v times in %d, want about %.0f", x, got, n, n*p)
		}
	}
}
