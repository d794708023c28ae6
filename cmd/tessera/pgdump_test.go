package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakePgTools puts a pg_dump and a pg_restore on PATH that act like the
// real ones as far as backup can see: pg_dump writes an archive (or a bad
// one, or fails, as mode says) and records its arguments and password;
// pg_restore --list accepts only a whole archive.
func fakePgTools(t *testing.T, mode string) (bin, log string) {
	t.Helper()
	bin = t.TempDir()
	log = filepath.Join(bin, "log")
	dump := `#!/bin/sh
echo "args: $*" >> ` + log + `
echo "password: $PGPASSWORD" >> ` + log + `
for a in "$@"; do case "$a" in --file=*) f="${a#--file=}";; esac; done
case "` + mode + `" in
fail) echo "pg_dump: error: connection refused" >&2; exit 1;;
bad) printf 'PGD' > "$f";;
*) printf 'PGDMP whole archive' > "$f";;
esac
`
	restore := `#!/bin/sh
[ "$1" = "--list" ] && head -c 5 "$2" | grep -q PGDMP
`
	os.WriteFile(filepath.Join(bin, "pg_dump"), []byte(dump), 0o755)
	os.WriteFile(filepath.Join(bin, "pg_restore"), []byte(restore), 0o755)
	t.Setenv("PATH", bin+string(os.PathListSeparator)+"/usr/bin:/bin")
	return bin, log
}

const pgURL = "postgres://tessera:s3cret@db.example:5432/tessera?sslmode=disable"

func TestBackupOfPostgresRunsPgDump(t *testing.T) {
	_, log := fakePgTools(t, "")
	dst := filepath.Join(t.TempDir(), "backup.pgdump")
	code, out, errs := runCmd(t, "", "backup", "--db", pgURL, dst)
	if code != 0 || !strings.Contains(out, "with pg_dump") || !strings.Contains(out, "verified by pg_restore --list") {
		t.Fatalf("exit %d: %s%s", code, out, errs)
	}
	if b, _ := os.ReadFile(dst); string(b) != "PGDMP whole archive" {
		t.Fatalf("the backup holds %q", b)
	}
	l, _ := os.ReadFile(log)
	args, _, _ := strings.Cut(string(l), "\n")
	if !strings.Contains(args, "--format=custom") || !strings.Contains(args, "db.example") || strings.Contains(args, "s3cret") {
		t.Fatalf("pg_dump ran with %q: the password belongs in its environment, not on its command line", args)
	}
	if !strings.Contains(string(l), "password: s3cret") {
		t.Fatalf("pg_dump did not get the password: %s", l)
	}
	if strings.Contains(out+errs, "s3cret") {
		t.Fatalf("the password was printed: %s%s", out, errs)
	}
}

func TestBackupOfPostgresKeepsTheOldCopyOnFailure(t *testing.T) {
	for _, mode := range []string{"fail", "bad"} {
		fakePgTools(t, mode)
		dst := filepath.Join(t.TempDir(), "backup.pgdump")
		os.WriteFile(dst, []byte("yesterday's backup"), 0o600)
		code, out, errs := runCmd(t, "", "backup", "--db", pgURL, dst)
		if code != 1 || !strings.Contains(errs, "left unchanged") {
			t.Fatalf("%s: exit %d: %s%s", mode, code, out, errs)
		}
		if b, _ := os.ReadFile(dst); string(b) != "yesterday's backup" {
			t.Fatalf("%s: the old backup became %q", mode, b)
		}
		if left, _ := filepath.Glob(filepath.Join(filepath.Dir(dst), ".tessera-backup-*")); len(left) != 0 {
			t.Fatalf("%s: temporary files left: %v", mode, left)
		}
	}
}

func TestBackupOfPostgresWithoutPgDumpSaysWhatToRun(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	code, out, errs := runCmd(t, "", "backup", "--db", pgURL, "b.pgdump")
	if code != 1 || !strings.Contains(errs, "pg_dump --format=custom --file=b.pgdump 'postgres://tessera:xxxxx@db.example:5432/tessera?sslmode=disable'") || strings.Contains(errs, "s3cret") {
		t.Fatalf("exit %d: %s%s", code, out, errs)
	}
}

func TestCheckOfPostgresNeverPrintsThePassword(t *testing.T) {
	// No server listens on port 1; without the adapter linked in, the URL
	// is refused. Either way: exit 1, and no password.
	code, out, errs := runCmd(t, "", "check", "--db", "postgres://tessera:s3cret@127.0.0.1:1/tessera?connect_timeout=1")
	if code != 1 || strings.Contains(out+errs, "s3cret") || !strings.Contains(out, "cannot be opened") {
		t.Fatalf("exit %d: %s%s", code, out, errs)
	}
}
