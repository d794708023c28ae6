package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
