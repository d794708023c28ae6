package bot_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tessera"
	"tessera/bot"
	"tessera/bot/fakediscord"
	"tessera/engine"
	"tessera/storage"
	"tessera/storage/boltdb"
	"tessera/storage/storagetest/watch"
)

// TestDamagedPageAtRun: the page of a player's index is zeroed in the
// file the bot runs on (opening does not read it). The player's /games
// meets it: the answer is a short reply, the log one line naming tessera
// check, and no panic; the bot goes on answering. Before, bbolt's panic
// ("page expected to be") was caught only by the handler's last resort,
// with a stack trace in the log.
func TestDamagedPageAtRun(t *testing.T) {
	srv := fakediscord.New(t)
	ana := srv.User
	path := filepath.Join(t.TempDir(), "t.db")
	st, err := boltdb.Open(path, storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 200; i++ {
		g := &tessera.Game{Status: tessera.StatusPlaying, Setup: engine.Setup{Game: "elemental", Players: 2, Seed: uint64(i)},
			Players: []tessera.Player{{ID: ana.ID, Name: "ana", Accepted: true}, {ID: fmt.Sprint("other", i), Name: "o", Accepted: true}},
			GuildID: srv.GuildID, ChannelID: srv.ChannelID, ThreadID: fmt.Sprint("thread", i), Created: time.Now()}
		if err := st.Create(t.Context(), g, ""); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Her index keys are her id, a zero byte, a game id: nothing else in
	// the file has her id followed by a zero byte.
	at := bytes.Index(data, append([]byte(ana.ID), 0))
	if at < 0 {
		t.Fatal("no index key of hers in the file")
	}
	const ps = 4096
	page := at / ps
	clear(data[page*ps : (page+1)*ps])
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}

	bst, err := boltdb.Open(path, storage.Options{NoSync: true})
	if err != nil {
		t.Fatalf("the damage is not in a page opening reads: %v", err)
	}
	t.Cleanup(func() { bst.Close() })
	logs := &logBuffer{t: t}
	logger := slog.New(slog.NewTextHandler(logs, nil))
	clock := &fakeClock{now: time.Now().UTC()}
	ws := watch.New(bst)
	w := &world{srv: srv, store: ws, svc: newService(ws, logger, clock.Now), ana: ana, clock: clock, logs: logs}
	w.begin(t, bot.Options{}, logger)

	r := w.respond(t, srv.Slash("games").By(ana))
	if !ephemeral(r) || len(text(r)) > 300 {
		t.Fatalf("/games on a damaged page: %q (ephemeral %v), want a short private reply", text(r), ephemeral(r))
	}
	logs.waitLine(t, "tessera check")
	if log := logs.String(); strings.Contains(log, "panic") || strings.Contains(log, "goroutine ") {
		t.Fatalf("a panic in the log:\n%s", log)
	}
	// The bot goes on: an answer that needs no damaged page.
	r = w.respond(t, srv.Slash("help").By(w.bo))
	if text(r) == "" && final(r) == nil {
		t.Fatal("no answer after the damage")
	}
}
