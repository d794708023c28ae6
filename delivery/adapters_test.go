package delivery_test

import (
	"os"
	"testing"
	"time"

	"tessera/storage"
	"tessera/storage/database/databasetest"
	"tessera/storage/postgres/pgtest"
)

// TestMain stops the throwaway PostgreSQL cluster that the tests on both
// adapters start (pgtest), once the package's tests are done.
func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// adapter and eachAdapter are databasetest's, for the promises that
// depend on the store (concurrency, faults): they are tested on both.
type adapter = databasetest.Adapter

func eachAdapter(t *testing.T, fn func(t *testing.T, a adapter)) { databasetest.Each(t, fn) }
func boltAdapter() adapter                                       { return databasetest.Bolt() }
func postgresAdapter() adapter                                   { return databasetest.Postgres() }

func openPostgres(t *testing.T, url string, timeout time.Duration) storage.Store {
	return databasetest.OpenPostgres(t, url, timeout)
}

func holdRow(t *testing.T, st storage.Store, id uint64) (release func()) {
	return databasetest.HoldRow(t, st, id)
}
