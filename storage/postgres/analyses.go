package postgres

// Games' analyses (migration 0007): their rows, with the queue's column
// derived from the record in the same statement.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"tessera"
	"tessera/storage"
)

// analysisRow is a's record and its queue column (nil unless queued).
func analysisRow(a *tessera.Analysis) ([]byte, *int64, error) {
	b, err := json.Marshal(a)
	if err != nil {
		return nil, nil, err
	}
	if a.Status != tessera.AnalysisQueued {
		return b, nil, nil
	}
	q := a.Requested.UnixNano()
	return b, &q, nil
}

// Analysis reads a game's analysis.
func (s *Store) Analysis(ctx context.Context, gameID uint64) (*tessera.Analysis, error) {
	return s.analysis(ctx, s.pool, gameID, false)
}

// analysis reads a game's analysis through q, locking its row when lock.
func (s *Store) analysis(ctx context.Context, q querier, gameID uint64, lock bool) (*tessera.Analysis, error) {
	sql := "SELECT record FROM analyses WHERE game_id = $1"
	if lock {
		sql += " FOR UPDATE"
	}
	var b []byte
	err := q.QueryRow(ctx, sql, int64(gameID)).Scan(&b)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, storage.ErrAnalysisNotFound
	}
	if err != nil {
		return nil, s.fail(err)
	}
	var a tessera.Analysis
	if err := json.Unmarshal(b, &a); err != nil {
		return nil, &storage.DamagedError{Path: s.name, Reason: fmt.Sprintf("analysis of game %d: %v", gameID, err)}
	}
	return &a, nil
}

// CreateAnalysis stores a game's first analysis: the insert does nothing
// when the game has one (another process's, committed or waited for).
func (s *Store) CreateAnalysis(ctx context.Context, a *tessera.Analysis) error {
	b, q, err := analysisRow(a)
	if err != nil {
		return err
	}
	tag, err := s.pool.Exec(ctx, "INSERT INTO analyses (game_id, queued, record) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING", int64(a.GameID), q, b)
	if err != nil {
		return s.fail(err)
	}
	if tag.RowsAffected() == 0 {
		return storage.ErrDuplicate
	}
	return nil
}

// UpdateAnalysis changes a game's analysis in one transaction, its row
// locked from the read to the write.
func (s *Store) UpdateAnalysis(ctx context.Context, gameID uint64, change func(a *tessera.Analysis) error) (*tessera.Analysis, error) {
	var out *tessera.Analysis
	err := s.inTx(ctx, func(t *Tx) error {
		a, err := s.analysis(ctx, t.tx, gameID, true)
		if err != nil {
			return err
		}
		if err := change(a); err != nil {
			return err
		}
		a.GameID = gameID
		b, q, err := analysisRow(a)
		if err != nil {
			return err
		}
		if _, err := t.tx.Exec(ctx, "UPDATE analyses SET queued = $2, record = $3 WHERE game_id = $1", int64(gameID), q, b); err != nil {
			return s.fail(err)
		}
		out = a
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// AnalysisQueue lists the queued analyses' games in the order asked.
func (s *Store) AnalysisQueue(ctx context.Context) ([]uint64, error) {
	rows, err := s.pool.Query(ctx, "SELECT game_id FROM analyses WHERE queued IS NOT NULL ORDER BY queued, game_id")
	if err != nil {
		return nil, s.fail(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, s.fail(err)
	}
	out := make([]uint64, len(ids))
	for i, id := range ids {
		out[i] = uint64(id)
	}
	return out, nil
}
