package postgres

// Schema migrations: numbered SQL files embedded in the binary
// (migrations/0001_init.sql, 0002_….sql, …), each applied once, in order,
// in its own transaction together with its row in schema_migrations.
// Open applies the missing ones while holding a PostgreSQL advisory lock,
// so that several bots starting together against one empty database
// apply each migration once: the others wait for the lock, then find
// nothing left to do.

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"tessera/storage"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrationLock is the advisory lock key of the migrations ("tessera"
// as a number), the same in every process.
const migrationLock int64 = 0x7465737365726121

// migrationHook, when set (tests), is called inside a migration's
// transaction once its SQL has run, before it commits.
var migrationHook func(version int)

type migration struct {
	version int
	name    string
	sql     string
}

// migrations lists the embedded migrations by version; their names must
// start with distinct, consecutive numbers from 1.
func migrations() ([]migration, error) {
	entries, err := fs.ReadDir(migrationFiles, "migrations")
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, e := range entries {
		num, _, _ := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if err != nil {
			return nil, fmt.Errorf("migration %s: its name must start with a number", e.Name())
		}
		b, err := migrationFiles.ReadFile(path.Join("migrations", e.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: v, name: e.Name(), sql: string(b)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	for i, m := range out {
		if m.version != i+1 {
			return nil, fmt.Errorf("migration %s: expected number %d", m.name, i+1)
		}
	}
	return out, nil
}

// SchemaVersion is the number of the newest migration this code knows.
func SchemaVersion() int {
	ms, err := migrations()
	if err != nil {
		panic(err) // the embedded files are fixed at build time; a test checks them
	}
	return len(ms)
}

// migrate applies the missing migrations under the advisory lock, and
// reports whether it made the schema from nothing.
func (s *Store) migrate(ctx context.Context) (created bool, err error) {
	ms, err := migrations()
	if err != nil {
		return false, err
	}
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return false, s.fail(err)
	}
	defer conn.Release()
	// A migration may rewrite a big table, and waits for another
	// process's: the statement timeout (storage.Options.Timeout) bounds
	// the bot's queries, not these. RESET gives the connection back its
	// own before the pool has it again.
	if _, err := conn.Exec(ctx, "SET statement_timeout = 0"); err != nil {
		return false, s.fail(err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), "RESET statement_timeout")
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", migrationLock); err != nil {
		return false, s.fail(err)
	}
	// Session locks outlive a failed transaction: unlock explicitly, also
	// when ctx was cancelled meanwhile.
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", migrationLock)
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    integer PRIMARY KEY,
		name       text NOT NULL,
		applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		return false, s.fail(err)
	}
	done, err := applied(ctx, conn.Conn())
	if err != nil {
		return false, s.fail(err)
	}
	if done > len(ms) {
		return false, fmt.Errorf("database %s has schema version %d; this tessera knows up to %d: run a newer tessera", s.name, done, len(ms))
	}
	for _, m := range ms[done:] {
		err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, m.sql); err != nil {
				return err
			}
			if migrationHook != nil {
				migrationHook(m.version)
			}
			_, err := tx.Exec(ctx, "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", m.version, m.name)
			return err
		})
		if err != nil {
			return false, fmt.Errorf("database %s: migration %s: %w", s.name, m.name, err)
		}
	}
	return done == 0, nil
}

// applied is the number of the newest migration applied.
func applied(ctx context.Context, conn *pgx.Conn) (int, error) {
	var v int
	err := conn.QueryRow(ctx, "SELECT coalesce(max(version), 0) FROM schema_migrations").Scan(&v)
	return v, err
}

// checkSchema checks, without writing, that the database has this code's
// schema (a read-only open).
func (s *Store) checkSchema(ctx context.Context) error {
	var exists bool
	if err := s.pool.QueryRow(ctx, "SELECT to_regclass('schema_migrations') IS NOT NULL").Scan(&exists); err != nil {
		return s.fail(err)
	}
	if !exists {
		return &storage.NotFoundError{Path: s.name}
	}
	var v int
	if err := s.pool.QueryRow(ctx, "SELECT coalesce(max(version), 0) FROM schema_migrations").Scan(&v); err != nil {
		return s.fail(err)
	}
	if v != SchemaVersion() {
		return fmt.Errorf("database %s has schema version %d; this tessera reads version %d (open it once for writing, e.g. with tessera run, to migrate it)", s.name, v, SchemaVersion())
	}
	return nil
}
