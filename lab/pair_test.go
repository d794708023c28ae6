package lab

import (
	"math"
	"strings"
	"testing"
)

// TestPairByHand: two runs of the same four deals, the second stopped
// after three games, compared player by player. Worked out by hand:
//
//	game  seating (player at seat 1, 2)  A: final, winners   B: final, winners
//	0     x/y, greedy                     10-5, seat 1        12-5, seat 1
//	1     greedy, x/y                     8-8, both           6-8, seat 2
//	2     x/y, greedy                     3-9, seat 2         9-9, both
//	3     greedy, x/y                     7-4, seat 1         (not played)
//
// Player 1 (x, then y): win shares A 1, 1/2, 0, 0 (0.375) and B 1, 1, 1/2
// (5/6); margins A +5, 0, −6, −3 (−1) and B +7, +2, 0 (+3). Paired over
// games 0-2: shares +0, +1/2, +1/2 (+1/3), margins +2, +2, +6 (+10/3).
// Greedy's are the mirror: −1/3 and −10/3.
func TestPairByHand(t *testing.T) {
	cfg := Config{Game: "elemental", Players: 2, Seed: 1, Seats: []string{"x", "greedy"}}
	a := Report{Config: cfg, Records: []Record{
		{Index: 0, Seed: 10, Players: []int{0, 1}, Final: []int{10, 5}, Winners: []int{0}},
		{Index: 1, Seed: 10, Players: []int{1, 0}, Final: []int{8, 8}, Winners: []int{0, 1}},
		{Index: 2, Seed: 20, Players: []int{0, 1}, Final: []int{3, 9}, Winners: []int{1}},
		{Index: 3, Seed: 20, Players: []int{1, 0}, Final: []int{7, 4}, Winners: []int{0}},
	}}
	cfgB := cfg
	cfgB.Seats = []string{"y", "greedy"}
	b := Report{Config: cfgB, Records: []Record{
		{Index: 0, Seed: 10, Players: []int{0, 1}, Final: []int{12, 5}, Winners: []int{0}},
		{Index: 1, Seed: 10, Players: []int{1, 0}, Final: []int{6, 8}, Winners: []int{1}},
		{Index: 2, Seed: 20, Players: []int{0, 1}, Final: []int{9, 9}, Winners: []int{0, 1}},
	}}
	ms, err := Pair(a, b)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		name       string
		a, b, diff float64
		n          int
	}{
		{"1:x → y, win rate", 0.375, 5.0 / 6, 1.0 / 3, 3},
		{"1:x → y, margin over the best other", -1, 3, 10.0 / 3, 3},
		{"2:greedy, win rate", 0.625, 1.0 / 6, -1.0 / 3, 3},
		{"2:greedy, margin over the best other", 1, -3, -10.0 / 3, 3},
	}
	if len(ms) != len(want) {
		t.Fatalf("%d measures, want %d: %+v", len(ms), len(want), ms)
	}
	for i, w := range want {
		m := ms[i]
		if m.Name != w.name || !near(m.Stat.Value, w.a) || !near(m.Other.Value, w.b) || !near(m.Diff.Value, w.diff) || m.Diff.N != w.n {
			t.Errorf("measure %d: %q A %v B %v B−A %v over %d; want %q %v %v %v over %d",
				i, m.Name, m.Stat.Value, m.Other.Value, m.Diff.Value, m.Diff.N, w.name, w.a, w.b, w.diff, w.n)
		}
		if m.Diff.Low > m.Diff.Value || m.Diff.High < m.Diff.Value {
			t.Errorf("%s: B − A %v outside its interval [%v, %v]", m.Name, m.Diff.Value, m.Diff.Low, m.Diff.High)
		}
	}

	// Runs of other deals, or the same game seated otherwise, are refused.
	other := b
	other.Config.Seed = 2
	if _, err := Pair(a, other); err == nil || !strings.Contains(err.Error(), "same deals") {
		t.Errorf("runs of two seeds paired: %v", err)
	}
	reseated := Report{Config: cfgB, Records: []Record{{Index: 0, Seed: 10, Players: []int{1, 0}, Final: []int{1, 2}, Winners: []int{1}}}}
	if _, err := Pair(a, reseated); err == nil || !strings.Contains(err.Error(), "game 1") {
		t.Errorf("a game seated otherwise paired: %v", err)
	}
}

func near(x, y float64) bool { return math.Abs(x-y) < 1e-9 }
