package main

import (
	"strings"
	"testing"
)

// TestEveryCommandsHelpExitsZero: `tessera COMMAND -h` prints the
// command's flags and exits 0 for every command, as asked-for help, not a
// mistake (issue #24, item 23: playouts, ai and lab exited 2, the others
// 0).
func TestEveryCommandsHelpExitsZero(t *testing.T) {
	var names [][]string
	for _, c := range commands {
		names = append(names, []string{c.name})
	}
	names = append(names, []string{"lab", "merge"})
	for _, name := range names {
		for _, h := range []string{"-h", "--help"} {
			args := append(append([]string(nil), name...), h)
			code, _, errs := runCmd(t, "", args...)
			if code != 0 || !strings.Contains(errs, "-") {
				t.Errorf("tessera %s: exit %d, want 0 with the flags listed; stderr %q", strings.Join(args, " "), code, errs)
			}
		}
	}
}
