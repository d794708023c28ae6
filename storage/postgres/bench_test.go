package postgres

// The cost of a move in the store alone, bbolt and PostgreSQL side by side
// in one run (numbers and the machine in docs/scaling.md, PostgreSQL):
//
//	go test -run '^$' -bench Move ./storage/postgres/
//
// The throwaway test cluster runs with fsync off; to measure PostgreSQL
// as in production, point TESSERA_TEST_POSTGRES at a server with fsync on.

import (
	"context"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"tessera"
	"tessera/storage"
	"tessera/storage/boltdb"
	"tessera/storage/postgres/pgtest"
)

// benchMove is one move as the service stores it: the game locked and
// read, a record entry appended, a post, a status edit and a turn message
// enqueued, the version bumped.
func benchMove(s storage.Store, id, version uint64) (uint64, error) {
	g, err := s.Update(context.Background(), id, version, "", func(g *tessera.Game, tx storage.Tx) error {
		g.Moves = append(g.Moves, tessera.MoveEntry{Seat: len(g.Moves) % 2, Text: "d5 RGBY", At: time.Now()})
		for _, kind := range []string{tessera.AnnouncePost, tessera.AnnounceStatus, tessera.AnnounceTurn} {
			if err := tx.Enqueue(context.Background(), tessera.Announcement{Kind: kind, GameID: g.ID, Moves: len(g.Moves), Board: kind == tessera.AnnouncePost}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return g.Version, nil
}

func BenchmarkMove(b *testing.B) {
	stores := []struct {
		name string
		open func(b *testing.B, opt storage.Options) storage.Store
	}{
		{"bbolt", func(b *testing.B, opt storage.Options) storage.Store {
			s, err := boltdb.Open(filepath.Join(b.TempDir(), "bench.db"), opt)
			if err != nil {
				b.Fatal(err)
			}
			return s
		}},
		{"postgres", func(b *testing.B, opt storage.Options) storage.Store {
			s, err := Open(b.Context(), pgtest.Database(b), opt)
			if err != nil {
				b.Fatal(err)
			}
			return s
		}},
	}
	for _, st := range stores {
		for _, sync := range []bool{true, false} {
			name := st.name + map[bool]string{true: "/sync", false: "/nosync"}[sync]
			b.Run(name+"/serial", func(b *testing.B) {
				s := st.open(b, storage.Options{NoSync: !sync})
				defer s.Close()
				g := &tessera.Game{Status: tessera.StatusPlaying, ChannelID: "c", Players: []tessera.Player{{ID: "a"}, {ID: "b"}}}
				if err := s.Create(b.Context(), g, ""); err != nil {
					b.Fatal(err)
				}
				v := g.Version
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					var err error
					if v, err = benchMove(s, g.ID, v); err != nil {
						b.Fatal(err)
					}
				}
			})
			// Moves in many games at once, as a busy bot makes them:
			// bbolt writes one transaction at a time, PostgreSQL commits
			// concurrent ones together.
			b.Run(name+"/parallel", func(b *testing.B) {
				s := st.open(b, storage.Options{NoSync: !sync})
				defer s.Close()
				var games atomic.Int64
				b.SetParallelism(4)
				b.ResetTimer()
				b.RunParallel(func(pb *testing.PB) {
					g := &tessera.Game{Status: tessera.StatusPlaying, ChannelID: fmt.Sprint("c", games.Add(1)), Players: []tessera.Player{{ID: "a"}, {ID: "b"}}}
					if err := s.Create(b.Context(), g, ""); err != nil {
						b.Error(err)
						return
					}
					v := g.Version
					for pb.Next() {
						var err error
						if v, err = benchMove(s, g.ID, v); err != nil {
							b.Error(err)
							return
						}
					}
				})
			})
		}
	}
}
