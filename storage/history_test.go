package storage

import (
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"tessera"
)

func ids(gs []*tessera.Game) string {
	var out []uint64
	for _, g := range gs {
		out = append(out, g.ID)
	}
	return fmt.Sprint(out)
}

// finishAt ends a game: its last record entry is at the given minute.
func finishAt(t *testing.T, s *Store, id uint64, minute int) {
	t.Helper()
	_, err := s.Modify(id, func(g *tessera.Game, _ *Tx) error {
		g.Status = tessera.StatusFinished
		g.Moves = append(g.Moves, tessera.MoveEntry{Seat: 1, Text: "resign", At: time.Unix(int64(minute*60), 0).UTC()})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestHistoryIndexes: open challenges by server, leaving and closing them;
// finished games newest first by when they ended, paged and filtered; one
// rematch per game; and a database without these indexes gets them,
// filled, when it is opened again.
func TestHistoryIndexes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	s := open(t, path)
	for i := 0; i < 5; i++ {
		g := newGame()
		g.GuildID = "g1"
		if i < 2 {
			g.Status, g.Open = tessera.StatusChallenge, true
			g.Setup.Players = 3
			g.Players = append(g.Players, tessera.Player{ID: "3", Name: "cy"})
		}
		if err := s.Create(g, ""); err != nil {
			t.Fatal(err)
		}
	}
	if open, _ := s.OpenChallenges("g1"); ids(open) != "[1 2]" {
		t.Fatalf("open in g1: %s", ids(open))
	}
	if open, _ := s.OpenChallenges("g2"); len(open) != 0 {
		t.Fatalf("open in g2: %s", ids(open))
	}
	// Cy leaves challenge 1; challenge 2 is withdrawn.
	s.Modify(1, func(g *tessera.Game, _ *Tx) error { g.Players = g.Players[:2]; return nil })
	s.Modify(2, func(g *tessera.Game, _ *Tx) error { g.Status = tessera.StatusWithdrawn; return nil })
	if all, _ := s.AllOpenChallenges(); ids(all) != "[1]" {
		t.Fatalf("open after a withdrawal: %s", ids(all))
	}
	if mine, _ := s.ByPlayer("3"); ids(mine) != "[2]" {
		t.Fatalf("cy left game 1 but is still listed in it: %s", ids(mine))
	}
	// Games 3, 4, 5 end in the order 4, 5, 3.
	finishAt(t, s, 4, 1)
	finishAt(t, s, 5, 2)
	finishAt(t, s, 3, 3)
	if page, more, _ := s.Finished("1", nil, 0, 2); ids(page) != "[3 5]" || !more {
		t.Fatalf("page 1: %s %v", ids(page), more)
	}
	if page, more, _ := s.Finished("1", nil, 2, 2); ids(page) != "[4]" || more {
		t.Fatalf("page 2: %s %v", ids(page), more)
	}
	if page, _, _ := s.Finished("1", func(g *tessera.Game) bool { return g.ID != 5 }, 0, 5); ids(page) != "[3 4]" {
		t.Fatalf("filtered: %s", ids(page))
	}
	if page, _, _ := s.Finished("", nil, 0, 5); len(page) != 0 {
		t.Fatalf("nobody's games: %s", ids(page))
	}
	// One rematch per game.
	refuse := errors.New("taken")
	link := func(from *tessera.Game) error {
		if from.Rematch != 0 {
			return refuse
		}
		return nil
	}
	if err := s.CreateLinked(newGame(), "r1", 3, link); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateLinked(newGame(), "r2", 3, link); !errors.Is(err, refuse) {
		t.Fatalf("a second rematch: %v", err)
	}
	if g, _ := s.Game(3); g.Rematch != 6 {
		t.Fatalf("game 3's rematch is %d", g.Rematch)
	}
	// An older database: the indexes are made again from the games.
	s.db.Update(func(tx *bolt.Tx) error {
		tx.DeleteBucket(bOpen)
		return tx.DeleteBucket(bFinished)
	})
	s.Close()
	s = open(t, path)
	defer s.Close()
	if page, _, _ := s.Finished("2", nil, 0, 5); ids(page) != "[3 5 4]" {
		t.Fatalf("rebuilt finished index: %s", ids(page))
	}
	if open, _ := s.OpenChallenges("g1"); ids(open) != "[1]" {
		t.Fatalf("rebuilt open index: %s", ids(open))
	}
}
