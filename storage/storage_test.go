package storage

import (
	"bytes"
	"errors"
	bolt "go.etcd.io/bbolt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"tessera"
	"tessera/engine"
)

func open(t *testing.T, path string) *Store {
	t.Helper()
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func newGame() *tessera.Game {
	return &tessera.Game{
		Status:    tessera.StatusPlaying,
		Setup:     engine.Setup{Game: "elemental", Players: 2, Seed: 7},
		Players:   []tessera.Player{{ID: "1", Name: "ana"}, {ID: "2", Name: "bo"}},
		ChannelID: "c1",
		Created:   time.Unix(1000, 0).UTC(),
	}
}

func TestReopenKeepsEverything(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	s := open(t, path)
	g := newGame()
	if err := s.Create(g, "i1"); err != nil {
		t.Fatal(err)
	}
	if g.ID != 1 || g.Version != 1 {
		t.Fatalf("id %d version %d, want 1 1", g.ID, g.Version)
	}
	if _, err := s.Update(g.ID, 1, "i2", func(g *tessera.Game, _ *Tx) error {
		g.Moves = append(g.Moves, tessera.MoveEntry{Seat: 0, Text: "d5 RGBY"})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	s.Close()

	s = open(t, path)
	defer s.Close()
	got, err := s.Game(1)
	if err != nil {
		t.Fatal(err)
	}
	if got.Version != 2 || len(got.Moves) != 1 || got.Moves[0].Text != "d5 RGBY" || got.Setup.Seed != 7 {
		t.Fatalf("after reopen: %+v", got)
	}
	for _, id := range []string{"1", "2"} {
		if gs, _ := s.ByPlayer(id); len(gs) != 1 || gs[0].ID != 1 {
			t.Fatalf("by player %s: %v", id, gs)
		}
	}
	if gs, _ := s.ByPlayer("3"); len(gs) != 0 {
		t.Fatalf("player 3 has games: %v", gs)
	}
	if gs, _ := s.ByChannel("c1"); len(gs) != 1 {
		t.Fatalf("by channel: %v", gs)
	}
	if ok, _ := s.Handled("i2"); !ok {
		t.Fatal("interaction i2 forgotten after reopen")
	}
	// A second game gets the next id.
	g2 := newGame()
	if err := s.Create(g2, ""); err != nil || g2.ID != 2 {
		t.Fatalf("second game id %d err %v", g2.ID, err)
	}
}

func TestRacingMovesOneWins(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "t.db"))
	defer s.Close()
	g := newGame()
	if err := s.Create(g, ""); err != nil {
		t.Fatal(err)
	}
	const racers = 8
	var wg sync.WaitGroup
	errs := make([]error, racers)
	for i := 0; i < racers; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			// Every racer read version 1 before moving.
			_, errs[i] = s.Update(g.ID, 1, "", func(g *tessera.Game, _ *Tx) error {
				g.Moves = append(g.Moves, tessera.MoveEntry{Seat: 0, Text: "move"})
				return nil
			})
		}(i)
	}
	wg.Wait()
	ok, conflicts := 0, 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case errors.Is(err, ErrConflict):
			conflicts++
		default:
			t.Fatal(err)
		}
	}
	if ok != 1 || conflicts != racers-1 {
		t.Fatalf("%d successes and %d conflicts, want 1 and %d", ok, conflicts, racers-1)
	}
	got, _ := s.Game(g.ID)
	if len(got.Moves) != 1 || got.Version != 2 {
		t.Fatalf("moves %d version %d, want 1 and 2", len(got.Moves), got.Version)
	}
	if tessera.ErrorCode(ErrConflict) != tessera.ECONFLICT || !strings.Contains(tessera.ErrorMessage(ErrConflict), "try again") {
		t.Fatal("conflict is not a user-safe 'try again'")
	}
}

func TestRepeatedInteractionAppliesOnce(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "t.db"))
	defer s.Close()
	g := newGame()
	s.Create(g, "")
	change := func(g *tessera.Game, _ *Tx) error {
		g.Moves = append(g.Moves, tessera.MoveEntry{Text: "x"})
		return nil
	}
	g2, err := s.Update(g.ID, 1, "same", change)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Update(g.ID, g2.Version, "same", change); !errors.Is(err, ErrDuplicate) {
		t.Fatalf("second delivery: %v, want ErrDuplicate", err)
	}
	got, _ := s.Game(g.ID)
	if len(got.Moves) != 1 {
		t.Fatalf("%d moves after a repeated interaction, want 1", len(got.Moves))
	}
	if err := s.MarkHandled("same"); !errors.Is(err, ErrDuplicate) {
		t.Fatalf("MarkHandled of a handled id: %v", err)
	}
}

func TestFailedChangeWritesNothing(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "t.db"))
	defer s.Close()
	g := newGame()
	s.Create(g, "")
	boom := errors.New("boom")
	if _, err := s.Update(g.ID, 1, "i", func(g *tessera.Game, _ *Tx) error {
		g.Moves = append(g.Moves, tessera.MoveEntry{Text: "x"})
		return boom
	}); !errors.Is(err, boom) {
		t.Fatal(err)
	}
	got, _ := s.Game(g.ID)
	if len(got.Moves) != 0 || got.Version != 1 {
		t.Fatal("a failed change was written")
	}
	if ok, _ := s.Handled("i"); ok {
		t.Fatal("a failed change marked its interaction handled")
	}
}

func TestSecondProcessFailsFast(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	s := open(t, path)
	defer s.Close()
	_, err := Open(path, Options{LockTimeout: 50 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "locked by another process") {
		t.Fatalf("second open: %v", err)
	}
}

func TestSchemaVersionChecked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	s := open(t, path)
	s.db.Update(func(tx *boltTx) error { return tx.Bucket(bMeta).Put(kSchema, []byte("99")) })
	s.Close()
	if _, err := Open(path, Options{}); err == nil || !strings.Contains(err.Error(), "schema version 99") {
		t.Fatalf("open of a newer schema: %v", err)
	}
}

func TestPruneHandled(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "t.db"))
	defer s.Close()
	s.MarkHandled("old")
	n, err := s.PruneHandled(time.Now().Add(time.Hour))
	if err != nil || n != 1 {
		t.Fatalf("pruned %d, %v", n, err)
	}
	if ok, _ := s.Handled("old"); ok {
		t.Fatal("pruned id still handled")
	}
}

type boltTx = bolt.Tx

func TestOutboxInOrderAndHeldBack(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "t.db"))
	defer s.Close()
	a, b := newGame(), newGame()
	s.Create(a, "")
	s.Create(b, "")
	// One transaction: a move and its announcements.
	_, err := s.Update(a.ID, 1, "", func(g *tessera.Game, tx *Tx) error {
		for _, k := range []string{"post", "status", "turn"} {
			if err := tx.Enqueue(tessera.Announcement{Kind: k, GameID: g.ID}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s.Update(b.ID, 1, "", func(g *tessera.Game, tx *Tx) error {
		return tx.Enqueue(tessera.Announcement{Kind: "post", GameID: g.ID})
	})
	now := time.Now()
	p, _ := s.Pending(now, 10)
	if len(p) != 4 || p[0].Kind != "post" || p[1].Kind != "status" || p[2].Kind != "turn" || p[3].GameID != b.ID {
		t.Fatalf("pending %+v", p)
	}
	// The first of game a waits for a retry: game a's later ones wait too,
	// game b's do not.
	s.Retry(p[0].Seq, now.Add(time.Minute))
	p2, _ := s.Pending(now, 10)
	if len(p2) != 1 || p2[0].GameID != b.ID {
		t.Fatalf("pending while a retry waits: %+v", p2)
	}
	p3, _ := s.Pending(now.Add(2*time.Minute), 10)
	if len(p3) != 4 || p3[0].Tries != 1 {
		t.Fatalf("pending after the wait: %+v", p3)
	}
	for _, x := range p3 {
		s.Delivered(x.Seq)
	}
	if n, _ := s.Outbox(); n != 0 {
		t.Fatalf("%d left", n)
	}
	// A failed change enqueues nothing.
	s.Update(a.ID, 2, "", func(g *tessera.Game, tx *Tx) error {
		tx.Enqueue(tessera.Announcement{Kind: "post", GameID: g.ID})
		return errors.New("no")
	})
	if n, _ := s.Outbox(); n != 0 {
		t.Fatal("an aborted change left an announcement")
	}
}

func TestDeadlineIndex(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "t.db"))
	defer s.Close()
	t0 := time.Unix(1_000_000, 0)
	var ids []uint64
	for _, d := range []time.Duration{3 * time.Hour, time.Hour, 2 * time.Hour} {
		g := newGame()
		g.Deadline = t0.Add(d)
		s.Create(g, "")
		ids = append(ids, g.ID)
	}
	due, _ := s.Due(t0.Add(2 * time.Hour))
	if len(due) != 2 || due[0] != ids[1] || due[1] != ids[2] {
		t.Fatalf("due %v, want %d then %d (earliest first)", due, ids[1], ids[2])
	}
	// Moving a deadline moves its index entry; finishing a game removes it.
	s.Update(ids[1], 1, "", func(g *tessera.Game, _ *Tx) error { g.Deadline = t0.Add(5 * time.Hour); return nil })
	s.Update(ids[2], 1, "", func(g *tessera.Game, _ *Tx) error { g.Status = tessera.StatusFinished; return nil })
	due, _ = s.Due(t0.Add(4 * time.Hour))
	if len(due) != 1 || due[0] != ids[0] {
		t.Fatalf("due %v, want only %d", due, ids[0])
	}
	if next, _ := s.NextDeadline(); !next.Equal(t0.Add(3 * time.Hour)) {
		t.Fatalf("next deadline %v", next)
	}
}

func TestUsersAndThreadIndex(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "t.db"))
	defer s.Close()
	u, _ := s.User("9")
	if u.NotifyOff || u.TimeZone != "" {
		t.Fatal("defaults")
	}
	s.UpdateUser("9", func(u *tessera.UserSettings, _ *Tx) error { u.NotifyOff, u.TimeZone = true, "Europe/Paris"; return nil })
	if u, _ = s.User("9"); !u.NotifyOff || u.TimeZone != "Europe/Paris" {
		t.Fatalf("%+v", u)
	}
	g := newGame()
	s.Create(g, "")
	s.Modify(g.ID, func(g *tessera.Game, _ *Tx) error { g.ThreadID = "th"; return nil })
	if gs, _ := s.ByChannel("th"); len(gs) != 1 {
		t.Fatal("a game is found by its thread")
	}
	if got, _ := s.Game(g.ID); got.Version != 1 {
		t.Fatal("Modify must not bump the version (no move in flight needs to retry)")
	}
	if errs := s.Check(); len(errs) != 0 {
		t.Fatalf("check: %v", errs)
	}
	var buf bytes.Buffer
	if n, err := s.Backup(&buf); err != nil || n == 0 || int64(buf.Len()) != n {
		t.Fatalf("backup %d bytes: %v", n, err)
	}
}
