package postgres

// Servers' settings and the database's secrets (migration 0005).

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/jackc/pgx/v5"

	"tessera"
)

// guild reads a server's settings through q (defaults when none are
// stored), locking its row when lock.
func (s *Store) guild(ctx context.Context, q querier, id string, lock bool) (tessera.GuildSettings, error) {
	var g tessera.GuildSettings
	var b []byte
	sql := "SELECT settings FROM guilds WHERE id = $1"
	if lock {
		sql += " FOR UPDATE"
	}
	err := q.QueryRow(ctx, sql, id).Scan(&b)
	if errors.Is(err, pgx.ErrNoRows) {
		return g, nil
	}
	if err != nil {
		return g, s.fail(err)
	}
	if err := json.Unmarshal(b, &g); err != nil {
		return g, s.fail(err)
	}
	return g, nil
}

// Guild reads a server's settings (defaults when none are stored).
func (s *Store) Guild(ctx context.Context, id string) (tessera.GuildSettings, error) {
	return s.guild(ctx, s.pool, id, false)
}

// UpdateGuild changes a server's settings in one transaction. The row is
// made first if missing, and locked, so that two processes' updates of
// one server apply one after the other.
func (s *Store) UpdateGuild(ctx context.Context, id string, change func(g *tessera.GuildSettings) error) (tessera.GuildSettings, error) {
	var out tessera.GuildSettings
	err := s.inTx(ctx, func(t *Tx) error {
		if _, err := t.tx.Exec(ctx, "INSERT INTO guilds (id, settings) VALUES ($1, '{}') ON CONFLICT DO NOTHING", id); err != nil {
			return s.fail(err)
		}
		g, err := s.guild(ctx, t.tx, id, true)
		if err != nil {
			return err
		}
		if err := change(&g); err != nil {
			return err
		}
		b, err := json.Marshal(g)
		if err != nil {
			return err
		}
		if _, err := t.tx.Exec(ctx, "UPDATE guilds SET settings = $2 WHERE id = $1", id, b); err != nil {
			return s.fail(err)
		}
		out = g
		return nil
	})
	return out, err
}

// Secret reads the secret name, or stores make's: the insert does
// nothing when another process stored one meanwhile (it waits for that
// one's commit), and the read after it returns whichever was stored.
func (s *Store) Secret(ctx context.Context, name string, make func() ([]byte, error)) ([]byte, error) {
	var out []byte
	err := s.pool.QueryRow(ctx, "SELECT value FROM secrets WHERE name = $1", name).Scan(&out)
	if err == nil {
		return out, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return nil, s.fail(err)
	}
	err = s.inTx(ctx, func(t *Tx) error {
		v, err := make()
		if err != nil {
			return err
		}
		if len(v) == 0 {
			return errors.New("storage: an empty secret")
		}
		if _, err := t.tx.Exec(ctx, "INSERT INTO secrets (name, value) VALUES ($1, $2) ON CONFLICT DO NOTHING", name, v); err != nil {
			return s.fail(err)
		}
		return s.fail(t.tx.QueryRow(ctx, "SELECT value FROM secrets WHERE name = $1", name).Scan(&out))
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
