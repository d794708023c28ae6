package boltdb

// Check's part for the ratings: every row decodes and is indexed (its
// history, its rank, its player's key), every index key names a row as
// it is now, and each game's count of players, and each bin's, is the
// number of its rows.
// It reads each bucket once with a cursor, holding only the counts by
// server and game.

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"tessera"
	"tessera/storage"
)

// maxRatingProblems bounds what checkRatingIndexes reports.
const maxRatingProblems = 100

// checkRatingIndexes returns the problems of the ratings' buckets. A file
// opened read-only before its first open for writing has no indexes yet
// (the next open builds them): nothing to check.
func checkRatingIndexes(tx *bolt.Tx) []error {
	if !ratingsIndexed(tx) {
		return nil
	}
	var errs []error
	report := func(format string, args ...any) bool {
		errs = append(errs, fmt.Errorf("ratings: "+format, args...))
		return len(errs) < maxRatingProblems
	}
	b := ratingBucketsOf(tx)
	r := releasing{tx: tx}
	for i, bucket := range []*bolt.Bucket{b.rows, b.history, b.ranks, b.players, b.counts, b.bins} {
		if bucket == nil {
			report("the bucket %s is missing", ratingBucketNames[i])
		}
	}
	if len(errs) > 0 {
		return errs
	}
	counts, bins := map[string]uint64{}, map[string]uint64{}
	rows, ranks := 0, 0 // counted by the walks: Bucket.Stats would read every page again, none of them let go of
	c := b.rows.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		rows++
		r.read(len(k) + len(v) + elementSize)
		r.lookup(3) // its history, rank and player's keys
		var r tessera.Rating
		if err := json.Unmarshal(v, &r); err != nil {
			if !report("rating %q does not decode: %v", k, err) {
				return errs
			}
			continue
		}
		problem := ""
		switch {
		case !bytes.Equal(k, ratingKey(r.GuildID, r.Game, r.UserID)):
			problem = "is stored under another key"
		case r.History != nil:
			problem = "carries its history in its row"
		case b.history.Get(k) == nil:
			problem = "has no history"
		case !bytes.Equal(b.ranks.Get(rankKey(r)), []byte(r.UserID)):
			problem = "is not in the leaderboard index as it is"
		case b.players.Get(playerKey(r.GuildID, r.UserID, r.Game)) == nil:
			problem = "is not in its player's index"
		}
		if problem != "" && !report("rating %q %s", k, problem) {
			return errs
		}
		counts[string(countKey(r.GuildID, r.Game))]++
		bins[string(binKey(r.GuildID, r.Game, ordinalBin(storage.Ordinal(r))))]++
	}
	c = b.history.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		r.read(len(k) + len(v) + elementSize)
		r.lookup(1) // its row
		var h []tessera.RatingPoint
		if err := json.Unmarshal(v, &h); err != nil {
			if !report("the history of rating %q does not decode: %v", k, err) {
				return errs
			}
		} else if b.rows.Get(k) == nil && !report("a history without its rating: %q", k) {
			return errs
		}
	}
	c = b.ranks.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		ranks++
		r.read(len(k) + len(v) + elementSize)
		r.lookup(1) // its row
		guild, game, ok := splitTwo(k)
		if !ok || b.rows.Get(ratingKey(guild, game, string(v))) == nil {
			if !report("a leaderboard key without its rating: %q", k) {
				return errs
			}
		}
		// A key that is not the row's own is reported above, as the
		// row's; here only its number matters: one key per row.
	}
	if ranks != rows && !report("%d leaderboard keys for %d ratings", ranks, rows) {
		return errs
	}
	c = b.players.Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		r.read(len(k) + elementSize)
		r.lookup(1) // its row
		guild, user, ok := splitTwo(k)
		game := ""
		if ok {
			game = string(k[len(guild)+len(user)+2:])
		}
		if !ok || b.rows.Get(ratingKey(guild, game, user)) == nil {
			if !report("a player's key without its rating: %q", k) {
				return errs
			}
		}
	}
	c = b.counts.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		r.read(len(k) + len(v) + elementSize)
		want := counts[string(k)]
		delete(counts, string(k))
		if len(v) != 8 || binary.BigEndian.Uint64(v) != want {
			if !report("the count of players of %q is %x, not %d", k, v, want) {
				return errs
			}
		}
	}
	for k, n := range counts {
		if !report("the count of players of %q is missing (%d)", k, n) {
			return errs
		}
	}
	c = b.bins.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		r.read(len(k) + len(v) + elementSize)
		want := bins[string(k)]
		delete(bins, string(k))
		if len(v) != 8 || binary.BigEndian.Uint64(v) != want {
			if !report("the count of players of the bin %q is %x, not %d", k, v, want) {
				return errs
			}
		}
	}
	for k, n := range bins {
		if !report("the count of players of the bin %q is missing (%d)", k, n) {
			return errs
		}
	}
	return errs
}

// splitTwo cuts the two fields before the first two zero bytes of k (a
// server and a game, or a server and a user).
func splitTwo(k []byte) (a, b string, ok bool) {
	first, rest, ok1 := bytes.Cut(k, []byte{0})
	second, _, ok2 := bytes.Cut(rest, []byte{0})
	return string(first), string(second), ok1 && ok2
}
