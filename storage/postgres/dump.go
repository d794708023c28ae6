package postgres

// Dump and Load: the whole database as records, for tessera migrate (see
// storage.Dumper). Only data is copied; Load derives every index from the
// games through putGame, as any write does.

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

var _ storage.Dumper = (*Store)(nil)

// lastSeqSQL is the last Seq given out: the outbox sequence's value once
// it has been used, never below a Seq stored.
const lastSeqSQL = `SELECT greatest(
	(SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM outbox_seq_seq),
	(SELECT coalesce(max(seq), 0) FROM outbox))`

// Dump calls put for every record, from one snapshot (see storage.Dumper).
func (s *Store) Dump(ctx context.Context, put func(storage.Record) error) error {
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return s.fail(err)
	}
	defer tx.Rollback(ctx)
	var c storage.Counters
	var lastGame, lastSeq, lastRating, lastEvent int64
	if err := tx.QueryRow(ctx, `SELECT greatest((SELECT value FROM counters WHERE name = 'games'), (SELECT coalesce(max(id), 0) FROM games)), (`+lastSeqSQL+`),
		(SELECT value FROM counters WHERE name = 'ratings'),
		greatest((SELECT value FROM counters WHERE name = 'events'), (SELECT coalesce(max(id), 0) FROM events))`).Scan(&lastGame, &lastSeq, &lastRating, &lastEvent); err != nil {
		return s.fail(err)
	}
	c.LastGameID, c.LastSeq, c.LastRatingSeq, c.LastEventID = uint64(lastGame), uint64(lastSeq), uint64(lastRating), uint64(lastEvent)
	if err := put(storage.Record{Counters: &c}); err != nil {
		return err
	}
	// each reads rows of a key and a value. Its queries order by a
	// qualified column: an unqualified ORDER BY seq would sort by the
	// output column seq::text, putting 10 before 2.
	each := func(sql string, fn func(key string, b []byte) error) error {
		rows, err := tx.Query(ctx, sql)
		if err != nil {
			return s.fail(err)
		}
		defer rows.Close()
		for rows.Next() {
			var key string
			var b []byte
			if err := rows.Scan(&key, &b); err != nil {
				return s.fail(err)
			}
			if err := fn(key, b); err != nil {
				return err
			}
		}
		return s.fail(rows.Err())
	}
	err = each("SELECT g.id::text, g.record FROM games g ORDER BY g.id", func(id string, b []byte) error {
		var g tessera.Game
		if err := json.Unmarshal(b, &g); err != nil {
			return &storage.DamagedError{Path: s.name, Reason: fmt.Sprintf("game %s: %v", id, err)}
		}
		return put(storage.Record{Game: &g})
	})
	if err != nil {
		return err
	}
	err = each("SELECT o.seq::text, o.body FROM outbox o ORDER BY o.seq", func(seq string, b []byte) error {
		var a tessera.Announcement
		if err := json.Unmarshal(b, &a); err != nil {
			return fmt.Errorf("database %s: outbox %s: %w", s.name, seq, err)
		}
		fmt.Sscan(seq, &a.Seq)
		return put(storage.Record{Announcement: &a})
	})
	if err != nil {
		return err
	}
	err = each("SELECT id, settings FROM users WHERE settings IS NOT NULL ORDER BY id", func(id string, b []byte) error {
		u := storage.User{ID: id}
		if err := json.Unmarshal(b, &u.Settings); err != nil {
			return fmt.Errorf("database %s: user %s: %w", s.name, id, err)
		}
		return put(storage.Record{User: &u})
	})
	if err != nil {
		return err
	}
	if err := s.dumpRatings(ctx, tx, put); err != nil {
		return err
	}
	rows, err := tx.Query(ctx, "SELECT interaction_id, at FROM handled ORDER BY interaction_id")
	if err != nil {
		return s.fail(err)
	}
	defer rows.Close()
	for rows.Next() {
		var h storage.Handled
		var at int64
		if err := rows.Scan(&h.ID, &at); err != nil {
			return s.fail(err)
		}
		h.At = time.Unix(at, 0).UTC()
		if err := put(storage.Record{Handled: &h}); err != nil {
			return err
		}
	}
	if err := s.fail(rows.Err()); err != nil {
		return err
	}
	err = each("SELECT id, settings FROM guilds ORDER BY id", func(id string, b []byte) error {
		g := storage.Guild{ID: id}
		if err := json.Unmarshal(b, &g.Settings); err != nil {
			return fmt.Errorf("database %s: guild %s: %w", s.name, id, err)
		}
		return put(storage.Record{Guild: &g})
	})
	if err != nil {
		return err
	}
	err = each("SELECT name, value FROM secrets ORDER BY name", func(name string, b []byte) error {
		return put(storage.Record{Secret: &storage.Secret{Name: name, Value: b}})
	})
	if err != nil {
		return err
	}
	return each("SELECT e.id::text, e.record FROM events e ORDER BY e.id", func(id string, b []byte) error {
		var e tessera.Event
		if err := json.Unmarshal(b, &e); err != nil {
			return &storage.DamagedError{Path: s.name, Reason: fmt.Sprintf("event %s: %v", id, err)}
		}
		return put(storage.Record{Event: &e})
	})
}

// Load writes the records src gives into this empty database in one
// transaction (see storage.Dumper).
func (s *Store) Load(ctx context.Context, src func(put func(storage.Record) error) error) error {
	return s.inTx(ctx, func(t *Tx) error {
		var used bool
		if err := t.tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM games) OR EXISTS (SELECT 1 FROM outbox)
			OR EXISTS (SELECT 1 FROM users) OR EXISTS (SELECT 1 FROM ratings) OR EXISTS (SELECT 1 FROM handled)
			OR EXISTS (SELECT 1 FROM guilds) OR EXISTS (SELECT 1 FROM events)`).Scan(&used); err != nil {
			return s.fail(err)
		}
		if used {
			return storage.ErrNotEmpty
		}
		var counters storage.Counters
		var lastRating uint64
		err := src(func(r storage.Record) error {
			switch {
			case r.Counters != nil:
				counters = *r.Counters
			case r.Game != nil:
				if r.Game.ID == 0 || r.Game.ID > 1<<62 || r.Game.RatingSeq > 1<<62 {
					return fmt.Errorf("load: a game with id %d and RatingSeq %d", r.Game.ID, r.Game.RatingSeq)
				}
				lastRating = max(lastRating, r.Game.RatingSeq)
				return s.fail(t.putGame(ctx, r.Game, nil))
			case r.Announcement != nil:
				a := *r.Announcement
				if a.Seq == 0 || a.Seq > 1<<62 {
					return fmt.Errorf("load: an announcement of game %d with Seq %d", a.GameID, a.Seq)
				}
				seq := a.Seq
				a.Seq = 0
				body, err := json.Marshal(a)
				if err != nil {
					return err
				}
				_, err = t.tx.Exec(ctx, `WITH lease AS (INSERT INTO outbox_leases (game_id) VALUES ($1) ON CONFLICT DO NOTHING)
					INSERT INTO outbox (seq, game_id, next_at, body) VALUES ($4, $1, $2, $3)`, int64(a.Queue()), nanos(a.Next), body, int64(seq))
				return s.fail(err)
			case r.User != nil:
				b, err := json.Marshal(r.User.Settings)
				if err != nil {
					return err
				}
				_, err = t.tx.Exec(ctx, "INSERT INTO users (id, settings) VALUES ($1, $2)", r.User.ID, b)
				return s.fail(err)
			case r.Rating != nil:
				return s.fail(t.PutRating(ctx, *r.Rating))
			case r.Handled != nil:
				_, err := t.tx.Exec(ctx, "INSERT INTO handled (interaction_id, at) VALUES ($1, $2)", r.Handled.ID, r.Handled.At.Unix())
				return s.fail(err)
			case r.Guild != nil:
				b, err := json.Marshal(r.Guild.Settings)
				if err != nil {
					return err
				}
				_, err = t.tx.Exec(ctx, "INSERT INTO guilds (id, settings) VALUES ($1, $2)", r.Guild.ID, b)
				return s.fail(err)
			case r.Secret != nil:
				// The source's secret replaces one this database made
				// for itself: the links out there were signed with it.
				if r.Secret.Name == "" || len(r.Secret.Value) == 0 {
					return errors.New("load: a secret without a name or a value")
				}
				_, err := t.tx.Exec(ctx, "INSERT INTO secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value", r.Secret.Name, r.Secret.Value)
				return s.fail(err)
			case r.Event != nil:
				if r.Event.ID == 0 || r.Event.ID > 1<<62 {
					return fmt.Errorf("load: an event with id %d", r.Event.ID)
				}
				var taken bool
				if err := t.tx.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM events WHERE id = $1)", int64(r.Event.ID)).Scan(&taken); err != nil {
					return s.fail(err)
				}
				if taken {
					return fmt.Errorf("load: event %d given twice", r.Event.ID)
				}
				return t.putEvent(ctx, r.Event)
			default:
				return errors.New("load: an empty record")
			}
			return nil
		})
		if err != nil {
			return err
		}
		if counters.LastGameID > 1<<62 || counters.LastSeq > 1<<62 || counters.LastRatingSeq > 1<<62 || counters.LastEventID > 1<<62 {
			return fmt.Errorf("load: counters %+v out of range", counters)
		}
		// The next id and Seq are above everything given out before.
		if _, err := t.tx.Exec(ctx, `UPDATE counters SET value = greatest(value, $1, (SELECT coalesce(max(id), 0) FROM games)) WHERE name = 'games'`,
			int64(counters.LastGameID)); err != nil {
			return s.fail(err)
		}
		if _, err := t.tx.Exec(ctx, `UPDATE counters SET value = greatest(value, $1, (SELECT coalesce(max(id), 0) FROM events)) WHERE name = 'events'`,
			int64(counters.LastEventID)); err != nil {
			return s.fail(err)
		}
		if _, err := t.tx.Exec(ctx, `UPDATE counters SET value = greatest(value, $1) WHERE name = 'ratings'`,
			int64(max(counters.LastRatingSeq, lastRating))); err != nil {
			return s.fail(err)
		}
		var last int64
		if err := t.tx.QueryRow(ctx, lastSeqSQL).Scan(&last); err != nil {
			return s.fail(err)
		}
		if last = max(last, int64(counters.LastSeq)); last > 0 {
			if _, err := t.tx.Exec(ctx, "SELECT setval('outbox_seq_seq', $1)", last); err != nil {
				return s.fail(err)
			}
		}
		return nil
	})
}
