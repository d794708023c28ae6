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
// the records, and returns every problem found (at most 100). A record
// that does not decode is a *storage.DamagedError.
func (s *Store) Check(ctx context.Context) []error {
	var errs []error
	report := func(err error) bool {
		errs = append(errs, err)
		return len(errs) < 100
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
	var games []*tessera.Game
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
			if !report(&storage.DamagedError{Path: s.name, Reason: fmt.Sprintf("game %d: its record does not decode: %v", id, err)}) {
				break
			}
			continue
		}
		games = append(games, &g)
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
	// Every player and place of every game is indexed, and every finished
	// game is in its players' history.
	for _, g := range games {
		var missing int
		players := make([]string, len(g.Players))
		for i, p := range g.Players {
			players[i] = p.ID
		}
		places := []string{g.ChannelID}
		if g.ThreadID != "" {
			places = append(places, g.ThreadID)
		}
		err := tx.QueryRow(ctx, `SELECT
			(SELECT count(*) FROM unnest($2::text[]) p WHERE NOT EXISTS (SELECT 1 FROM game_players WHERE player_id = p AND game_id = $1)) +
			(SELECT count(*) FROM unnest($3::text[]) c WHERE NOT EXISTS (SELECT 1 FROM game_channels WHERE channel_id = c AND game_id = $1)) +
			(SELECT count(*) FROM unnest($2::text[]) p WHERE $4 AND NOT EXISTS (SELECT 1 FROM finished WHERE player_id = p AND game_id = $1))`,
			int64(g.ID), players, places, g.Status == tessera.StatusFinished).Scan(&missing)
		if err != nil {
			return append(errs, s.fail(err))
		}
		if missing > 0 && !report(fmt.Errorf("game %d: %d of its index rows (players, places, history) are missing", g.ID, missing)) {
			return errs
		}
	}
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
