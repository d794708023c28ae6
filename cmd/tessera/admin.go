package main

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"tessera"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/boltdb"
	"tessera/storage/database"
)

// The running bot holds a bbolt database's lock, so `tessera backup` and
// `tessera check` reach it through a Unix socket next to the database
// (DATABASE.sock, only for the same user); when no bot runs they open the
// file themselves. A PostgreSQL database has no lock and no socket: check
// reads it directly, and backup runs pg_dump (pgdump.go).

func socketPath(db string) string { return db + ".sock" }

// serveAdmin answers "backup" (the database, streamed) and "check" (a
// report) on the socket until the listener closes.
func serveAdmin(ctx context.Context, st storage.Store, db string, log *slog.Logger) (io.Closer, error) {
	path := socketPath(db)
	os.Remove(path) // a stale socket from a crash
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, err
	}
	os.Chmod(path, 0o600)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				c.SetDeadline(time.Now().Add(10 * time.Minute))
				line, _ := bufio.NewReader(c).ReadString('\n')
				switch strings.TrimSpace(line) {
				case "backup":
					b, ok := st.(storage.Backuper)
					if !ok {
						log.Error("backup asked of a database that cannot copy itself")
						return
					}
					if _, err := b.Backup(ctx, c); err != nil {
						log.Error("backup failed", "err", err)
					}
				case "check":
					// The last line says the answer is whole: "OK", or
					// "PROBLEMS n" after n problem lines. A client that
					// reads neither (the bot died mid-check) reports
					// failure, never success.
					problems := check(ctx, st)
					for _, p := range problems {
						fmt.Fprintln(c, strings.ReplaceAll(p, "\n", " "))
					}
					if len(problems) == 0 {
						fmt.Fprintln(c, checkOK)
					} else {
						fmt.Fprintf(c, "%s %d\n", checkProblems, len(problems))
					}
				}
			}()
		}
	}()
	return ln, nil
}

// maxGameProblems bounds the games' problems a check lists one by one.
const maxGameProblems = 1000

// The check protocol's last line.
const (
	checkOK       = "OK"
	checkProblems = "PROBLEMS"
)

// check verifies the file's structure and that every stored game replays.
// When the structure is damaged the games are not read: reading them
// would meet the same damage.
func check(ctx context.Context, st interface {
	storage.Admin
	storage.GameLists
}) (problems []string) {
	for _, err := range st.Check(ctx) {
		var damaged *storage.DamagedError
		if errors.As(err, &damaged) {
			problems = append(problems, "structure: damaged, "+damaged.Reason+" (stop the bot and restore the latest backup)")
			continue
		}
		problems = append(problems, "structure: "+err.Error())
	}
	if len(problems) > 0 {
		return append(problems, "games not read: the file's structure is damaged")
	}
	// The games are read one at a time (All streams them) and none is
	// kept once replayed: only the problems are, those of the
	// maxGameProblems lowest game numbers, so that a check's memory does
	// not grow with the games stored. Replaying is most of a check's
	// time (a million games take minutes), so the games are replayed on
	// every core while the store reads the next ones; the problems are
	// listed by game number, whichever core found them.
	var (
		mu    sync.Mutex
		found []gameProblem
		more  int
	)
	report := func(id uint64, format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		found = append(found, gameProblem{id, fmt.Sprintf(format, args...)})
		if len(found) > 2*maxGameProblems {
			more += keepLowest(&found)
		}
	}
	games := make(chan *tessera.Game, 4*runtime.GOMAXPROCS(0))
	var workers sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		workers.Go(func() {
			for g := range games {
				checkGame(g, report)
			}
		})
	}
	err := st.All(ctx, func(g *tessera.Game) error {
		if g.Status == tessera.StatusChallenge || g.Status == tessera.StatusDeclined {
			return nil
		}
		games <- g
		return nil
	})
	close(games)
	workers.Wait()
	more += keepLowest(&found)
	for _, p := range found {
		problems = append(problems, p.text)
	}
	if more > 0 {
		problems = append(problems, fmt.Sprintf("and %s with games", count(more, "more problem", "more problems")))
	}
	if err != nil {
		problems = append(problems, "reading games: "+err.Error())
	}
	return problems
}

// gameProblem is a problem check found with one game.
type gameProblem struct {
	id   uint64
	text string
}

// keepLowest sorts the problems by game (a game's own in the order
// found) and keeps those of the maxGameProblems first; it returns how
// many it dropped.
func keepLowest(found *[]gameProblem) int {
	slices.SortStableFunc(*found, func(a, b gameProblem) int { return cmp.Compare(a.id, b.id) })
	dropped := max(0, len(*found)-maxGameProblems)
	*found = (*found)[:len(*found)-dropped]
	return dropped
}

// checkGame replays one game and reports what disagrees with its record.
// A record that decodes but makes a game's rules panic is one problem,
// not a crash of the check (or of the bot serving it).
func checkGame(g *tessera.Game, report func(id uint64, format string, args ...any)) {
	defer func() {
		if r := recover(); r != nil {
			report(g.ID, "game %d: its rules panicked on its record: %v", g.ID, r)
		}
	}()
	pos, err := service.Replay(g)
	switch {
	case err != nil:
		report(g.ID, "game %d: %v", g.ID, err)
	case g.Status == tessera.StatusFinished && !pos.Over():
		report(g.ID, "game %d: stored as finished but its record replays to a game in play", g.ID)
	case g.Status == tessera.StatusPlaying && pos.Over():
		report(g.ID, "game %d: stored as in play but its record replays to a finished game", g.ID)
	case g.Status == tessera.StatusPlaying && pos.ToMove() >= 0 && int(pos.ToMove()) < len(g.Players) && g.AITurn != g.Players[pos.ToMove()].IsAI():
		// The AI finds its moves by this mark: a wrong one is a move never made.
		report(g.ID, "game %d: the AI's turn is marked %v, but seat %d is to move", g.ID, g.AITurn, pos.ToMove()+1)
	}
}

// dbFlags reads the database path for backup and check.
// When ok is false the command ends with exit status code.
func dbFlags(name string, args []string, stderr io.Writer, getenv func(string) string) (fs *flag.FlagSet, db string, code int, ok bool) {
	return dbFlagsWith(name, args, stderr, getenv, nil)
}

// dbFlagsWith is dbFlags for a command with flags of its own, which more
// declares.
func dbFlagsWith(name string, args []string, stderr io.Writer, getenv func(string) string, more func(fs *flag.FlagSet)) (fs *flag.FlagSet, db string, code int, ok bool) {
	fs = newFlagSet(name, stderr)
	if more != nil {
		more(fs)
	}
	cfgPath := fs.String("config", "", "configuration file (default $TESSERA_CONFIG, else config.yaml if present)")
	dbFlag := fs.String("db", "", "database file or postgres:// URL (default: the configured database)")
	if code, ok := parseFlags(fs, args); !ok {
		return nil, "", code, false
	}
	if *dbFlag != "" {
		return fs, *dbFlag, 0, true
	}
	path, required := *cfgPath, *cfgPath != ""
	if path == "" {
		path, required = getenv("TESSERA_CONFIG"), getenv("TESSERA_CONFIG") != ""
	}
	if path == "" {
		path = "config.yaml"
	}
	cfg, err := loadConfig(path, required, getenv)
	if err != nil {
		fmt.Fprintln(stderr, "tessera:", err)
		return nil, "", 2, false
	}
	return fs, cfg.Database, 0, true
}

// ask sends a command to the running bot and returns its answer stream.
func ask(db, command string) (net.Conn, error) {
	c, err := net.DialTimeout("unix", socketPath(db), 2*time.Second)
	if err != nil {
		return nil, err
	}
	if _, err := io.WriteString(c, command+"\n"); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// openQuick opens the database read-only unless another process holds
// it: the admin tools never create or change a file.
func openQuick(ctx context.Context, db string) (storage.Store, error) {
	return database.Open(ctx, db, storage.Options{ReadOnly: true, LockTimeout: 200 * time.Millisecond})
}

// openOrAsk opens the database read-only; when a running bot holds it,
// it asks the bot instead (conn is then the answer). A missing or empty
// file is an error at once. A file that looks damaged is asked about too
// when a bot answers: the bot has it open and its header may have been
// read mid-write; with no bot, the damage is the answer.
func openOrAsk(ctx context.Context, db, command string) (storage.Store, net.Conn, error) {
	st, err := openQuick(ctx, db)
	if err == nil {
		return st, nil, nil
	}
	if database.IsPostgres(db) { // a server: no lock, no socket to ask
		return nil, nil, err
	}
	var nf *storage.NotFoundError
	if errors.As(err, &nf) {
		return nil, nil, err
	}
	c, aerr := ask(db, command)
	var damaged *storage.DamagedError
	switch {
	case aerr == nil:
		return nil, c, nil
	case errors.As(err, &damaged):
		return nil, nil, err
	}
	return nil, nil, fmt.Errorf("%v; and no running bot answers on %s (%v)", err, socketPath(db), aerr)
}

// runBackup is `tessera backup PATH`: a consistent copy of the database,
// safe while the bot runs. The copy is written to a temporary file next
// to PATH, synced, opened read-only and checked, and only then renamed
// over PATH (and the directory synced): PATH is either the old file or a
// whole, verified copy, never a cut-off one.
func runBackup(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	ctx := context.Background() // the subcommand's: it runs to its end
	fs, db, code, ok := dbFlags("backup", args, stderr, getenv)
	if !ok {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: tessera backup [--db FILE] [--config FILE] PATH")
		return 2
	}
	dst := fs.Arg(0)
	if database.IsPostgres(db) {
		return pgBackup(db, dst, stdout, stderr)
	}
	n, err := backup(ctx, db, dst)
	if err != nil {
		fmt.Fprintln(stderr, "tessera: backup:", err)
		var nf *storage.NotFoundError
		var same *sameFileError
		if errors.As(err, &nf) || errors.As(err, &same) {
			return 2
		}
		return 1
	}
	fmt.Fprintf(stdout, "backed up %s to %s (%d bytes, verified)\n", db, dst, n)
	return 0
}

// sameFileError refuses a backup onto the database itself.
type sameFileError struct{ db, dst string }

func (e *sameFileError) Error() string {
	return fmt.Sprintf("%s is the database %s itself (the same file); back up to another file", e.dst, e.db)
}

func backup(ctx context.Context, db, dst string) (int64, error) {
	// The same file by device and inode, whatever its name (a symbolic
	// or hard link, "./live.db"): replacing it would leave the running
	// bot writing to a deleted file.
	if dbInfo, err := os.Stat(db); err == nil {
		if dstInfo, err := os.Stat(dst); err == nil {
			if os.SameFile(dbInfo, dstInfo) {
				return 0, &sameFileError{db, dst}
			}
			if dstInfo.IsDir() {
				return 0, fmt.Errorf("%s is a directory; give the backup's file name", dst)
			}
		}
	}
	st, conn, err := openOrAsk(ctx, db, "backup")
	if err != nil {
		return 0, err
	}
	dir := filepath.Dir(dst)
	tmp, err := os.CreateTemp(dir, ".tessera-backup-*")
	if err != nil {
		if st != nil {
			st.Close()
		}
		if conn != nil {
			conn.Close()
		}
		return 0, err
	}
	defer os.Remove(tmp.Name()) // after the rename, nothing is there
	defer tmp.Close()
	var n int64
	if st != nil {
		if b, ok := st.(storage.Backuper); ok {
			n, err = b.Backup(ctx, tmp)
		} else {
			err = fmt.Errorf("database %s cannot copy itself", db)
		}
		st.Close()
	} else {
		n, err = io.Copy(tmp, conn)
		conn.Close()
		if err != nil {
			err = fmt.Errorf("from the running bot: %w", err)
		}
	}
	if err != nil {
		return 0, err
	}
	if err := tmp.Sync(); err != nil {
		return 0, err
	}
	if err := tmp.Close(); err != nil {
		return 0, err
	}
	if err := verifyCopy(ctx, tmp.Name()); err != nil {
		return 0, fmt.Errorf("the copy is not whole, %s was left unchanged: %w", dst, err)
	}
	if err := os.Rename(tmp.Name(), dst); err != nil {
		return 0, err
	}
	// The rename is durable only once the directory is synced.
	if d, err := os.Open(dir); err == nil {
		err = d.Sync()
		d.Close()
		if err != nil {
			return 0, fmt.Errorf("sync %s: %w", dir, err)
		}
	}
	return n, nil
}

// verifyCopy opens a written copy read-only, checks its structure and
// that every game record decodes.
func verifyCopy(ctx context.Context, path string) error {
	st, err := boltdb.Open(path, storage.Options{ReadOnly: true, LockTimeout: 200 * time.Millisecond})
	if err != nil {
		return err
	}
	defer st.Close()
	if errs := st.Check(ctx); len(errs) > 0 {
		return fmt.Errorf("%v (and %s)", errs[0], count(len(errs)-1, "more problem", "more problems"))
	}
	return st.All(ctx, func(*tessera.Game) error { return nil })
}

// runCheck is `tessera check`: the database's structure, and that every
// stored game replays. Exit status 0 only on a complete, positive answer;
// 1 when something is wrong or the answer was cut off; 2 when there is no
// database to check.
func runCheck(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	ctx := context.Background() // the subcommand's: it runs to its end
	_, db, code, ok := dbFlags("check", args, stderr, getenv)
	if !ok {
		return code
	}
	name := database.Redact(db) // a URL's password is never printed
	var problems []string
	st, conn, err := openOrAsk(ctx, db, "check")
	var nf *storage.NotFoundError
	switch {
	case errors.As(err, &nf):
		fmt.Fprintln(stderr, "tessera:", err)
		return 2
	case err != nil:
		// A file too damaged to open is what check is for: say what was
		// found, and what to do.
		var damaged *storage.DamagedError
		if errors.As(err, &damaged) {
			fmt.Fprintf(stdout, "%s is damaged: %s\n", name, damaged.Reason)
			fmt.Fprintf(stdout, "%s: cannot be opened; stop the bot and restore the latest backup\n", name)
		} else {
			fmt.Fprintln(stdout, err)
			fmt.Fprintf(stdout, "%s: cannot be opened\n", name)
		}
		return 1
	case st != nil:
		problems = check(ctx, st)
		st.Close()
	default:
		var whole bool
		problems, whole, err = readCheckAnswer(conn)
		conn.Close()
		if !whole {
			for _, p := range problems {
				fmt.Fprintln(stdout, p)
			}
			fmt.Fprintf(stderr, "tessera: the running bot's answer was cut off (%v): the check did not finish; run it again\n", err)
			return 1
		}
	}
	for _, p := range problems {
		fmt.Fprintln(stdout, p)
	}
	if len(problems) > 0 {
		fmt.Fprintf(stdout, "%s: %s\n", name, service.Plural(len(problems), "problem"))
		return 1
	}
	fmt.Fprintf(stdout, "%s: OK\n", name)
	return 0
}

// readCheckAnswer reads the bot's check answer; whole is true only when
// it ended with its last line ("OK" after no problems, or "PROBLEMS n"
// after exactly n).
func readCheckAnswer(r io.Reader) (problems []string, whole bool, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == checkOK {
			if len(problems) > 0 {
				return problems, false, errors.New(`"OK" after problems`)
			}
			return problems, true, nil
		}
		if v, ok := strings.CutPrefix(line, checkProblems+" "); ok {
			if v != fmt.Sprint(len(problems)) || len(problems) == 0 {
				return problems, false, fmt.Errorf("%d problems announced as %q", len(problems), v)
			}
			return problems, true, nil
		}
		problems = append(problems, line)
	}
	if err = sc.Err(); err == nil {
		err = io.ErrUnexpectedEOF
	}
	return problems, false, err
}
