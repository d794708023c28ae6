package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Item 18: without DISCORD_TOKEN and with no terminal on standard input
// (a container: /dev/null; a service manager: a pipe), `tessera run`
// exits with status 2 saying the token is missing, and creates nothing;
// it used to start the console, read the end of its input and exit 0, so
// that the misconfigured deployment looked healthy. `tessera console`
// still plays a script from any input.
func TestRunWithoutTokenOffATerminalFails(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "t.db")
	env := consoleEnv(t, db)
	getenv := func(k string) string { return env[k] }
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	for name, stdin := range map[string]io.Reader{"/dev/null": null, "a script": strings.NewReader("ana: /rules closure\nquit\n")} {
		var out, errb strings.Builder
		code := runBot(nil, stdin, &out, &errb, getenv)
		if code != 2 || !strings.Contains(errb.String(), "DISCORD_TOKEN is not set") || !strings.Contains(errb.String(), "tessera console") || out.Len() != 0 {
			t.Fatalf("run with %s: exit %d, stdout %q, stderr %q", name, code, out.String(), errb.String())
		}
		if _, err := os.Stat(db); err == nil {
			t.Fatalf("run with %s created the database", name)
		}
	}
	code, out, errs := runWithEnv(t, env, "ana: /rules closure\nquit\n")
	if code != 0 || !strings.Contains(out, "Tessera local console") || !strings.Contains(out, "Closure") {
		t.Fatalf("console: exit %d\n%s\n%s", code, out, errs)
	}
}

// Item 17: every command that opens the bot's database names it with
// --db (load took --database, run took none), and a new database may be
// in a folder that does not exist yet: the commands that create one make
// the folder, where they used to fail with "no such file or directory".
func TestDatabaseFlagAndNewFolders(t *testing.T) {
	dir := t.TempDir()
	env := consoleEnv(t, filepath.Join(dir, "unused.db"))
	db := filepath.Join(dir, "a", "b", "t.db")
	code, out, errs := runWithEnv(t, env, "ana: /new elemental bo\nbo: /accept\nana: /resign\nana: /click resign:1\nquit\n", "--db", db)
	if code != 0 || !strings.Contains(out, "new folder "+filepath.Join(dir, "a", "b")) {
		t.Fatalf("console --db: exit %d\n%s\n%s", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "unused.db")); err == nil {
		t.Fatal("--db did not take the place of the configured database")
	}
	for _, args := range [][]string{
		{"check", "--db", db},
		{"ratings", "--db", db},
		{"backup", "--db", db, filepath.Join(dir, "copy.db")},
		{"migrate", "--from", db, "--to", filepath.Join(dir, "c", "d", "m.db")},
		{"load", "--db", filepath.Join(dir, "e", "f", "l.db"), "--games", "2", "--seconds", "0.1", "--drain", "300", "--nosync"},
	} {
		if code, out, errs := runCmd(t, "", args...); code != 0 {
			t.Errorf("%v: exit %d\n%s\n%s", args, code, out, errs)
		}
	}
	for _, made := range []string{"c/d/m.db", "e/f/l.db"} {
		if _, err := os.Stat(filepath.Join(dir, made)); err != nil {
			t.Errorf("%s: %v", made, err)
		}
	}
	// run takes --db too (here it stops at the missing token, not at the flag).
	var errb strings.Builder
	if code := runBot([]string{"--db", db}, strings.NewReader(""), io.Discard, &errb, func(string) string { return "" }); code != 2 || !strings.Contains(errb.String(), "DISCORD_TOKEN") {
		t.Fatalf("run --db: exit %d %q", code, errb.String())
	}
}
