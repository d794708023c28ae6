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
func eachGame(tx *bolt.Tx, fn func(g *tessera.Game) bool) {
	c := tx.Bucket(bGames).Cursor()
	r := releasing{tx: tx}
	for k, v := c.First(); k != nil; k, v = c.Next() {
		r.read(len(k) + len(v) + elementSize)
		var g tessera.Game
		if json.Unmarshal(v, &g) != nil {
			continue
		}
		if !fn(&g) {
			return
		}
	}
}

// missingTime reports g's key in an index of games by a time (what, keys
// from key) when it should have one and it is not there.
func missingTime(b *bolt.Bucket, what string, key func(*tessera.Game) (int64, bool), g *tessera.Game) []error {
	if at, ok := key(g); ok && b.Get(remindKey(at, g.ID)) == nil {
		return []error{fmt.Errorf("game %d: missing from the %s at %s", g.ID, what, time.Unix(0, at).UTC().Format(time.RFC3339Nano))}
	}
	return nil
}

// extraTime walks an index of games by a time and reports, up to max,
// every key that is malformed or disagrees with its game.
func extraTime(tx *bolt.Tx, b *bolt.Bucket, what string, key func(*tessera.Game) (int64, bool), max int) []error {
	var errs []error
	c := b.Cursor()
	r := releasing{tx: tx}
	for k, _ := c.First(); k != nil && len(errs) < max; k, _ = c.Next() {
		r.read(len(k) + elementSize)
		r.lookup(1)
		if len(k) != 16 {
			errs = append(errs, fmt.Errorf("the %s holds a malformed key %x", what, k))
			continue
		}
		id := btoi(k[8:])
		g, err := getGameKeys(tx, id)
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

// checkIndexes verifies the indexes of schema 2 (places, reminders, open
// challenges' expiry) against the games, both ways, in constant memory:
// one pass over the games' index fields for the keys each should have,
// then, where an index's keys do not add up, one walk of it for keys
// that belong to no game that should have them.
// Check calls it with its read transaction; at most 100 problems. A file
// of schema 1 (opened read-only) has none of them yet.
func checkIndexes(tx *bolt.Tx) []error {
	const max = 100
	if !upgraded(tx) {
		return nil
	}
	type timeIndex struct {
		b    *bolt.Bucket
		what string
		key  func(*tessera.Game) (int64, bool)
	}
	places := tx.Bucket(bPlaces)
	times := []timeIndex{
		{tx.Bucket(bReminders), "reminders' index", storage.RemindNanos},
		{tx.Bucket(bExpiry), "open challenges' expiry index", storage.OpenNanos},
	}
	var errs []error
	for name, b := range map[string]*bolt.Bucket{string(bPlaces): places, string(bReminders): times[0].b, string(bExpiry): times[1].b} {
		if b == nil {
			errs = append(errs, fmt.Errorf("the index in bucket %s is missing", name))
		}
	}
	if len(errs) > 0 {
		return errs
	}
	// One pass over the games' index fields: the keys each game should
	// have, and how many. When every one is there and an index holds
	// exactly as many keys, it holds no other (its keys are a set, and
	// each game's are its own, since they end with its id), so it is
	// walked key by key, its games read, only when the numbers disagree.
	wantPlaces, wantTimes := 0, make([]int, len(times))
	missing := make([]bool, 1+len(times))
	whole := true
	r := releasing{tx: tx}
	eachGameKeys(tx, &r, func(g *tessera.Game) bool {
		r.lookup(len(storage.Places(g)) + len(times))
		p := missingPlaces(places, g)
		missing[0] = missing[0] || len(p) > 0
		errs = append(errs, p...)
		wantPlaces += len(storage.Places(g))
		for i, ix := range times {
			if _, ok := ix.key(g); ok {
				wantTimes[i]++
			}
			t := missingTime(ix.b, ix.what, ix.key, g)
			missing[1+i] = missing[1+i] || len(t) > 0
			errs = append(errs, t...)
		}
		whole = len(errs) < max
		return whole
	})
	if !whole || missing[0] || countKeys(tx, places) != wantPlaces {
		errs = append(errs, extraPlaces(tx, places, max-len(errs))...)
	}
	for i, ix := range times {
		if !whole || missing[1+i] || countKeys(tx, ix.b) != wantTimes[i] {
			errs = append(errs, extraTime(tx, ix.b, ix.what, ix.key, max-len(errs))...)
		}
	}
	return errs
}
