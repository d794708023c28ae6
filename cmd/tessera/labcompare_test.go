package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLabComparePrintsTheDifference: `tessera lab --compare` prints what
// it promises, the difference B − A of each measure, on standard output,
// not only into --out's report (issue #24, item 23). Each measure's row
// of report.md's comparison table has its B − A cell printed on the
// measure's line of the output.
func TestLabComparePrintsTheDifference(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := runCmd(t, "", "lab", "--game", "elemental", "-n", "6", "--seats", "greedy,random", "--seed", "4",
		"--compare", "borders=RBGY", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "B − A") {
		t.Fatalf("no difference on the output:\n%s", out)
	}
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out, "\n")
	rows := 0
	for _, row := range strings.Split(string(md), "\n") {
		cells := strings.Split(row, " | ")
		if len(cells) != 4 || !strings.HasPrefix(row, "| ") || strings.HasPrefix(row, "| measure") || strings.HasPrefix(row, "| balance") {
			continue
		}
		name, diff := strings.TrimPrefix(cells[0], "| "), strings.TrimSuffix(cells[3], " |")
		found := false
		for _, l := range lines {
			if strings.HasPrefix(l, name+"  ") && strings.Contains(l, diff) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: the output lacks its difference %q:\n%s", name, diff, out)
		}
		rows++
	}
	if rows < 10 {
		t.Fatalf("only %d measures compared in report.md:\n%s", rows, md)
	}
}
