package ai_test

import (
	"testing"

	"tessera/ai"
)

// TestPlayedLike: Knotwork's measured rates are easy 0.057, normal 0.020
// and hard 0.0023 a move (docs/calibration/errors.md). A rate is placed
// at the level nearest on a log scale (the geometric middles are 0.034
// and 0.0068), below the weakest beyond half again its rate, above the
// strongest below two thirds of it; a game without measured levels gets
// none.
func TestPlayedLike(t *testing.T) {
	for _, c := range []struct {
		rate         float64
		want         ai.Level
		below, above bool
	}{
		{0.060, ai.Easy, false, false},
		{0.040, ai.Easy, false, false},   // above the middle 0.034: nearer easy
		{0.030, ai.Normal, false, false}, // below it: nearer normal
		{0.020, ai.Normal, false, false},
		{0.10, ai.Easy, true, false},    // over 1.5 × 0.057
		{0.01, ai.Normal, false, false}, // above the middle 0.0068: nearer normal
		{0.005, ai.Hard, false, false},  // below it: nearer hard
		{0.001, ai.Hard, false, true},   // under 0.0023 / 1.5
		{0, ai.Hard, false, true},
	} {
		l, below, above, ok := ai.PlayedLike("knotwork", c.rate)
		if !ok || l != c.want || below != c.below || above != c.above {
			t.Errorf("rate %v: %v below %v above %v (ok %v), want %v %v %v", c.rate, l, below, above, ok, c.want, c.below, c.above)
		}
	}
	if _, _, _, ok := ai.PlayedLike("no such game", 0.02); ok {
		t.Error("a game without measured levels got one")
	}
}
