package boltdb

// Ratings, one record per server, game and player, written in the same
// transaction as the end of the game that changed them. A PostgreSQL
// adapter needs the same five calls: Tx.Rating and Tx.PutRating inside
// the game's transaction, Ratings (one server's players of one game),
// PlayerRatings (one player's games in one server), and the pair
// AllRatings/ReplaceRatings for tessera ratings --rebuild.

import (
	"bytes"
	"context"
	"encoding/json"

	bolt "go.etcd.io/bbolt"

	"tessera"
)

var bRatings = []byte("ratings") // guild id 0x00 game 0x00 user id -> tessera.Rating

func ratingKey(guild, game, user string) []byte {
	return []byte(guild + "\x00" + game + "\x00" + user)
}

// Rating is the stored rating of user for game in guild; ok false when the
// player has none yet.
func (t *Tx) Rating(ctx context.Context, guild, game, user string) (r tessera.Rating, ok bool, err error) {
	b := t.tx.Bucket(bRatings)
	if b == nil {
		return r, false, nil
	}
	v := b.Get(ratingKey(guild, game, user))
	if v == nil {
		return r, false, nil
	}
	err = json.Unmarshal(v, &r)
	return r, err == nil, err
}

// PutRating stores r (the bucket is made by the first rated game, so an
// older database needs no migration).
func (t *Tx) PutRating(ctx context.Context, r tessera.Rating) error {
	b, err := t.tx.CreateBucketIfNotExists(bRatings)
	if err != nil {
		return err
	}
	v, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return b.Put(ratingKey(r.GuildID, r.Game, r.UserID), v)
}

// NextRatingSeq gives the next number of the order in which games change
// ratings: the ratings bucket's sequence (bbolt writes one transaction at
// a time, so the order is the transactions').
func (t *Tx) NextRatingSeq(ctx context.Context) (uint64, error) {
	b, err := t.tx.CreateBucketIfNotExists(bRatings)
	if err != nil {
		return 0, err
	}
	return b.NextSequence()
}

// scanRatings calls keep on each stored rating whose key starts with prefix.
func (s *Store) scanRatings(ctx context.Context, prefix []byte, keep func(r tessera.Rating)) error {
	return s.view(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bRatings)
		if b == nil {
			return nil
		}
		c := b.Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			var r tessera.Rating
			if err := json.Unmarshal(v, &r); err != nil {
				return err
			}
			keep(r)
		}
		return nil
	})
}

// Ratings are the ratings of everyone who played a rated game of game in
// guild, in no particular order.
func (s *Store) Ratings(ctx context.Context, guild, game string) ([]tessera.Rating, error) {
	var out []tessera.Rating
	err := s.scanRatings(ctx, []byte(guild+"\x00"+game+"\x00"), func(r tessera.Rating) { out = append(out, r) })
	return out, err
}

// PlayerRatings are user's ratings in guild, one per game played rated.
func (s *Store) PlayerRatings(ctx context.Context, guild, user string) ([]tessera.Rating, error) {
	var out []tessera.Rating
	err := s.scanRatings(ctx, []byte(guild+"\x00"), func(r tessera.Rating) {
		if r.UserID == user {
			out = append(out, r)
		}
	})
	return out, err
}

// AllRatings are every stored rating.
func (s *Store) AllRatings(ctx context.Context) ([]tessera.Rating, error) {
	var out []tessera.Rating
	err := s.scanRatings(ctx, nil, func(r tessera.Rating) { out = append(out, r) })
	return out, err
}

// ReplaceRatings replaces every stored rating by rs in one transaction.
func (s *Store) ReplaceRatings(ctx context.Context, rs []tessera.Rating) error {
	return s.update(ctx, func(tx *bolt.Tx) error {
		if tx.Bucket(bRatings) != nil {
			if err := tx.DeleteBucket(bRatings); err != nil {
				return err
			}
		}
		t := &Tx{tx: tx}
		for _, r := range rs {
			if err := t.PutRating(ctx, r); err != nil {
				return err
			}
		}
		return nil
	})
}
