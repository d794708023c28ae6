package boltdb

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

var _ storage.Dumper = (*Store)(nil)

// Dump calls put for every record, in one read transaction (see
// storage.Dumper).
func (s *Store) Dump(ctx context.Context, put func(storage.Record) error) error {
	return s.view(ctx, func(tx *bolt.Tx) error {
		c := storage.Counters{LastGameID: tx.Bucket(bGames).Sequence(), LastSeq: tx.Bucket(bOutbox).Sequence()}
		if b := tx.Bucket(bRatings); b != nil {
			c.LastRatingSeq = b.Sequence()
		}
		if b := tx.Bucket(bEvents); b != nil {
			c.LastEventID = b.Sequence()
		}
		if err := put(storage.Record{Counters: &c}); err != nil {
			return err
		}
		old := !upgraded(tx)
		if err := tx.Bucket(bGames).ForEach(func(k, v []byte) error {
			var g tessera.Game
			if err := json.Unmarshal(v, &g); err != nil {
				return fmt.Errorf("game %d: %w", binary.BigEndian.Uint64(k), err)
			}
			if old { // schema 1, read-only: as the upgrade would make it (upgrade.go)
				asUpgraded(&g)
			}
			return put(storage.Record{Game: &g})
		}); err != nil {
			return err
		}
		if err := tx.Bucket(bOutbox).ForEach(func(k, v []byte) error {
			var a tessera.Announcement
			if err := json.Unmarshal(v, &a); err != nil {
				return fmt.Errorf("outbox %x: %w", k, err)
			}
			return put(storage.Record{Announcement: &a})
		}); err != nil {
			return err
		}
		if err := tx.Bucket(bUsers).ForEach(func(k, v []byte) error {
			u := storage.User{ID: string(k)}
			if err := json.Unmarshal(v, &u.Settings); err != nil {
				return fmt.Errorf("user %s: %w", k, err)
			}
			return put(storage.Record{User: &u})
		}); err != nil {
			return err
		}
		if err := scanRatings(tx, nil, func(r tessera.Rating) error { return put(storage.Record{Rating: &r}) }); err != nil {
			return err
		}
		if err := tx.Bucket(bHandled).ForEach(func(k, v []byte) error {
			if len(v) != 8 {
				return fmt.Errorf("handled %q: %d-byte time", k, len(v))
			}
			at := time.Unix(int64(binary.BigEndian.Uint64(v)), 0).UTC()
			return put(storage.Record{Handled: &storage.Handled{ID: string(k), At: at}})
		}); err != nil {
			return err
		}
		if b := tx.Bucket(bGuilds); b != nil {
			if err := b.ForEach(func(k, v []byte) error {
				g := storage.Guild{ID: string(k)}
				if err := json.Unmarshal(v, &g.Settings); err != nil {
					return fmt.Errorf("guild %s: %w", k, err)
				}
				return put(storage.Record{Guild: &g})
			}); err != nil {
				return err
			}
		}
		if b := tx.Bucket(bSecrets); b != nil {
			if err := b.ForEach(func(k, v []byte) error {
				return put(storage.Record{Secret: &storage.Secret{Name: string(k), Value: append([]byte(nil), v...)}})
			}); err != nil {
				return err
			}
		}
		if b := tx.Bucket(bEvents); b != nil {
			return b.ForEach(func(k, v []byte) error {
				var e tessera.Event
				if err := json.Unmarshal(v, &e); err != nil {
					return fmt.Errorf("event %d: %w", binary.BigEndian.Uint64(k), err)
				}
				return put(storage.Record{Event: &e})
			})
		}
		return nil
	})
}

// Load writes the records src gives into this empty database, in one
// transaction, and makes every index from the games (see
// storage.Dumper).
func (s *Store) Load(ctx context.Context, src func(put func(storage.Record) error) error) error {
	return s.update(ctx, func(tx *bolt.Tx) error {
		for _, name := range [][]byte{bGames, bOutbox, bUsers, bRatings, bHandled, bGuilds, bEvents} {
			if b := tx.Bucket(name); b != nil {
				if k, _ := b.Cursor().First(); k != nil {
					return storage.ErrNotEmpty
				}
			}
		}
		var last storage.Counters
		err := src(func(r storage.Record) error {
			switch {
			case r.Counters != nil:
				last.LastGameID = max(last.LastGameID, r.Counters.LastGameID)
				last.LastSeq = max(last.LastSeq, r.Counters.LastSeq)
				last.LastRatingSeq = max(last.LastRatingSeq, r.Counters.LastRatingSeq)
				last.LastEventID = max(last.LastEventID, r.Counters.LastEventID)
			case r.Game != nil:
				g := r.Game
				if g.ID == 0 {
					return fmt.Errorf("a game without an id")
				}
				if tx.Bucket(bGames).Get(itob(g.ID)) != nil {
					return fmt.Errorf("game %d given twice", g.ID)
				}
				last.LastGameID = max(last.LastGameID, g.ID)
				last.LastRatingSeq = max(last.LastRatingSeq, g.RatingSeq)
				return putGame(tx, g, nil)
			case r.Announcement != nil:
				a := r.Announcement
				if a.Seq == 0 {
					return fmt.Errorf("an announcement of game %d without a Seq", a.GameID)
				}
				if tx.Bucket(bOutbox).Get(itob(a.Seq)) != nil {
					return fmt.Errorf("announcement %d given twice", a.Seq)
				}
				last.LastSeq = max(last.LastSeq, a.Seq)
				v, err := json.Marshal(a)
				if err != nil {
					return err
				}
				return tx.Bucket(bOutbox).Put(itob(a.Seq), v)
			case r.User != nil:
				v, err := json.Marshal(r.User.Settings)
				if err != nil {
					return err
				}
				return tx.Bucket(bUsers).Put([]byte(r.User.ID), v)
			case r.Rating != nil:
				return (&Tx{tx}).PutRating(ctx, *r.Rating)
			case r.Handled != nil:
				if r.Handled.ID == "" {
					return fmt.Errorf("a handled interaction without an id")
				}
				return tx.Bucket(bHandled).Put([]byte(r.Handled.ID), itob(uint64(r.Handled.At.Unix())))
			case r.Guild != nil:
				v, err := json.Marshal(r.Guild.Settings)
				if err != nil {
					return err
				}
				return tx.Bucket(bGuilds).Put([]byte(r.Guild.ID), v)
			case r.Secret != nil:
				// The source's secret replaces one this database made
				// for itself: the links out there were signed with it.
				if r.Secret.Name == "" || len(r.Secret.Value) == 0 {
					return fmt.Errorf("a secret without a name or a value")
				}
				return tx.Bucket(bSecrets).Put([]byte(r.Secret.Name), r.Secret.Value)
			case r.Event != nil:
				e := r.Event
				if e.ID == 0 {
					return fmt.Errorf("an event without an id")
				}
				if tx.Bucket(bEvents).Get(itob(e.ID)) != nil {
					return fmt.Errorf("event %d given twice", e.ID)
				}
				last.LastEventID = max(last.LastEventID, e.ID)
				return putEvent(tx, e, nil)
			default:
				return fmt.Errorf("an empty record")
			}
			return nil
		})
		if err != nil {
			return err
		}
		if err := tx.Bucket(bGames).SetSequence(max(last.LastGameID, tx.Bucket(bGames).Sequence())); err != nil {
			return err
		}
		if err := tx.Bucket(bOutbox).SetSequence(max(last.LastSeq, tx.Bucket(bOutbox).Sequence())); err != nil {
			return err
		}
		if err := tx.Bucket(bEvents).SetSequence(max(last.LastEventID, tx.Bucket(bEvents).Sequence())); err != nil {
			return err
		}
		if last.LastRatingSeq == 0 {
			return nil
		}
		ratings, err := tx.CreateBucketIfNotExists(bRatings)
		if err != nil {
			return err
		}
		return ratings.SetSequence(max(last.LastRatingSeq, ratings.Sequence()))
	})
}
