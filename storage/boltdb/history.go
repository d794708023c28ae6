package boltdb

// The indexes behind open challenges and game history. They are kept by
// putGame in the same transaction as the game, like the other indexes, so
// they never disagree with the records. A PostgreSQL adapter needs the
// same four reads: OpenChallenges, AllOpenChallenges, Finished and
// CreateLinked (two indexed queries and one transaction).

import (
	"bytes"
	"context"
	"encoding/binary"

	bolt "go.etcd.io/bbolt"

	"tessera"
	"tessera/storage"
)

var (
	bOpen     = []byte("open_challenges") // guild id 0x00 game id -> nothing
	bFinished = []byte("finished")        // player id 0x00 end (unix nanos) game id -> nothing
)

func finishedKey(player string, g *tessera.Game) []byte {
	k := make([]byte, 0, len(player)+17)
	k = append(k, player...)
	k = append(k, 0)
	k = binary.BigEndian.AppendUint64(k, uint64(storage.Ended(g)))
	return binary.BigEndian.AppendUint64(k, g.ID)
}

// putHistory keeps the open-challenge and finished-game indexes of g in
// step (old is the game as it was, nil when new). A database made before
// these buckets existed gets them, filled, when it is opened for writing.
func putHistory(tx *bolt.Tx, g, old *tessera.Game) error {
	open := tx.Bucket(bOpen)
	if g.Open && g.Status == tessera.StatusChallenge {
		if err := open.Put(indexKey(g.GuildID, g.ID), nil); err != nil {
			return err
		}
	} else if old != nil && old.Open {
		if err := open.Delete(indexKey(old.GuildID, g.ID)); err != nil {
			return err
		}
	}
	if old != nil { // a player who left an open challenge is no longer in it
		for _, p := range old.Players {
			if !g.HasPlayer(p.ID) {
				if err := tx.Bucket(bByPlayer).Delete(indexKey(p.ID, g.ID)); err != nil {
					return err
				}
			}
		}
	}
	if g.Status == tessera.StatusFinished {
		for _, p := range g.Players {
			if err := tx.Bucket(bFinished).Put(finishedKey(p.ID, g), nil); err != nil {
				return err
			}
		}
	}
	return nil
}

// kAISeatsIndexed marks a file whose AI seats are all in the by-player
// index (see indexAISeats).
var kAISeatsIndexed = []byte("ai_seats_indexed")

// indexAISeats puts back, once per file, the AI seats that every change
// of a game against the computer used to drop from the by-player index
// (they were taken for players who left an open challenge), so that the
// index agrees with the records and with a copy made by tessera migrate.
func indexAISeats(tx *bolt.Tx) error {
	meta := tx.Bucket(bMeta)
	if meta.Get(kAISeatsIndexed) != nil {
		return nil
	}
	err := tx.Bucket(bGames).ForEach(func(k, _ []byte) error {
		g, err := getGame(tx, binary.BigEndian.Uint64(k))
		if err != nil {
			return nil // a damaged record: tessera check reports it
		}
		for _, p := range g.Players {
			if err := tx.Bucket(bByPlayer).Put(indexKey(p.ID, g.ID), nil); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return meta.Put(kAISeatsIndexed, []byte("1"))
}

// initHistory makes the history buckets of a database that lacks them and
// indexes the games already there.
func initHistory(tx *bolt.Tx) error {
	if tx.Bucket(bOpen) != nil && tx.Bucket(bFinished) != nil {
		return nil
	}
	for _, b := range [][]byte{bOpen, bFinished} {
		if _, err := tx.CreateBucketIfNotExists(b); err != nil {
			return err
		}
	}
	var games []*tessera.Game
	err := tx.Bucket(bGames).ForEach(func(k, _ []byte) error {
		g, err := getGame(tx, binary.BigEndian.Uint64(k))
		if err == nil {
			games = append(games, g)
		}
		return err
	})
	if err != nil {
		return err
	}
	for _, g := range games {
		if err := putHistory(tx, g, nil); err != nil {
			return err
		}
	}
	return nil
}

// OpenChallenges lists the open challenges of a server inside a change
// (bbolt writes one transaction at a time, so a count made here holds
// until the change commits).
func (t *Tx) OpenChallenges(ctx context.Context, guildID string) ([]*tessera.Game, error) {
	if t.tx.Bucket(bOpen) == nil {
		return nil, nil
	}
	return gamesByIndex(t.tx, bOpen, guildID)
}

// OpenChallenges lists the open challenges of a server, oldest first.
func (s *Store) OpenChallenges(ctx context.Context, guildID string) ([]*tessera.Game, error) {
	var out []*tessera.Game
	err := s.view(ctx, func(tx *bolt.Tx) (err error) {
		if tx.Bucket(bOpen) == nil { // an old file opened read-only
			return nil
		}
		out, err = gamesByIndex(tx, bOpen, guildID)
		return err
	})
	return out, err
}

// NewestChallenges lists a server's open challenges newest first, at most
// max, and how many it has: the index's keys under the server are walked
// backwards from the last, and only the games listed are read.
func (s *Store) NewestChallenges(ctx context.Context, guildID string, max int) (page []*tessera.Game, total int, err error) {
	err = s.view(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bOpen)
		if b == nil { // an old file opened read-only
			return nil
		}
		prefix := append([]byte(guildID), 0)
		c := b.Cursor()
		k, _ := c.Seek(append(prefix[:len(prefix):len(prefix)], 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff))
		if k == nil {
			k, _ = c.Last()
		} else {
			k, _ = c.Prev()
		}
		for ; k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Prev() {
			if len(k) != len(prefix)+8 {
				continue // another server's id that begins with this one's and a zero byte: not possible for Discord's ids
			}
			total++
			if len(page) == max {
				continue
			}
			g, err := getGame(tx, binary.BigEndian.Uint64(k[len(prefix):]))
			if err != nil {
				return err
			}
			page = append(page, g)
		}
		return nil
	})
	return page, total, err
}

// AllOpenChallenges lists every server's open challenges, oldest first
// (for their expiry).
func (s *Store) AllOpenChallenges(ctx context.Context) ([]*tessera.Game, error) {
	var out []*tessera.Game
	err := s.view(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bOpen)
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, _ []byte) error {
			if len(k) < 9 {
				return nil
			}
			g, err := getGame(tx, binary.BigEndian.Uint64(k[len(k)-8:]))
			if err == nil {
				out = append(out, g)
			}
			return err
		})
	})
	return out, err
}

// Finished lists a player's finished games, newest first (by when they
// ended), keeping those keep accepts (nil: all): skip of them are passed
// over and at most limit returned; more reports whether others follow.
func (s *Store) Finished(ctx context.Context, playerID string, keep func(*tessera.Game) bool, skip, limit int) (page []*tessera.Game, more bool, err error) {
	err = s.view(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bFinished)
		if b == nil {
			return nil
		}
		prefix := append([]byte(playerID), 0)
		// The keys after the player's are the next player's: start just
		// past the prefix's range and walk back.
		end := append([]byte(playerID), 1)
		c := b.Cursor()
		k, _ := c.Seek(end)
		if k == nil {
			k, _ = c.Last()
		} else {
			k, _ = c.Prev()
		}
		for ; k != nil && len(k) == len(prefix)+16 && string(k[:len(prefix)]) == string(prefix); k, _ = c.Prev() {
			g, err := getGame(tx, binary.BigEndian.Uint64(k[len(prefix)+8:]))
			if err != nil {
				return err
			}
			if keep != nil && !keep(g) {
				continue
			}
			if skip > 0 {
				skip--
				continue
			}
			if len(page) == limit {
				more = true
				return nil
			}
			page = append(page, g)
		}
		return nil
	})
	return page, more, err
}

// CreateLinked stores a new game made from another one (a rematch) and
// records its id in that one's Rematch, in one transaction; link sees the
// other game first and may refuse (an error aborts both), so two clicks
// never make two rematches.
func (s *Store) CreateLinked(ctx context.Context, g *tessera.Game, interactionID string, fromID uint64, link func(from *tessera.Game) error) error {
	return s.update(ctx, func(tx *bolt.Tx) error {
		if err := markHandled(tx, interactionID, g.Created); err != nil {
			return err
		}
		from, err := getGame(tx, fromID)
		if err != nil {
			return err
		}
		old := *from
		id, err := tx.Bucket(bGames).NextSequence()
		if err != nil {
			return err
		}
		if err := link(from); err != nil {
			return err
		}
		g.ID, g.Version = id, 1
		from.Rematch = id
		if err := putGame(tx, from, &old); err != nil {
			return err
		}
		return putGame(tx, g, nil)
	})
}
