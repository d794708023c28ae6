package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"tessera"
	"tessera/service"
	"tessera/storage"
)

// The running bot holds the database's lock, so `tessera backup` and
// `tessera check` reach it through a Unix socket next to the database
// (DATABASE.sock, only for the same user); when no bot runs they open the
// file themselves.

func socketPath(db string) string { return db + ".sock" }

// serveAdmin answers "backup" (the database, streamed) and "check" (a
// report) on the socket until the listener closes.
func serveAdmin(st *storage.Store, db string, log *slog.Logger) (io.Closer, error) {
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
					if _, err := st.Backup(c); err != nil {
						log.Error("backup failed", "err", err)
					}
				case "check":
					problems := check(st)
					for _, p := range problems {
						fmt.Fprintln(c, p)
					}
					if len(problems) == 0 {
						fmt.Fprintln(c, "OK")
					}
				}
			}()
		}
	}()
	return ln, nil
}

// check verifies the file's structure and that every stored game replays.
func check(st *storage.Store) []string {
	var problems []string
	for _, err := range st.Check() {
		problems = append(problems, "structure: "+err.Error())
	}
	n := 0
	err := st.All(func(g *tessera.Game) error {
		n++
		if g.Status == tessera.StatusChallenge || g.Status == tessera.StatusDeclined {
			return nil
		}
		pos, err := service.Replay(g)
		switch {
		case err != nil:
			problems = append(problems, fmt.Sprintf("game %d: %v", g.ID, err))
		case g.Status == tessera.StatusFinished && !pos.Over():
			problems = append(problems, fmt.Sprintf("game %d: stored as finished but its record replays to a game in play", g.ID))
		case g.Status == tessera.StatusPlaying && pos.Over():
			problems = append(problems, fmt.Sprintf("game %d: stored as in play but its record replays to a finished game", g.ID))
		case g.Status == tessera.StatusPlaying && pos.ToMove() >= 0 && int(pos.ToMove()) < len(g.Players) && g.AITurn != g.Players[pos.ToMove()].IsAI():
			// The AI finds its moves by this mark: a wrong one is a move never made.
			problems = append(problems, fmt.Sprintf("game %d: the AI's turn is marked %v, but seat %d is to move", g.ID, g.AITurn, pos.ToMove()+1))
		}
		return nil
	})
	if err != nil {
		problems = append(problems, "reading games: "+err.Error())
	}
	return problems
}

// dbFlags reads the database path for backup and check.
func dbFlags(name string, args []string, stderr io.Writer, getenv func(string) string) (*flag.FlagSet, string, bool) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "", "configuration file (default $TESSERA_CONFIG, else config.yaml if present)")
	db := fs.String("db", "", "database file (default: the configured database)")
	if err := fs.Parse(args); err != nil {
		return nil, "", false
	}
	if *db != "" {
		return fs, *db, true
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
		return nil, "", false
	}
	return fs, cfg.Database, true
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

// openQuick opens the database unless another process holds it.
func openQuick(db string) (*storage.Store, error) {
	return storage.Open(db, storage.Options{LockTimeout: 200 * time.Millisecond})
}

// runBackup is `tessera backup PATH`: a consistent copy of the database,
// safe while the bot runs.
func runBackup(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	fs, db, ok := dbFlags("backup", args, stderr, getenv)
	if !ok {
		return 2
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: tessera backup [--db FILE] [--config FILE] PATH")
		return 2
	}
	dst := fs.Arg(0)
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".tessera-backup-*")
	if err != nil {
		fmt.Fprintln(stderr, "tessera:", err)
		return 1
	}
	defer os.Remove(tmp.Name())
	var n int64
	if st, err := openQuick(db); err == nil {
		n, err = st.Backup(tmp)
		st.Close()
		if err != nil {
			fmt.Fprintln(stderr, "tessera: backup:", err)
			return 1
		}
	} else {
		c, aerr := ask(db, "backup")
		if aerr != nil {
			fmt.Fprintf(stderr, "tessera: %v; and no running bot answers on %s (%v)\n", err, socketPath(db), aerr)
			return 1
		}
		n, err = io.Copy(tmp, c)
		c.Close()
		if err != nil || n == 0 {
			fmt.Fprintln(stderr, "tessera: backup from the running bot failed:", err)
			return 1
		}
	}
	if err := tmp.Sync(); err != nil {
		fmt.Fprintln(stderr, "tessera:", err)
		return 1
	}
	tmp.Close()
	if err := os.Rename(tmp.Name(), dst); err != nil {
		fmt.Fprintln(stderr, "tessera:", err)
		return 1
	}
	fmt.Fprintf(stdout, "backed up %s to %s (%d bytes)\n", db, dst, n)
	return 0
}

// runCheck is `tessera check`: the database's structure, and that every
// stored game replays. Exit status 1 when something is wrong.
func runCheck(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	_, db, ok := dbFlags("check", args, stderr, getenv)
	if !ok {
		return 2
	}
	if _, err := os.Stat(db); errors.Is(err, os.ErrNotExist) {
		fmt.Fprintf(stderr, "tessera: %s does not exist\n", db)
		return 2
	}
	var problems []string
	if st, err := openQuick(db); err == nil {
		problems = check(st)
		st.Close()
	} else {
		c, aerr := ask(db, "check")
		if aerr != nil {
			fmt.Fprintf(stderr, "tessera: %v; and no running bot answers on %s (%v)\n", err, socketPath(db), aerr)
			return 1
		}
		sc := bufio.NewScanner(c)
		for sc.Scan() {
			if sc.Text() != "OK" {
				problems = append(problems, sc.Text())
			}
		}
		c.Close()
	}
	for _, p := range problems {
		fmt.Fprintln(stdout, p)
	}
	if len(problems) > 0 {
		fmt.Fprintf(stdout, "%s: %d problems\n", db, len(problems))
		return 1
	}
	fmt.Fprintf(stdout, "%s: OK\n", db)
	return 0
}
