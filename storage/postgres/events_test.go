package postgres_test

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"tessera"
	"tessera/storage"
	"tessera/storage/boltdb"
	"tessera/storage/postgres"
	"tessera/storage/postgres/pgtest"
	"tessera/storage/storagetest"
	"tessera/tournament"
)

// TestKilledWhilePairing: the process pairing a round dies (its
// connection is killed) after making the round's first game and before
// the second. Nothing of the round is kept: not the event's change, not
// the game, not its announcement, not the interaction, not the ids. The
// start again (another process, a new connection) pairs the round once,
// with the same game ids.
func TestKilledWhilePairing(t *testing.T) {
	url := pgtest.Database(t)
	s, err := postgres.Open(context.Background(), url, storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	e := storagetest.NewEvent()
	if err := s.CreateEvent(t.Context(), e, ""); err != nil {
		t.Fatal(err)
	}
	// pair makes a round of two tables, killing the connection after the
	// first game when kill.
	pair := func(kill bool) (*tessera.Event, []uint64, error) {
		var made []uint64
		out, err := s.UpdateEvent(t.Context(), e.ID, 1, "start", func(e *tessera.Event, tx storage.Tx) error {
			e.Status = tessera.EventRunning
			e.Pairing.Played = []tournament.Round{{Tables: []tournament.Table{{Seats: []string{"1", "2"}}, {Seats: []string{"3", "bot"}}}}}
			e.Games = [][]uint64{{0, 0}}
			for i := range 2 {
				g := storagetest.NewGame()
				g.Event, g.EventTable = e.ID, i
				if err := tx.CreateGame(t.Context(), g, nil); err != nil {
					return err
				}
				made = append(made, g.ID)
				e.Games[0][i] = g.ID
				if err := tx.Enqueue(t.Context(), tessera.Announcement{Kind: tessera.AnnounceThread, GameID: g.ID}); err != nil {
					return err
				}
				if kill && i == 0 {
					if n := pgtest.Kill(t, url); n == 0 {
						t.Error("no connection was killed")
					}
				}
			}
			return nil
		})
		return out, made, err
	}
	if _, _, err := pair(true); err == nil {
		t.Fatal("a round whose connection died was acknowledged")
	}
	if got, _ := s.Event(t.Context(), e.ID); got.Version != 1 || got.Status != tessera.EventOpen || len(got.Games) != 0 {
		t.Fatalf("half a round stored: version %d, %s, games %v", got.Version, got.Status, got.Games)
	}
	var games int
	if err := s.All(t.Context(), func(*tessera.Game) error { games++; return nil }); err != nil || games != 0 {
		t.Fatalf("%d games of a round that was not stored (%v)", games, err)
	}
	if n, _ := s.Outbox(t.Context()); n != 0 {
		t.Fatalf("%d announcements of a round that was not stored", n)
	}
	if h, _ := s.Handled(t.Context(), "start"); h {
		t.Fatal("the interaction of a round that was not stored is marked handled")
	}
	got, made, err := pair(false)
	if err != nil {
		t.Fatalf("the round again, on a new connection: %v", err)
	}
	if got.Version != 2 || !reflect.DeepEqual(got.Games, [][]uint64{{1, 2}}) || !reflect.DeepEqual(made, []uint64{1, 2}) {
		t.Fatalf("the round paired again: version %d, games %v, made %v; want 2, [[1 2]], [1 2]", got.Version, got.Games, made)
	}
	if _, _, err := pair(false); err == nil {
		t.Fatal("the round was paired a second time")
	}
}

// TestEventsCopiedFromBolt: a bbolt database's events, loaded into
// PostgreSQL (tessera migrate's path), come out of it the same, with
// their indexes made again and the event counter carried.
func TestEventsCopiedFromBolt(t *testing.T) {
	src, err := boltdb.Open(filepath.Join(t.TempDir(), "src.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	storagetest.Fill(t, src)
	dst, err := postgres.Open(context.Background(), pgtest.Database(t), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	if err := dst.Load(t.Context(), func(put func(storage.Record) error) error { return src.Dump(t.Context(), put) }); err != nil {
		t.Fatal(err)
	}
	events := func(s storage.Store) (out []string, last uint64) {
		for _, r := range storagetest.Dump(t, s) {
			switch {
			case r.Counters != nil:
				last = r.Counters.LastEventID
			case r.Event != nil:
				out = append(out, r.Canonical())
			}
		}
		return out, last
	}
	a, lastA := events(src)
	b, lastB := events(dst)
	if len(a) == 0 || !reflect.DeepEqual(a, b) || lastB < lastA {
		t.Fatalf("events copied: %v (last id %d)\nfrom %v (last id %d)", b, lastB, a, lastA)
	}
	for _, guild := range []string{"g1", "g2"} {
		x, _ := src.GuildEvents(t.Context(), guild)
		y, err := dst.GuildEvents(t.Context(), guild)
		if err != nil || len(x) != len(y) || len(x) == 0 {
			t.Fatalf("server %s's events: %d copied, %d in the original (%v)", guild, len(y), len(x), err)
		}
	}
	never := storagetest.NewEvent().Created.AddDate(100, 0, 0)
	x, _ := src.EventsDue(t.Context(), never)
	y, err := dst.EventsDue(t.Context(), never)
	if err != nil || fmt.Sprint(x) != fmt.Sprint(y) || len(x) == 0 {
		t.Fatalf("events due: %v copied, %v in the original (%v)", y, x, err)
	}
}
