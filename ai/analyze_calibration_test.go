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
	if got := Calibrated("nomap", raw, 0); got[0] != 0.9 || got[1] != 0.1 || &got[0] == &raw[0] {
		t.Fatalf("without a map: %v", got)
	}
	chanceMaps["testgame"] = ChanceMap{A: 0.5}
	defer delete(chanceMaps, "testgame")
	got := Calibrated("testgame", raw, 0)
	if math.Abs(got[0]+got[1]-1) > 1e-12 || got[0] >= 0.9 || got[0] <= 0.5 {
		t.Fatalf("mapped: %v", got)
	}
	if got := Calibrated("testgame", []float64{1, 0}, 0); got[0] != 1 || got[1] != 0 {
		t.Fatalf("a certain result mapped: %v", got)
	}
	// A search that gives its own side 0.6 of an even game: the map that
	// takes both seats' chances back to 1/2 (B = logit 0.6 raises the other
	// seat's 0.4, M = -2 B lowers the mover's 0.6), whichever seat moves.
	shift := math.Log(0.6 / 0.4)
	chanceMaps["testgame"] = ChanceMap{A: 1, B: shift, M: -2 * shift}
	for mover, w := range [][]float64{{0.6, 0.4}, {0.4, 0.6}} {
		got := Calibrated("testgame", w, engine.Seat(mover))
		if math.Abs(got[0]-0.5) > 1e-9 || math.Abs(got[0]+got[1]-1) > 1e-12 {
			t.Fatalf("seat %d to move, chances %v mapped to %v, want about 1/2 each", mover, w, got)
		}
	}
	if got := Calibrated("testgame", []float64{0.6, 0.4}, 1); got[0] <= 0.6 {
		t.Fatalf("seat 1's search gave seat 0 0.6, mapped to %v: want it raised, not lowered as the mover's", got)
	}
}
