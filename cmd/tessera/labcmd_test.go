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

// TestLabMerge: a comparison played as two runs of different games
// (--first) and joined by `tessera lab merge` writes the same report.md,
// report.json and pictures, byte for byte, as one run of all the games.
func TestLabMerge(t *testing.T) {
	// The flag's help names its value K (a back-quoted word in a flag's
	// usage becomes the value's name: it once read "-first tessera lab merge").
	if _, _, errs := runCmd(t, "", "lab", "-h"); !strings.Contains(errs, "-first K\n") || !strings.Contains(errs, "tessera lab merge [--out DIR] FILE") {
		t.Errorf("lab -h:\n%s", errs)
	}
	dir := t.TempDir()
	common := []string{"lab", "--game", "elemental", "--seats", "greedy,random", "--seed", "4", "--compare", "borders=RBGY"}
	for _, part := range []struct{ file, first, n string }{{"a.json", "0", "4"}, {"b.json", "4", "6"}} {
		code, out, errs := runCmd(t, "", append(common, "--first", part.first, "-n", part.n, "--json")...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		os.WriteFile(filepath.Join(dir, part.file), []byte(out), 0o644)
	}
	merged, whole := filepath.Join(dir, "merged"), filepath.Join(dir, "whole")
	code, out, errs := runCmd(t, "", "lab", "merge", "--out", merged, filepath.Join(dir, "b.json"), filepath.Join(dir, "a.json"))
	if code != 0 {
		t.Fatalf("merge: exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "elemental, 2 players, 10 games, seed 4, borders=RBGY") {
		t.Errorf("merge's summary lacks the comparison's 10 games:\n%s", out)
	}
	if code, _, errs := runCmd(t, "", append(common, "-n", "10", "--out", whole)...); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, f := range []string{"report.md", "report.json", "seats.png", "length.png", "branching.png", "margin.png"} {
		a, _ := os.ReadFile(filepath.Join(merged, f))
		b, _ := os.ReadFile(filepath.Join(whole, f))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s of the merge differs from one run's (%d and %d bytes)", f, len(a), len(b))
		}
	}
	// The same part twice, another seed, and a file that is not a report
	// are refused with what is wrong.
	other := filepath.Join(dir, "other.json")
	_, out, _ = runCmd(t, "", "lab", "--game", "elemental", "--seats", "greedy,random", "--seed", "5", "--compare", "borders=RBGY", "-n", "2", "--first", "10", "--json")
	os.WriteFile(other, []byte(out), 0o644)
	junk := filepath.Join(dir, "junk.json")
	os.WriteFile(junk, []byte("{\"hello\": 1}\n"), 0o644)
	for _, c := range []struct {
		files []string
		want  string
	}{
		{[]string{"a.json", "a.json"}, "two of the runs"},
		{[]string{"a.json", "other.json"}, "cannot merge"},
		{[]string{"a.json", "junk.json"}, "not the output"},
		{[]string{"missing.json"}, "missing.json"},
	} {
		args := []string{"lab", "merge"}
		for _, f := range c.files {
			args = append(args, filepath.Join(dir, f))
		}
		if code, _, errs := runCmd(t, "", args...); code != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("merge %v: exit %d, %q; want %q", c.files, code, errs, c.want)
		}
	}
}

// TestLabPair: two line-ups on the same deals, one of them in two chunks
// in one file, compared player by player; another seed is refused.
func TestLabPair(t *testing.T) {
	if _, _, errs := runCmd(t, "", "lab", "-h"); !strings.Contains(errs, "tessera lab pair [--json] A B") {
		t.Errorf("lab -h does not name lab pair:\n%s", errs)
	}
	dir := t.TempDir()
	write := func(name string, args ...string) string {
		t.Helper()
		var all string
		for _, part := range [][]string{{"--first", "0", "-n", "2"}, {"--first", "2", "-n", "4"}} {
			code, out, errs := runCmd(t, "", append(append([]string{"lab", "--game", "elemental", "--json"}, args...), part...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			all += out
		}
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte(all), 0o644)
		return path
	}
	a := write("a.json", "--seats", "random,greedy", "--seed", "4")
	b := write("b.json", "--seats", "greedy,greedy", "--seed", "4")
	code, out, errs := runCmd(t, "", "lab", "pair", a, b)
	if code != 0 {
		t.Fatalf("pair: exit %d: %s", code, errs)
	}
	for _, want := range []string{"over the 6 games both played", "1:random → greedy, win rate", "2:greedy, margin over the best other"} {
		if !strings.Contains(out, want) {
			t.Errorf("pair's report lacks %q:\n%s", want, out)
		}
	}
	other := write("other.json", "--seats", "greedy,greedy", "--seed", "5")
	if code, _, errs := runCmd(t, "", "lab", "pair", a, other); code != 1 || !strings.Contains(errs, "same deals") {
		t.Errorf("pair of two seeds: exit %d, %q", code, errs)
	}
	if code, _, _ := runCmd(t, "", "lab", "pair", a); code != 2 {
		t.Errorf("pair of one file: exit %d, want 2", code)
	}
}
