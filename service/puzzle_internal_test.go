package service

import "testing"

// TestHintText: the three answers of /hint, including the one for a
// search that gave up (no real position is known to need more than the
// solver's budget, so it is checked here).
func TestHintText(t *testing.T) {
	for _, c := range []struct {
		found, exhaustive bool
		want              string
	}{
		{true, true, "Try d4 NE (game #3)."},
		{false, true, "There is no solution from here in game #3; undo."},
		{false, false, "I could not find a solution in time from this position of game #3; try undo."},
	} {
		var m fakeMove
		if got := hintText(3, m, c.found, c.exhaustive); got != c.want {
			t.Errorf("found %v exhaustive %v: %q, want %q", c.found, c.exhaustive, got, c.want)
		}
	}
}

type fakeMove struct{}

func (fakeMove) String() string { return "d4 NE" }
