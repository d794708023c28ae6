// Package databasetest runs a test on both storage adapters: bbolt and
// PostgreSQL (a throwaway cluster, storage/postgres/pgtest), for the
// promises of the service and of the courier that depend on the store
// (concurrency, faults, a server restart). Imported by tests only
// (architecture_test.go).
package databasetest

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"tessera"
	"tessera/storage"
	"tessera/storage/boltdb"
	"tessera/storage/postgres"
	"tessera/storage/postgres/pgtest"
)

// Adapter opens handles on a new, empty database of one storage adapter.
type Adapter struct {
	Name string
	// Open returns n handles on one new database, closed when the test
	// ends: on PostgreSQL n stores (as n processes would have), on bbolt
	// one store n times (one process owns a file).
	Open func(t *testing.T, n int) []storage.Store
	// Kill ends the database's server connections behind the handles'
	// backs, as a server restart does, and returns how many; nil where
	// there are none (bbolt).
	Kill func(t *testing.T) int
}

// Each runs fn on bbolt and on PostgreSQL (without PostgreSQL that half
// skips, or fails under CI=true). A package using it stops the cluster
// with pgtest.Main in its TestMain.
func Each(t *testing.T, fn func(t *testing.T, a Adapter)) {
	t.Run("bbolt", func(t *testing.T) { fn(t, Bolt()) })
	t.Run("postgres", func(t *testing.T) { fn(t, Postgres()) })
}

// Bolt is the bbolt adapter.
func Bolt() Adapter {
	return Adapter{Name: "bbolt", Open: func(t *testing.T, n int) []storage.Store {
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

// Postgres is the PostgreSQL adapter, on a new database of the
// throwaway cluster for each Open.
func Postgres() Adapter {
	var url string
	a := Adapter{Name: "postgres"}
	a.Open = func(t *testing.T, n int) []storage.Store {
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
	a.Kill = func(t *testing.T) int { return pgtest.Kill(t, url) }
	return a
}

// OpenPostgres opens a store on url with the statement timeout given (0:
// none), closed when the test ends.
func OpenPostgres(t *testing.T, url string, timeout time.Duration) storage.Store {
	t.Helper()
	st, err := postgres.Open(t.Context(), url, storage.Options{NoSync: true, Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// HoldRow locks game id's row in a transaction of st until release is
// called (which waits for that transaction's end), as a slow change in
// another process would.
func HoldRow(t *testing.T, st storage.Store, id uint64) (release func()) {
	t.Helper()
	locked, free, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		_, err := st.Modify(context.Background(), id, func(*tessera.Game, storage.Tx) error {
			close(locked)
			<-free
			return nil
		})
		done <- err
	}()
	<-locked
	release = sync.OnceFunc(func() {
		close(free)
		if err := <-done; err != nil {
			t.Errorf("the transaction holding the row: %v", err)
		}
	})
	t.Cleanup(release)
	return release
}
