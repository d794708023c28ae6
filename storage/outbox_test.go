package storage

import (
	"path/filepath"
	"testing"
	"time"

	"tessera"
)

// TestAttemptingKeepsTheFirst: the first attempt's time is what the
// courier compares with the nonce window, so a later attempt never moves it.
func TestAttemptingKeepsTheFirst(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "t.db"))
	defer s.Close()
	g := newGame()
	if err := s.Create(g, ""); err != nil {
		t.Fatal(err)
	}
	s.Modify(g.ID, func(g *tessera.Game, tx *Tx) error {
		return tx.Enqueue(tessera.Announcement{Kind: "post", GameID: g.ID})
	})
	first := time.Unix(1000, 0)
	if err := s.Attempting(first, 1); err != nil {
		t.Fatal(err)
	}
	if err := s.Attempting(first.Add(time.Hour), 1, 99); err != nil { // 99: gone already, ignored
		t.Fatal(err)
	}
	if err := s.Retry(1, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if p, _ := s.Pending(time.Now(), 10); len(p) != 0 {
		t.Fatalf("a retry waiting an hour is due: %+v", p)
	}
	if n, err := s.RetryNow(); err != nil || n != 1 {
		t.Fatalf("RetryNow: %d, %v", n, err)
	}
	p, _ := s.Pending(time.Now(), 10)
	if len(p) != 1 || !p[0].Attempted.Equal(first) || p[0].Tries != 1 {
		t.Fatalf("after RetryNow: %+v", p)
	}
}
