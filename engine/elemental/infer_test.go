package elemental

import (
	"fmt"
	"math"
	"testing"

	"tessera/engine"
)

var _ engine.Inferrer = (*State)(nil)

// weightsOf is the weights Infer gave seat s, by code (nil: none).
func weightsOf(t *testing.T, d engine.Determinizer, s engine.Seat) *[256]float64 {
	t.Helper()
	in, ok := d.(*inferred)
	if !ok {
		t.Fatalf("Infer returned a %T", d)
	}
	return in.kept[s]
}

func code(t *testing.T, s string) int {
	t.Helper()
	tile, err := ParseTile(s)
	if err != nil {
		t.Fatal(err)
	}
	return tileCode(tile.Canonical())
}

// TestInferWeighsByHand: a position small enough to weigh by hand. Seat 1
// lays RRRR on d4; seat 2, holding BBBB and a tile seat 1 cannot see, lays
// BBBB on d5 for -1. The open cells were d5, e4, d3 and c4, each touching
// only d4's red edge (no rim), so with sharpness ln 2 each placement
// weighs 2^(its points - (-1)):
//   - BBBB, GGGG, YYYY: one orientation, -1 on each of 4 cells: Z = 4;
//   - BBBR: 4 orientations, one of which puts R on d4 (+1, weight 4), the
//     others -1 (weight 1): 7 a cell, Z = 28.
//
// The kept tile's weight is (prior(BBBB) + prior(k)) / (Z(BBBB) + Z(k)), so
// GGGG weighs 2/8 and BBBR 2/32: four times less, because a player who
// kept BBBR passed over a connection. What seat 1 sees (the board, its
// hand) weighs nothing.
func TestInferWeighsByHand(t *testing.T) {
	s, err := engine.New(engine.Setup{Game: ID, Players: 2, Seed: 5, Deck: []string{"RRRR", "GGYY", "BBBB", "GGGY"}})
	if err != nil {
		t.Fatal(err)
	}
	st := s.(*State)
	for _, mv := range []string{"d4 RRRR", "d5 BBBB"} {
		m, err := st.Parse(mv)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.Apply(m); err != nil {
			t.Fatal(err)
		}
	}
	w := weightsOf(t, st.Infer(0, math.Ln2), 1)
	if w == nil {
		t.Fatal("seat 2 laid a tile but was not weighed")
	}
	g, y, bbbr := w[code(t, "GGGG")], w[code(t, "YYYY")], w[code(t, "BBBR")]
	if math.Abs(g/bbbr-4) > 1e-9 || math.Abs(g/y-1) > 1e-9 {
		t.Fatalf("GGGG/BBBR = %v (want 4), GGGG/YYYY = %v (want 1)", g/bbbr, g/y)
	}
	for _, seen := range []string{"RRRR", "BBBB", "GGYY", st.Hands[0][1].String()} {
		if w[code(t, seen)] != 0 {
			t.Errorf("%s, which seat 1 sees, weighs %v", seen, w[code(t, seen)])
		}
	}
	if w[code(t, "GGGY")] == 0 {
		t.Error("the tile seat 2 really kept weighs nothing")
	}
	// Seat 2 is weighed from seat 2's side too: seat 1 laid its RRRR first,
	// on an empty board, and kept GGYY.
	if w := weightsOf(t, st.Infer(1, math.Ln2), 0); w == nil || w[code(t, "GGYY")] == 0 || w[code(t, "GGGY")] != 0 {
		t.Fatal("seat 2's view of seat 1's kept tile is wrong")
	}
}

// greedyMove is the first of the mover's moves that scores the most.
func greedyMove(st *State) Move {
	best, most := Move{}, math.MinInt
	for _, m := range st.Legal() {
		mv := m.(Move)
		if p := st.points(mv.Cell, mv.Edges); p > most {
			best, most = mv, p
		}
	}
	return best
}

// TestInferFindsWhatGreedyKept: in games between two players who take the
// most points, the tile seat 2 really kept is given, on average, well over
// the chance of a uniform deal, and never next to none (the model allows
// every tile a greedy player can keep). Measured when written, sharpness
// 3, 620 positions: 0.075 on average against a uniform 0.042.
func TestInferFindsWhatGreedyKept(t *testing.T) {
	var sum, uniform float64
	n := 0
	for g := uint64(0); g < 20; g++ {
		st := newGame(t, 2, g)
		for !st.Over() {
			if st.Placed >= 2 && st.Turn == 0 {
				w := weightsOf(t, st.Infer(0, 3), 1)
				total, unseen, most := 0.0, 0, 0.0
				for _, tile := range allTiles {
					v := w[tileCode(tile)]
					total += v
					most = max(most, v)
					if v > 0 {
						unseen++
					}
				}
				kept := w[tileCode(st.Hands[1][0])] // Apply keeps the kept tile first
				if kept < 1e-6*most {
					t.Fatalf("game %d, %d laid: the kept tile %s weighs %v, the most %v", g, st.Placed, st.Hands[1][0], kept, most)
				}
				sum += kept / total
				uniform += 1 / float64(unseen)
				n++
			}
			if _, err := st.Apply(greedyMove(st)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if sum < 1.5*uniform {
		t.Fatalf("the kept tile's mean weight %.3f is not well above a uniform deal's %.3f (%d positions)", sum/float64(n), uniform/float64(n), n)
	}
}

// TestInferHidesOnlyTheHidden: Infer's worlds, like Determinize's, are the
// same for two positions that differ only in what the viewer cannot see,
// keep what it sees, and deal every tile once.
func TestInferHidesOnlyTheHidden(t *testing.T) {
	for players := 2; players <= 4; players++ {
		a := newGame(t, players, 11)
		r := engine.NewRand(4)
		for i := 0; i < 17; i++ {
			a.PlayRandom(&r)
		}
		viewer := a.Turn
		tr := engine.NewRand(9)
		b := a.Determinize(viewer, &tr).(*State) // the same but for the hidden tiles
		if fmt.Sprint(a.Hands) == fmt.Sprint(b.Hands) {
			t.Fatal("the twin did not change the hidden hands")
		}
		da, db := a.Infer(viewer, 3), b.Infer(viewer, 3)
		for k := uint64(0); k < 5; k++ {
			ra, rb := engine.NewRand(k), engine.NewRand(k)
			wa, wb := da.Determinize(viewer, &ra).(*State), db.Determinize(viewer, &rb).(*State)
			sameState(t, "inferred", wa, wb)
			checkConserved(t, wa)
			checkFrontier(t, wa)
			if fmt.Sprint(wa.Hands[viewer]) != fmt.Sprint(a.Hands[viewer]) || wa.Cells != a.Cells || wa.Placed != a.Placed || wa.laid != a.laid {
				t.Fatal("Infer's world changed what the viewer sees")
			}
			for s := range a.Hands {
				if len(wa.Hands[s]) != len(a.Hands[s]) {
					t.Fatalf("seat %d holds %d tiles, had %d", s, len(wa.Hands[s]), len(a.Hands[s]))
				}
			}
		}
	}
}

// TestInferWithoutEvidenceDealsAsDeterminize: with nothing to go by
// (sharpness 0, a position built by hand whose log does not match its
// board, another viewer than Infer's) the worlds are Determinize's, draw
// for draw.
func TestInferWithoutEvidenceDealsAsDeterminize(t *testing.T) {
	st := newGame(t, 2, 3)
	r := engine.NewRand(1)
	for i := 0; i < 9; i++ {
		st.PlayRandom(&r)
	}
	byHand := st.Clone().(*State)
	byHand.laid = laidLog{}
	for _, c := range []struct {
		name   string
		d      engine.Determinizer
		plain  *State
		viewer engine.Seat
	}{
		{"sharpness 0", st.Infer(st.Turn, 0), st, st.Turn},
		{"no log", byHand.Infer(st.Turn, 3), byHand, st.Turn},
		{"another viewer", st.Infer(st.Turn, 3), st, 1 - st.Turn},
	} {
		ra, rb := engine.NewRand(7), engine.NewRand(7)
		sameState(t, c.name, c.d.Determinize(c.viewer, &ra).(*State), c.plain.Determinize(c.viewer, &rb).(*State))
	}
}

// BenchmarkInfer: what a search pays once per move, late in a game.
func BenchmarkInfer(b *testing.B) {
	st := newGame(b, 2, 1)
	for st.Placed < 50 {
		st.Apply(greedyMove(st))
	}
	for b.Loop() {
		st.Infer(st.Turn, 3)
	}
}
