package engine

import (
	"testing"
)

func TestParseOptions(t *testing.T) {
	got, err := ParseOptions([]string{"borders=RBGY", " pie ", "Board = hex", ""})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"borders": "RBGY", "pie": "on", "board": "hex"}
	if len(got) != len(want) {
		t.Fatalf("%v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Fatalf("%s=%q, want %q", k, got[k], v)
		}
	}
	if _, err := ParseOptions([]string{"=x"}); err == nil {
		t.Fatal("nameless option accepted")
	}
}

func FuzzParseOptions(f *testing.F) {
	for _, s := range []string{"borders=RBGY", "pie", "=", "a=b=c", " x = y "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		opts, err := ParseOptions([]string{in})
		if err == nil {
			for k := range opts {
				if k == "" {
					t.Fatalf("%q gave an empty option name", in)
				}
			}
		}
	})
}

func TestTableResign(t *testing.T) {
	tb := NewTable(3)
	var o Outcome
	if tb.Resign(&o, 1) {
		t.Fatal("3 players: one resignation ended the game")
	}
	if tb.Next(0) != 2 {
		t.Fatalf("next after seat 1 is %d, want seat 3 (seat 2 resigned)", tb.Next(0)+1)
	}
	if !tb.Resign(&o, 0) || !tb.Done || len(tb.Win) != 1 || tb.Win[0] != 2 {
		t.Fatalf("last one standing should win: done %v winners %v", tb.Done, tb.Win)
	}
	// Resigned seats cannot win on score.
	tb = NewTable(3)
	tb.Score = []int{10, 50, 10}
	tb.Resign(&Outcome{}, 1)
	tb.FinishByScore(nil)
	if len(tb.Win) != 2 || tb.Win[0] != 0 || tb.Win[1] != 2 {
		t.Fatalf("winners %v, want seats 1 and 3 sharing", tb.Win)
	}
}

func TestOnTop(t *testing.T) {
	bag := []int{5, 3, 9, 1, 3}
	got, err := OnTop(bag, []int{9, 3}, func(i int) string { return "x" })
	if err != nil || len(got) != 5 || got[0] != 9 || got[1] != 3 || got[2] != 5 || got[3] != 1 || got[4] != 3 {
		t.Fatalf("%v %v, want [9 3 5 1 3]", got, err)
	}
	if _, err := OnTop(bag, []int{9, 9}, func(int) string { return "9" }); err == nil {
		t.Fatal("a piece listed twice was accepted")
	}
	if _, err := OnTop(bag, []int{7}, func(int) string { return "7" }); err == nil {
		t.Fatal("a piece not in the bag was accepted")
	}
}
