package delivery_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"tessera/storage"
	"tessera/storage/boltdb"
	"tessera/storage/postgres"
	"tessera/storage/postgres/pgtest"
)

// TestMain stops the throwaway PostgreSQL cluster that the tests on both
// adapters start (pgtest), once the package's tests are done.
func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// adapter opens handles on a new, empty database of one storage adapter,
// for the service's promises that depend on the store (concurrency,
// faults): they are tested on both.
type adapter struct {
	name string
	// open returns n handles on one new database, closed when the test
	// ends: on PostgreSQL n stores (as n processes would have), on bbolt
	// one store n times (one process owns a file).
	open func(t *testing.T, n int) []storage.Store
	// kill ends the database's server connections behind the handles'
	// backs, as a server restart does; nil where there are none (bbolt).
	kill func(t *testing.T) int
}

// eachAdapter runs fn on bbolt and on PostgreSQL (a throwaway cluster:
// without PostgreSQL that half skips, or fails under CI=true).
func eachAdapter(t *testing.T, fn func(t *testing.T, a adapter)) {
	t.Run("bbolt", func(t *testing.T) { fn(t, boltAdapter()) })
	t.Run("postgres", func(t *testing.T) { fn(t, postgresAdapter()) })
}

func boltAdapter() adapter {
	return adapter{name: "bbolt", open: func(t *testing.T, n int) []storage.Store {
		st, err := boltdb.Open(filepath.Join(t.TempDir(), "t.db"), storage.Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		out := make([]storage.Store, n)
		for i := range out {
			out[i] = st
		}
		return out
	}}
}

func postgresAdapter() adapter {
	var url string
	a := adapter{name: "postgres"}
	a.open = func(t *testing.T, n int) []storage.Store {
		url = pgtest.Database(t)
		out := make([]storage.Store, n)
		for i := range out {
			st, err := postgres.Open(context.Background(), url, storage.Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			out[i] = st
		}
		return out
	}
	a.kill = func(t *testing.T) int { return pgtest.Kill(t, url) }
	return a
}
