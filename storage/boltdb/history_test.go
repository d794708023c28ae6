package boltdb

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"tessera"
	"tessera/storage"
)

func ids(gs []*tessera.Game) string {
	var out []uint64
	for _, g := range gs {
		out = append(out, g.ID)
	}
	return fmt.Sprint(out)
}

// TestHistoryIndexesRebuilt: a file made before the open-challenge and
// finished-game indexes existed gets them, filled from its games, when it
// is opened for writing (the indexes themselves are in the conformance
// suite).
func TestHistoryIndexesRebuilt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	s := open(t, path)
	for i := 0; i < 5; i++ {
		g := newGame()
		if i < 2 {
			g.Status, g.Open = tessera.StatusChallenge, true
		}
		if err := s.Create(t.Context(), g, ""); err != nil {
			t.Fatal(err)
		}
	}
	s.Modify(t.Context(), 2, func(g *tessera.Game, _ storage.Tx) error { g.Status = tessera.StatusWithdrawn; return nil })
	// Games 3, 4, 5 end in the order 4, 5, 3.
	for id, minute := range map[uint64]int{4: 1, 5: 2, 3: 3} {
		s.Modify(t.Context(), id, func(g *tessera.Game, _ storage.Tx) error {
			g.Status = tessera.StatusFinished
			g.Moves = append(g.Moves, tessera.MoveEntry{Seat: 1, Text: "resign", At: time.Unix(int64(minute*60), 0).UTC()})
			return nil
		})
	}
	s.db.Update(func(tx *bolt.Tx) error {
		tx.DeleteBucket(bOpen)
		return tx.DeleteBucket(bFinished)
	})
	// An old file opened read-only has no indexes: nothing, not an error.
	s.Close()
	ro, err := Open(path, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if page, _, err := ro.Finished(t.Context(), "2", nil, 0, 5); err != nil || len(page) != 0 {
		t.Fatalf("read-only, no index: %s %v", ids(page), err)
	}
	if open, err := ro.AllOpenChallenges(t.Context()); err != nil || len(open) != 0 {
		t.Fatalf("read-only, no index: %s %v", ids(open), err)
	}
	ro.Close()
	s = open(t, path)
	defer s.Close()
	if page, _, _ := s.Finished(t.Context(), "2", nil, 0, 5); ids(page) != "[3 5 4]" {
		t.Fatalf("rebuilt finished index: %s", ids(page))
	}
	if open, _ := s.OpenChallenges(t.Context(), "g1"); ids(open) != "[1]" {
		t.Fatalf("rebuilt open index: %s", ids(open))
	}
}

// TestAISeatsIndexedAgain: a file written before issue #24's item 11 was
// fixed lacks its games' AI seats in the by-player index (every change of
// the game dropped them); opened for writing, it gets them back, once.
func TestAISeatsIndexedAgain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	s := open(t, path)
	g := newGame()
	g.Players[1] = tessera.Player{ID: "bot", Name: "Tessera (hard)", AI: "hard", Accepted: true}
	if err := s.Create(t.Context(), g, ""); err != nil {
		t.Fatal(err)
	}
	// As the old code left it: no AI seat in the index, and no mark.
	s.db.Update(func(tx *bolt.Tx) error {
		tx.Bucket(bMeta).Delete(kAISeatsIndexed)
		return tx.Bucket(bByPlayer).Delete(indexKey("bot", g.ID))
	})
	if gs, _ := s.ByPlayer(t.Context(), "bot"); len(gs) != 0 {
		t.Fatalf("the index still lists the AI seat: %s", ids(gs))
	}
	s.Close()
	s = open(t, path)
	defer s.Close()
	if gs, err := s.ByPlayer(t.Context(), "bot"); err != nil || ids(gs) != fmt.Sprint([]uint64{g.ID}) {
		t.Fatalf("games of the AI seat after reopening: %s %v, want [%d]", ids(gs), err, g.ID)
	}
}
