package lab

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"tessera/ai"
	"tessera/engine"
)

// TestCalibrationMapsOnTheRecordedRuns: for every game whose
// hard-against-hard chunks are kept in docs/calibration (the 300
// games), or another budget's chunks in docs/calibration/BUDGET/GAME, and
// whose analysis has a map at that budget, the map as the service applies it
// (ai.Calibrated: both seats' chances of a position mapped, then scaled
// to sum to 1) lowers the Brier score of the chunks it was not fitted on
// (the even-numbered files, as tessera calibrate --merge --fit holds them
// out). A map copied wrong, or one that only fits its own half, fails
// here. (The chunks are recorded data: a change of the analysis that
// leaves an old map in place needs a new run, which this cannot see.)
func TestCalibrationMapsOnTheRecordedRuns(t *testing.T) {
	dirs, err := filepath.Glob("../docs/calibration/*")
	if err != nil {
		t.Fatal(err)
	}
	budgets, _ := filepath.Glob("../docs/calibration/*/*") // another budget's runs: docs/calibration/300/GAME
	checked := 0
	for _, dir := range append(dirs, budgets...) {
		files, _ := filepath.Glob(filepath.Join(dir, "seed-*.json"))
		game := filepath.Base(dir)
		if len(files) < 30 { // not yet the 300 games
			continue
		}
		var c0 Calibration // the runs' budget picks the map, as the analysis's does
		if b, err := os.ReadFile(files[0]); err != nil || json.Unmarshal(b, &c0) != nil {
			t.Fatalf("%s: %v", files[0], err)
		}
		if w := ai.Calibrated(game, c0.Iterations, []float64{0.7, 0.3}, 0); w[0] == 0.7 {
			continue // no map: its raw chances stand
		}
		var raw, mapped float64
		n := 0
		for i, f := range files {
			if i%2 == 0 { // fitted on
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var c Calibration
			if err := json.Unmarshal(b, &c); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if c.Players != 2 || !c.Movers || len(c.Points)%2 != 0 {
				t.Fatalf("%s: %d players, movers %v, %d points: want a 2-player report with its movers", f, c.Players, c.Movers, len(c.Points))
			}
			for k := 0; k < len(c.Points); k += 2 { // a position's two seats, in seat order
				a, b := c.Points[k], c.Points[k+1]
				mover := 0
				if b[2] == 1 {
					mover = 1
				}
				w := ai.Calibrated(game, c.Iterations, []float64{a[0], b[0]}, engine.Seat(mover))
				raw += sq(a[0]-a[1]) + sq(b[0]-b[1])
				mapped += sq(w[0]-a[1]) + sq(w[1]-b[1])
				n += 2
			}
		}
		raw, mapped = raw/float64(n), mapped/float64(n)
		t.Logf("%s at %d iterations: %d held-out chances, Brier %.4f raw, %.4f mapped", game, c0.Iterations, n, raw, mapped)
		if mapped >= raw {
			t.Errorf("%s: the map does not lower the held-out Brier score: %.4f raw, %.4f mapped", game, raw, mapped)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no game with a map has its 300 games in docs/calibration")
	}
}

func sq(x float64) float64 { return x * x }
