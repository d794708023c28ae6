package boltdb

// The reminders' index: the games in play by when the tick should look at
// them for a reminder (tessera.Game.RemindAt, which the service sets),
// kept by putGame in the game's own transaction as the deadlines' is. A
// tick reads the index's first keys and stops at the first one not due,
// so with nothing due it reads one key.

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"tessera"
	"tessera/storage"
)

var bReminders = []byte("reminders") // unix nanos, game id -> nothing: games in play by RemindAt

func remindKey(nanos int64, id uint64) []byte {
	return append(itob(uint64(nanos)), itob(id)...)
}

func btoi(b []byte) uint64 { return binary.BigEndian.Uint64(b) }

// putReminder keeps g's key in the reminders' index in step; old is the
// game as it was (nil when new).
func putReminder(tx *bolt.Tx, g, old *tessera.Game) error {
	return putTimeKey(tx.Bucket(bReminders), storage.RemindNanos, g, old)
}

// putTimeKey keeps g's key (time, id) in an index of games by a time,
// which key gives (false: none), in step; old is the game as it was.
func putTimeKey(b *bolt.Bucket, key func(*tessera.Game) (int64, bool), g, old *tessera.Game) error {
	now, ok := key(g)
	if old != nil {
		if was, had := key(old); had && (!ok || was != now) {
			if err := b.Delete(remindKey(was, g.ID)); err != nil {
				return err
			}
		}
	}
	if !ok {
		return nil
	}
	return b.Put(remindKey(now, g.ID), nil)
}

// RemindersDue lists the games in play whose RemindAt is at or before
// now, earliest first (then by id), at most max.
func (s *Store) RemindersDue(ctx context.Context, now time.Time, max int) ([]uint64, error) {
	var out []uint64
	err := s.view(ctx, func(tx *bolt.Tx) error {
		if !upgraded(tx) { // schema 1, opened read-only
			for _, g := range timeIndexSchema1(tx, storage.RemindNanos, now.UnixNano(), max) {
				out = append(out, g.ID)
			}
			return nil
		}
		b := tx.Bucket(bReminders)
		c := b.Cursor()
		for k, _ := c.First(); len(k) == 16 && len(out) < max; k, _ = c.Next() {
			if int64(btoi(k[:8])) > now.UnixNano() {
				break
			}
			out = append(out, btoi(k[8:]))
		}
		return nil
	})
	return out, err
}

// eachGame calls fn for every game that decodes, in id order, one at a
// time, until fn returns false; a record that does not decode is
// reported by the check of the records, not here.
func eachGame(tx *bolt.Tx, fn func(g *tessera.Game) bool) error {
	c := tx.Bucket(bGames).Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		var g tessera.Game
		if json.Unmarshal(v, &g) != nil {
			continue
		}
		if !fn(&g) {
			return nil
		}
	}
	return nil
}

// checkTimeIndex verifies an index of games by a time (bucket name,
// keys from key) against the games, both ways, in constant memory,
// reporting at most max problems.
func checkTimeIndex(tx *bolt.Tx, name []byte, what string, key func(*tessera.Game) (int64, bool), max int) []error {
	if !upgraded(tx) || max <= 0 {
		return nil
	}
	var errs []error
	b := tx.Bucket(name)
	if b == nil {
		return []error{fmt.Errorf("the %s (bucket %s) is missing", what, name)}
	}
	err := eachGame(tx, func(g *tessera.Game) bool {
		if at, ok := key(g); ok && b.Get(remindKey(at, g.ID)) == nil {
			errs = append(errs, fmt.Errorf("game %d: missing from the %s at %s", g.ID, what, time.Unix(0, at).UTC().Format(time.RFC3339Nano)))
		}
		return len(errs) < max
	})
	if err != nil {
		errs = append(errs, err)
	}
	c := b.Cursor()
	for k, _ := c.First(); k != nil && len(errs) < max; k, _ = c.Next() {
		if len(k) != 16 {
			errs = append(errs, fmt.Errorf("the %s holds a malformed key %x", what, k))
			continue
		}
		id := btoi(k[8:])
		g, err := getGame(tx, id)
		if err != nil {
			errs = append(errs, fmt.Errorf("the %s lists game %d: %v", what, id, err))
			continue
		}
		if at, ok := key(g); !ok || at != int64(btoi(k[:8])) {
			errs = append(errs, fmt.Errorf("the %s lists game %d at %s, which disagrees with its record (%s)", what, id, time.Unix(0, int64(btoi(k[:8]))).UTC().Format(time.RFC3339Nano), g.Status))
		}
	}
	return errs
}

// checkIndexes verifies the indexes of schema 2 (places, reminders,
// open challenges' expiry)
// against the games; Check calls it with its read transaction.
func checkIndexes(tx *bolt.Tx) []error {
	const max = 100
	errs := checkPlaces(tx, max)
	errs = append(errs, checkTimeIndex(tx, bReminders, "reminders' index", storage.RemindNanos, max-len(errs))...)
	return append(errs, checkTimeIndex(tx, bExpiry, "open challenges' expiry index", storage.OpenNanos, max-len(errs))...)
}
