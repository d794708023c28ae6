package lab_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
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

// game is a hand-made record of a two-seat game with these scores after
// each move (seats alternating, one legal move each) won by winner.
func game(index, winner int, scores ...[]int) lab.Record {
	r := lab.Record{Index: index, Seed: uint64(index), Players: []int{0, 1}, Scores: scores, Final: scores[len(scores)-1], Winners: []int{winner}}
	for i := range scores {
		r.Moves = append(r.Moves, "m")
		r.Movers = append(r.Movers, i%2)
		r.Legal = append(r.Legal, 1)
		r.Playouts = append(r.Playouts, 0)
	}
	return r
}

// TestCountIntervalsStayPossible: a count's interval holds only values a
// count can take (issue #24, item 23: "lead changes 1.17 [-0.47, 2.80]").
// Three games with 5, 0 and 0 lead changes: the mean is 5/3, the standard
// error sqrt(25/3)/sqrt(3) = 5/3, so the normal interval 5/3 ± 1.96·5/3
// starts at -1.6; cut at 0, the least count, it is [0, 4.93]. The point
// after which the winner led for good is a share of the game, within
// [0, 1].
func TestCountIntervalsStayPossible(t *testing.T) {
	rep := lab.Report{
		Config: lab.Config{Game: "knotwork", Players: 2, Games: 3, Seats: []string{"random", "greedy"}, Seed: 1},
		Records: []lab.Record{
			// The lead changes hands five times: 0, 1, 0, 1, 0, 1.
			game(0, 1, []int{1, 0}, []int{1, 2}, []int{3, 2}, []int{3, 4}, []int{5, 4}, []int{5, 6}),
			game(1, 0, []int{1, 0}, []int{1, 0}),
			game(2, 0, []int{2, 0}, []int{2, 1}),
		},
	}
	an := lab.Analyze(rep, nil)
	lc := measure(t, an, "lead changes").Stat
	if !near(lc.Value, 5.0/3) || !near(lc.Low, 0) || !near(lc.High, 5.0/3+1.959963984540054*5.0/3) {
		t.Errorf("lead changes %+v, want 1.67 [0, 4.93]", lc)
	}
	for _, m := range an.Measures {
		if m.Stat.N > 0 && m.Stat.Low < 0 {
			t.Errorf("%s: interval %+v reaches below 0", m.Name, m.Stat)
		}
	}
	if lead := measure(t, an, "winner leads for good from (0=start, 1=end)").Stat; lead.N > 0 && (lead.Low < 0 || lead.High > 1) {
		t.Errorf("a share of the game outside [0, 1]: %+v", lead)
	}
	if md := an.Markdown(nil); bytes.Contains(md, []byte("[-")) {
		t.Errorf("the report prints a negative bound:\n%s", md)
	}
}

// TestBranchingTableListsEveryTurn: the report's branching table has a
// row for every turn (issue #24, item 23: past 25 turns it listed every
// other one, and with two seats alternating that was one seat's turns
// only). A game of 30 alternating moves has 30 turns.
func TestBranchingTableListsEveryTurn(t *testing.T) {
	var scores [][]int
	for range 30 {
		scores = append(scores, []int{0, 0})
	}
	rep := lab.Report{
		Config:  lab.Config{Game: "knotwork", Players: 2, Games: 1, Seats: []string{"random", "greedy"}, Seed: 1},
		Records: []lab.Record{game(0, 0, scores...)},
	}
	md := string(lab.Analyze(rep, nil).Markdown(nil))
	_, table, _ := strings.Cut(md, "## Branching factor by turn")
	for turn := 1; turn <= 30; turn++ {
		if row := fmt.Sprintf("\n| %d | 1.0 | 1 |\n", turn); !strings.Contains(table, row) {
			t.Fatalf("no row for turn %d:%s", turn, table)
		}
	}
}
