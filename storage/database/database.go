// Package database opens the storage adapter a configured database names:
// a postgres:// or postgresql:// URL is a PostgreSQL server
// (storage/postgres), anything else the path of a bbolt file
// (storage/boltdb, the default).
package database

import (
	"context"
	"strings"

	"tessera/storage"
	"tessera/storage/boltdb"
	"tessera/storage/postgres"
)

// IsPostgres reports whether dsn names a PostgreSQL server rather than a
// file.
func IsPostgres(dsn string) bool {
	l := strings.ToLower(dsn)
	return strings.HasPrefix(l, "postgres://") || strings.HasPrefix(l, "postgresql://")
}

// Open opens the database dsn names (see the package comment). ctx bounds
// connecting to a server; a file opens at once or fails after
// opt.LockTimeout.
func Open(ctx context.Context, dsn string, opt storage.Options) (storage.Store, error) {
	if IsPostgres(dsn) {
		st, err := postgres.Open(ctx, dsn, opt)
		if err != nil {
			return nil, err // not a typed nil in an interface
		}
		return st, nil
	}
	st, err := boltdb.Open(dsn, opt)
	if err != nil {
		return nil, err // not a typed nil in an interface
	}
	return st, nil
}

// Redact is dsn fit for a log or a message: a URL's password is replaced
// by "xxxxx" (a path is returned as it is).
func Redact(dsn string) string {
	if !IsPostgres(dsn) {
		return dsn
	}
	return postgres.Redact(dsn)
}
