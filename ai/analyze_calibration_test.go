package ai

import (
	"math"
	"testing"

	"tessera/engine"
)

// TestCalibrated: a game without a map keeps its chances (a copy); a map
// moves uncertain chances, keeps certain ones, and the result sums to 1;
// a mover's term moves the chance of the seat to move only, so the same
// chances read from either seat's search map differently.
func TestCalibrated(t *testing.T) {
	raw := []float64{0.9, 0.1}
	if got := Calibrated("nomap", 0, raw, 0); got[0] != 0.9 || got[1] != 0.1 || &got[0] == &raw[0] {
		t.Fatalf("without a map: %v", got)
	}
	chanceMaps["testgame"] = []FittedMap{{Iterations: 10000, Map: ChanceMap{A: 0.5}}}
	defer delete(chanceMaps, "testgame")
	got := Calibrated("testgame", 0, raw, 0)
	if math.Abs(got[0]+got[1]-1) > 1e-12 || got[0] >= 0.9 || got[0] <= 0.5 {
		t.Fatalf("mapped: %v", got)
	}
	if got := Calibrated("testgame", 0, []float64{1, 0}, 0); got[0] != 1 || got[1] != 0 {
		t.Fatalf("a certain result mapped: %v", got)
	}
	// A search that gives its own side 0.6 of an even game: the map that
	// takes both seats' chances back to 1/2 (B = logit 0.6 raises the other
	// seat's 0.4, M = -2 B lowers the mover's 0.6), whichever seat moves.
	shift := math.Log(0.6 / 0.4)
	chanceMaps["testgame"] = []FittedMap{{Iterations: 10000, Map: ChanceMap{A: 1, B: shift, M: -2 * shift}}}
	for mover, w := range [][]float64{{0.6, 0.4}, {0.4, 0.6}} {
		got := Calibrated("testgame", 0, w, engine.Seat(mover))
		if math.Abs(got[0]-0.5) > 1e-9 || math.Abs(got[0]+got[1]-1) > 1e-12 {
			t.Fatalf("seat %d to move, chances %v mapped to %v, want about 1/2 each", mover, w, got)
		}
	}
	if got := Calibrated("testgame", 0, []float64{0.6, 0.4}, 1); got[0] <= 0.6 {
		t.Fatalf("seat 1's search gave seat 0 0.6, mapped to %v: want it raised, not lowered as the mover's", got)
	}
}

// TestMapNearestTheBudget: an analysis takes the map fitted nearest its
// budget on a log scale (so 1,000 iterations is nearer 300 than 10,000,
// and 2,000 nearer 10,000), none where the nearest is marked raw, and the
// default budget's when it gives none; a game with one map uses it at
// every budget.
func TestMapNearestTheBudget(t *testing.T) {
	low, high := ChanceMap{A: 0.5}, ChanceMap{A: 2}
	chanceMaps["testgame"] = []FittedMap{{Iterations: 10000, Map: high}, {Iterations: 300, Map: low}}
	chanceMaps["rawathigh"] = []FittedMap{{Iterations: 10000, Raw: true}, {Iterations: 300, Map: low}}
	chanceMaps["onemap"] = []FittedMap{{Iterations: 10000, Map: high}}
	defer func() {
		delete(chanceMaps, "testgame")
		delete(chanceMaps, "rawathigh")
		delete(chanceMaps, "onemap")
	}()
	for _, c := range []struct {
		game       string
		iterations int
		want       ChanceMap
		ok         bool
	}{
		{"testgame", 300, low, true},
		{"testgame", 1000, low, true},  // log 1000/300 = 1.2 < log 10000/1000 = 2.3
		{"testgame", 2000, high, true}, // log 2000/300 = 1.9 > log 10000/2000 = 1.6
		{"testgame", 0, high, true},    // unset: the default budget, 10,000
		{"rawathigh", 10000, ChanceMap{}, false},
		{"rawathigh", 50000, ChanceMap{}, false},
		{"rawathigh", 75, low, true}, // a hidden game's quarter-budget search is mapped by the analysis's budget, not this
		{"onemap", 300, high, true},
		{"nomap", 300, ChanceMap{}, false},
	} {
		if got, ok := mapFor(c.game, c.iterations); got != c.want || ok != c.ok {
			t.Errorf("%s at %d iterations: %+v, %v; want %+v, %v", c.game, c.iterations, got, ok, c.want, c.ok)
		}
	}
	// And through Calibrated: the raw entry leaves the chances as they are.
	if got := Calibrated("rawathigh", 10000, []float64{0.9, 0.1}, 0); got[0] != 0.9 {
		t.Fatalf("raw at 10,000: %v", got)
	}
	if got := Calibrated("rawathigh", 300, []float64{0.9, 0.1}, 0); got[0] >= 0.9 {
		t.Fatalf("mapped at 300 by A 0.5: %v, want pulled to the middle", got)
	}
}

// TestCalibratedSecondSeat: a map's second seat's term raises the second
// seat of a two-player game whichever seat moves, and is left out of a
// game of three, whose seats the maps were not fitted on.
func TestCalibratedSecondSeat(t *testing.T) {
	chanceMaps["testgame"] = []FittedMap{{Iterations: 10000, Map: ChanceMap{A: 1, S: 1}}}
	defer delete(chanceMaps, "testgame")
	for mover := range 2 {
		got := Calibrated("testgame", 0, []float64{0.5, 0.5}, engine.Seat(mover))
		want := 1 / (1 + math.Exp(-1)) / (0.5 + 1/(1+math.Exp(-1))) // σ(1) against σ(0), scaled to sum to 1
		if math.Abs(got[1]-want) > 1e-12 || math.Abs(got[0]+got[1]-1) > 1e-12 {
			t.Fatalf("seat %d to move: %v, want the second seat raised to %.4f", mover, got, want)
		}
	}
	third := []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}
	if got := Calibrated("testgame", 0, third, 0); math.Abs(got[1]-1.0/3) > 1e-9 {
		t.Fatalf("three seats: %v, want the term left out", got)
	}
}
