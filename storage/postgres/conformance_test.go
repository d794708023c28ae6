package postgres

import (
	"testing"

	"tessera/storage"
	"tessera/storage/postgres/pgtest"
	"tessera/storage/storagetest"
)

// TestConformance runs the port's conformance suite against PostgreSQL,
// each store on a fresh database of the test cluster.
func TestConformance(t *testing.T) {
	storagetest.Run(t, func(t *testing.T) storage.Store { return open(t, pgtest.Database(t)) })
}

// TestShared runs the promises between processes through two stores on
// one database.
func TestShared(t *testing.T) {
	storagetest.RunShared(t, func(t *testing.T) (storage.Store, storage.Store) {
		url := pgtest.Database(t)
		return open(t, url), open(t, url)
	})
}
