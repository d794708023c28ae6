package postgres_test

import (
	"context"
	"path/filepath"
	"testing"

	"tessera/storage"
	"tessera/storage/boltdb"
	"tessera/storage/database"
	"tessera/storage/postgres"
	"tessera/storage/postgres/pgtest"
)

// TestDatabaseOpen: a postgres:// URL opens this adapter (postgresql://
// too), a path the bbolt one.
func TestDatabaseOpen(t *testing.T) {
	url := pgtest.Database(t)
	for _, u := range []string{url, "postgresql" + url[len("postgres"):]} {
		st, err := database.Open(context.Background(), u, storage.Options{})
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		if _, ok := st.(*postgres.Store); !ok {
			t.Errorf("%s opened a %T", u, st)
		}
		st.Close()
	}
	st, err := database.Open(context.Background(), filepath.Join(t.TempDir(), "t.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := st.(*boltdb.Store); !ok {
		t.Errorf("a path opened a %T", st)
	}
	st.Close()
}
