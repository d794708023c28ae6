package boltdb

// Tournaments: their records, by id, and two indexes kept in step by
// putEvent (a server's events; the open events with a start time, by
// that time). The buckets are made when a file is opened for writing (a
// file from before them gets them then; a read-only open may lack them,
// which reads as no events).

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

var (
	bEvents       = []byte("events")          // event id -> tessera.Event (JSON); its sequence gives the ids
	bEventsGuild  = []byte("events_by_guild") // guild id 0x00 event id -> nothing
	bEventsStarts = []byte("events_starts")   // unix nanos, event id -> nothing: open events with a start time
)

// initEvents makes the events' buckets.
func initEvents(tx *bolt.Tx) error {
	for _, b := range [][]byte{bEvents, bEventsGuild, bEventsStarts} {
		if _, err := tx.CreateBucketIfNotExists(b); err != nil {
			return err
		}
	}
	return nil
}

func getEvent(tx *bolt.Tx, id uint64) (*tessera.Event, error) {
	b := tx.Bucket(bEvents)
	if b == nil {
		return nil, storage.ErrEventNotFound
	}
	v := b.Get(itob(id))
	if v == nil {
		return nil, storage.ErrEventNotFound
	}
	var e tessera.Event
	if err := json.Unmarshal(v, &e); err != nil {
		return nil, fmt.Errorf("event %d: %w", id, err)
	}
	return &e, nil
}

// startsKey is e's key in the start-time index, nil when e is not
// waiting for a start time.
func startsKey(e *tessera.Event) []byte {
	if e.Status != tessera.EventOpen || e.Starts.IsZero() {
		return nil
	}
	return deadlineKey(e.Starts, e.ID)
}

// putEvent writes an event and keeps its indexes in step; old is the
// event as it was (nil when new).
func putEvent(tx *bolt.Tx, e, old *tessera.Event) error {
	v, err := json.Marshal(e)
	if err != nil {
		return err
	}
	if err := tx.Bucket(bEvents).Put(itob(e.ID), v); err != nil {
		return err
	}
	guild, starts := tx.Bucket(bEventsGuild), tx.Bucket(bEventsStarts)
	if old != nil && old.GuildID != e.GuildID {
		if err := guild.Delete(indexKey(old.GuildID, e.ID)); err != nil {
			return err
		}
	}
	if err := guild.Put(indexKey(e.GuildID, e.ID), nil); err != nil {
		return err
	}
	if old != nil {
		if k := startsKey(old); k != nil {
			if err := starts.Delete(k); err != nil {
				return err
			}
		}
	}
	if k := startsKey(e); k != nil {
		return starts.Put(k, nil)
	}
	return nil
}

// CreateEvent stores a new event, giving it the next event id (and
// Version 1), and marks the interaction that created it as handled.
func (s *Store) CreateEvent(ctx context.Context, e *tessera.Event, interactionID string) error {
	return s.update(ctx, func(tx *bolt.Tx) error {
		if err := markHandled(tx, interactionID, time.Now()); err != nil {
			return err
		}
		id, err := tx.Bucket(bEvents).NextSequence()
		if err != nil {
			return err
		}
		e.ID, e.Version = id, 1
		return putEvent(tx, e, nil)
	})
}

// Event loads an event.
func (s *Store) Event(ctx context.Context, id uint64) (*tessera.Event, error) {
	var e *tessera.Event
	err := s.view(ctx, func(tx *bolt.Tx) (err error) {
		e, err = getEvent(tx, id)
		return err
	})
	return e, err
}

// UpdateEvent changes an event in one transaction, with the version
// check of Update.
func (s *Store) UpdateEvent(ctx context.Context, id, version uint64, interactionID string, change func(e *tessera.Event, tx storage.Tx) error) (*tessera.Event, error) {
	var out *tessera.Event
	err := s.update(ctx, func(tx *bolt.Tx) error {
		e, err := getEvent(tx, id)
		if err != nil {
			return err
		}
		if e.Version != version {
			return storage.ErrConflict
		}
		if err := markHandled(tx, interactionID, time.Now()); err != nil {
			return err
		}
		old := *e
		if err := change(e, &Tx{tx}); err != nil {
			return err
		}
		e.Version = version + 1
		if err := putEvent(tx, e, &old); err != nil {
			return err
		}
		out = e
		return nil
	})
	return out, err
}

// GuildEvents lists a server's events, oldest first.
func (s *Store) GuildEvents(ctx context.Context, guildID string) ([]*tessera.Event, error) {
	var out []*tessera.Event
	err := s.view(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bEventsGuild)
		if b == nil {
			return nil
		}
		prefix := indexKey(guildID, 0)[:len(guildID)+1]
		c := b.Cursor()
		for k, _ := c.Seek(prefix); k != nil && len(k) == len(prefix)+8 && string(k[:len(prefix)]) == string(prefix); k, _ = c.Next() {
			e, err := getEvent(tx, binary.BigEndian.Uint64(k[len(prefix):]))
			if err != nil {
				return err
			}
			out = append(out, e)
		}
		return nil
	})
	return out, err
}

// EventsDue lists the open events whose start time is at or before now,
// earliest first.
func (s *Store) EventsDue(ctx context.Context, now time.Time) ([]uint64, error) {
	var out []uint64
	err := s.view(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bEventsStarts)
		if b == nil {
			return nil
		}
		limit := uint64(now.UnixNano())
		c := b.Cursor()
		for k, _ := c.First(); k != nil && len(k) == 16 && binary.BigEndian.Uint64(k[:8]) <= limit; k, _ = c.Next() {
			out = append(out, binary.BigEndian.Uint64(k[8:]))
		}
		return nil
	})
	return out, err
}

// Event reads an event in the transaction (bbolt writes one transaction
// at a time, so nothing changes it meanwhile).
func (t *Tx) Event(ctx context.Context, id uint64) (*tessera.Event, error) {
	return getEvent(t.tx, id)
}

// PutEvent writes e if it is still at the stored version, and bumps it.
func (t *Tx) PutEvent(ctx context.Context, e *tessera.Event) error {
	old, err := getEvent(t.tx, e.ID)
	if err != nil {
		return err
	}
	if old.Version != e.Version {
		return storage.ErrConflict
	}
	e.Version++
	if err := putEvent(t.tx, e, old); err != nil {
		e.Version--
		return err
	}
	return nil
}

// CreateGame stores a new game with the next game id, in the
// transaction, after change (when not nil) has seen it with its id.
func (t *Tx) CreateGame(ctx context.Context, g *tessera.Game, change func(g *tessera.Game) error) error {
	id, err := t.tx.Bucket(bGames).NextSequence()
	if err != nil {
		return err
	}
	g.ID, g.Version = id, 1
	if change != nil {
		if err := change(g); err != nil {
			return err
		}
	}
	return putGame(t.tx, g, nil)
}
