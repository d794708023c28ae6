package main

import (
	"path/filepath"
	"strings"
	"testing"

	"tessera/render"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/boltdb"
)

// Issue 45: a mistyped command is answered with the one it most likely
// meant; a name like none gets the list alone.
func TestUnknownCommandSuggestsTheNearest(t *testing.T) {
	for typed, want := range map[string]string{
		"consle":     "did you mean console?", // a letter missing
		"cosnole":    "did you mean console?", // two swapped
		"CONSOLE":    "did you mean console?",
		"migr":       "did you mean migrate?", // the start of one
		"rn":         "did you mean run?",
		"xy":         "",
		"frobnicate": "",
	} {
		code, out, errs := runCmd(t, "", typed)
		if code != 2 || out != "" || !strings.Contains(errs, "usage: tessera") {
			t.Errorf("%s: exit %d, out %q, stderr %q", typed, code, out, errs)
		}
		first, _, _ := strings.Cut(errs, "\n")
		if want == "" && strings.Contains(first, "did you mean") || want != "" && !strings.HasSuffix(first, want) {
			t.Errorf("%s: %q, want %q", typed, first, want)
		}
	}
}

// Issue 45: every command's -h is its own usage (how to call it, what it
// does, its flags), where run, console, backup, check, ratings and
// migrate printed the flag package's "Usage of run:".
func TestEveryCommandsHelpIsItsUsage(t *testing.T) {
	for _, c := range commands {
		code, _, errs := runCmd(t, "", c.name, "-h")
		if code != 0 || strings.Contains(errs, "Usage of") || !strings.HasPrefix(errs, "usage: tessera "+c.name) {
			t.Errorf("tessera %s -h: exit %d\n%s", c.name, code, errs)
		}
	}
	_, _, errs := runCmd(t, "", "run", "-h")
	for _, want := range []string{"usage: tessera run [flags]", "Run the bot (the default)", "flags:", "-seed"} {
		if !strings.Contains(errs, want) {
			t.Errorf("tessera run -h lacks %q:\n%s", want, errs)
		}
	}
}

// Issue 45: one is one tournament, not "1 tournaments".
func TestCountsSayOne(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 games"}, {1, "1 game"}, {2, "2 games"}} {
		if got := count(c.n, "game", "games"); got != c.want {
			t.Errorf("count(%d) = %q, want %q", c.n, got, c.want)
		}
	}
	db := filepath.Join(t.TempDir(), "one.db")
	st, err := boltdb.Open(db, storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	svc := service.New(st, service.Config{Renderer: render.Renderer{}})
	req := service.Request{User: service.User{ID: "ana", Name: "ana"}, GuildID: "g", ChannelID: "c", InteractionID: "i1"}
	if _, err := svc.NewEvent(req, service.NewEventRequest{Name: "Cup", Game: "closure", Format: "round-robin"}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	if code, out, errs := runCmd(t, "", "tournament", "list", "--db", db); code != 0 || !strings.HasSuffix(out, "\n1 tournament\n") {
		t.Errorf("exit %d\n%s%s", code, out, errs)
	}
}
