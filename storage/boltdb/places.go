package boltdb

// The place index behind ByChannel: the challenges and games in play of
// each channel and thread, and the game whose own thread a thread is
// (storage.Places). putGame keeps it in the game's own transaction, so a
// game leaves its channel's list in the transaction that ends it.
//
// Files of schema 1 kept every place a game was ever in, for ever, in
// bucket by_channel; the upgrade to schema 2 (upgrade.go) builds this
// one and drops that. A file of schema 1 opened read-only is answered
// from the old bucket, each game checked against the rule.

import (
	"context"
	"fmt"
	"slices"

	bolt "go.etcd.io/bbolt"

	"tessera"
	"tessera/storage"
)

var bPlaces = []byte("places") // channel or thread id 0x00 game id -> nothing

// putPlaces keeps g's keys in the place index in step; old is the game as
// it was (nil when new), whose keys are the index's until now.
func putPlaces(tx *bolt.Tx, g, old *tessera.Game) error {
	b := tx.Bucket(bPlaces)
	want := storage.Places(g)
	if old != nil {
		for _, p := range storage.Places(old) {
			if !slices.Contains(want, p) {
				if err := b.Delete(indexKey(p, g.ID)); err != nil {
					return err
				}
			}
		}
	}
	for _, p := range want {
		if err := b.Put(indexKey(p, g.ID), nil); err != nil {
			return err
		}
	}
	return nil
}

// upgraded reports whether the file has schema 2's indexes (a file of
// schema 1 is only ever seen so when opened read-only).
func upgraded(tx *bolt.Tx) bool {
	return string(tx.Bucket(bMeta).Get(kSchema)) == "2"
}

// ByChannel lists the challenges and games in play of a channel or
// thread, and the game whose own thread it is, oldest first.
func (s *Store) ByChannel(ctx context.Context, channelID string) ([]*tessera.Game, error) {
	var out []*tessera.Game
	err := s.view(ctx, func(tx *bolt.Tx) (err error) {
		if upgraded(tx) {
			out, err = gamesByIndex(tx, bPlaces, channelID)
			return err
		}
		out, err = s.byChannelSchema1(tx, channelID)
		return err
	})
	return out, err
}

// ByChannelPlayer lists the games of ByChannel(channelID) in which
// userID has a seat, oldest first. Both indexes hold their keys by id
// under a prefix, so a leapfrog join (each side seeks to the other's
// id) reads keys only, and decodes only the games both list.
func (s *Store) ByChannelPlayer(ctx context.Context, channelID, userID string) ([]*tessera.Game, error) {
	var out []*tessera.Game
	err := s.view(ctx, func(tx *bolt.Tx) error {
		if !upgraded(tx) { // schema 1, read-only: from the old index, by the rule
			all, err := s.byChannelSchema1(tx, channelID)
			for _, g := range all {
				if g.HasPlayer(userID) {
					out = append(out, g)
				}
			}
			return err
		}
		pc, qc := tx.Bucket(bPlaces).Cursor(), tx.Bucket(bByPlayer).Cursor()
		pk, qk := append([]byte(channelID), 0), append([]byte(userID), 0)
		id := func(prefix, k []byte) (uint64, bool) {
			if len(k) != len(prefix)+8 || string(k[:len(prefix)]) != string(prefix) {
				return 0, false
			}
			return btoi(k[len(prefix):]), true
		}
		a, okA := id(pk, first(pc.Seek(pk)))
		b, okB := id(qk, first(qc.Seek(qk)))
		for okA && okB {
			switch {
			case a < b:
				a, okA = id(pk, first(pc.Seek(indexKey(channelID, b))))
			case b < a:
				b, okB = id(qk, first(qc.Seek(indexKey(userID, a))))
			default:
				g, err := getGame(tx, a)
				if err != nil {
					return err
				}
				out = append(out, g)
				a, okA = id(pk, first(pc.Next()))
				b, okB = id(qk, first(qc.Next()))
			}
		}
		return nil
	})
	return out, err
}

func first(k, _ []byte) []byte { return k }

// byChannelSchema1 answers ByChannel from schema 1's index, each game
// checked against the rule.
func (s *Store) byChannelSchema1(tx *bolt.Tx, channelID string) ([]*tessera.Game, error) {
	if tx.Bucket(bByChan) == nil {
		return nil, nil
	}
	all, err := gamesByIndex(tx, bByChan, channelID)
	var out []*tessera.Game
	for _, g := range all {
		if slices.Contains(storage.Places(g), channelID) {
			out = append(out, g)
		}
	}
	return out, err
}

// missingPlaces reports the keys g should have in the place index and
// lacks.
func missingPlaces(b *bolt.Bucket, g *tessera.Game) []error {
	var errs []error
	for _, p := range storage.Places(g) {
		if b.Get(indexKey(p, g.ID)) == nil {
			errs = append(errs, fmt.Errorf("game %d: missing from the place index under %q", g.ID, p))
		}
	}
	return errs
}

// extraPlaces walks the place index and reports, up to max, every key
// that is malformed or names a game that should not have it.
func extraPlaces(tx *bolt.Tx, b *bolt.Bucket, max int) []error {
	var errs []error
	c := b.Cursor()
	r := releasing{tx: tx}
	for k, _ := c.First(); k != nil && len(errs) < max; k, _ = c.Next() {
		r.read(len(k) + elementSize)
		r.lookup(1)
		if len(k) < 9 || k[len(k)-9] != 0 {
			errs = append(errs, fmt.Errorf("the place index holds a malformed key %q", k))
			continue
		}
		place, id := string(k[:len(k)-9]), btoi(k[len(k)-8:])
		g, err := getGameKeys(tx, id)
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("the place index lists game %d under %q: %v", id, place, err))
		case !slices.Contains(storage.Places(g), place):
			errs = append(errs, fmt.Errorf("the place index lists game %d under %q, which is not its place (%s)", id, place, g.Status))
		}
	}
	return errs
}
