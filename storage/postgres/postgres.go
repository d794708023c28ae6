// Package postgres keeps Tessera's games in a PostgreSQL database, shared
// by any number of bot processes: the storage port's second adapter, and
// the only importer of pgx.
//
// It keeps every promise the bbolt adapter keeps, across processes:
// Update locks the game's row (SELECT ... FOR UPDATE) before its version
// check, so of two racing moves in two processes one applies and the
// other gets storage.ErrConflict; an interaction id is a primary key, so
// it is handled once; and couriers in several processes share the outbox
// through leases claimed with FOR UPDATE SKIP LOCKED (outbox.go).
//
// Records are stored exactly as bbolt stores them (tessera.Game as JSON),
// with the indexed values beside them in columns, so a game copied from
// one adapter to the other reads back equal.
package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"tessera"
	"tessera/storage"
)

// defaultMaxConns is the connections a store keeps at most, unless the
// URL says otherwise (?pool_max_conns=N): several processes on one server
// share its max_connections (100 by default).
const defaultMaxConns = 16

// Store is an open PostgreSQL database.
type Store struct {
	pool    *pgxpool.Pool
	url     string // as given, for pg_dump
	name    string // the URL without its password, for messages
	created bool
}

var _ storage.Store = (*Store)(nil)
var _ storage.Backuper = (*Store)(nil)

// Open connects to the database at url (postgres://user:password@host/db,
// or ?host=/socket/dir for a unix socket) and brings its schema up to date
// (migrate.go), unless opt.ReadOnly, when a database without the schema is
// a *storage.NotFoundError and nothing is written. Connecting waits at most
// the URL's connect_timeout (default 10 s); opt.LockTimeout, a bbolt file's
// lock wait, does not apply. opt.NoSync commits without waiting for the
// server's disk (synchronous_commit=off: tests and benchmarks only).
func Open(ctx context.Context, url string, opt storage.Options) (*Store, error) {
	name := Redact(url)
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("database %s: %v", name, err)
	}
	if !strings.Contains(url, "pool_max_conns=") {
		// pgx's default (4 on a small machine) would queue the
		// couriers, the scheduler and the commands of a busy bot behind
		// each other.
		cfg.MaxConns = defaultMaxConns
	}
	// opt.LockTimeout is not the connection timeout: the tools pass
	// 200 ms, meant for a bbolt file's lock, which would fail a distant
	// server's TLS handshake. A server has no such lock to wait for.
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = 10 * time.Second
	}
	if opt.NoSync {
		cfg.ConnConfig.RuntimeParams["synchronous_commit"] = "off"
	}
	if opt.ReadOnly {
		cfg.ConnConfig.RuntimeParams["default_transaction_read_only"] = "on"
	}
	if opt.Timeout > 0 {
		// The server ends a statement that runs longer (SQLSTATE 57014)
		// and the connection stays usable; a ctx cancelled meanwhile
		// ends the wait on the client's side (pgx asks the server to
		// cancel, and drops the connection).
		cfg.ConnConfig.RuntimeParams["statement_timeout"] = strconv.FormatInt(max(1, opt.Timeout.Milliseconds()), 10)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("database %s: %v", name, err)
	}
	s := &Store{pool: pool, url: url, name: name}
	if opt.ReadOnly {
		err = s.checkSchema(ctx)
	} else {
		s.created, err = s.migrate(ctx)
	}
	if err != nil {
		pool.Close()
		return nil, err
	}
	return s, nil
}

// Redact removes the password from a URL shown in messages and logs,
// whether it is in the user part or a password= parameter
// (storage/database.Redact gives every configured database's name).
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(a PostgreSQL URL that does not parse)"
	}
	if q := u.Query(); q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}

// Created reports whether Open made the schema (the database was empty).
func (s *Store) Created() bool { return s.created }

// Close closes every connection.
func (s *Store) Close() error {
	s.pool.Close()
	return nil
}

// Tx is a change in progress: one PostgreSQL transaction.
type Tx struct {
	tx     pgx.Tx
	s      *Store
	queued *pgx.Batch // announcements not sent yet (see Enqueue)
}

// inTx runs fn in one transaction, committed when fn returns nil and
// rolled back otherwise (also when the connection dies: then nothing of
// it was written).
//
// A transaction PostgreSQL ends as a deadlock victim is run again, fn
// included, from the start: two games of the same players ending at once
// write their ratings rows in opposite orders, and neither move should
// fail for it. fn starts from what it reads in the transaction, so a
// second run is as good as the first; bbolt, which writes one transaction
// at a time, never needs this.
func (s *Store) inTx(ctx context.Context, fn func(t *Tx) error) error {
	for attempt := 1; ; attempt++ {
		err := s.runTx(ctx, fn)
		if attempt < txAttempts && retryable(err) {
			continue
		}
		return err
	}
}

// txAttempts bounds the runs of a transaction that keeps losing deadlocks.
const txAttempts = 3

// retryable reports a transaction the server aborted that would succeed
// run again: a deadlock victim (40P01) or a serialization failure (40001).
func retryable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40P01" || pe.Code == "40001")
}

func (s *Store) runTx(ctx context.Context, fn func(t *Tx) error) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return s.fail(err)
	}
	defer tx.Rollback(ctx)
	t := &Tx{tx: tx, s: s}
	if err := fn(t); err != nil {
		return err
	}
	if err := t.send(ctx, &pgx.Batch{}); err != nil {
		return s.fail(err)
	}
	return s.fail(tx.Commit(ctx))
}

// fail names the database in a driver's error.
func (s *Store) fail(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("database %s: %w", s.name, err)
}

// isUniqueViolation reports a duplicate key.
func isUniqueViolation(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505"
}

// decodeGame reads a record; a record that does not decode is damage
// (nothing this adapter writes can be).
func (s *Store) decodeGame(id int64, b []byte) (*tessera.Game, error) {
	var g tessera.Game
	if err := json.Unmarshal(b, &g); err != nil {
		return nil, &storage.DamagedError{Path: s.name, Reason: fmt.Sprintf("game %d: %v", id, err)}
	}
	return &g, nil
}

// queryGames reads the games a query selects (id, record), in its order.
func (s *Store) queryGames(ctx context.Context, q querier, sql string, args ...any) ([]*tessera.Game, error) {
	return queryRecords(ctx, s, q, s.decodeGame, sql, args...)
}

// queryRecords reads the records a query selects (id, record), each
// decoded by decode, in the query's order.
func queryRecords[T any](ctx context.Context, s *Store, q querier, decode func(id int64, b []byte) (T, error), sql string, args ...any) ([]T, error) {
	rows, err := q.Query(ctx, sql, args...)
	if err != nil {
		return nil, s.fail(err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		var id int64
		var b []byte
		if err := rows.Scan(&id, &b); err != nil {
			return nil, s.fail(err)
		}
		r, err := decode(id, b)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, s.fail(rows.Err())
}

// querier is a pool or a transaction.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// libpqURL is the URL for PostgreSQL's own tools (pg_dump), without the
// pool settings only pgx understands.
func libpqURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	q := u.Query()
	for k := range q {
		if strings.HasPrefix(k, "pool_") {
			q.Del(k)
		}
	}
	u.RawQuery = q.Encode()
	return u.String()
}
