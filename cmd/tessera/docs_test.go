package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Item 15: the commands the documentation gives are run exactly as
// written, from the repository root, and print what it says.

// runDocumented runs "go run ./cmd/tessera ARGS..." as run(ARGS).
func runDocumented(t *testing.T, command, stdin string) (int, string, string) {
	t.Helper()
	f := strings.Fields(command)
	if len(f) < 3 || f[0] != "go" || f[1] != "run" || f[2] != "./cmd/tessera" {
		t.Fatalf("not a `go run ./cmd/tessera` command: %q", command)
	}
	return runCmd(t, stdin, f[3:]...)
}

func TestExamplesReplayAsDocumented(t *testing.T) {
	t.Chdir("../..")
	files, _ := filepath.Glob("docs/examples/*")
	if len(files) < 5 {
		t.Fatalf("%d example files", len(files))
	}
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var commands, prints []string
		for _, line := range strings.Split(string(b), "\n") {
			if c, ok := strings.CutPrefix(line, "#   go run ./cmd/tessera replay "); ok {
				commands = append(commands, "go run ./cmd/tessera replay "+c)
			}
			if p, ok := strings.CutPrefix(line, "# prints "); ok {
				prints = append(prints, p)
			}
		}
		if len(commands) != 1 || len(prints) != 1 {
			t.Fatalf("%s: %d replay commands and %d \"# prints\" lines in its header, want 1 each", path, len(commands), len(prints))
		}
		if f := strings.Fields(commands[0]); f[len(f)-1] != path {
			t.Fatalf("%s: its command replays %s", path, f[len(f)-1])
		}
		code, out, errs := runDocumented(t, commands[0], "")
		if code != 0 {
			t.Fatalf("%s: %s: exit %d: %s", path, commands[0], code, errs)
		}
		want, _ := strings.CutSuffix(prints[0], ",...}")
		if !strings.HasPrefix(out, want) {
			t.Fatalf("%s prints\n%s\nnot\n%s", path, out, prints[0])
		}
	}
}

// readme is the README's text.
func readme(t *testing.T) string {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestReadmeReplayExample(t *testing.T) {
	t.Chdir("../..")
	text := readme(t)
	i := strings.Index(text, "    go run ./cmd/tessera replay ")
	if i < 0 {
		t.Fatal("the README has no replay example")
	}
	// The command, with its "\" continuation lines.
	var command strings.Builder
	lines := strings.Split(text[i:], "\n")
	n := 0
	for ; n < len(lines); n++ {
		command.WriteString(strings.TrimSuffix(strings.TrimSpace(lines[n]), "\\") + " ")
		if !strings.HasSuffix(lines[n], "\\") {
			break
		}
	}
	rest := strings.Join(lines[n+1:], "\n")
	_, after, ok := strings.Cut(rest, "prints `")
	printed, _, _ := strings.Cut(after, "`")
	if !ok {
		t.Fatal("the README does not say what the example prints")
	}
	code, out, errs := runDocumented(t, command.String(), "")
	want, _ := strings.CutSuffix(printed, ",...}")
	if code != 0 || !strings.HasPrefix(out, want) {
		t.Fatalf("%s: exit %d %s\nprints %s\nREADME says %s", command.String(), code, errs, out, printed)
	}
}

func TestReadmeConsoleExample(t *testing.T) {
	t.Chdir("../..")
	text := readme(t)
	i := strings.Index(text, "\n    go run ./cmd/tessera console --seed ")
	if i < 0 {
		t.Fatal("the README has no seeded console example")
	}
	lines := strings.Split(text[i+1:], "\n")
	command := strings.TrimSpace(lines[0])
	var script []string
	for _, l := range lines[1:] {
		if strings.HasPrefix(l, "    ") && strings.Contains(l, ": /") {
			script = append(script, strings.TrimSpace(l))
		} else if len(script) > 0 && strings.TrimSpace(l) == "" {
			break
		}
	}
	if len(script) < 3 {
		t.Fatalf("the example's lines: %q", script)
	}
	// What the README says ana's /hand shows once the game began.
	_, after, ok := strings.Cut(text, "ana's `/hand` shows ")
	hand, _, _ := strings.Cut(after, ";")
	if !ok || hand == "" {
		t.Fatal("the README does not say what ana's /hand shows")
	}
	accepted := slices.IndexFunc(script, func(l string) bool { return strings.Contains(l, "/accept") })
	if accepted < 0 {
		t.Fatalf("the example's lines accept no challenge: %q", script)
	}
	withHand := slices.Insert(slices.Clone(script), accepted+1, "ana: /hand")
	f := strings.Fields(command)
	// Item 16 of issue 24: the example holds after refused and declined
	// challenges too (they drew from the seed, so the hands differed).
	for _, before := range [][]string{nil, {
		"ana: /new elemental bo clock=forever", // refused by the service
		"ana: /new elementa bo",                // no such game
		"ana: /new elemental bo nonsense=1",    // no such option
		"ana: /new elemental bo", "bo: /decline",
		"ana: /new closure bo", "ana: /abort",
	}} {
		dir := t.TempDir()
		env := consoleEnv(t, filepath.Join(dir, "tessera.db"))
		lines := append(slices.Clone(before), withHand...)
		code, out, errs := runWithEnv(t, env, strings.Join(lines, "\n")+"\nquit\n", f[4:]...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		if !strings.Contains(out, ": "+hand+"\n") {
			t.Errorf("after %q, ana's hand is not the README's %s:\n%s", before, hand, out)
		}
		moved := false
		for _, l := range script {
			if _, notation, ok := strings.Cut(l, ": /move "); ok {
				moved = true
				if !strings.Contains(out, "You played "+notation+":") {
					t.Errorf("after %q, %q was not played:\n%s", before, l, out)
				}
			}
		}
		if !moved {
			t.Fatal("the example plays no move")
		}
	}
}

// replay accepts its flags after the file name too.
func TestReplayFlagsAfterTheFile(t *testing.T) {
	t.Chdir("../..")
	before, _, _ := runCmd(t, "", "replay", "--game", "elemental", "--seed", "7", "--option", "borders=RBGY", "docs/examples/elemental.moves")
	code, out, errs := runCmd(t, "", "replay", "docs/examples/elemental.moves", "--game", "elemental", "--seed", "7", "--option", "borders=RBGY")
	if before != 0 || code != 0 || !strings.Contains(out, `"scores":[72,76]`) {
		t.Fatalf("exit %d %d: %s %s", before, code, out, errs)
	}
	code, out, _ = runCmd(t, "", "replay", "--game", "elemental", "docs/examples/elemental.moves", "--seed", "7", "--option", "borders=RBGY")
	if code != 0 || !strings.Contains(out, `"scores":[72,76]`) {
		t.Fatalf("flags on both sides: exit %d %s", code, out)
	}
	// Two files, or a flag's missing value, are still mistakes.
	if code, _, _ := runCmd(t, "", "replay", "--game", "elemental", "a.moves", "b.moves"); code != 2 {
		t.Fatalf("two files: exit %d", code)
	}
	if code, _, _ := runCmd(t, "", "replay", "docs/examples/elemental.moves", "--game"); code != 2 {
		t.Fatalf("a flag without its value: exit %d", code)
	}
}

// An empty hand is [] in replay's JSON, never null (Closure's hand is a
// nil slice once its tiles are gone).
func TestReplayHandsAreLists(t *testing.T) {
	for _, h := range []any{nil, []int(nil), []string{}, map[string]int{}} {
		b, _ := json.Marshal(handList(h))
		if string(b) != "[]" {
			t.Fatalf("%#v prints %s", h, b)
		}
	}
	if b, _ := json.Marshal(handList([]int{3})); string(b) != "[3]" {
		t.Fatalf("a hand prints %s", b)
	}
}
