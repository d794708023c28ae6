package postgres

// Tournaments (migration 0006): their rows, with the indexed columns
// derived from the record by putEvent in the same statement, and the
// changes that write them. A change locks the event's row (FOR UPDATE)
// and checks its version, so two processes pairing one round from the
// same version give one success and storage.ErrConflict.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"tessera"
	"tessera/storage"
)

// nextEventID takes the next event id inside the transaction (a
// rolled-back create gives it back), never below an id already stored.
func (t *Tx) nextEventID(ctx context.Context) (uint64, error) {
	return t.nextID(ctx, "events")
}

// decodeEvent reads a record; a record that does not decode is damage.
func (s *Store) decodeEvent(id int64, b []byte) (*tessera.Event, error) {
	var e tessera.Event
	if err := json.Unmarshal(b, &e); err != nil {
		return nil, &storage.DamagedError{Path: s.name, Reason: fmt.Sprintf("event %d: %v", id, err)}
	}
	return &e, nil
}

// event reads an event through q, locking its row when lock.
func (s *Store) event(ctx context.Context, q querier, id uint64, lock bool) (*tessera.Event, error) {
	sql := "SELECT record FROM events WHERE id = $1"
	if lock {
		sql += " FOR UPDATE"
	}
	var b []byte
	err := q.QueryRow(ctx, sql, int64(id)).Scan(&b)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, storage.ErrEventNotFound
	}
	if err != nil {
		return nil, s.fail(err)
	}
	return s.decodeEvent(int64(id), b)
}

// putEvent writes an event with its indexed columns.
func (t *Tx) putEvent(ctx context.Context, e *tessera.Event) error {
	rec, err := json.Marshal(e)
	if err != nil {
		return err
	}
	var starts *int64
	if e.Status == tessera.EventOpen && !e.Starts.IsZero() {
		n := e.Starts.UnixNano()
		starts = &n
	}
	_, err = t.tx.Exec(ctx, `INSERT INTO events (id, version, guild_id, starts, record) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (id) DO UPDATE SET version = $2, guild_id = $3, starts = $4, record = $5`,
		int64(e.ID), int64(e.Version), e.GuildID, starts, rec)
	return t.s.fail(err)
}

// CreateEvent stores a new event, giving it the next event id (and
// Version 1), and marks the interaction that created it as handled.
func (s *Store) CreateEvent(ctx context.Context, e *tessera.Event, interactionID string) error {
	return s.inTx(ctx, func(t *Tx) error {
		if err := t.markHandled(ctx, interactionID, time.Now()); err != nil {
			return s.failGame(err)
		}
		id, err := t.nextEventID(ctx)
		if err != nil {
			return s.fail(err)
		}
		e.ID, e.Version = id, 1
		return t.putEvent(ctx, e)
	})
}

// Event loads an event.
func (s *Store) Event(ctx context.Context, id uint64) (*tessera.Event, error) {
	return s.event(ctx, s.pool, id, false)
}

// UpdateEvent changes an event in one transaction: it locks and loads the
// event, checks its version (else storage.ErrConflict), marks the
// interaction handled (else storage.ErrDuplicate), calls change, bumps
// the version and writes.
func (s *Store) UpdateEvent(ctx context.Context, id, version uint64, interactionID string, change func(e *tessera.Event, tx storage.Tx) error) (*tessera.Event, error) {
	var out *tessera.Event
	err := s.inTx(ctx, func(t *Tx) error {
		e, err := s.event(ctx, t.tx, id, true)
		if err != nil {
			return err
		}
		if e.Version != version {
			return storage.ErrConflict
		}
		if err := t.markHandled(ctx, interactionID, time.Now()); err != nil {
			return s.failGame(err)
		}
		if err := change(e, t); err != nil {
			return err
		}
		e.Version = version + 1
		if err := t.putEvent(ctx, e); err != nil {
			return err
		}
		out = e
		return nil
	})
	return out, err
}

// GuildEvents lists a server's events, oldest first.
func (s *Store) GuildEvents(ctx context.Context, guildID string) ([]*tessera.Event, error) {
	return queryRecords(ctx, s, s.pool, s.decodeEvent, "SELECT id, record FROM events WHERE guild_id = $1 ORDER BY id", guildID)
}

// EventsDue lists the open events whose start time is at or before now,
// earliest first.
func (s *Store) EventsDue(ctx context.Context, now time.Time) ([]uint64, error) {
	return s.ids(ctx, "SELECT id FROM events WHERE starts <= $1 ORDER BY starts, id", now.UnixNano())
}

// Event reads an event in the transaction and locks its row until the
// transaction ends, so that another process's change of it waits for
// this one and then finds its version gone.
func (t *Tx) Event(ctx context.Context, id uint64) (*tessera.Event, error) {
	return t.s.event(ctx, t.tx, id, true)
}

// PutEvent writes e if it is still at the stored version, and bumps it.
// It locks the row first: a racing writer in another process waits for
// this transaction and then finds the version gone (storage.ErrConflict).
func (t *Tx) PutEvent(ctx context.Context, e *tessera.Event) error {
	stored, err := t.s.event(ctx, t.tx, e.ID, true)
	if err != nil {
		return err
	}
	if stored.Version != e.Version {
		return storage.ErrConflict
	}
	e.Version++
	if err := t.putEvent(ctx, e); err != nil {
		e.Version--
		return err
	}
	return nil
}

// CreateGame stores a new game with the next game id, in the
// transaction, after change (when not nil) has seen it with its id.
func (t *Tx) CreateGame(ctx context.Context, g *tessera.Game, change func(g *tessera.Game) error) error {
	id, err := t.nextGameID(ctx)
	if err != nil {
		return t.s.fail(err)
	}
	g.ID, g.Version = id, 1
	if change != nil {
		if err := change(g); err != nil {
			return err
		}
	}
	return t.s.fail(t.putGame(ctx, g, nil))
}
