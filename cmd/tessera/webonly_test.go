package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"tessera"
	"tessera/render"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/boltdb"
)

// TestWebOnlyProcess: `tessera run` with process.web_only serves the
// game pages without a Discord token, runs the clocks (a game whose
// deadline passed while nothing ran is timed out), and delivers nothing:
// what that announces waits in the outbox for a Discord process on the
// same database (issue #45: a process serving the web alone gets the
// loops without copying them).
func TestWebOnlyProcess(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	st, err := boltdb.Open(db, storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	// A game begun a month ago, whose first move's deadline (the default
	// clock's days) has long passed.
	then := time.Now().Add(-30 * 24 * time.Hour)
	svc := service.New(st, service.Config{Renderer: render.Renderer{}, Now: func() time.Time { return then }})
	ana, bo := service.User{ID: "1", Name: "ana"}, service.User{ID: "2", Name: "bo"}
	r, err := svc.NewGame(service.Request{User: ana, GuildID: "g", ChannelID: "c", InteractionID: "i1"}, service.NewGameRequest{Game: "elemental", Opponents: []service.User{bo}, Clock: "3d"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Click(service.Request{User: bo, GuildID: "g", ChannelID: "c", InteractionID: "i2"}, service.ButtonID("accept", r.Challenge)); err != nil {
		t.Fatal(err)
	}
	waiting, err := st.Outbox(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	st.Close()

	env := map[string]string{"TESSERA_DATABASE": db, "TESSERA_WEB_ONLY": "true", "TESSERA_WEB_LISTEN": "127.0.0.1:0",
		"TESSERA_PICTURES": filepath.Join(t.TempDir(), "pics")}
	var out, errb syncBuffer
	done := make(chan int)
	// Standard input is no terminal and there is no token: without
	// web_only this exits 2 (TestRunWithoutTokenOffATerminalFails).
	go func() {
		done <- runBot(nil, strings.NewReader(""), &out, &errb, func(k string) string { return env[k] })
	}()
	up := regexp.MustCompile(`serving the game pages only.* url=http://127\.0\.0\.1:\d+`)
	// The wait bounds a hang; it measures nothing.
	if !errb.waitFor(func(s string) bool { return up.MatchString(s) }) {
		select {
		case code := <-done:
			t.Fatalf("exit %d: %s", code, errb.String())
		default:
			t.Fatalf("the web-only process did not start: %s", errb.String())
		}
	}
	// The runner's clock ticks once as it starts and finishes a tick
	// under way when closed: after the signal, that tick has run.
	syscall.Kill(os.Getpid(), syscall.SIGTERM)
	if code := <-done; code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	st, err = boltdb.Open(db, storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	g, err := st.Game(t.Context(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != tessera.StatusFinished {
		t.Errorf("the game is %v after the web-only process ran (deadline %v, clock %+v): its clock did not run\n%s", g.Status, g.Deadline, g.Clock, errb.String())
	}
	after, err := st.Outbox(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if after <= waiting {
		t.Errorf("outbox: %d waiting before, %d after; want the timeout's announcements waiting, undelivered", waiting, after)
	}
}

// TestWebOnlyNeedsPages: a web-only process with no address to serve the
// pages on is refused at start, saying what to set.
func TestWebOnlyNeedsPages(t *testing.T) {
	env := map[string]string{"TESSERA_DATABASE": filepath.Join(t.TempDir(), "t.db"), "TESSERA_WEB_ONLY": "1"}
	var out, errb strings.Builder
	if code := runBot(nil, strings.NewReader(""), &out, &errb, func(k string) string { return env[k] }); code != 2 || !strings.Contains(errb.String(), "web.listen is empty") {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
}

// TestConfigProcess: the process block and its environment overrides.
func TestConfigProcess(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		env        map[string]string
		webOnly    bool
		workers    bool
		err        string
	}{
		// Nothing said: a process does everything.
		{"default", "", nil, false, true, ""},
		{"file", "process:\n  web_only: true\n  workers: false\n", nil, true, false, ""},
		// The environment wins over the file, as for every setting.
		{"env wins", "process:\n  workers: false\n", map[string]string{"TESSERA_WORKERS": "1"}, false, true, ""},
		{"env web only", "", map[string]string{"TESSERA_WEB_ONLY": "true"}, true, true, ""},
		// A typo is refused rather than read as false.
		{"bad env", "", map[string]string{"TESSERA_WORKERS": "nope"}, false, false, `TESSERA_WORKERS="nope": write true or false`},
		{"unknown key", "process:\n  webonly: true\n", nil, false, false, "webonly"},
		// Interactions are Discord's: a web-only process cannot answer them.
		{"interactions", "process:\n  web_only: true\ninteractions:\n  listen: :8443\n  public_key: " + strings.Repeat("ab", 32) + "\n", map[string]string{"DISCORD_TOKEN": "t"}, false, false, "answers no Discord interactions"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := parseConfig([]byte(tc.yaml), "config.yaml", func(k string) string { return tc.env[k] })
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Process.WebOnly != tc.webOnly || c.workers() != tc.workers {
				t.Errorf("web_only %v, workers %v; want %v, %v", c.Process.WebOnly, c.workers(), tc.webOnly, tc.workers)
			}
		})
	}
}
