package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tessera/lab"
)

// TestLabOutRepeats: `tessera lab --out` twice with the same seed writes
// byte-identical reports and pictures (there is no time in them), with
// every picture under 100 KB.
func TestLabOutRepeats(t *testing.T) {
	dirs := []string{t.TempDir(), t.TempDir()}
	for _, d := range dirs {
		code, _, errs := runCmd(t, "", "lab", "--game", "elemental", "-n", "6", "--seats", "greedy,random", "--seed", "4",
			"--compare", "borders=RBGY", "--out", d)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
	}
	for _, f := range []string{"report.md", "report.json", "seats.png", "length.png", "branching.png", "margin.png"} {
		a, err := os.ReadFile(filepath.Join(dirs[0], f))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(dirs[1], f))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between two runs of the same seed", f)
		}
		if strings.HasSuffix(f, ".png") && len(a) > 100_000 {
			t.Errorf("%s is %d bytes", f, len(a))
		}
	}
	md, _ := os.ReadFile(filepath.Join(dirs[0], "report.md"))
	if !strings.Contains(string(md), "| seat 1 win rate |") || !strings.Contains(string(md), "B − A") {
		t.Errorf("report.md lacks the comparison table:\n%s", md)
	}
}

// TestLabRefusesBeforePlaying: a mistake in the comparison's options or
// in --out is reported before any game is played, not after the first
// option set's games (an hour, with the hard AI).
func TestLabRefusesBeforePlaying(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a-file")
	os.WriteFile(file, nil, 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--compare", "handful=9"}, "handful"},
		{[]string{"--out", file}, "--out"},
		{[]string{"--out", filepath.Join(file, "under")}, "--out"},
	} {
		args := append([]string{"lab", "--game", "glorieta", "-n", "2", "--seats", "random,random"}, c.args...)
		code, _, errs := runCmd(t, "", args...)
		if code != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d: %s", c.args, code, errs)
		}
		if strings.Contains(errs, "games") {
			t.Errorf("%v: games were played before the refusal: %s", c.args, errs)
		}
	}
}

// TestLabJSONCompare: with --compare, --json prints both option sets'
// reports (before, only the first one's: the comparison's games were
// played and then dropped), each with its own options and the same deals.
func TestLabJSONCompare(t *testing.T) {
	code, out, errs := runCmd(t, "", "lab", "--game", "elemental", "-n", "4", "--seats", "greedy,random", "--seed", "3",
		"--compare", "borders=RBGY", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	dec := json.NewDecoder(strings.NewReader(out))
	var reps []lab.Report
	for dec.More() {
		var r lab.Report
		if err := dec.Decode(&r); err != nil {
			t.Fatalf("report %d: %v\n%s", len(reps)+1, err, out)
		}
		reps = append(reps, r)
	}
	if len(reps) != 2 {
		t.Fatalf("%d reports, want 2 (one per option set)", len(reps))
	}
	if got := reps[0].Config.Options["borders"]; got != "" {
		t.Errorf("first report's borders = %q, want the default", got)
	}
	if got := reps[1].Config.Options["borders"]; got != "RBGY" {
		t.Errorf("second report's borders = %q, want RBGY", got)
	}
	for i, r := range reps {
		if len(r.Records) != 4 {
			t.Fatalf("report %d has %d games, want 4", i+1, len(r.Records))
		}
	}
	for g := range reps[0].Records {
		if a, b := reps[0].Records[g].Seed, reps[1].Records[g].Seed; a != b {
			t.Errorf("game %d dealt from seed %d and %d: not the same deals", g+1, a, b)
		}
	}
}
