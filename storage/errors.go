package storage

import "fmt"

// DamagedError says that a database is damaged, and what to do.
type DamagedError struct {
	Path   string
	Reason string
}

func (e *DamagedError) Error() string {
	return fmt.Sprintf("database %s is damaged (%s): stop the bot and restore the latest backup; `tessera check --db %s` says what it found", e.Path, e.Reason, e.Path)
}

// NotFoundError says that a database that must exist does not, or is empty.
type NotFoundError struct {
	Path  string
	Empty bool
}

func (e *NotFoundError) Error() string {
	if e.Empty {
		return fmt.Sprintf("database %s is empty (0 bytes): it is not a tessera database; check the path (only `tessera run` creates a database)", e.Path)
	}
	return fmt.Sprintf("database %s does not exist: check the path (only `tessera run` creates a database)", e.Path)
}
