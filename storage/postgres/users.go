package postgres

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/jackc/pgx/v5"

	"tessera"
	"tessera/storage"
)

// user reads a user's settings through q (defaults when none are stored).
func (s *Store) user(ctx context.Context, q querier, id string, lock bool) (tessera.UserSettings, error) {
	var u tessera.UserSettings
	var b []byte
	sql := "SELECT settings FROM users WHERE id = $1"
	if lock {
		sql += " FOR UPDATE"
	}
	err := q.QueryRow(ctx, sql, id).Scan(&b)
	if errors.Is(err, pgx.ErrNoRows) || err == nil && b == nil {
		return u, nil
	}
	if err != nil {
		return u, s.fail(err)
	}
	if err := json.Unmarshal(b, &u); err != nil {
		return u, s.fail(err)
	}
	return u, nil
}

// User reads a user's settings (defaults when none are stored).
func (s *Store) User(ctx context.Context, id string) (tessera.UserSettings, error) {
	return s.user(ctx, s.pool, id, false)
}

// User reads a user's settings inside the transaction.
func (t *Tx) User(ctx context.Context, id string) (tessera.UserSettings, error) {
	return t.s.user(ctx, t.tx, id, false)
}

// UpdateUser changes a user's settings in one transaction; the change may
// also change that user's games through tx (vacation). The user's row is
// made first if missing, and locked, so that two processes' updates of
// one user apply one after the other instead of one losing the other's.
func (s *Store) UpdateUser(ctx context.Context, id string, change func(u *tessera.UserSettings, tx storage.Tx) error) (tessera.UserSettings, error) {
	var out tessera.UserSettings
	err := s.inTx(ctx, func(t *Tx) error {
		if _, err := t.tx.Exec(ctx, "INSERT INTO users (id) VALUES ($1) ON CONFLICT DO NOTHING", id); err != nil {
			return s.fail(err)
		}
		u, err := s.user(ctx, t.tx, id, true)
		if err != nil {
			return err
		}
		if err := change(&u, t); err != nil {
			return err
		}
		b, err := json.Marshal(u)
		if err != nil {
			return err
		}
		if _, err := t.tx.Exec(ctx, "UPDATE users SET settings = $2 WHERE id = $1", id, b); err != nil {
			return s.fail(err)
		}
		out = u
		return nil
	})
	return out, err
}
