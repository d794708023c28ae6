package ai

import (
	"math"
	"testing"
)

// TestCalibrated: a game without a map keeps its chances (a copy); a map
// moves uncertain chances, keeps certain ones, and the result sums to 1.
func TestCalibrated(t *testing.T) {
	raw := []float64{0.9, 0.1}
	if got := Calibrated("nomap", raw); got[0] != 0.9 || got[1] != 0.1 || &got[0] == &raw[0] {
		t.Fatalf("without a map: %v", got)
	}
	chanceMaps["testgame"] = struct{ A, B float64 }{A: 0.5, B: 0}
	defer delete(chanceMaps, "testgame")
	got := Calibrated("testgame", raw)
	if math.Abs(got[0]+got[1]-1) > 1e-12 || got[0] >= 0.9 || got[0] <= 0.5 {
		t.Fatalf("mapped: %v", got)
	}
	if got := Calibrated("testgame", []float64{1, 0}); got[0] != 1 || got[1] != 0 {
		t.Fatalf("a certain result mapped: %v", got)
	}
}
