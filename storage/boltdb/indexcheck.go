package boltdb

// What Check reads of a game to verify the indexes of schema 2 (places,
// reminders, open challenges' expiry): only the fields their keys are
// made of. Decoding a whole record, moves and all, was most of a check's
// time (1.1 million records at 1M games, and then again for every key of
// the place index, which lists every game's thread); the fields below
// decode in a fraction of it, and the walks of the indexes decode nothing
// when the keys add up (see checkIndexes).

import (
	"encoding/json"
	"time"

	bolt "go.etcd.io/bbolt"

	"tessera"
	"tessera/storage"
)

// indexFields is the part of a stored game (tessera.Game's JSON) that
// storage.Places, storage.RemindNanos and storage.OpenNanos read. The
// upgrade (upgrade.go) reads it of every game too, and decodes the rest
// only for a game in play that needs its RemindAt.
// TestIndexFieldsKeepTheKeys checks that the keys made from it are the
// keys made from the whole game.
type indexFields struct {
	ID        uint64         `json:"id"`
	Status    tessera.Status `json:"status"`
	ChannelID string         `json:"channel_id"`
	ThreadID  string         `json:"thread_id"`
	Created   time.Time      `json:"created"`
	RemindAt  time.Time      `json:"remind_at"`
	Open      bool           `json:"open"`
}

// game is the record the key functions are given: the fields above, the
// rest zero.
func (f *indexFields) game() *tessera.Game {
	return &tessera.Game{ID: f.ID, Status: f.Status, ChannelID: f.ChannelID, ThreadID: f.ThreadID,
		Created: f.Created, RemindAt: f.RemindAt, Open: f.Open}
}

// decodeIndexFields reads a stored game's index fields.
func decodeIndexFields(v []byte) (*tessera.Game, error) {
	var f indexFields
	if err := json.Unmarshal(v, &f); err != nil {
		return nil, err
	}
	return f.game(), nil
}

// eachGameKeys calls fn with the index fields of every game that
// decodes, in id order, until fn returns false; what fn looks up it
// counts in r.
func eachGameKeys(tx *bolt.Tx, r *releasing, fn func(g *tessera.Game) bool) {
	c := tx.Bucket(bGames).Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		r.read(len(k) + len(v) + elementSize)
		g, err := decodeIndexFields(v)
		if err != nil {
			continue
		}
		if !fn(g) {
			return
		}
	}
}

// getGameKeys is getGame for the index fields only.
func getGameKeys(tx *bolt.Tx, id uint64) (*tessera.Game, error) {
	v := tx.Bucket(bGames).Get(itob(id))
	if v == nil {
		return nil, storage.ErrGameNotFound
	}
	return decodeIndexFields(v)
}

// countKeys counts an index's keys, reading no value.
func countKeys(tx *bolt.Tx, b *bolt.Bucket) int {
	n := 0
	c := b.Cursor()
	r := releasing{tx: tx}
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		r.read(len(k) + elementSize)
		n++
	}
	return n
}
