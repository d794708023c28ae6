package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tessera"
	"tessera/render"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/boltdb"
	"tessera/storage/storagetest"
	"tessera/tournament"
)

// playedDB makes a database through the service: finished and rated
// games (ratingsDB), games in play with real moves, a deadline and
// announcements waiting, an open challenge, user settings; it closes it.
func playedDB(t *testing.T) string {
	t.Helper()
	db := ratingsDB(t)
	st, err := boltdb.Open(db, storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1800000000, 0).UTC()
	svc := service.New(st, service.Config{Renderer: render.Renderer{}, Seed: func() uint64 { return 11 }, Now: func() time.Time { return now }})
	ana, bo := service.User{ID: "1", Name: "Ana"}, service.User{ID: "2", Name: "Bo"}
	n := 0
	req := func(u service.User) service.Request {
		n++
		now = now.Add(time.Minute)
		return service.Request{User: u, GuildID: "g", ChannelID: "c2", InteractionID: fmt.Sprint("m", n)}
	}
	must := func(_ service.Reply, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, game := range []string{"elemental", "closure", "glorieta"} {
		r, err := svc.NewGame(req(ana), service.NewGameRequest{Game: game, Opponents: []service.User{bo}, Options: "", Clock: "3d"})
		must(r, err)
		gs, _ := st.ByChannel(t.Context(), "c2")
		id := gs[len(gs)-1].ID
		must(svc.Click(req(bo), fmt.Sprint("accept:", id)))
		for range 4 {
			g, _ := st.Game(t.Context(), id)
			pos, err := service.Replay(g)
			if err != nil || pos.Over() {
				t.Fatalf("game %d: %v", id, err)
			}
			who := ana
			if g.Players[pos.ToMove()].ID == bo.ID {
				who = bo
			}
			must(svc.Move(req(who), fmt.Sprint(id), pos.Legal()[0].String()))
		}
	}
	must(svc.NewOpen(req(ana), service.NewGameRequest{Game: "closure", Seats: 3, Options: "", Clock: ""}))
	must(svc.Settings(req(bo), "off", "Europe/Paris"))
	st.Close()
	return db
}

// addEvents stores two tournaments in the closed database db: one open
// with a start time (the due index), one running with a round paired
// (its table's game is game 1).
func addEvents(t *testing.T, db string) {
	t.Helper()
	st, err := boltdb.Open(db, storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	open := storagetest.NewEvent()
	open.GuildID, open.Starts = "g", time.Unix(1900000000, 0).UTC()
	if err := st.CreateEvent(t.Context(), open, "e1"); err != nil {
		t.Fatal(err)
	}
	running := storagetest.NewEvent()
	running.GuildID, running.Status = "g", tessera.EventRunning
	running.Pairing.Played = []tournament.Round{{Tables: []tournament.Table{{Seats: []string{"1", "2"}}}, Byes: []string{"3", "bot"}}}
	running.Games = [][]uint64{{1}}
	if err := st.CreateEvent(t.Context(), running, "e2"); err != nil {
		t.Fatal(err)
	}
}

func TestMigrateCopiesAndChecks(t *testing.T) {
	src := playedDB(t)
	addEvents(t, src)
	dst := filepath.Join(t.TempDir(), "copy.db")
	code, out, errs := runCmd(t, "", "migrate", "--from", src, "--to", dst)
	if code != 0 || !strings.Contains(out, dst+": OK") || !strings.Contains(out, "every game replays identically") {
		t.Fatalf("migrate: exit %d\n%s%s", code, out, errs)
	}
	t.Logf("tessera migrate printed:\n%s", out)
	// Six games (two finished, three in play, one open challenge), their
	// announcements, two users with settings, five ratings.
	if !strings.Contains(out, "6 games (last id 6)") || !strings.Contains(out, "5 ratings") || !strings.Contains(out, "1 user,") || !strings.Contains(out, "2 events (last id 2)") {
		t.Fatalf("counts:\n%s", out)
	}
	a, b := openRO(t, src), openRO(t, dst)
	ra, rb := storagetest.Dump(t, a), storagetest.Dump(t, b)
	if len(ra) != len(rb) {
		t.Fatalf("%d records in the copy, %d in the original", len(rb), len(ra))
	}
	for i := range ra {
		if ra[i].Canonical() != rb[i].Canonical() {
			t.Fatalf("record %d differs:\n%s\n%s", i, rb[i].Canonical(), ra[i].Canonical())
		}
	}
	if p, _ := b.Pending(t.Context(), time.Unix(1<<40, 0), 100); len(p) == 0 {
		t.Fatal("no announcement waiting in the copy: the test shows nothing about the outbox")
	}
	a.Close()
	b.Close()
	// The copy is a database the other tools accept.
	if code, out, _ := runCmd(t, "", "check", "--db", dst); code != 0 {
		t.Fatalf("check of the copy: exit %d %s", code, out)
	}
	if code, out, _ := runCmd(t, "", "ratings", "--db", dst); code != 0 {
		t.Fatalf("ratings of the copy: exit %d %s", code, out)
	}

	// A non-empty target is refused, and left as it was.
	code, _, errs = runCmd(t, "", "migrate", "--from", src, "--to", dst)
	if code != 2 || !strings.Contains(errs, "is not empty") {
		t.Fatalf("migrate into a full database: exit %d %s", code, errs)
	}
	b = openRO(t, dst)
	if again := storagetest.Dump(t, b); len(again) != len(rb) {
		t.Fatalf("a refused migration changed the target: %d records, %d before", len(again), len(rb))
	}
	b.Close()
	// The same database twice, a missing source, a locked source.
	if code, _, errs := runCmd(t, "", "migrate", "--from", src, "--to", src); code != 2 || !strings.Contains(errs, "the same database") {
		t.Fatalf("migrate onto itself: exit %d %s", code, errs)
	}
	none := filepath.Join(t.TempDir(), "none.db")
	if code, _, errs := runCmd(t, "", "migrate", "--from", none, "--to", filepath.Join(t.TempDir(), "x.db")); code != 2 || !strings.Contains(errs, "does not exist") {
		t.Fatalf("migrate from a missing file: exit %d %s", code, errs)
	}
	if _, err := os.Stat(none); err == nil {
		t.Fatal("migrate made the missing source")
	}
	live, err := boltdb.Open(src, storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(t.TempDir(), "y.db")
	if code, _, errs := runCmd(t, "", "migrate", "--from", src, "--to", target); code != 1 || !strings.Contains(errs, "stop the bot first") {
		t.Fatalf("migrate from a running bot's file: exit %d %s", code, errs)
	}
	live.Close()
	if code, _, errs := runCmd(t, "", "migrate", "--from", src); code != 2 || !strings.Contains(errs, "usage") {
		t.Fatalf("no --to: exit %d %s", code, errs)
	}
	if code, _, errs := runCmd(t, "", "migrate", "--from", src, "--to", "postgres://nobody@127.0.0.1:1/none?password=s3cret"); code == 0 || strings.Contains(errs, "s3cret") {
		t.Fatalf("migrate to an unreachable server: exit %d, said %s", code, errs)
	}
}

// TestMigrateFindsADifference: the check after the copy is no formality.
// A target whose adapter loses something (here: every game's last move,
// and one user) is reported, with exit status 1.
func TestMigrateFindsADifference(t *testing.T) {
	src := openRO(t, playedDB(t))
	defer src.Close()
	dst, err := boltdb.Open(filepath.Join(t.TempDir(), "lossy.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	m := newMigration()
	err = dst.Load(t.Context(), func(put func(storage.Record) error) error {
		return src.Dump(t.Context(), func(r storage.Record) error {
			m.add(r)
			switch {
			case r.Game != nil && len(r.Game.Moves) > 0 && r.Game.Status == tessera.StatusPlaying:
				g := *r.Game
				g.Moves = g.Moves[:len(g.Moves)-1]
				r.Game = &g
			case r.User != nil:
				return nil
			}
			return put(r)
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	problems := strings.Join(m.verify(t.Context(), src, dst), "\n")
	for _, want := range []string{"game 3: differs", "game 3 replays to", "user 2: missing from the copy"} {
		if !strings.Contains(problems, want) {
			t.Errorf("no %q among the problems:\n%s", want, problems)
		}
	}
}

func openRO(t *testing.T, path string) *boltdb.Store {
	t.Helper()
	s, err := boltdb.Open(path, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestMigrateGameAgainstTheComputer (issue #24 item 11): a database that
// holds a game against the computer, as the console makes it (`ana: /new
// closure tessera level=easy`, then a resignation), migrates. The AI's
// seat is a player of its game like any other: every change of the game
// (here the resignation) must keep it in the games-by-player index, as the
// copy's Load does, or the check after the copy finds them different.
func TestMigrateGameAgainstTheComputer(t *testing.T) {
	src := filepath.Join(t.TempDir(), "ai.db")
	st, err := boltdb.Open(src, storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1800000000, 0).UTC()
	svc := service.New(st, service.Config{Renderer: render.Renderer{}, Seed: func() uint64 { return 3 }, Now: func() time.Time { return now }})
	bot := service.User{ID: "tessera", Name: "Tessera"}
	svc.SetBot(bot)
	ana := service.User{ID: "ana", Name: "ana"}
	req := service.Request{User: ana, ChannelID: "console", InteractionID: "n1"}
	if _, err := svc.NewGame(req, service.NewGameRequest{Game: "closure", Opponents: []service.User{bot}, Options: "", Clock: "", Level: "easy"}); err != nil {
		t.Fatal(err)
	}
	now = now.Add(time.Minute)
	req.InteractionID = "r1"
	if _, err := svc.ResignConfirm(req, 1); err != nil {
		t.Fatal(err)
	}
	if g, _ := st.Game(t.Context(), 1); g.Status != tessera.StatusFinished || !g.Players[1].IsAI() {
		t.Fatalf("game 1: %s, players %+v; want a finished game against the AI", g.Status, g.Players)
	}
	if gs, err := st.ByPlayer(t.Context(), bot.ID); err != nil || len(gs) != 1 {
		t.Fatalf("games of the computer after the resignation: %d %v, want game 1", len(gs), err)
	}
	st.Close()
	dst := filepath.Join(t.TempDir(), "copy.db")
	code, out, errs := runCmd(t, "", "migrate", "--from", src, "--to", dst)
	if code != 0 || !strings.Contains(out, dst+": OK") {
		t.Fatalf("migrate: exit %d\n%s%s", code, out, errs)
	}
}
