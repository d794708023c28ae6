// Package pgtest gives tests a PostgreSQL server and a fresh database per
// test, with nothing to set up by hand.
//
// The server is the one named by TESSERA_TEST_POSTGRES (a URL such as
// postgres://user:pw@localhost/postgres, whose database must allow CREATE
// DATABASE), or else a throwaway cluster that the test binary starts
// itself, once, from the PostgreSQL binaries it finds (initdb on PATH or in
// /usr/lib/postgresql/*/bin): initdb into a temporary directory, then
// postgres listening on a unix socket in that directory only (no TCP
// port, so parallel test binaries never collide). As root (here and in CI)
// both run as the postgres user, since PostgreSQL refuses to run as root.
//
// Without any server the tests skip and say how to run them, except under
// CI=true, where a missing server is a failure: CI must not pass by
// testing nothing.
//
// A package whose tests use it calls Main from its TestMain, which stops
// the cluster after the tests. The server is also killed by the kernel if
// the test binary dies (a parent-death signal), so a crashed run leaves no
// server behind.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// EnvURL names the environment variable with a server's URL.
const EnvURL = "TESSERA_TEST_POSTGRES"

var (
	once    sync.Once
	server  string // the admin URL of the server, "" when there is none
	reason  string // why there is none
	cluster *throwaway
	dbs     atomic.Int64
)

// Main runs the package's tests and then stops the throwaway cluster, if
// one was started. Call it from TestMain: os.Exit(pgtest.Main(m)).
func Main(m *testing.M) int {
	code := m.Run()
	if adminConn != nil {
		adminConn.Close(context.Background())
	}
	if cluster != nil {
		cluster.stop()
	}
	return code
}

// Server returns the admin URL of the test server, starting the throwaway
// cluster on first use. Without a server it skips t, or fails it under
// CI=true.
func Server(t testing.TB) string {
	t.Helper()
	once.Do(func() { server, reason = find() })
	if server == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("no PostgreSQL server for the tests, and CI=true: %s", reason)
		}
		t.Skipf("no PostgreSQL server (%s): set %s=postgres://user:password@host/db or install PostgreSQL (apt-get install postgresql) to run these tests", reason, EnvURL)
	}
	return server
}

// Database creates a fresh, empty database for one test and returns its
// URL; the database is dropped when the test ends.
func Database(t testing.TB) string {
	t.Helper()
	admin := Server(t)
	name := fmt.Sprintf("tessera_t%d_%d", os.Getpid(), dbs.Add(1))
	if err := exec1(admin, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("create test database: %v", err)
	}
	t.Cleanup(func() {
		// FORCE: a test that failed may have left a store open.
		if err := exec1(admin, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Logf("drop test database %s: %v", name, err)
		}
	})
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// The admin connection, kept for the whole run: a new connection costs
// more than creating a database.
var (
	adminMu   sync.Mutex
	adminConn *pgx.Conn
)

// exec1 runs one statement on the admin connection, connecting again once
// if the connection was lost (a test may kill connections).
func exec1(admin, sql string) error {
	adminMu.Lock()
	defer adminMu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var err error
	for try := 0; try < 2; try++ {
		if adminConn == nil || adminConn.IsClosed() {
			if adminConn, err = pgx.Connect(ctx, admin); err != nil {
				adminConn = nil
				return err
			}
		}
		if _, err = adminConn.Exec(ctx, sql); err == nil || !adminConn.IsClosed() {
			return err
		}
	}
	return err
}

// find returns the server's URL, or "" and the reason there is none.
func find() (string, string) {
	if u := os.Getenv(EnvURL); u != "" {
		return u, ""
	}
	bin, err := binDir()
	if err != nil {
		return "", err.Error()
	}
	c, err := start(bin)
	if err != nil {
		return "", fmt.Sprintf("starting a throwaway cluster from %s failed: %v", bin, err)
	}
	cluster = c
	return c.url, ""
}

// binGlob is where Debian installs PostgreSQL's server programs (a test
// changes it to see what happens without them).
var binGlob = "/usr/lib/postgresql/*/bin"

// binDir finds the directory of initdb and postgres: PATH first (where
// /usr/local/bin may hold links), then Debian's versioned directories,
// newest first.
func binDir() (string, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		dir := filepath.Dir(p)
		if _, err := os.Stat(filepath.Join(dir, "postgres")); err == nil {
			return dir, nil
		}
	}
	dirs, _ := filepath.Glob(binGlob)
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, dir := range dirs {
		if _, err := os.Stat(filepath.Join(dir, "initdb")); err == nil {
			return dir, nil
		}
	}
	return "", errors.New("initdb was found neither on PATH nor in " + binGlob)
}

func version(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

// throwaway is a cluster started by this process.
type throwaway struct {
	dir  string
	url  string
	proc *os.Process
	done chan struct{}
}

// start runs initdb and postgres in a new temporary directory.
func start(bin string) (*throwaway, error) {
	// The server's socket path must fit in 107 bytes, and as root the
	// postgres user must reach the directory: /tmp does both, where a
	// TMPDIR may not.
	base := ""
	if len(os.TempDir()) > 40 || os.Geteuid() == 0 {
		if _, err := os.Stat("/tmp"); err == nil {
			base = "/tmp"
		}
	}
	dir, err := os.MkdirTemp(base, "tessera-pg-")
	if err != nil {
		return nil, err
	}
	cred, err := credential(dir)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	data := filepath.Join(dir, "data")
	// --no-sync and the settings below trade durability for speed: a test
	// cluster is thrown away anyway.
	initdb := exec.Command(filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync")
	initdb.Dir = dir
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := initdb.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %v: %s", err, out)
	}
	c := &throwaway{dir: dir, done: make(chan struct{})}
	logf, err := os.Create(filepath.Join(dir, "postgres.log"))
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	started := make(chan error, 1)
	go func() {
		// The parent-death signal is sent when the thread that started
		// the child ends, not the process: keep this goroutine on its
		// own thread for as long as the server runs.
		runtime.LockOSThread()
		defer close(c.done)
		defer logf.Close()
		cmd := exec.Command(filepath.Join(bin, "postgres"), "-D", data, "-k", dir,
			"-c", "listen_addresses=", "-c", "fsync=off", "-c", "synchronous_commit=off",
			"-c", "full_page_writes=off", "-c", "max_connections=200", "-c", "shared_buffers=32MB")
		cmd.Dir = dir
		cmd.Stdout, cmd.Stderr = logf, logf
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGKILL}
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		c.proc = cmd.Process
		started <- nil
		cmd.Wait()
	}()
	if err := <-started; err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("postgres: %v", err)
	}
	c.url = (&url.URL{Scheme: "postgres", User: url.User("postgres"), Path: "/postgres", RawQuery: "host=" + url.QueryEscape(dir)}).String()
	if err := c.ready(); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "postgres.log"))
		c.stop()
		return nil, fmt.Errorf("%v; its log: %s", err, log)
	}
	return c, nil
}

// ready waits until the server accepts connections (it takes about a
// second; a minute allows for a loaded machine).
func (c *throwaway) ready() error {
	deadline := time.Now().Add(time.Minute)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		conn, err := pgx.Connect(ctx, c.url)
		if err == nil {
			conn.Close(ctx)
			cancel()
			return nil
		}
		cancel()
		select {
		case <-c.done:
			return errors.New("postgres exited at start")
		default:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("postgres did not accept connections within a minute: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stop shuts the server down at once (SIGQUIT: immediate shutdown) and
// removes its directory.
func (c *throwaway) stop() {
	if c.proc != nil {
		c.proc.Signal(syscall.SIGQUIT)
		select {
		case <-c.done:
		case <-time.After(30 * time.Second):
			c.proc.Kill()
			<-c.done
		}
	}
	os.RemoveAll(c.dir)
}

// credential returns, when this process is root, the postgres user's ids
// (and gives it dir); nil otherwise.
func credential(dir string) (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("running as root, and there is no postgres user to run PostgreSQL as (PostgreSQL refuses root): %v", err)
	}
	uid, err1 := strconv.Atoi(u.Uid)
	gid, err2 := strconv.Atoi(u.Gid)
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("postgres user has ids %q, %q", u.Uid, u.Gid)
	}
	if err := os.Chown(dir, uid, gid); err != nil {
		return nil, err
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), NoSetGroups: true}, nil
}

// Kill ends the backend process of every connection to the database of
// dbURL but the caller's (a connection that dies mid-transaction).
func Kill(t testing.TB, dbURL string) int {
	t.Helper()
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	name := strings.TrimPrefix(u.Path, "/")
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, Server(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var n int
	err = conn.QueryRow(ctx, "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", name).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// AwaitLockWait returns once a connection to the database of dbURL waits
// for a lock another transaction holds (a query blocked in flight), so a
// test can act on that query without sleeping. It fails the test when
// ctx ends first.
func AwaitLockWait(ctx context.Context, t testing.TB, dbURL string) {
	t.Helper()
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	name := strings.TrimPrefix(u.Path, "/")
	conn, err := pgx.Connect(ctx, Server(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	for {
		var waiting bool
		err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock')", name).Scan(&waiting)
		if err != nil {
			t.Fatalf("waiting for a blocked query: %v", err)
		}
		if waiting {
			return
		}
	}
}
