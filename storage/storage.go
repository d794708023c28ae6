// Package storage keeps games in one bbolt file: game records, indexes by
// player and by channel, and the interaction ids already handled. It is
// the only importer of bbolt.
//
// Every change is one bbolt transaction, written with fsync, so a crash
// loses nothing that was acknowledged and never leaves half a move.
package storage

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"

	"tessera"
)

// SchemaVersion is the layout this code reads and writes.
const SchemaVersion = 1

var (
	bMeta     = []byte("meta")
	bGames    = []byte("games")
	bByPlayer = []byte("by_player")  // player id 0x00 game id -> nothing
	bByChan   = []byte("by_channel") // channel id 0x00 game id -> nothing
	bHandled  = []byte("handled")    // interaction id -> unix seconds
	kSchema   = []byte("schema")
)

// ErrConflict is returned when a game changed since it was read.
var ErrConflict = tessera.Errorf(tessera.ECONFLICT, "The position changed while you were moving; look at the board and try again.")

// ErrDuplicate is returned when an interaction id was already handled.
var ErrDuplicate = errors.New("storage: interaction already handled")

// ErrNotFound is returned for a missing game.
var ErrNotFound = tessera.Errorf(tessera.ENOTFOUND, "There is no such game.")

// Store is an open database.
type Store struct {
	db *bolt.DB
}

// Options tune Open.
type Options struct {
	// LockTimeout is how long to wait for another process's lock on the
	// file (default 1s), so a second bot fails at once with a clear message.
	LockTimeout time.Duration
	// NoSync turns fsync off: for tests and benchmarks only.
	NoSync bool
}

// Open opens (creating if needed) the database at path and checks its
// schema version.
func Open(path string, opt Options) (*Store, error) {
	if opt.LockTimeout == 0 {
		opt.LockTimeout = time.Second
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: opt.LockTimeout, NoSync: opt.NoSync})
	if errors.Is(err, bolt.ErrTimeout) {
		return nil, fmt.Errorf("database %s is locked by another process (is another tessera running?)", path)
	}
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
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
		case string(v) != strconv.Itoa(SchemaVersion):
			return fmt.Errorf("database %s has schema version %s; this tessera reads version %d", path, v, SchemaVersion)
		}
		for _, b := range [][]byte{bGames, bByPlayer, bByChan, bHandled} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		db.Close()
		return nil, err
	}
	return &Store{db: db}, nil
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

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
		return nil, ErrNotFound
	}
	var g tessera.Game
	if err := json.Unmarshal(v, &g); err != nil {
		return nil, fmt.Errorf("game %d: %w", id, err)
	}
	return &g, nil
}

func putGame(tx *bolt.Tx, g *tessera.Game) error {
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
	return tx.Bucket(bByChan).Put(indexKey(g.ChannelID, g.ID), nil)
}

// markHandled records an interaction id; ErrDuplicate if it was already.
func markHandled(tx *bolt.Tx, interactionID string, now time.Time) error {
	if interactionID == "" {
		return nil
	}
	b := tx.Bucket(bHandled)
	if b.Get([]byte(interactionID)) != nil {
		return ErrDuplicate
	}
	return b.Put([]byte(interactionID), itob(uint64(now.Unix())))
}

// Create stores a new game, giving it the next id, and marks the
// interaction that created it as handled.
func (s *Store) Create(g *tessera.Game, interactionID string) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		if err := markHandled(tx, interactionID, g.Created); err != nil {
			return err
		}
		id, err := tx.Bucket(bGames).NextSequence()
		if err != nil {
			return err
		}
		g.ID, g.Version = id, 1
		return putGame(tx, g)
	})
}

// Game loads a game.
func (s *Store) Game(id uint64) (*tessera.Game, error) {
	var g *tessera.Game
	err := s.db.View(func(tx *bolt.Tx) (err error) {
		g, err = getGame(tx, id)
		return err
	})
	return g, err
}

// Update changes a game in one transaction: it loads the game, checks that
// its version is still version (else ErrConflict, nothing written), marks
// the interaction handled (else ErrDuplicate), calls change, bumps the
// version and writes. An error from change aborts everything.
func (s *Store) Update(id, version uint64, interactionID string, change func(g *tessera.Game) error) (*tessera.Game, error) {
	var out *tessera.Game
	err := s.db.Update(func(tx *bolt.Tx) error {
		g, err := getGame(tx, id)
		if err != nil {
			return err
		}
		if g.Version != version {
			return ErrConflict
		}
		if err := markHandled(tx, interactionID, time.Now()); err != nil {
			return err
		}
		if err := change(g); err != nil {
			return err
		}
		g.Version++
		if err := putGame(tx, g); err != nil {
			return err
		}
		out = g
		return nil
	})
	return out, err
}

// Handled reports whether an interaction id was already handled.
func (s *Store) Handled(interactionID string) (bool, error) {
	var ok bool
	err := s.db.View(func(tx *bolt.Tx) error {
		ok = tx.Bucket(bHandled).Get([]byte(interactionID)) != nil
		return nil
	})
	return ok, err
}

// MarkHandled records an interaction id that changed nothing in a game
// (ErrDuplicate if it was already recorded).
func (s *Store) MarkHandled(interactionID string) error {
	return s.db.Update(func(tx *bolt.Tx) error { return markHandled(tx, interactionID, time.Now()) })
}

// PruneHandled forgets interaction ids older than the cutoff (Discord
// never resends an interaction after 15 minutes).
func (s *Store) PruneHandled(before time.Time) (int, error) {
	n := 0
	err := s.db.Update(func(tx *bolt.Tx) error {
		c := tx.Bucket(bHandled).Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
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

func (s *Store) byIndex(bucket []byte, key string) ([]*tessera.Game, error) {
	var out []*tessera.Game
	err := s.db.View(func(tx *bolt.Tx) error {
		prefix := append([]byte(key), 0)
		c := tx.Bucket(bucket).Cursor()
		for k, _ := c.Seek(prefix); k != nil && len(k) == len(prefix)+8 && string(k[:len(prefix)]) == string(prefix); k, _ = c.Next() {
			g, err := getGame(tx, binary.BigEndian.Uint64(k[len(prefix):]))
			if err != nil {
				return err
			}
			out = append(out, g)
		}
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, err
}

// ByPlayer lists a player's games, oldest first.
func (s *Store) ByPlayer(userID string) ([]*tessera.Game, error) { return s.byIndex(bByPlayer, userID) }

// ByChannel lists a channel's games, oldest first.
func (s *Store) ByChannel(channelID string) ([]*tessera.Game, error) {
	return s.byIndex(bByChan, channelID)
}

// All calls fn for every game in id order.
func (s *Store) All(fn func(g *tessera.Game) error) error {
	return s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bGames).ForEach(func(k, v []byte) error {
			var g tessera.Game
			if err := json.Unmarshal(v, &g); err != nil {
				return fmt.Errorf("game %d: %w", binary.BigEndian.Uint64(k), err)
			}
			return fn(&g)
		})
	})
}
