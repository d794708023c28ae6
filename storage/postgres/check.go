package postgres

// Backup and Check: the administration tools' view of a PostgreSQL
// database. PostgreSQL keeps its own files consistent (checksums, the
// write-ahead log), so Check looks at what this adapter is responsible
// for: that every record decodes and that the indexed columns and index
// rows agree with the records they are derived from.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"

	"github.com/jackc/pgx/v5"

	"tessera"
	"tessera/storage"
)

// Backup writes a consistent copy of the whole database to w while the bot
// goes on: pg_dump's custom format (restore it with pg_restore, see
// docs/scaling). It needs pg_dump, PostgreSQL's client program, of the
// server's major version or newer.
func (s *Store) Backup(ctx context.Context, w io.Writer) (int64, error) {
	bin, err := pgDump()
	if err != nil {
		return 0, err
	}
	// The password goes in pg_dump's environment, never on its command
	// line, where every user of the machine can read it (ps).
	dsn, password := withoutPassword(libpqURL(s.url))
	cmd := exec.Command(bin, "--format=custom", "--no-owner", "--dbname="+dsn)
	cmd.Env = os.Environ()
	if password != "" {
		cmd.Env = append(cmd.Env, "PGPASSWORD="+password)
	}
	var stderr bytes.Buffer
	cw := &countWriter{w: w}
	cmd.Stdout, cmd.Stderr = cw, &stderr
	if err := cmd.Run(); err != nil {
		return cw.n, fmt.Errorf("backup of database %s: %s failed: %v: %s", s.name, bin, err, bytes.TrimSpace(stderr.Bytes()))
	}
	return cw.n, nil
}

// pgDump finds pg_dump on PATH or in Debian's versioned directories
// (newest first).
func pgDump() (string, error) {
	if p, err := exec.LookPath("pg_dump"); err == nil {
		return p, nil
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool {
		a, _ := strconv.Atoi(filepath.Base(filepath.Dir(dirs[i])))
		b, _ := strconv.Atoi(filepath.Base(filepath.Dir(dirs[j])))
		return a > b
	})
	for _, d := range dirs {
		p := filepath.Join(d, "pg_dump")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", errors.New("backup of a PostgreSQL database runs pg_dump, which was not found on PATH nor in /usr/lib/postgresql/*/bin: install PostgreSQL's client programs (apt-get install postgresql-client) or run pg_dump yourself")
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// Check verifies that every record decodes and that the indexes agree with
// the records, and returns every problem found (at most maxProblems). A
// record that does not decode is a *storage.DamagedError.
//
// Its memory does not grow with the database: the games are read as a
// stream, one row at a time, and the index rows are compared with the
// records by set queries that the server runs (checkIndexes), not one
// query a game.
func (s *Store) Check(ctx context.Context) []error {
	var errs []error
	report := func(err error) bool {
		errs = append(errs, err)
		return len(errs) < maxProblems
	}
	if err := s.checkSchema(ctx); err != nil {
		return []error{err}
	}
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return []error{s.fail(err)}
	}
	defer tx.Rollback(ctx)
	// One snapshot for every read below.
	if _, err := tx.Exec(ctx, "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY"); err != nil {
		return []error{s.fail(err)}
	}
	rows, err := tx.Query(ctx, "SELECT id, version, open_guild, ai_turn, deadline, record FROM games ORDER BY id")
	if err != nil {
		return []error{s.fail(err)}
	}
	undecoded := []int64{} // kept out of the set queries, which would fail on them
	for rows.Next() {
		var id, version int64
		var open *string
		var ai bool
		var deadline *int64
		var rec []byte
		if err := rows.Scan(&id, &version, &open, &ai, &deadline, &rec); err != nil {
			rows.Close()
			return append(errs, s.fail(err))
		}
		var g tessera.Game
		if err := json.Unmarshal(rec, &g); err != nil {
			undecoded = append(undecoded, id)
			if !report(&storage.DamagedError{Path: s.name, Reason: fmt.Sprintf("game %d: its record does not decode: %v", id, err)}) {
				break
			}
			continue
		}
		var problem string
		wantOpen := g.Open && g.Status == tessera.StatusChallenge
		switch {
		case g.ID != uint64(id):
			problem = fmt.Sprintf("its record says id %d", g.ID)
		case g.Version != uint64(version):
			problem = fmt.Sprintf("version %d beside a record of version %d", version, g.Version)
		case (open != nil) != wantOpen || open != nil && *open != g.GuildID:
			problem = "its open-challenge column disagrees with its record"
		case ai != (g.AITurn && g.Status == tessera.StatusPlaying):
			problem = "its AI-turn column disagrees with its record"
		case (deadline != nil) != (!g.Deadline.IsZero() && g.Status == tessera.StatusPlaying) || deadline != nil && *deadline != g.Deadline.UnixNano():
			problem = "its deadline column disagrees with its record"
		}
		if problem != "" && !report(fmt.Errorf("game %d: %s", id, problem)) {
			break
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return append(errs, s.fail(err))
	}
	if len(errs) >= maxProblems {
		return errs
	}
	if err := checkIndexes(ctx, tx, undecoded, report); err != nil {
		return append(errs, s.fail(err))
	}
	errs = append(errs, checkActiveIndexes(ctx, tx)...) // reminders.go: the reminders', expiry's and places' rows
	for _, table := range []struct{ name, sql string }{
		{"outbox", "SELECT seq::text, body FROM outbox"},
		{"users", "SELECT id, settings FROM users WHERE settings IS NOT NULL"},
		{"guilds", "SELECT id, settings FROM guilds"},
		{"events", "SELECT id::text, record FROM events"},
		{"analyses", "SELECT game_id::text, record FROM analyses"},
		{"ratings", "SELECT guild_id || '/' || game || '/' || user_id, rating FROM ratings"},
	} {
		rows, err := tx.Query(ctx, table.sql)
		if err != nil {
			return append(errs, s.fail(err))
		}
		for rows.Next() {
			var key string
			var b []byte
			if err := rows.Scan(&key, &b); err != nil {
				rows.Close()
				return append(errs, s.fail(err))
			}
			var v any
			if err := json.Unmarshal(b, &v); err != nil && !report(&storage.DamagedError{Path: s.name, Reason: fmt.Sprintf("%s %s does not decode: %v", table.name, key, err)}) {
				rows.Close()
				return errs
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return append(errs, s.fail(err))
		}
	}
	return append(errs, s.checkRatingIndexes(ctx, tx)...)
}

// maxProblems bounds the problems Check lists.
const maxProblems = 100

// missingIndexRowsSQL lists the games whose record says what an index row
// must exist for, where none does: each player in game_players, the
// channel and thread in game_channels, each player of a finished game in
// finished. The rows a record asks for are derived from it by the server
// (its JSON read as jsonb), and the server anti-joins them with the
// index: one pass, however many games. $1 is the games whose record does
// not decode (a jsonb cast would fail on them); $2 the most to list.
const missingIndexRowsSQL = `
WITH want AS MATERIALIZED (
	SELECT id, r->'players' AS players, r->>'status' = 'finished' AS finished
	FROM (SELECT id, convert_from(record, 'UTF8')::jsonb AS r FROM games WHERE id <> ALL($1)) AS d
), missing AS (
	SELECT w.id, 'players' AS kind FROM want w CROSS JOIN LATERAL jsonb_array_elements(w.players) p
	WHERE jsonb_typeof(w.players) = 'array' AND NOT EXISTS (SELECT 1 FROM game_players x WHERE x.game_id = w.id AND x.player_id = p->>'id')

	UNION ALL
	SELECT w.id, 'history' FROM want w CROSS JOIN LATERAL jsonb_array_elements(w.players) p
	WHERE w.finished AND jsonb_typeof(w.players) = 'array' AND NOT EXISTS (SELECT 1 FROM finished x WHERE x.game_id = w.id AND x.player_id = p->>'id')
)
SELECT id, count(*) FILTER (WHERE kind = 'players'), count(*) FILTER (WHERE kind = 'history')
FROM missing GROUP BY id ORDER BY id LIMIT $2`

// orphanIndexRowsSQL counts the index rows that name a game that does not
// exist (games are never deleted, so none should).
const orphanIndexRowsSQL = `
SELECT 'game_players', count(*) FROM game_players x WHERE NOT EXISTS (SELECT 1 FROM games g WHERE g.id = x.game_id)
UNION ALL
SELECT 'game_channels', count(*) FROM game_channels x WHERE NOT EXISTS (SELECT 1 FROM games g WHERE g.id = x.game_id)
UNION ALL
SELECT 'finished', count(*) FROM finished x WHERE NOT EXISTS (SELECT 1 FROM games g WHERE g.id = x.game_id)`

// checkIndexes compares the index rows with the records, in tx's snapshot,
// by set queries, and reports what disagrees.
func checkIndexes(ctx context.Context, tx pgx.Tx, undecoded []int64, report func(error) bool) error {
	rows, err := tx.Query(ctx, missingIndexRowsSQL, undecoded, maxProblems)
	if err != nil {
		return err
	}
	var id, players, history int64
	_, err = pgx.ForEachRow(rows, []any{&id, &players, &history}, func() error {
		if !report(fmt.Errorf("game %d: %d of its index rows are missing (players %d, history %d)", id, players+history, players, history)) {
			return errEnough
		}
		return nil
	})
	if err != nil && !errors.Is(err, errEnough) {
		return err
	}
	rows, err = tx.Query(ctx, orphanIndexRowsSQL)
	if err != nil {
		return err
	}
	var table string
	var n int64
	_, err = pgx.ForEachRow(rows, []any{&table, &n}, func() error {
		if n > 0 && !report(fmt.Errorf("%s: %d rows name a game that does not exist", table, n)) {
			return errEnough
		}
		return nil
	})
	if err != nil && !errors.Is(err, errEnough) {
		return err
	}
	return nil
}

// errEnough stops a listing once maxProblems are reported.
var errEnough = errors.New("enough problems")

// withoutPassword takes the password out of a URL.
func withoutPassword(raw string) (dsn, password string) {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw, ""
	}
	password, _ = u.User.Password()
	u.User = url.User(u.User.Username())
	return u.String(), password
}
