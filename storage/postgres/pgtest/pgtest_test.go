package pgtest

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

func TestMain(m *testing.M) {
	if os.Getenv("PGTEST_NO_SERVER") != "" { // the child of TestNoServer
		binGlob = "/nonexistent/*/bin"
	}
	os.Exit(Main(m))
}

// TestDatabase: two tests' databases are distinct and empty, and the
// server answers on the URL given.
func TestDatabase(t *testing.T) {
	ctx := context.Background()
	a, b := Database(t), Database(t)
	if a == b {
		t.Fatalf("two tests share the database %s", a)
	}
	for _, u := range []string{a, b} {
		conn, err := pgx.Connect(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		var n int
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").Scan(&n); err != nil || n != 0 {
			t.Errorf("%s: %d tables, %v; want a fresh database", u, n, err)
		}
		conn.Close(ctx)
	}
}

// TestServerOrSkip is what TestNoServer's child runs.
func TestServerOrSkip(t *testing.T) {
	if os.Getenv("PGTEST_NO_SERVER") == "" {
		t.Skip("run by TestNoServer")
	}
	Server(t)
}

// TestNoServer: without any PostgreSQL (no URL, no initdb), a test skips
// and says how to run it, except under CI=true, where it fails.
func TestNoServer(t *testing.T) {
	for _, ci := range []string{"", "true"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestServerOrSkip$", "-test.v")
		cmd.Env = append(os.Environ(), "PGTEST_NO_SERVER=1", "PATH=/nonexistent", EnvURL+"=", "CI="+ci)
		out, err := cmd.CombinedOutput()
		switch {
		case ci == "" && (err != nil || !strings.Contains(string(out), "--- SKIP") || !strings.Contains(string(out), EnvURL)):
			t.Errorf("outside CI: %v\n%s", err, out)
		case ci == "true" && (err == nil || !strings.Contains(string(out), "--- FAIL") || !strings.Contains(string(out), "CI=true")):
			t.Errorf("under CI=true: %v\n%s", err, out)
		}
	}
}
