package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// Item 20 of issue 24: the console reads as a terminal program. Its
// output has no Discord markdown (** for bold, ` for code), no Discord
// words ("this channel"), and its logs, to standard error, are only
// warnings and errors: at log_level info a new database used to log a
// level=INFO line among the game's lines.
func TestConsoleReadsAsATerminalProgram(t *testing.T) {
	dir := t.TempDir()
	env := consoleEnv(t, filepath.Join(dir, "new.db"))
	env["TESSERA_LOG_LEVEL"] = "info"
	script := "ana: /new elemental bo\nbo: /accept\nana: /moves h1\nana: /hand\ncy: /move h1 YGYG\nana: /move h1 YGYG\ncy: /board\nquit\n"
	code, out, errs := runWithEnv(t, env, script, "--seed", "7")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if errs != "" {
		t.Errorf("the console logged at info level: %q", errs)
	}
	for _, want := range []string{"ana challenges @bo to Elemental Connection", "You are not playing in any game in the console."} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
	for _, unwanted := range []string{"**", "`", "this channel", "this server"} {
		if strings.Contains(out, unwanted) {
			t.Errorf("the output shows %q:\n%s", unwanted, out)
		}
	}
}
