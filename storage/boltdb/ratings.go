package boltdb

// Ratings, one row per server, game and player, written in the same
// transaction as the end of the game that changed them, with the indexes
// that let every read a player causes touch only what it returns
// (ratingindex.go): the history apart from the row, the leaderboard's
// order, each player's games and each game's count of players.

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"tessera"
	"tessera/storage"
)

var bRatings = []byte("ratings") // guild id 0x00 game 0x00 user id -> tessera.Rating without its History

func ratingKey(guild, game, user string) []byte {
	return []byte(guild + "\x00" + game + "\x00" + user)
}

// Rating is the stored rating of user for game in guild, with its
// history; ok false when the player has none yet.
func (t *Tx) Rating(ctx context.Context, guild, game, user string) (r tessera.Rating, ok bool, err error) {
	return readRating(t.tx, ratingKey(guild, game, user), true)
}

// readRating decodes the row at key, and its history when withHistory.
// A row written before the indexes were built carries its history
// itself (a file opened read-only before its first open for writing).
func readRating(tx *bolt.Tx, key []byte, withHistory bool) (r tessera.Rating, ok bool, err error) {
	b := ratingBucketsOf(tx)
	if b.rows == nil {
		return r, false, nil
	}
	v := b.rows.Get(key)
	if v == nil {
		return r, false, nil
	}
	if err := json.Unmarshal(v, &r); err != nil {
		return r, false, fmt.Errorf("rating %q: %w", key, err)
	}
	if !withHistory {
		r.History = nil
		return r, true, nil
	}
	if b.history != nil {
		if h := b.history.Get(key); h != nil {
			if err := json.Unmarshal(h, &r.History); err != nil {
				return r, false, fmt.Errorf("rating history %q: %w", key, err)
			}
		}
	}
	return r, true, nil
}

// PutRating stores r, replacing the rating of the same guild, game and
// user, and keeps the indexes in step.
func (t *Tx) PutRating(ctx context.Context, r tessera.Rating) error {
	b, err := createRatingBuckets(t.tx)
	if err != nil {
		return err
	}
	old, had, err := readRating(t.tx, ratingKey(r.GuildID, r.Game, r.UserID), false)
	if err != nil {
		return err
	}
	if !had {
		return b.put(r, nil)
	}
	return b.put(r, &old)
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

// scanRatings calls keep on each stored rating whose key starts with
// prefix, with its history.
func (s *Store) scanRatings(ctx context.Context, prefix []byte, keep func(r tessera.Rating) error) error {
	return s.view(ctx, func(tx *bolt.Tx) error { return scanRatings(tx, prefix, keep) })
}

func scanRatings(tx *bolt.Tx, prefix []byte, keep func(r tessera.Rating) error) error {
	b := tx.Bucket(bRatings)
	if b == nil {
		return nil
	}
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		r, _, err := readRating(tx, k, true)
		if err != nil {
			return err
		}
		if err := keep(r); err != nil {
			return err
		}
	}
	return nil
}

// Ratings are the ratings of everyone who played a rated game of game in
// guild, with their history, in no particular order.
func (s *Store) Ratings(ctx context.Context, guild, game string) ([]tessera.Rating, error) {
	var out []tessera.Rating
	err := s.scanRatings(ctx, []byte(guild+"\x00"+game+"\x00"), func(r tessera.Rating) error { out = append(out, r); return nil })
	return out, err
}

// PlayerRatings are user's ratings in guild, one per game played rated,
// with their history: a read of the by-player index and one row per
// game. A file opened read-only before its indexes were built is
// scanned, server by server, as before them.
func (s *Store) PlayerRatings(ctx context.Context, guild, user string) ([]tessera.Rating, error) {
	var out []tessera.Rating
	err := s.view(ctx, func(tx *bolt.Tx) error {
		if !ratingsIndexed(tx) {
			return scanRatings(tx, []byte(guild+"\x00"), func(r tessera.Rating) error {
				if r.UserID == user {
					out = append(out, r)
				}
				return nil
			})
		}
		prefix := []byte(guild + "\x00" + user + "\x00")
		c := ratingBucketsOf(tx).players.Cursor()
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
			r, ok, err := readRating(tx, ratingKey(guild, string(k[len(prefix):]), user), true)
			if err != nil {
				return err
			}
			if !ok {
				return fmt.Errorf("the rating index of player %s in %s names game %q, which has no rating row: run tessera check", user, guild, k[len(prefix):])
			}
			out = append(out, r)
		}
		return nil
	})
	return out, err
}

// PlayerRating is user's rating for game in guild without its history: a
// point read.
func (s *Store) PlayerRating(ctx context.Context, guild, game, user string) (r tessera.Rating, ok bool, err error) {
	err = s.view(ctx, func(tx *bolt.Tx) error {
		r, ok, err = readRating(tx, ratingKey(guild, game, user), false)
		return err
	})
	return r, ok, err
}

// RatingHistory is user's rating for game in guild after each rated
// game: a point read of the history bucket.
func (s *Store) RatingHistory(ctx context.Context, guild, game, user string) ([]tessera.RatingPoint, error) {
	var h []tessera.RatingPoint
	err := s.view(ctx, func(tx *bolt.Tx) error {
		r, _, err := readRating(tx, ratingKey(guild, game, user), true)
		h = r.History
		return err
	})
	return h, err
}

// AllRatings are every stored rating, with its history.
func (s *Store) AllRatings(ctx context.Context) ([]tessera.Rating, error) {
	var out []tessera.Rating
	err := s.scanRatings(ctx, nil, func(r tessera.Rating) error { out = append(out, r); return nil })
	return out, err
}

// ReplaceRatings replaces every stored rating by rs in one transaction.
// The ratings bucket's sequence (NextRatingSeq's counter) survives it: the
// games already numbered keep their place before the next.
func (s *Store) ReplaceRatings(ctx context.Context, rs []tessera.Rating) error {
	return s.update(ctx, func(tx *bolt.Tx) error {
		var seq uint64
		if b := tx.Bucket(bRatings); b != nil {
			seq = b.Sequence()
		}
		for _, name := range ratingBucketNames {
			if tx.Bucket(name) != nil {
				if err := tx.DeleteBucket(name); err != nil {
					return err
				}
			}
		}
		b, err := createRatingBuckets(tx)
		if err != nil {
			return err
		}
		if err := b.rows.SetSequence(seq); err != nil {
			return err
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

// Leaders are the ratings of game in guild in the leaderboard's order,
// without history: a seek in the rank index, skip keys passed over, then
// one row read for each of the (at most limit) returned.
func (s *Store) Leaders(ctx context.Context, guild, game string, skip, limit int) (rs []tessera.Rating, rated int, err error) {
	err = s.view(ctx, func(tx *bolt.Tx) error {
		if !ratingsIndexed(tx) {
			return errNotIndexed(s.db.Path())
		}
		b := ratingBucketsOf(tx)
		rated = b.count(guild, game)
		prefix := rankPrefix(guild, game)
		c := b.ranks.Cursor()
		k, v := c.Seek(prefix)
		for i := 0; i < skip && k != nil && bytes.HasPrefix(k, prefix); i++ {
			k, v = c.Next()
		}
		for ; len(rs) < limit && k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			r, ok, err := readRating(tx, ratingKey(guild, game, string(v)), false)
			if err != nil {
				return err
			}
			if !ok {
				return fmt.Errorf("the leaderboard index of %s in %s names player %q, who has no rating row: run tessera check", game, guild, v)
			}
			rs = append(rs, r)
		}
		return nil
	})
	return rs, rated, err
}

// RatingRank is user's place for game in guild. bbolt's B+tree does not
// count its keys, so the place is the sum of the players of the bins
// above the player's (at most a few hundred keys: ordinals a quarter of a
// point wide) and the player's place in their own bin, counted by walking
// the rank index from the player's key towards both ends of the bin at
// once until one is reached (the bin's count gives the place from its
// lower end). The cost is the bins above plus 2 x min(the players of the
// bin above the player, those below): bounded by the players of one bin,
// never by the ratings stored; no value is decoded.
func (s *Store) RatingRank(ctx context.Context, guild, game, user string) (place, rated int, err error) {
	err = s.view(ctx, func(tx *bolt.Tx) error {
		if !ratingsIndexed(tx) {
			return errNotIndexed(s.db.Path())
		}
		b := ratingBucketsOf(tx)
		rated = b.count(guild, game)
		r, ok, err := readRating(tx, ratingKey(guild, game, user), false)
		if err != nil || !ok {
			return err
		}
		prefix := rankPrefix(guild, game)
		bin := ordinalBin(storage.Ordinal(r))
		mine := binKey(guild, game, bin)
		above, inBin := 0, 0
		c := b.bins.Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			if bytes.Equal(k, mine) {
				inBin = int(binary.BigEndian.Uint64(v))
				break
			}
			above += int(binary.BigEndian.Uint64(v))
		}
		key := rankKey(r)
		inside := func(k []byte) bool {
			return k != nil && bytes.HasPrefix(k, prefix) && len(k) >= len(prefix)+8 && ordinalBin(rankOrdinal(k, len(prefix))) == bin
		}
		up, down := b.ranks.Cursor(), b.ranks.Cursor()
		if k, _ := up.Seek(key); !bytes.Equal(k, key) {
			return fmt.Errorf("the leaderboard index of %s in %s lacks player %s: run tessera check", game, guild, user)
		}
		down.Seek(key)
		for before, after := 0, 0; ; {
			if k, _ := up.Prev(); !inside(k) {
				place = above + before + 1
				return nil
			}
			before++
			if k, _ := down.Next(); !inside(k) {
				place = above + max(inBin-after, before+1)
				return nil
			}
			after++
		}
	})
	return place, rated, err
}

// errNotIndexed is the answer of a read that needs the rating indexes in
// a file opened read-only before its first open for writing built them.
func errNotIndexed(path string) error {
	return fmt.Errorf("database %s has not built its rating indexes yet: open it once for writing (tessera run) to build them", path)
}
