package database

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"tessera/storage"
	"tessera/storage/boltdb"
)

func TestOpenPicksTheAdapter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	st, err := Open(context.Background(), path, storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, ok := st.(*boltdb.Store); !ok || !st.Created() {
		t.Fatalf("a path opened %T (created %v), want a new bbolt file", st, st.Created())
	}
	// A missing file opened read-only is a NotFoundError, and no typed nil
	// hides in the interface.
	ro, err := Open(context.Background(), filepath.Join(t.TempDir(), "none.db"), storage.Options{ReadOnly: true})
	var nf *storage.NotFoundError
	if !errors.As(err, &nf) || ro != nil {
		t.Fatalf("missing file: %v, %#v", err, ro)
	}
	// A URL never falls back to a file: without the adapter it is
	// refused, with it the cancelled context ends the connection at once.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if pg, err := Open(ctx, "postgres://u@127.0.0.1:1/tessera", storage.Options{}); err == nil || pg != nil {
		t.Fatalf("a PostgreSQL URL with a cancelled context: %v, %#v", err, pg)
	}
	for _, dsn := range []string{"postgres://u@localhost/tessera", "POSTGRESQL://localhost/x?sslmode=disable"} {
		if !IsPostgres(dsn) {
			t.Errorf("%s is not a PostgreSQL URL", dsn)
		}
	}
	for _, dsn := range []string{"tessera.db", "/data/postgres.db", "postgres.db", "./postgres:/x"} {
		if IsPostgres(dsn) {
			t.Errorf("%s is a PostgreSQL URL", dsn)
		}
	}
}

func TestRedact(t *testing.T) {
	for _, dsn := range []string{
		"postgres://tessera:s3cret@db.example:5432/tessera?sslmode=require",
		"postgresql://db.example/tessera?user=tessera&password=s3cret",
	} {
		if got := Redact(dsn); strings.Contains(got, "s3cret") || !strings.Contains(got, "db.example") {
			t.Errorf("Redact(%q) = %q", dsn, got)
		}
	}
	if got := Redact("/data/tessera.db"); got != "/data/tessera.db" {
		t.Errorf("a path redacted: %q", got)
	}
}
