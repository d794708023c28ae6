package storagetest

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"tessera"
	"tessera/storage"
)

// testTxCreateGame: Tx.CreateGame with a change has CreateWith's
// promises inside another transaction (a tournament's round makes its
// games in the event's or the ending game's): change sees the game with
// its id, before it is written, so that the game begins in the one write
// (Version 1, with change's edits, its announcements keyed by its id);
// an error from change fails the transaction and stores no game.
func testTxCreateGame(t *testing.T, open func(t *testing.T) storage.Store) {
	s := open(t)
	e := NewEvent()
	if err := s.CreateEvent(t.Context(), e, ""); err != nil {
		t.Fatal(err)
	}
	g := NewGame()
	g.Status = tessera.StatusChallenge
	if _, err := s.UpdateEvent(t.Context(), e.ID, e.Version, "", func(e *tessera.Event, tx storage.Tx) error {
		return tx.CreateGame(t.Context(), g, func(g *tessera.Game) error {
			if g.ID == 0 || g.Version != 1 {
				return fmt.Errorf("change saw id %d version %d, want an id and 1", g.ID, g.Version)
			}
			g.Status, g.Event = tessera.StatusPlaying, e.ID
			return tx.Enqueue(t.Context(), tessera.Announcement{Kind: tessera.AnnounceThread, GameID: g.ID})
		})
	}); err != nil {
		t.Fatal(err)
	}
	if got := game(t, s, g.ID); got.Version != 1 || got.Status != tessera.StatusPlaying || got.Event != e.ID {
		t.Fatalf("stored after its change: version %d status %s event %d, want 1, playing, %d", got.Version, got.Status, got.Event, e.ID)
	}
	if p, _ := s.Pending(t.Context(), time.Now(), 10); len(p) != 1 || p[0].GameID != g.ID {
		t.Fatalf("enqueued by the change: %+v", p)
	}

	boom := errors.New("boom")
	e = event(t, s, e.ID)
	if _, err := s.UpdateEvent(t.Context(), e.ID, e.Version, "", func(e *tessera.Event, tx storage.Tx) error {
		return tx.CreateGame(t.Context(), NewGame(), func(g *tessera.Game) error {
			if err := tx.Enqueue(t.Context(), tessera.Announcement{Kind: tessera.AnnounceThread, GameID: g.ID}); err != nil {
				return err
			}
			return boom
		})
	}); !errors.Is(err, boom) {
		t.Fatalf("a change that fails: %v, want it", err)
	}
	if gs, _ := s.ByChannel(t.Context(), "c1"); ids(gs) != fmt.Sprint([]uint64{g.ID}) {
		t.Fatalf("a failed change stored a game: %s", ids(gs))
	}
	if n, _ := s.Outbox(t.Context()); n != 1 {
		t.Fatalf("a failed change enqueued: %d in the outbox, want 1", n)
	}
}
