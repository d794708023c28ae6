package boltdb

// The upgrade from schema 1 to 2: a file of schema 1 has no reminders'
// index (the tick read every game ever stored to find the reminders
// due), no expiry index of the open challenges (the tick read them all)
// and a place index that kept every place a game was ever in
// (by_channel, so a channel listed every game ever played there). Open
// builds the new indexes (places.go, reminders.go, expiry.go) when it first opens
// such a file for writing, in batches of upgradeBatch games, each its
// own transaction, and records in the file after each batch the next
// game to look at: a process killed in the middle leaves a file of
// schema 1 whose upgrade the next open takes up where it stopped. The
// last batch drops by_channel and writes schema 2, which older versions
// refuse (they would not keep the new indexes).
//
// A game in play gets RemindAt = the start of its turn
// (storage.UpgradeRemindAt): only the service knows when its reminder is
// really due, so the first tick looks at it once and sets that.

import (
	"encoding/json"
	"log/slog"
	"sort"
	"time"

	bolt "go.etcd.io/bbolt"

	"tessera"
	"tessera/storage"
)

// kUpgradeNext is the next game id the upgrade to schema 2 looks at,
// present only while an upgrade is under way.
var kUpgradeNext = []byte("upgrade_2_next")

// upgradeBatch is how many games one transaction of the upgrade reads.
const upgradeBatch = 1000

// upgradeHook, when set (tests), is called after each batch of the
// upgrade commits, with the number of games that batch looked at.
var upgradeHook func(n int)

// upgrade brings a file of schema 1 to schema 2, a batch at a time; a
// file of schema 2 costs one read.
func upgrade(db *bolt.DB, path string, log *slog.Logger) error {
	var already bool
	if err := guard(path, func() error { return db.View(func(tx *bolt.Tx) error { already = upgraded(tx); return nil }) }); err != nil || already {
		return err
	}
	start, total, done := time.Now(), 0, false
	for !done {
		n := 0
		err := guard(path, func() error {
			return db.Update(func(tx *bolt.Tx) (err error) {
				n, done, err = upgradeBatchTx(tx, path, log)
				return err
			})
		})
		if err != nil {
			return err
		}
		total += n
		if upgradeHook != nil && n > 0 {
			upgradeHook(n)
		}
		if !done && total%(50*upgradeBatch) == 0 && n > 0 {
			log.Info("database upgrade under way", "database", path, "games", total)
		}
		if done {
			log.Info("database upgraded to schema 2: the reminders' and places' indexes are built", "database", path, "games", total, "took", time.Since(start).Round(time.Millisecond).String())
		}
	}
	return nil
}

// upgradeBatchTx does one batch of the upgrade in tx: n games looked at,
// done when the file is of schema 2.
func upgradeBatchTx(tx *bolt.Tx, path string, log *slog.Logger) (n int, done bool, err error) {
	meta := tx.Bucket(bMeta)
	if upgraded(tx) {
		return 0, true, nil
	}
	var from uint64
	if v := meta.Get(kUpgradeNext); len(v) == 8 {
		from = btoi(v)
	} else {
		// A new upgrade: the new indexes start empty.
		for _, name := range [][]byte{bPlaces, bReminders, bExpiry} {
			if tx.Bucket(name) != nil {
				if err := tx.DeleteBucket(name); err != nil {
					return 0, false, err
				}
			}
			if _, err := tx.CreateBucket(name); err != nil {
				return 0, false, err
			}
		}
		log.Info("upgrading the database to schema 2: building the indexes of reminders and of the games in play by place, a batch at a time (an interrupted upgrade goes on at the next start)",
			"database", path, "games", tx.Bucket(bGames).Sequence(), "batch", upgradeBatch)
	}
	// Read the batch first, then write: a cursor is not to be trusted
	// across writes to its bucket.
	type item struct {
		g       *tessera.Game
		rewrite bool
	}
	var batch []item
	next := uint64(0)
	c := tx.Bucket(bGames).Cursor()
	k, v := c.Seek(itob(from))
	for ; k != nil && len(batch) < upgradeBatch; k, v = c.Next() {
		next = btoi(k) + 1
		var f indexFields
		if len(k) != 8 || json.Unmarshal(v, &f) != nil {
			continue // a damaged record: tessera check reports it
		}
		g := &tessera.Game{ID: btoi(k), Status: f.Status, ChannelID: f.ChannelID, ThreadID: f.ThreadID, RemindAt: f.RemindAt, Open: f.Open, Created: f.Created}
		rewrite := g.Status == tessera.StatusPlaying && g.RemindAt.IsZero()
		if rewrite {
			var full tessera.Game
			if json.Unmarshal(v, &full) != nil {
				continue
			}
			asUpgraded(&full)
			g = &full
		}
		batch = append(batch, item{g, rewrite})
	}
	for _, it := range batch {
		if it.rewrite {
			b, err := json.Marshal(it.g)
			if err != nil {
				return 0, false, err
			}
			if err := tx.Bucket(bGames).Put(itob(it.g.ID), b); err != nil {
				return 0, false, err
			}
		}
		if err := putPlaces(tx, it.g, nil); err != nil {
			return 0, false, err
		}
		if err := putReminder(tx, it.g, nil); err != nil {
			return 0, false, err
		}
		if err := putExpiry(tx, it.g, nil); err != nil {
			return 0, false, err
		}
	}
	if k != nil { // more to do
		return len(batch), false, meta.Put(kUpgradeNext, itob(next))
	}
	if tx.Bucket(bByChan) != nil {
		if err := tx.DeleteBucket(bByChan); err != nil {
			return 0, false, err
		}
	}
	if err := meta.Delete(kUpgradeNext); err != nil {
		return 0, false, err
	}
	return len(batch), true, meta.Put(kSchema, []byte("2"))
}

// asUpgraded gives g the RemindAt the upgrade gives a game of schema 1:
// the indexes and the dump of a file of schema 1 opened read-only
// (tessera migrate's source, check, export) read as if it were upgraded,
// so a copy of it is what an upgrade and then a copy would make.
func asUpgraded(g *tessera.Game) {
	if g.Status == tessera.StatusPlaying && g.RemindAt.IsZero() {
		g.RemindAt = storage.UpgradeRemindAt(g)
	}
}

// timeIndexSchema1 answers a read of an index by time on a file of schema
// 1 opened read-only, which has no such index: every game is read, and
// those key gives at or before limit are returned by time, then id, at
// most max. Only tools read such a file; the bot upgrades it first.
func timeIndexSchema1(tx *bolt.Tx, key func(*tessera.Game) (int64, bool), limit int64, max int) []*tessera.Game {
	type hit struct {
		at int64
		g  *tessera.Game
	}
	var hits []hit
	eachGame(tx, func(g *tessera.Game) bool {
		asUpgraded(g)
		if at, ok := key(g); ok && at <= limit {
			hits = append(hits, hit{at, g})
		}
		return true
	})
	sort.Slice(hits, func(i, j int) bool {
		return hits[i].at < hits[j].at || hits[i].at == hits[j].at && hits[i].g.ID < hits[j].g.ID
	})
	var out []*tessera.Game
	for i := 0; i < len(hits) && i < max; i++ {
		out = append(out, hits[i].g)
	}
	return out
}
