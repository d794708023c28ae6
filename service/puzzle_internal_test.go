package service

import (
	"strings"
	"testing"
	"unicode/utf8"

	"tessera/engine"
	_ "tessera/engine/games"
)

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

// TestPuzzleCommandOneGame: with one game that has puzzles (Knotwork
// alone), /puzzle names the game and its levels' goals, has no game:
// option, and offers the game's levels; every text fits Discord's 100
// characters. With none, it still exists and says so (Puzzle refuses).
func TestPuzzleCommandOneGame(t *testing.T) {
	knotwork, ok := engine.Lookup("knotwork")
	if !ok {
		t.Fatal("knotwork is not registered")
	}
	c := puzzleCommandOf([]engine.Game{knotwork})
	if c.Description != "Play a Knotwork puzzle alone: fit all 25 tiles into 5x5 (easy) or one single knot (hard)" {
		t.Errorf("description %q", c.Description)
	}
	if len(c.Options) != 1 || c.Options[0].Name != "level" || len(c.Options[0].Choices) != 2 ||
		c.Options[0].Description != "easy (fit all 25 tiles into 5x5) or hard (one single knot); default easy" {
		t.Fatalf("options %+v", c.Options)
	}
	none := puzzleCommandOf(nil)
	if len(none.Options) != 1 || !strings.Contains(none.Description, "no game here has puzzles") {
		t.Errorf("without puzzles: %+v", none)
	}
	// A game whose goals are long is worded shortly instead.
	long := knotwork
	long.Puzzle = &engine.Puzzle{Option: "puzzle", Levels: []engine.PuzzleLevel{{Name: "easy", Goal: strings.Repeat("x", 90)}}}
	c = puzzleCommandOf([]engine.Game{long})
	if c.Description != "Play a Knotwork puzzle alone (see /rules)" || utf8.RuneCountInString(c.Options[0].Description) > maxDescription {
		t.Errorf("long goals: %q, %q", c.Description, c.Options[0].Description)
	}
}
