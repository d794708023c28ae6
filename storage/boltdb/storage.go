// Package boltdb is the embedded adapter of the storage port: games in
// one bbolt file, with their indexes by player, channel, deadline, open
// challenge and finished game, the outbox, users, ratings, tournaments
// (events.go) and the interaction ids already handled. It is the only
// importer of bbolt, and the default: one process owns the file (bbolt's
// lock).
//
// Every change is one bbolt transaction, written with fsync, so a crash
// loses nothing that was acknowledged and never leaves half a move.
package boltdb

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"sort"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"

	"tessera"
	"tessera/storage"
)

// SchemaVersion is the layout this code writes: 2 added the reminders'
// and the open challenges' expiry indexes and made the place index hold
// the games active there (upgrade.go).
// It opens a file of version 1 too, upgrading it when it may write.
const SchemaVersion = 2

var (
	bMeta     = []byte("meta")
	bGames    = []byte("games")
	bByPlayer = []byte("by_player")  // player id 0x00 game id -> nothing
	bByChan   = []byte("by_channel") // schema 1's place index, every place ever (places.go)
	bHandled  = []byte("handled")    // interaction id -> unix seconds
	bOutbox   = []byte("outbox")     // seq -> announcement owed to Discord
	bDeadline = []byte("deadlines")  // unix nanos, game id -> nothing
	bUsers    = []byte("users")      // user id -> settings
	bAITurn   = []byte("ai_turn")    // game id -> nothing: an AI seat is to move
	kSchema   = []byte("schema")
)

// Store is an open database.
type Store struct {
	db       *bolt.DB
	created  bool
	claims   leases
	aiClaims leases // the AI turns' (claim.go)
}

var _ storage.Store = (*Store)(nil)
var _ storage.Backuper = (*Store)(nil)
var _ storage.Tx = (*Tx)(nil)

// Open opens the database at path and checks its schema version. It
// creates the file when it is missing or empty, unless opt.ReadOnly. A
// damaged file is a *storage.DamagedError, never a crash (see open.go).
func Open(path string, opt storage.Options) (*Store, error) {
	if opt.LockTimeout == 0 {
		opt.LockTimeout = time.Second
	}
	created, err := inspect(path, opt.ReadOnly)
	if err != nil {
		return nil, err
	}
	db, err := openBolt(path, opt)
	if err != nil {
		return nil, err
	}
	if opt.ReadOnly {
		err = guard(path, func() error { return db.View(func(tx *bolt.Tx) error { return checkSchema(tx, path) }) })
	} else {
		err = guard(path, func() error { return checkBeforeWriting(db) })
		if err == nil {
			err = guard(path, func() error { return db.Update(func(tx *bolt.Tx) error { return initSchema(tx, path) }) })
		}
		if err == nil {
			log := opt.Log
			if log == nil {
				log = slog.Default()
			}
			err = upgrade(db, path, log)
			if err == nil {
				err = guard(path, func() error { return buildRatingIndexes(db, path, ratingIndexBatch, log, nil) })
			}
		}
	}
	if err != nil {
		db.Close()
		return nil, err
	}
	return &Store{db: db, created: created}, nil
}

// initSchema writes the schema version and the buckets of a new file, and
// checks the version of an existing one.
func initSchema(tx *bolt.Tx, path string) error {
	meta, err := tx.CreateBucketIfNotExists(bMeta)
	if err != nil {
		return err
	}
	switch v := meta.Get(kSchema); {
	case v == nil:
		if tx.Bucket(bGames) != nil {
			return fmt.Errorf("database %s has games but no schema version: not a tessera database?", path)
		}
		if err := meta.Put(kSchema, []byte(strconv.Itoa(SchemaVersion))); err != nil {
			return err
		}
	case string(v) != "1" && string(v) != strconv.Itoa(SchemaVersion):
		return fmt.Errorf("database %s has schema version %s; this tessera reads versions 1 to %d", path, v, SchemaVersion)
	}
	// A file of schema 1 gets its reminders and places from the upgrade
	// that follows (upgrade.go).
	for _, b := range [][]byte{bGames, bByPlayer, bHandled, bOutbox, bDeadline, bUsers, bPlaces, bReminders, bExpiry} {
		if _, err := tx.CreateBucketIfNotExists(b); err != nil {
			return err
		}
	}
	if err := initHistory(tx); err != nil {
		return err
	}
	if err := initGuilds(tx); err != nil {
		return err
	}
	if err := initEvents(tx); err != nil {
		return err
	}
	if err := initAnalyses(tx); err != nil {
		return err
	}
	return indexAISeats(tx)
}

// checkSchema checks, without writing, that a file opened read-only is a
// tessera database of this version. Only the games bucket is required
// (the admin tools read it): a bucket a later version adds may be missing.
func checkSchema(tx *bolt.Tx, path string) error {
	meta := tx.Bucket(bMeta)
	if meta == nil {
		return fmt.Errorf("database %s has no schema version: not a tessera database?", path)
	}
	if v := meta.Get(kSchema); string(v) != "1" && string(v) != strconv.Itoa(SchemaVersion) {
		return fmt.Errorf("database %s has schema version %q; this tessera reads versions 1 to %d", path, v, SchemaVersion)
	}
	if tx.Bucket(bGames) == nil {
		return &storage.DamagedError{Path: path, Reason: "its games bucket is missing"}
	}
	return nil
}

// Created reports whether Open made a new database (the file was missing
// or empty).
func (s *Store) Created() bool { return s.created }

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// view runs fn in a read-only bbolt transaction, unless ctx is already
// done. bbolt cannot cancel a transaction in flight, so ctx is checked
// only before it starts: a call cancelled meanwhile runs to its end
// (which takes microseconds, the file being local).
func (s *Store) view(ctx context.Context, fn func(tx *bolt.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.guarded(func() error { return s.db.View(fn) })
}

// update runs fn in a read-write bbolt transaction, unless ctx is already
// done; like view, it checks ctx only before the transaction starts.
func (s *Store) update(ctx context.Context, fn func(tx *bolt.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.guarded(func() error { return s.db.Update(fn) })
}

func itob(v uint64) []byte {
	b := make([]byte, 8)
	binary.BigEndian.PutUint64(b, v)
	return b
}

func indexKey(a string, id uint64) []byte {
	k := make([]byte, 0, len(a)+9)
	k = append(k, a...)
	k = append(k, 0)
	return append(k, itob(id)...)
}

func getGame(tx *bolt.Tx, id uint64) (*tessera.Game, error) {
	v := tx.Bucket(bGames).Get(itob(id))
	if v == nil {
		return nil, storage.ErrGameNotFound
	}
	var g tessera.Game
	if err := json.Unmarshal(v, &g); err != nil {
		return nil, fmt.Errorf("game %d: %w", id, err)
	}
	return &g, nil
}

func deadlineKey(t time.Time, id uint64) []byte {
	return append(itob(uint64(t.UnixNano())), itob(id)...)
}

// putGame writes a game and keeps its indexes (players, places,
// reminders, expiry, deadline, history, AI turns) in step; old is the
// game as it was (nil when new).
func putGame(tx *bolt.Tx, g, old *tessera.Game) error {
	b, err := json.Marshal(g)
	if err != nil {
		return err
	}
	if err := tx.Bucket(bGames).Put(itob(g.ID), b); err != nil {
		return err
	}
	for _, p := range g.Players {
		if err := tx.Bucket(bByPlayer).Put(indexKey(p.ID, g.ID), nil); err != nil {
			return err
		}
	}
	if err := putPlaces(tx, g, old); err != nil { // places.go
		return err
	}
	if err := putReminder(tx, g, old); err != nil { // reminders.go
		return err
	}
	if err := putExpiry(tx, g, old); err != nil { // expiry.go
		return err
	}
	if err := putHistory(tx, g, old); err != nil {
		return err
	}
	// The AI-turn index is made by the first write that needs it, so a
	// database from before AI seats needs no migration.
	ai, err := tx.CreateBucketIfNotExists(bAITurn)
	if err != nil {
		return err
	}
	if g.AITurn && g.Status == tessera.StatusPlaying {
		if err := ai.Put(itob(g.ID), nil); err != nil {
			return err
		}
	} else if err := ai.Delete(itob(g.ID)); err != nil {
		return err
	}
	if old != nil && !old.Deadline.IsZero() && !old.Deadline.Equal(g.Deadline) {
		if err := tx.Bucket(bDeadline).Delete(deadlineKey(old.Deadline, g.ID)); err != nil {
			return err
		}
	}
	if !g.Deadline.IsZero() && g.Status == tessera.StatusPlaying {
		return tx.Bucket(bDeadline).Put(deadlineKey(g.Deadline, g.ID), nil)
	}
	if !g.Deadline.IsZero() {
		return tx.Bucket(bDeadline).Delete(deadlineKey(g.Deadline, g.ID))
	}
	return nil
}

// markHandled records an interaction id; storage.ErrDuplicate if it was already.
func markHandled(tx *bolt.Tx, interactionID string, now time.Time) error {
	if interactionID == "" {
		return nil
	}
	b := tx.Bucket(bHandled)
	if b.Get([]byte(interactionID)) != nil {
		return storage.ErrDuplicate
	}
	return b.Put([]byte(interactionID), itob(uint64(now.Unix())))
}

// Create stores a new game, giving it the next id, and marks the
// interaction that created it as handled.
func (s *Store) Create(ctx context.Context, g *tessera.Game, interactionID string) error {
	return s.CreateWith(ctx, g, interactionID, nil)
}

// CreateWith is Create with a change made in the same transaction once the
// game has its id (a game against the AI starts at once: its first
// announcements need the id). An error from change aborts everything.
func (s *Store) CreateWith(ctx context.Context, g *tessera.Game, interactionID string, change func(g *tessera.Game, tx storage.Tx) error) error {
	return s.update(ctx, func(tx *bolt.Tx) error {
		if err := markHandled(tx, interactionID, g.Created); err != nil {
			return err
		}
		id, err := tx.Bucket(bGames).NextSequence()
		if err != nil {
			return err
		}
		g.ID, g.Version = id, 1
		if change != nil {
			if err := change(g, &Tx{tx}); err != nil {
				return err
			}
		}
		return putGame(tx, g, nil)
	})
}

// AITurns lists the games in play where an AI seat is to move, by id:
// the AI's pending moves, which survive a restart.
func (s *Store) AITurns(ctx context.Context) ([]uint64, error) {
	var out []uint64
	err := s.view(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bAITurn)
		if b == nil { // no game was written since AI seats exist
			return nil
		}
		return b.ForEach(func(k, _ []byte) error {
			if len(k) == 8 {
				out = append(out, binary.BigEndian.Uint64(k))
			}
			return nil
		})
	})
	return out, err
}

// Game loads a game.
func (s *Store) Game(ctx context.Context, id uint64) (*tessera.Game, error) {
	var g *tessera.Game
	err := s.view(ctx, func(tx *bolt.Tx) (err error) {
		g, err = getGame(tx, id)
		return err
	})
	return g, err
}

// Tx is what a change may do besides changing the game, in the same
// transaction.
type Tx struct {
	tx *bolt.Tx
}

// Enqueue adds an announcement to the outbox; it is delivered after the
// transaction commits, and survives a crash.
func (t *Tx) Enqueue(ctx context.Context, a tessera.Announcement) error {
	b := t.tx.Bucket(bOutbox)
	seq, err := b.NextSequence()
	if err != nil {
		return err
	}
	a.Seq = seq
	if a.Enqueued.IsZero() {
		a.Enqueued = time.Now().UTC()
	}
	v, err := json.Marshal(a)
	if err != nil {
		return err
	}
	return b.Put(itob(seq), v)
}

// MarkHandled records an interaction id in the transaction
// (storage.ErrDuplicate if it was already).
func (t *Tx) MarkHandled(_ context.Context, interactionID string) error {
	return markHandled(t.tx, interactionID, time.Now())
}

// User reads a user's settings.
func (t *Tx) User(ctx context.Context, id string) (tessera.UserSettings, error) {
	return getUser(t.tx, id)
}

// Update changes a game in one transaction: it loads the game, checks that
// its version is still version (else storage.ErrConflict, nothing written), marks
// the interaction handled (else storage.ErrDuplicate), calls change, bumps the
// version and writes. An error from change aborts everything, including
// what it enqueued.
func (s *Store) Update(ctx context.Context, id, version uint64, interactionID string, change func(g *tessera.Game, tx storage.Tx) error) (*tessera.Game, error) {
	var out *tessera.Game
	err := s.update(ctx, func(tx *bolt.Tx) error {
		g, err := getGame(tx, id)
		if err != nil {
			return err
		}
		if g.Version != version {
			return storage.ErrConflict
		}
		if err := markHandled(tx, interactionID, time.Now()); err != nil {
			return err
		}
		old := *g
		if err := change(g, &Tx{tx}); err != nil {
			return err
		}
		g.Version++
		if err := putGame(tx, g, &old); err != nil {
			return err
		}
		out = g
		return nil
	})
	return out, err
}

// Modify changes what a game's record does not derive from (its place,
// status message, reminders) without a version check or bump: the
// position is unchanged, so no move in flight needs to retry.
func (s *Store) Modify(ctx context.Context, id uint64, change func(g *tessera.Game, tx storage.Tx) error) (*tessera.Game, error) {
	var out *tessera.Game
	err := s.update(ctx, func(tx *bolt.Tx) error {
		g, err := getGame(tx, id)
		if err != nil {
			return err
		}
		old := *g
		if err := change(g, &Tx{tx}); err != nil {
			return err
		}
		if err := putGame(tx, g, &old); err != nil {
			return err
		}
		out = g
		return nil
	})
	return out, err
}

// Pending lists the announcements due at now, oldest first (at most max).
// An announcement waiting for a retry holds back the later ones of its
// game, so a game's messages are never delivered out of order.
func (s *Store) Pending(ctx context.Context, now time.Time, max int) ([]tessera.Announcement, error) {
	var out []tessera.Announcement
	err := s.view(ctx, func(tx *bolt.Tx) error {
		held := map[uint64]bool{}
		c := tx.Bucket(bOutbox).Cursor()
		for k, v := c.First(); k != nil && len(out) < max; k, v = c.Next() {
			var a tessera.Announcement
			if err := json.Unmarshal(v, &a); err != nil {
				return fmt.Errorf("outbox %x: %w", k, err)
			}
			if held[a.Queue()] || a.Next.After(now) {
				held[a.Queue()] = true
				continue
			}
			out = append(out, a)
		}
		return nil
	})
	return out, err
}

// Outbox counts the announcements not yet delivered.
func (s *Store) Outbox(ctx context.Context) (int, error) {
	n := 0
	err := s.view(ctx, func(tx *bolt.Tx) error {
		n = tx.Bucket(bOutbox).Stats().KeyN
		return nil
	})
	return n, err
}

// Delivered removes delivered (or abandoned) announcements, in one
// transaction.
func (s *Store) Delivered(ctx context.Context, seqs ...uint64) error {
	if len(seqs) == 0 {
		return nil
	}
	return s.update(ctx, func(tx *bolt.Tx) error {
		for _, seq := range seqs {
			if err := tx.Bucket(bOutbox).Delete(itob(seq)); err != nil {
				return err
			}
		}
		return nil
	})
}

// Retry records a failed delivery attempt; it is tried again after next.
func (s *Store) Retry(ctx context.Context, seq uint64, next time.Time) error {
	return s.update(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bOutbox)
		v := b.Get(itob(seq))
		if v == nil {
			return nil
		}
		var a tessera.Announcement
		if err := json.Unmarshal(v, &a); err != nil {
			return err
		}
		a.Tries++
		a.Next = next
		nv, err := json.Marshal(a)
		if err != nil {
			return err
		}
		return b.Put(itob(seq), nv)
	})
}

// Due lists the games whose deadline is at or before now, earliest first.
func (s *Store) Due(ctx context.Context, now time.Time) ([]uint64, error) {
	var out []uint64
	err := s.view(ctx, func(tx *bolt.Tx) error {
		c := tx.Bucket(bDeadline).Cursor()
		for k, _ := c.First(); k != nil && len(k) == 16; k, _ = c.Next() {
			if int64(binary.BigEndian.Uint64(k[:8])) > now.UnixNano() {
				break
			}
			out = append(out, binary.BigEndian.Uint64(k[8:]))
		}
		return nil
	})
	return out, err
}

// NextDeadline is the earliest deadline of a game in play (zero if none).
func (s *Store) NextDeadline(ctx context.Context) (time.Time, error) {
	var t time.Time
	err := s.view(ctx, func(tx *bolt.Tx) error {
		if k, _ := tx.Bucket(bDeadline).Cursor().First(); len(k) == 16 {
			t = time.Unix(0, int64(binary.BigEndian.Uint64(k[:8])))
		}
		return nil
	})
	return t, err
}

func getUser(tx *bolt.Tx, id string) (tessera.UserSettings, error) {
	var u tessera.UserSettings
	v := tx.Bucket(bUsers).Get([]byte(id))
	if v == nil {
		return u, nil
	}
	err := json.Unmarshal(v, &u)
	return u, err
}

// User reads a user's settings (defaults when none are stored).
func (s *Store) User(ctx context.Context, id string) (tessera.UserSettings, error) {
	var u tessera.UserSettings
	err := s.view(ctx, func(tx *bolt.Tx) (err error) {
		u, err = getUser(tx, id)
		return err
	})
	return u, err
}

// UpdateUser changes a user's settings in one transaction; the change may
// also change that user's games through tx (vacation).
func (s *Store) UpdateUser(ctx context.Context, id string, change func(u *tessera.UserSettings, tx storage.Tx) error) (tessera.UserSettings, error) {
	var out tessera.UserSettings
	err := s.update(ctx, func(tx *bolt.Tx) error {
		u, err := getUser(tx, id)
		if err != nil {
			return err
		}
		if err := change(&u, &Tx{tx}); err != nil {
			return err
		}
		v, err := json.Marshal(u)
		if err != nil {
			return err
		}
		out = u
		return tx.Bucket(bUsers).Put([]byte(id), v)
	})
	return out, err
}

// ModifyGame changes a game inside a user update (see UpdateUser); like
// Store.Modify it neither checks nor bumps the version.
func (t *Tx) ModifyGame(ctx context.Context, id uint64, change func(g *tessera.Game) error) error {
	g, err := getGame(t.tx, id)
	if err != nil {
		return err
	}
	old := *g
	if err := change(g); err != nil {
		return err
	}
	return putGame(t.tx, g, &old)
}

// Games lists a user's games inside a transaction.
func (t *Tx) Games(ctx context.Context, userID string) ([]*tessera.Game, error) {
	return gamesByIndex(t.tx, bByPlayer, userID)
}

// Backup writes a consistent copy of the whole database to w, while the
// bot goes on (a read transaction).
func (s *Store) Backup(ctx context.Context, w io.Writer) (int64, error) {
	var n int64
	err := s.view(ctx, func(tx *bolt.Tx) (err error) {
		n, err = tx.WriteTo(w)
		return err
	})
	return n, err
}

// Handled reports whether an interaction id was already handled.
func (s *Store) Handled(ctx context.Context, interactionID string) (bool, error) {
	var ok bool
	err := s.view(ctx, func(tx *bolt.Tx) error {
		ok = tx.Bucket(bHandled).Get([]byte(interactionID)) != nil
		return nil
	})
	return ok, err
}

// MarkHandled records an interaction id that changed nothing in a game
// (storage.ErrDuplicate if it was already recorded).
func (s *Store) MarkHandled(ctx context.Context, interactionID string) error {
	return s.update(ctx, func(tx *bolt.Tx) error { return markHandled(tx, interactionID, time.Now()) })
}

// PruneHandled forgets interaction ids older than the cutoff (Discord
// never resends an interaction after 15 minutes), except those that begin
// with storage.LongHandled.
func (s *Store) PruneHandled(ctx context.Context, before time.Time) (int, error) {
	n := 0
	err := s.update(ctx, func(tx *bolt.Tx) error {
		cur := tx.Bucket(bHandled).Cursor()
		for k, v := cur.First(); k != nil; k, v = cur.Next() {
			if bytes.HasPrefix(k, []byte(storage.LongHandled)) {
				continue
			}
			if len(v) == 8 && int64(binary.BigEndian.Uint64(v)) < before.Unix() {
				if err := cur.Delete(); err != nil {
					return err
				}
				n++
			}
		}
		return nil
	})
	return n, err
}

// PruneLongHandled forgets the ids that begin with storage.LongHandled
// handled before the cutoff: it walks only their range of keys.
func (s *Store) PruneLongHandled(ctx context.Context, before time.Time) (int, error) {
	n := 0
	prefix := []byte(storage.LongHandled)
	err := s.update(ctx, func(tx *bolt.Tx) error {
		c := tx.Bucket(bHandled).Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			if len(v) == 8 && int64(binary.BigEndian.Uint64(v)) < before.Unix() {
				if err := c.Delete(); err != nil {
					return err
				}
				n++
			}
		}
		return nil
	})
	return n, err
}

func gamesByIndex(tx *bolt.Tx, bucket []byte, key string) ([]*tessera.Game, error) {
	var out []*tessera.Game
	prefix := append([]byte(key), 0)
	c := tx.Bucket(bucket).Cursor()
	for k, _ := c.Seek(prefix); k != nil && len(k) == len(prefix)+8 && string(k[:len(prefix)]) == string(prefix); k, _ = c.Next() {
		g, err := getGame(tx, binary.BigEndian.Uint64(k[len(prefix):]))
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

func (s *Store) byIndex(ctx context.Context, bucket []byte, key string) ([]*tessera.Game, error) {
	var out []*tessera.Game
	err := s.view(ctx, func(tx *bolt.Tx) (err error) {
		out, err = gamesByIndex(tx, bucket, key)
		return err
	})
	return out, err
}

// ByPlayer lists a player's games, oldest first.
func (s *Store) ByPlayer(ctx context.Context, userID string) ([]*tessera.Game, error) {
	return s.byIndex(ctx, bByPlayer, userID)
}

// All calls fn for every game in id order.
func (s *Store) All(ctx context.Context, fn func(g *tessera.Game) error) error {
	return s.view(ctx, func(tx *bolt.Tx) error {
		read := 0
		defer release(tx) // a walk of every game keeps none resident (resident.go)
		return tx.Bucket(bGames).ForEach(func(k, v []byte) error {
			if read += len(v); read >= releaseEvery {
				read = 0
				release(tx)
			}
			var g tessera.Game
			if err := json.Unmarshal(v, &g); err != nil {
				return fmt.Errorf("game %d: %w", binary.BigEndian.Uint64(k), err)
			}
			return fn(&g)
		})
	})
}
