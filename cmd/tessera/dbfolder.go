package main

import (
	"fmt"
	"os"
	"path/filepath"

	"tessera/storage/database"
)

// makeDatabaseFolder makes the folder a new database file is to be
// created in, when it does not exist, and returns its name ("" when
// nothing was made; a postgres:// URL has no folder). A folder that
// cannot be made is an error that names it.
func makeDatabaseFolder(db string) (string, error) {
	if database.IsPostgres(db) {
		return "", nil
	}
	dir := filepath.Dir(db)
	if _, err := os.Stat(dir); err == nil || !os.IsNotExist(err) {
		return "", nil // there, or a problem the database's open names
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("the database's folder %s does not exist and cannot be made: %v", dir, err)
	}
	return dir, nil
}
