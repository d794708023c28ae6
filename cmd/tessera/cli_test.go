package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Item 13: help lists every subcommand, one line each, and exits 0, however
// it is asked for; a command's own -h exits 0 too.
func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}, {"-help"}} {
		code, out, errs := runCmd(t, "", args...)
		if code != 0 || errs != "" {
			t.Fatalf("%v: exit %d, stderr %q", args, code, errs)
		}
		for _, c := range commands {
			line := ""
			for _, l := range strings.Split(out, "\n") {
				if strings.HasPrefix(strings.TrimSpace(l), c.name+" ") {
					line = l
				}
			}
			if line == "" || len(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), c.name))) < 10 {
				t.Fatalf("%v: no line for %s:\n%s", args, c.name, out)
			}
		}
	}
	for _, name := range []string{"run", "replay", "backup", "check"} {
		found := false
		for _, c := range commands {
			found = found || c.name == name
		}
		if !found {
			t.Fatalf("no command %s", name)
		}
		if code, _, errs := runCmd(t, "", name, "-h"); code != 0 || !strings.Contains(errs, "-") {
			t.Fatalf("%s -h: exit %d %q", name, code, errs)
		}
	}
	if code, _, errs := runCmd(t, "", "frobnicate"); code != 2 || !strings.Contains(errs, "unknown command") || !strings.Contains(errs, "replay") {
		t.Fatalf("unknown command: exit %d %q", code, errs)
	}
}

// Item 14: bad settings are refused at start-up, naming the key.
func TestConfigRefusesBadSettings(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.yaml")
	for yaml, want := range map[string]string{
		"defaults:\n  options:\n    chess: \"x=1\"\n":              "defaults.options.chess",
		"defaults:\n  options:\n    elemental: \"colour=red\"\n":   "defaults.options.elemental",
		"defaults:\n  options:\n    elemental: \"borders=RRRR\"\n": "defaults.options.elemental",
		"defaults:\n  options:\n    closure: \"first=9\"\n":        "defaults.options.closure",
		"defaults:\n  options:\n    Elemental: \"borders=RBGY\"\n": "defaults.options.Elemental",
		"defaults:\n  options:\n    tilingking: \"board=cube\"\n":  "defaults.options.tilingking",
		"reminders:\n  after: -24h\n":                              "reminders.after",
		"reminders:\n  after: 0s\n":                                "reminders.after",
		"reminders:\n  after: \"\"\n":                              "reminders.after",
		"reminders:\n  after: 100000h\n":                           "reminders.after",
		"vacation:\n  days: 0\n":                                   "vacation.days",
		"vacation:\n  days: -5\n":                                  "vacation.days",
		"vacation:\n  days: 100000\n":                              "vacation.days",
		"ratings:\n  provisional: 0\n":                             "ratings.provisional",
		"ratings:\n  provisional: 101\n":                           "ratings.provisional",
		"defaults:\n  clock: -3d\n":                                "defaults.clock",
		"defaults:\n  clock: 0d\n":                                 "defaults.clock",
	} {
		os.WriteFile(path, []byte(yaml), 0o600)
		_, err := loadConfig(path, true, func(string) string { return "" })
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v (want an error naming %s)", yaml, err, want)
		}
	}
	os.WriteFile(path, []byte("defaults:\n  options:\n    elemental: \"borders=RBGY\"\n    closure: \"first=2\"\nvacation:\n  days: 5\nreminders:\n  after: 36h\n"), 0o600)
	c, err := loadConfig(path, true, func(string) string { return "" })
	if err != nil || c.Vacation.Days != 5 || c.Reminders.After != "36h" {
		t.Fatalf("good settings: %+v %v", c, err)
	}
	// And at start-up: run refuses, with exit status 2, before opening
	// (so before creating) the database.
	db := filepath.Join(t.TempDir(), "t.db")
	os.WriteFile(path, []byte("vacation:\n  days: 0\n"), 0o600)
	code, _, errs := runWithEnv(t, map[string]string{"TESSERA_CONFIG": path, "TESSERA_DATABASE": db}, "quit\n")
	if code != 2 || !strings.Contains(errs, "vacation.days") {
		t.Fatalf("run: exit %d %q", code, errs)
	}
	if _, err := os.Stat(db); err == nil {
		t.Fatal("the database was created despite bad settings")
	}
}
