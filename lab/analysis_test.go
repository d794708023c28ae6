package lab_test

import (
	"bytes"
	"context"
	"testing"

	"tessera/lab"
)

func measure(t *testing.T, an lab.Analysis, name string) lab.Measure {
	t.Helper()
	for _, m := range an.Measures {
		if m.Name == name {
			return m
		}
	}
	t.Fatalf("no measure %q", name)
	return lab.Measure{}
}

// TestAnalyzeSeatOneWins: in labfirst seat 1 always wins, so by
// construction: seat 1's rate is 1 with the Wilson interval of 100/100
// ([0.963, 1]), seat 2's is 0 ([0, 0.037]), balance is 0.5, no draws,
// every game ends "all played" after 2 moves in 2 turns with 1 legal move
// each, the scores never move (no lead changes, margin 0).
func TestAnalyzeSeatOneWins(t *testing.T) {
	rep, err := lab.Run(context.Background(), lab.Config{Game: "labfirst", Players: 2, Games: 100, Seats: []string{"random", "greedy"}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	an := lab.Analyze(rep, nil)
	for _, c := range []struct {
		name          string
		value, lo, hi float64
	}{
		{"seat 1 win rate", 1, 0.9630065017930143, 1},
		{"seat 2 win rate", 0, 0, 0.03699349820698568},
		{"first mover win rate", 1, 0.9630065017930143, 1},
		{"shared win (draw)", 0, 0, 0.03699349820698568},
		{"ends: all played", 1, 0.9630065017930143, 1},
		{"length in moves", 2, 2, 2},
		{"length in turns", 2, 2, 2},
		{"mean legal moves per move", 1, 1, 1},
		{"lead changes", 0, 0, 0},
		{"margin (top score minus next)", 0, 0, 0},
	} {
		m := measure(t, an, c.name)
		if !near(m.Stat.Value, c.value) || !near(m.Stat.Low, c.lo) || !near(m.Stat.High, c.hi) || m.Stat.N != 100 {
			t.Errorf("%s: %+v, want %v [%v, %v] over 100", c.name, m.Stat, c.value, c.lo, c.hi)
		}
	}
	if !near(an.Balance, 0.5) {
		t.Errorf("balance %v, want 0.5", an.Balance)
	}
	// Nobody leads on score, so "when the winner took the lead" is undefined.
	if m := measure(t, an, "winner leads for good from (0=start, 1=end)"); m.Stat.N != 0 {
		t.Errorf("lead taken defined without a leader: %+v", m.Stat)
	}
	if len(an.Branching) != 2 || an.Branching[1] != (lab.Branch{Turn: 2, Mean: 1, Games: 100}) {
		t.Errorf("branching %+v", an.Branching)
	}
	if an.Lengths.Start != 2 || len(an.Lengths.Counts) != 1 || an.Lengths.Counts[0] != 100 {
		t.Errorf("length histogram %+v", an.Lengths)
	}
}

// TestAnalyzeFairCoin: matching pennies between random players: each
// seat's interval holds 0.5 and their rates add up to 1.
func TestAnalyzeFairCoin(t *testing.T) {
	rep, err := lab.Run(context.Background(), lab.Config{Game: "labpennies", Players: 2, Games: 400, Seats: []string{"random", "random"}, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	an := lab.Analyze(rep, nil)
	a, b := measure(t, an, "seat 1 win rate").Stat, measure(t, an, "seat 2 win rate").Stat
	if !near(a.Value+b.Value, 1) || a.Low > 0.5 || a.High < 0.5 || b.Low > 0.5 || b.High < 0.5 {
		t.Fatalf("not a fair coin: %+v %+v", a, b)
	}
	if lo, hi := lab.Wilson(a.Value*400, 400, 1.959963984540054); !near(lo, a.Low) || !near(hi, a.High) {
		t.Fatalf("interval %+v is not Wilson's [%v, %v]", a, lo, hi)
	}
}

// TestAnalyzeCompareIdentical: comparing a run with itself under the same
// options (the same seeds) reports differences whose intervals hold 0.
func TestAnalyzeCompareIdentical(t *testing.T) {
	cfg := lab.Config{Game: "knotwork", Players: 2, Games: 12, Seats: []string{"random", "greedy"}, Seed: 5}
	a, err := lab.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := lab.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	an := lab.Analyze(a, &b)
	for _, m := range an.Measures {
		if m.Diff == nil || m.Other == nil {
			t.Fatalf("%s: no comparison", m.Name)
		}
		if m.Diff.N > 0 && (m.Diff.Low > 0 || m.Diff.High < 0) {
			t.Errorf("%s: difference %+v excludes 0", m.Name, *m.Diff)
		}
	}
}

// TestReportBytesRepeat: the same run twice gives the same report bytes.
func TestReportBytesRepeat(t *testing.T) {
	cfg := lab.Config{Game: "knotwork", Players: 2, Games: 8, Seats: []string{"mcts20", "random"}, Seed: 9, Workers: 3}
	var md, js [][]byte
	for range 2 {
		rep, err := lab.Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		an := lab.Analyze(rep, nil)
		md, js = append(md, an.Markdown([]string{"seats.png"})), append(js, an.JSON())
	}
	if !bytes.Equal(md[0], md[1]) || !bytes.Equal(js[0], js[1]) {
		t.Fatal("the same seed gave different reports")
	}
}
