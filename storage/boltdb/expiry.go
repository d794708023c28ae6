package boltdb

// The open challenges' expiry index: open challenges by when they were
// made, kept by putGame in the game's own transaction, so the tick finds
// the ones to expire by reading the index's first keys (one key when
// none is due) instead of every open challenge of every server.

import (
	"context"
	"time"

	bolt "go.etcd.io/bbolt"

	"tessera"
	"tessera/storage"
)

var bExpiry = []byte("open_expiry") // unix nanos (Created), game id -> nothing: open challenges

// putExpiry keeps g's key in the expiry index in step; old is the game
// as it was (nil when new).
func putExpiry(tx *bolt.Tx, g, old *tessera.Game) error {
	return putTimeKey(tx.Bucket(bExpiry), storage.OpenNanos, g, old)
}

// ExpiredChallenges lists the open challenges made at or before cutoff,
// oldest first (then by id), at most max.
func (s *Store) ExpiredChallenges(ctx context.Context, cutoff time.Time, max int) ([]*tessera.Game, error) {
	var out []*tessera.Game
	err := s.view(ctx, func(tx *bolt.Tx) error {
		if !upgraded(tx) { // schema 1, opened read-only
			out = timeIndexSchema1(tx, storage.OpenNanos, cutoff.UnixNano(), max)
			return nil
		}
		b := tx.Bucket(bExpiry)
		c := b.Cursor()
		for k, _ := c.First(); len(k) == 16 && len(out) < max; k, _ = c.Next() {
			if int64(btoi(k[:8])) > cutoff.UnixNano() {
				break
			}
			g, err := getGame(tx, btoi(k[8:]))
			if err != nil {
				return err
			}
			out = append(out, g)
		}
		return nil
	})
	return out, err
}
