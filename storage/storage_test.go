package storage

import (
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
