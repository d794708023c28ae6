package main

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tessera/bot"
	"tessera/bot/fakediscord"
	"tessera/render"
	"tessera/runner"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/boltdb"
	"tessera/storage/storagetest/watch"
)

// TestExportReplaysToTheSameJSON plays the README's example game (seed 7,
// borders RBGY) on a bot connected to the fake Discord, answers /export
// through it, and plays the record back with `tessera replay --record`:
// the JSON is exactly what replaying the example's moves file prints.
func TestExportReplaysToTheSameJSON(t *testing.T) {
	t.Chdir("../..")
	srv := fakediscord.New(t)
	file, err := boltdb.Open(filepath.Join(t.TempDir(), "t.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	st := watch.New(file) // the cleanup's wait wakes on its writes
	svc := service.New(st, service.Config{Renderer: render.Renderer{}, Seed: func() uint64 { return 7 },
		Logger: slog.New(slog.DiscardHandler), RetryBase: 20 * time.Millisecond})
	b, err := bot.New(svc, bot.Options{Token: "t", Configure: srv.Configure, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := b.Open(ctx); err != nil {
		t.Fatal(err)
	}
	loopsCfg := loopsConfig(svc, slog.New(slog.DiscardHandler), b, true)
	loopsCfg.RetryEvery = 20 * time.Millisecond
	loops := runner.Start(loopsCfg)
	t.Cleanup(func() {
		// Everything owed is delivered before the bot stops (a post cut
		// off by the stop would be a violation of the fake's rules); the
		// minute only bounds a hang.
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		st.WaitFor(ctx, func() bool {
			n, err := st.Outbox(ctx)
			return err == nil && n == 0
		})
		loops.Close()
		b.Close()
		st.Close()
	})
	bo := srv.AddUser("bo")
	answer := func(ib *fakediscord.InteractionBuilder) fakediscord.InteractionResponse {
		t.Helper()
		sent := ib.Send(t)
		return srv.WaitInteraction(t, sent.ID, func(r fakediscord.InteractionResponse) bool {
			return r.Acknowledged && (r.Type != 5 || len(r.Followups) > 0 || r.Original != nil && r.Original.Content != "")
		}, time.Minute)
	}
	answer(srv.Slash("new", fakediscord.Str("game", "elemental"), fakediscord.UserOpt("opponent", bo.ID), fakediscord.Str("options", "borders=RBGY")).By(srv.User))
	answer(srv.Button("accept:1").By(bo))

	example := "docs/examples/elemental.moves"
	text, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	users := []service.User{{ID: srv.User.ID, Name: srv.User.Username}, {ID: bo.ID, Name: bo.Username}}
	n := 0
	for _, line := range strings.Split(string(text), "\n") {
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		req := service.Request{User: users[n%2], GuildID: srv.GuildID, ChannelID: srv.ChannelID}
		if _, err := svc.Move(req, "1", line); err != nil {
			t.Fatalf("move %d %q: %v", n+1, line, err)
		}
		n++
	}

	r := answer(srv.Slash("export", fakediscord.Str("game", "1")).By(bo))
	// An answer with files is deferred and its files edited in (or, after
	// a private deferral, sent as a follow-up).
	files := r.Files
	if len(r.Followups) > 0 {
		files = r.Followups[len(r.Followups)-1].Files
	} else if r.Type == 5 && r.Original != nil {
		files = r.Original.Files
	}
	if len(files) != 2 || files[0].Name != "game-1.json" || files[0].ContentType != "application/json" || files[1].Name != "game-1.txt" {
		t.Fatalf("/export files: %+v", files)
	}
	var rec service.Record
	if err := json.Unmarshal(files[0].Data, &rec); err != nil || len(rec.Moves) != 64 || rec.Result.Text != "bo wins" {
		t.Fatalf("record: %v %+v", err, rec.Result)
	}
	if list := string(files[1].Data); !strings.Contains(list, " 64. bo ") || !strings.Contains(list, "Result: bo wins. Final scores: alice 72 · bo 76.") {
		t.Fatalf("move list:\n%s", list)
	}
	path := filepath.Join(t.TempDir(), "game-1.json")
	if err := os.WriteFile(path, files[0].Data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, got, errs := runCmd(t, "", "replay", "--record", path)
	wantCode, want, _ := runCmd(t, "", "replay", "--game", "elemental", "--players", "2", "--seed", "7", "--option", "borders=RBGY", example)
	if code != 0 || wantCode != 0 || got != want || !strings.Contains(got, `"scores":[72,76]`) {
		t.Fatalf("replay --record: exit %d %s\n%s\nwant\n%s", code, errs, got, want)
	}

	// A record whose result was changed, or that is not a record, fails.
	forged := strings.Replace(string(files[0].Data), `"winners": [
      2
    ]`, `"winners": [
      1
    ]`, 1)
	os.WriteFile(path, []byte(forged), 0o644)
	if code, _, errs := runCmd(t, "", "replay", "--record", path); code != 1 || !strings.Contains(errs, "the record says") {
		t.Fatalf("a forged record: exit %d %s", code, errs)
	}
	if code, _, errs := runCmd(t, "", "replay", "--record", example); code != 1 || !strings.Contains(errs, "not a record file") {
		t.Fatalf("a moves file as a record: exit %d %s", code, errs)
	}
	if code, _, _ := runCmd(t, "", "replay", "--record", path, "--game", "elemental"); code != 2 {
		t.Fatalf("--record with --game: exit %d", code)
	}
}
