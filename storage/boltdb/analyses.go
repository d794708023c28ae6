package boltdb

// Games' analyses (/analyze): one record per game, and the queue of the
// unfinished ones by the time they were asked for.

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"tessera"
	"tessera/storage"
)

var (
	bAnalyses     = []byte("analyses")       // game id -> tessera.Analysis (JSON)
	bAnalysisWait = []byte("analysis_queue") // requested unix nanos, game id -> nothing: the queued ones
)

// initAnalyses makes the analyses' buckets.
func initAnalyses(tx *bolt.Tx) error {
	for _, b := range [][]byte{bAnalyses, bAnalysisWait} {
		if _, err := tx.CreateBucketIfNotExists(b); err != nil {
			return err
		}
	}
	return nil
}

func getAnalysis(tx *bolt.Tx, id uint64) (*tessera.Analysis, error) {
	b := tx.Bucket(bAnalyses)
	if b == nil {
		return nil, storage.ErrAnalysisNotFound
	}
	v := b.Get(itob(id))
	if v == nil {
		return nil, storage.ErrAnalysisNotFound
	}
	var a tessera.Analysis
	if err := json.Unmarshal(v, &a); err != nil {
		return nil, fmt.Errorf("analysis of game %d: %w", id, err)
	}
	return &a, nil
}

// queueKey orders the queue by the time asked, then the game id.
func queueKey(a *tessera.Analysis) []byte {
	k := make([]byte, 16)
	binary.BigEndian.PutUint64(k, uint64(a.Requested.UnixNano()))
	binary.BigEndian.PutUint64(k[8:], a.GameID)
	return k
}

// putAnalysis writes a and its place in the queue (old is the record it
// replaces, nil for a new one).
func putAnalysis(tx *bolt.Tx, old, a *tessera.Analysis) error {
	v, err := json.Marshal(a)
	if err != nil {
		return err
	}
	if err := tx.Bucket(bAnalyses).Put(itob(a.GameID), v); err != nil {
		return err
	}
	q := tx.Bucket(bAnalysisWait)
	if old != nil {
		if err := q.Delete(queueKey(old)); err != nil {
			return err
		}
	}
	if a.Status == tessera.AnalysisQueued {
		return q.Put(queueKey(a), nil)
	}
	return nil
}

// Analysis reads a game's analysis.
func (s *Store) Analysis(ctx context.Context, gameID uint64) (*tessera.Analysis, error) {
	var a *tessera.Analysis
	err := s.view(ctx, func(tx *bolt.Tx) (err error) {
		a, err = getAnalysis(tx, gameID)
		return err
	})
	return a, err
}

// CreateAnalysis stores a game's first analysis.
func (s *Store) CreateAnalysis(ctx context.Context, a *tessera.Analysis) error {
	return s.update(ctx, func(tx *bolt.Tx) error {
		if _, err := getAnalysis(tx, a.GameID); err == nil {
			return storage.ErrDuplicate
		}
		return putAnalysis(tx, nil, a)
	})
}

// UpdateAnalysis changes a game's analysis in one transaction.
func (s *Store) UpdateAnalysis(ctx context.Context, gameID uint64, change func(a *tessera.Analysis) error) (*tessera.Analysis, error) {
	var out *tessera.Analysis
	err := s.update(ctx, func(tx *bolt.Tx) error {
		old, err := getAnalysis(tx, gameID)
		if err != nil {
			return err
		}
		a, _ := getAnalysis(tx, gameID) // a copy for change
		if err := change(a); err != nil {
			return err
		}
		a.GameID = gameID
		out = a
		return putAnalysis(tx, old, a)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// AnalysisQueue lists the queued analyses' games in the order asked.
func (s *Store) AnalysisQueue(ctx context.Context) ([]uint64, error) {
	var out []uint64
	err := s.view(ctx, func(tx *bolt.Tx) error {
		q := tx.Bucket(bAnalysisWait)
		if q == nil {
			return nil
		}
		return q.ForEach(func(k, _ []byte) error {
			out = append(out, binary.BigEndian.Uint64(k[8:]))
			return nil
		})
	})
	return out, err
}
