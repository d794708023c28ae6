package lab_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"tessera/lab"
)

// TestMergeEqualsOneRun: games 0-3 and games 4-9 of a seed, played as two
// runs (First 4) and merged, are the 10-game run of that seed: the same
// moves in every game and a byte-identical analysis. A designer can take a
// row from 100 games to 300 without replaying the first 100.
func TestMergeEqualsOneRun(t *testing.T) {
	base := lab.Config{Game: "elemental", Players: 2, Seats: []string{"mcts20", "greedy"}, Seed: 5,
		Options: map[string]string{"borders": "RBGY"}}
	run := func(first, games int) lab.Report {
		t.Helper()
		cfg := base
		cfg.First, cfg.Games = first, games
		rep, err := lab.Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	whole := run(0, 10)
	later, early := run(4, 6), run(0, 4)
	merged, err := lab.Merge(later, early) // in any order
	if err != nil {
		t.Fatal(err)
	}
	if len(merged.Records) != 10 || merged.Config.Games != 10 || merged.Config.First != 0 {
		t.Fatalf("merged %d records of %d games from %d", len(merged.Records), merged.Config.Games, merged.Config.First)
	}
	for g, r := range merged.Records {
		w := whole.Records[g]
		if r.Index != g || r.Seed != w.Seed || strings.Join(r.Moves, " ") != strings.Join(w.Moves, " ") {
			t.Fatalf("game %d: merged %d %v, one run %d %v", g+1, r.Index, r.Moves, w.Index, w.Moves)
		}
	}
	a, b := lab.Analyze(merged, nil).JSON(), lab.Analyze(whole, nil).JSON()
	if !bytes.Equal(a, b) {
		t.Errorf("merged analysis differs from one run's:\n%s\n%s", a, b)
	}
}

// TestMergeRefuses: runs that are not parts of one run are not merged.
func TestMergeRefuses(t *testing.T) {
	cfg := lab.Config{Game: "labfirst", Players: 2, Games: 2, Seats: []string{"random", "random"}, Seed: 1}
	a, err := lab.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lab.Merge(a, a); err == nil || !strings.Contains(err.Error(), "two of the runs") {
		t.Errorf("the same games twice: %v", err)
	}
	for _, change := range []func(*lab.Config){
		func(c *lab.Config) { c.Seed = 2 },
		func(c *lab.Config) { c.Seats = []string{"random", "greedy"} },
		func(c *lab.Config) { c.Options = map[string]string{"x": "1"} },
		func(c *lab.Config) { c.Players = 3; c.Seats = append(c.Seats, "random") },
	} {
		c := cfg
		c.First = 6
		change(&c)
		b := lab.Report{Config: c}
		if _, err := lab.Merge(a, b); err == nil || !strings.Contains(err.Error(), "cannot merge") {
			t.Errorf("%+v: %v", c, err)
		}
	}
	// --first inside a deal would split its seatings between runs.
	cfg.First = 3
	if _, err := lab.Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "multiple") {
		t.Errorf("first 3 of 2 players: %v", err)
	}
}
