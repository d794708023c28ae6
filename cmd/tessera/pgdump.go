package main

import (
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"

	"tessera/storage/database"
)

// A PostgreSQL database is backed up with PostgreSQL's own pg_dump, which
// reads one consistent snapshot while the bots go on, as `tessera backup`
// does for a file. Tessera runs it when it is on PATH, in its custom
// format (restored with pg_restore), and otherwise says the command to
// run.

// pgBackup is `tessera backup PATH` for a postgres:// URL: pg_dump writes
// a temporary file beside PATH, pg_restore --list reads it back whole
// (when pg_restore is on PATH), and only then is it renamed over PATH.
func pgBackup(dsn, dst string, stdout, stderr io.Writer) int {
	shown := database.Redact(dsn)
	howto := fmt.Sprintf("pg_dump --format=custom --file=%s '%s'", dst, shown)
	pgDump, err := exec.LookPath("pg_dump")
	if err != nil {
		fmt.Fprintf(stderr, "tessera: backup: a PostgreSQL database is backed up with pg_dump, which is not on PATH: install PostgreSQL's client tools, or run it where they are:\n  %s\n(restore into an empty database with: pg_restore --dbname=URL %s)\n", howto, dst)
		return 1
	}
	if info, err := os.Stat(dst); err == nil && info.IsDir() {
		fmt.Fprintf(stderr, "tessera: backup: %s is a directory; give the backup's file name\n", dst)
		return 2
	}
	bare, password, err := splitPassword(dsn)
	if err != nil {
		fmt.Fprintln(stderr, "tessera: backup:", err)
		return 2
	}
	dir := filepath.Dir(dst)
	tmp, err := os.CreateTemp(dir, ".tessera-backup-*")
	if err != nil {
		fmt.Fprintln(stderr, "tessera: backup:", err)
		return 1
	}
	tmp.Close()
	defer os.Remove(tmp.Name()) // after the rename, nothing is there

	cmd := exec.Command(pgDump, "--format=custom", "--file="+tmp.Name(), "--dbname="+bare)
	// The password goes in the environment, never on a command line that
	// any user may read (ps).
	cmd.Env = os.Environ()
	if password != "" {
		cmd.Env = append(cmd.Env, "PGPASSWORD="+password)
	}
	cmd.Stdout, cmd.Stderr = stderr, stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintf(stderr, "tessera: backup: pg_dump of %s failed (%v); %s was left unchanged\n", shown, err, dst)
		return 1
	}
	verified := "not verified: pg_restore is not on PATH"
	if pgRestore, err := exec.LookPath("pg_restore"); err == nil {
		list := exec.Command(pgRestore, "--list", tmp.Name())
		list.Stdout, list.Stderr = io.Discard, stderr
		if err := list.Run(); err != nil {
			fmt.Fprintf(stderr, "tessera: backup: pg_restore cannot read the copy back (%v); %s was left unchanged\n", err, dst)
			return 1
		}
		verified = "verified by pg_restore --list"
	}
	if f, err := os.Open(tmp.Name()); err == nil {
		err = f.Sync()
		f.Close()
		if err != nil {
			fmt.Fprintln(stderr, "tessera: backup:", err)
			return 1
		}
	}
	info, err := os.Stat(tmp.Name())
	if err == nil {
		err = os.Rename(tmp.Name(), dst)
	}
	if err == nil {
		err = syncDir(dir)
	}
	if err != nil {
		fmt.Fprintln(stderr, "tessera: backup:", err)
		return 1
	}
	fmt.Fprintf(stdout, "backed up %s to %s with pg_dump (%d bytes, %s)\n", shown, dst, info.Size(), verified)
	return 0
}

// splitPassword takes the password out of a PostgreSQL URL (from its
// user part or a password= parameter).
func splitPassword(dsn string) (bare, password string, err error) {
	u, err := url.Parse(dsn)
	if err != nil {
		return "", "", fmt.Errorf("the database URL does not parse: %s", database.Redact(dsn))
	}
	if u.User != nil {
		if p, ok := u.User.Password(); ok {
			password = p
			u.User = url.User(u.User.Username())
		}
	}
	q := u.Query()
	if q.Has("password") {
		password = q.Get("password")
		q.Del("password")
		u.RawQuery = q.Encode()
	}
	return u.String(), password, nil
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}
