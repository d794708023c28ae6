package boltdb

import (
	"context"
	"encoding/json"
	"time"

	bolt "go.etcd.io/bbolt"

	"tessera"
)

// Attempting records that delivery of these announcements starts now (for
// each, only its first attempt counts), in one transaction: a post whose
// first attempt is older than Discord's nonce window may have arrived, and
// is looked for before it is sent again.
func (s *Store) Attempting(ctx context.Context, at time.Time, seqs ...uint64) error {
	if len(seqs) == 0 {
		return nil
	}
	return s.update(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bOutbox)
		for _, seq := range seqs {
			v := b.Get(itob(seq))
			if v == nil {
				continue
			}
			var a tessera.Announcement
			if err := json.Unmarshal(v, &a); err != nil {
				return err
			}
			if !a.Attempted.IsZero() {
				continue
			}
			a.Attempted = at
			nv, err := json.Marshal(a)
			if err != nil {
				return err
			}
			if err := b.Put(itob(seq), nv); err != nil {
				return err
			}
		}
		return nil
	})
}

// RetryNow makes every announcement waiting for a retry due now (a
// permission came back: no need to wait out the back-off).
func (s *Store) RetryNow(ctx context.Context) (int, error) {
	// Channel updates are frequent on a busy server: look before writing.
	waiting := false
	if err := s.view(ctx, func(tx *bolt.Tx) error {
		return tx.Bucket(bOutbox).ForEach(func(_, v []byte) error {
			var a tessera.Announcement
			if json.Unmarshal(v, &a) == nil && !a.Next.IsZero() {
				waiting = true
			}
			return nil
		})
	}); err != nil || !waiting {
		return 0, err
	}
	n := 0
	err := s.update(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bOutbox)
		c := b.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			var a tessera.Announcement
			if err := json.Unmarshal(v, &a); err != nil {
				return err
			}
			if a.Next.IsZero() {
				continue
			}
			a.Next = time.Time{}
			nv, err := json.Marshal(a)
			if err != nil {
				return err
			}
			if err := b.Put(k, nv); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	return n, err
}
