package boltdb

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"tessera"
	"tessera/storage"
	"tessera/storage/storagetest"
)

// TestConformance runs the storage port's suite on a new file each time.
func TestConformance(t *testing.T) {
	storagetest.Run(t, func(t *testing.T) storage.Store {
		return open(t, filepath.Join(t.TempDir(), "t.db"))
	})
}

// TestShared runs the several-processes suite with one handle twice: one
// process owns a bbolt file, so this checks the suite and that the
// claims are shared by everything in the process.
func TestShared(t *testing.T) {
	storagetest.RunShared(t, func(t *testing.T) (storage.Store, storage.Store) {
		s := open(t, filepath.Join(t.TempDir(), "t.db"))
		return s, s
	})
}

func open(t *testing.T, path string) *Store {
	t.Helper()
	s, err := Open(path, storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func newGame() *tessera.Game { return storagetest.NewGame() }

// TestReopenKeepsEverything: what one process wrote, the next one reads
// (with fsync on, as in production).
func TestReopenKeepsEverything(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	s, err := Open(path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !s.Created() {
		t.Fatal("a new file is not Created")
	}
	storagetest.Fill(t, s)
	before := storagetest.Dump(t, s)
	s.Close()

	s = open(t, path)
	defer s.Close()
	if s.Created() {
		t.Fatal("an existing file is Created")
	}
	after := storagetest.Dump(t, s)
	if len(after) != len(before) {
		t.Fatalf("%d records after reopening, %d before", len(after), len(before))
	}
	for i := range before {
		if storagetest.Canon(after[i]) != storagetest.Canon(before[i]) {
			t.Errorf("record %d after reopening:\n%s\nbefore:\n%s", i, storagetest.Canon(after[i]), storagetest.Canon(before[i]))
		}
	}
	// The next game gets the next id.
	g := newGame()
	if err := s.Create(t.Context(), g, ""); err != nil || g.ID != before[0].Counters.LastGameID+1 {
		t.Fatalf("next game id %d after %d, err %v", g.ID, before[0].Counters.LastGameID, err)
	}
}

func TestSecondProcessFailsFast(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	s := open(t, path)
	defer s.Close()
	_, err := Open(path, storage.Options{LockTimeout: 50 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "locked by another process") {
		t.Fatalf("second open: %v", err)
	}
}

func TestSchemaVersionChecked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	s := open(t, path)
	s.db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bMeta).Put(kSchema, []byte("99")) })
	s.Close()
	if _, err := Open(path, storage.Options{}); err == nil || !strings.Contains(err.Error(), "schema version 99") {
		t.Fatalf("open of a newer schema: %v", err)
	}
}

func TestBackup(t *testing.T) {
	dir := t.TempDir()
	s := open(t, filepath.Join(dir, "t.db"))
	defer s.Close()
	storagetest.Fill(t, s)
	var buf bytes.Buffer
	n, err := s.Backup(t.Context(), &buf)
	if err != nil || n == 0 || int64(buf.Len()) != n {
		t.Fatalf("backup %d bytes: %v", n, err)
	}
	copyPath := filepath.Join(dir, "copy.db")
	if err := os.WriteFile(copyPath, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Open(copyPath, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if errs := c.Check(t.Context()); len(errs) != 0 {
		t.Fatalf("check of the copy: %v", errs)
	}
	a, b := storagetest.Dump(t, s), storagetest.Dump(t, c)
	if len(a) != len(b) {
		t.Fatalf("the copy has %d records, the original %d", len(b), len(a))
	}
}
