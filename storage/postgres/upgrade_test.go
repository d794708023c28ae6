package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"tessera"
	"tessera/storage"
	"tessera/storage/postgres/pgtest"
)

// schema7 turns the new database at url into one of schema 7 holding
// games as that schema's code wrote them: records without RemindAt, and
// game_channels with every place a game was ever in. Of games 1 to 60 in
// channel c1, every tenth is in play with its own thread, every 25th an
// open challenge, the rest finished in their own threads; game 7, in
// play, moved from thread old-7 to new-7; game 11, in play, has no turn
// start; game 13, finished, has no channel.
func schema7(t *testing.T, url string) {
	t.Helper()
	s := open(t, url)
	ctx := t.Context()
	// Migration 9 (the ratings' ranks; no rating is stored here) is taken
	// back too, so that the database is schema 7 and both run again.
	if _, err := s.pool.Exec(ctx, `DROP TABLE rating_history, rating_counts, rating_bins;
		DROP INDEX ratings_rank, ratings_by_player;
		ALTER TABLE ratings DROP COLUMN neg_ordinal, DROP COLUMN neg_games, DROP COLUMN name;
		ALTER TABLE games DROP COLUMN remind_at, DROP COLUMN open_created;
		DELETE FROM schema_migrations WHERE version >= 8`); err != nil {
		t.Fatal(err)
	}
	t0 := time.Unix(1_700_000_000, 123).UTC()
	for id := uint64(1); id <= 60; id++ {
		g := &tessera.Game{ID: id, Version: 3, Status: tessera.StatusFinished, GuildID: "g1", ChannelID: "c1", ThreadID: fmt.Sprintf("th-%d", id),
			Players: []tessera.Player{{ID: "ana"}, {ID: "bo"}}, Created: t0, Updated: t0, TurnStart: t0.Add(time.Duration(id) * time.Minute)}
		switch {
		case id == 7:
			g.Status, g.ThreadID = tessera.StatusPlaying, "new-7"
		case id == 11:
			g.Status, g.TurnStart = tessera.StatusPlaying, time.Time{}
		case id == 13:
			g.ChannelID, g.ThreadID = "", ""
		case id%10 == 0:
			g.Status = tessera.StatusPlaying
		case id%25 == 1:
			g.Status, g.Open, g.ThreadID = tessera.StatusChallenge, true, ""
		}
		rec, err := json.Marshal(g)
		if err != nil || strings.Contains(string(rec), "remind_at") {
			t.Fatalf("%s %v", rec, err)
		}
		var open *string
		if g.Open {
			open = &g.GuildID
		}
		places := []string{g.ChannelID}
		if g.ThreadID != "" {
			places = append(places, g.ThreadID)
		}
		if id == 7 {
			places = append(places, "old-7")
		}
		if _, err := s.pool.Exec(ctx, `INSERT INTO games (id, version, open_guild, ai_turn, deadline, record) VALUES ($1, 3, $2, false, NULL, $3)`, int64(id), open, rec); err != nil {
			t.Fatal(err)
		}
		if _, err := s.pool.Exec(ctx, `INSERT INTO game_channels (channel_id, game_id) SELECT unnest($2::text[]), $1`, int64(id), places); err != nil {
			t.Fatal(err)
		}
		if _, err := s.pool.Exec(ctx, `INSERT INTO game_players (player_id, game_id) VALUES ('ana', $1), ('bo', $1)`, int64(id)); err != nil {
			t.Fatal(err)
		}
		if g.Status == tessera.StatusFinished {
			if _, err := s.pool.Exec(ctx, `INSERT INTO finished (player_id, ended, game_id) VALUES ('ana', $2, $1), ('bo', $2, $1)`, int64(id), storage.Ended(g)); err != nil {
				t.Fatal(err)
			}
		}
	}
	s.Close()
}

// activeIn7 are the games of schema7 active in c1.
func activeIn7() []uint64 {
	var out []uint64
	for id := uint64(1); id <= 60; id++ {
		if id == 7 || id == 11 || id%10 == 0 || id%25 == 1 {
			out = append(out, id)
		}
	}
	return out
}

// TestMigration8: a database of schema 7 gets its reminders and places
// from migration 8 (the record's RemindAt and the column: the start of
// the turn, to the second; the place rows of ended games and of places
// left are deleted), and is then what the adapter writes, as its check
// says. A connection killed in the middle of the migration leaves schema
// 7 untouched, and the next start applies it.
func TestMigration8(t *testing.T) {
	url := pgtest.Database(t)
	schema7(t, url)
	ctx := t.Context()
	rows := func(s *Store) (n int) {
		t.Helper()
		if err := s.pool.QueryRow(ctx, "SELECT count(*) FROM game_channels").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}

	migrationHook = func(v int) {
		if v == 8 {
			pgtest.Kill(t, url)
		}
	}
	if s, err := Open(ctx, url, storage.Options{}); err == nil {
		s.Close()
		migrationHook = nil
		t.Fatal("a migration whose connection was killed succeeded")
	}
	migrationHook = nil
	// As it was: schema 7, no column, every old row.
	if ro, err := Open(ctx, url, storage.Options{ReadOnly: true}); err == nil {
		ro.Close()
		t.Fatal("a read-only open after the killed migration succeeded")
	} else if !strings.Contains(err.Error(), "schema version 7") {
		t.Fatalf("read-only open after the killed migration: %v, want schema version 7", err)
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var hasColumn bool
	var places int
	if err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_name = 'games' AND column_name = 'remind_at'),
		(SELECT count(*) FROM game_channels)`).Scan(&hasColumn, &places); err != nil {
		t.Fatal(err)
	}
	if hasColumn || places != 60+60-1-3+1 {
		t.Fatalf("after the killed migration: column %v, %d place rows; want none and %d", hasColumn, places, 60+60-1-3+1)
	}

	s := open(t, url)
	if got := ids(t, s, "c1"); got != fmt.Sprint(activeIn7()) {
		t.Errorf("channel c1 after migration 8: %s, want %v", got, activeIn7())
	}
	for place, want := range map[string]string{"th-3": "[3]", "th-20": "[20]", "new-7": "[7]", "old-7": "[]", "": "[]"} {
		if got := ids(t, s, place); got != want {
			t.Errorf("place %q: %s, want %s", place, got, want)
		}
	}
	// The active games' c1, and every game's own thread but 13's and the
	// three challenges' (they have none).
	if n, want := rows(s), len(activeIn7())+60-1-3; n != want {
		t.Errorf("%d place rows after migration 8, want %d", n, want)
	}
	due, err := s.RemindersDue(ctx, time.Unix(1_800_000_000, 0), 100)
	if err != nil || fmt.Sprint(due) != "[11 7 10 20 30 40 50 60]" {
		t.Errorf("reminders due: %v %v, want game 11 (1970) first, then by turn start", due, err)
	}
	if gs, err := s.ExpiredChallenges(ctx, time.Unix(1_700_000_000, 123), 100); err != nil || len(gs) != 3 || gs[0].ID != 1 || gs[2].ID != 51 {
		t.Errorf("open challenges to expire after migration 8: %d (%v), want 1, 26 and 51", len(gs), err)
	}
	if gs, err := s.ExpiredChallenges(ctx, time.Unix(1_700_000_000, 122), 100); err != nil || len(gs) != 0 {
		t.Errorf("open challenges made a nanosecond after the cutoff: %d (%v), want none", len(gs), err)
	}
	g, err := s.Game(ctx, 20)
	if err != nil || !g.RemindAt.Equal(time.Unix(1_700_000_000+20*60, 0)) || g.Version != 3 || g.ThreadID != "th-20" || len(g.Players) != 2 {
		t.Errorf("game 20's record after the migration: %+v %v", g, err)
	}
	if g, _ := s.Game(ctx, 11); !g.RemindAt.Equal(time.Unix(0, 0)) {
		t.Errorf("game 11 (no turn start): remind at %s, want 1970", g.RemindAt)
	}
	if g, _ := s.Game(ctx, 3); !g.RemindAt.IsZero() {
		t.Errorf("finished game 3: remind at %s", g.RemindAt)
	}
	if errs := s.Check(ctx); len(errs) != 0 {
		t.Errorf("check after migration 8: %v", errs)
	}
	// The adapter's own writes keep the rules from here: game 20 ends
	// and leaves c1 and the reminders.
	if _, err := s.Modify(ctx, 20, func(g *tessera.Game, _ storage.Tx) error { g.Status = tessera.StatusFinished; return nil }); err != nil {
		t.Fatal(err)
	}
	if got := ids(t, s, "c1"); strings.Contains(got, " 20 ") {
		t.Errorf("c1 after game 20 ended: %s", got)
	}
	if errs := s.Check(ctx); len(errs) != 0 {
		t.Errorf("check after a write: %v", errs)
	}
}

func ids(t *testing.T, s *Store, place string) string {
	t.Helper()
	gs, err := s.ByChannel(t.Context(), place)
	if err != nil {
		t.Fatal(err)
	}
	out := []uint64{}
	for _, g := range gs {
		out = append(out, g.ID)
	}
	return fmt.Sprint(out)
}

// TestHotQueriesUseIndexes: the reads of a tick and of a command typed in
// a channel use their indexes on a database of 100,000 games (10,000 in
// play in 50 channels, each game with its own thread; records of 400
// bytes, as small as a game's when it starts), never a
// sequential scan of games or game_channels. The plans are logged (go
// test -v) for docs/scaling.md.
func TestHotQueriesUseIndexes(t *testing.T) {
	s := open(t, pgtest.Database(t))
	ctx := t.Context()
	if _, err := s.pool.Exec(ctx, `
		INSERT INTO games (id, version, open_guild, open_created, ai_turn, deadline, remind_at, record)
		SELECT i, 1, CASE WHEN i % 5000 = 1 THEN 'g' || (i % 4) END, CASE WHEN i % 5000 = 1 THEN 1700000000000000000 + i END, false,
		       CASE WHEN i % 10 = 0 THEN 1700000000000000000 + i::bigint * 1000000000 END,
		       CASE WHEN i % 10 = 0 THEN 1700000000000000000 + i::bigint * 1000000000 END,
		       convert_to('{"id":' || i || ',"pad":"' || repeat('x', 400) || '"}', 'UTF8')
		FROM generate_series(1, 100000) i;
		INSERT INTO game_channels (channel_id, game_id)
		SELECT 'th-' || i, i FROM generate_series(1, 100000) i
		UNION ALL SELECT 'c' || ((i / 10) % 50), i FROM generate_series(10, 100000, 10) i;
		INSERT INTO game_players (player_id, game_id)
		SELECT 'p' || (i % 5000), i FROM generate_series(1, 100000) i
		UNION ALL SELECT 'q' || (i % 5000), i FROM generate_series(1, 100000) i;
		ANALYZE game_players;
		ANALYZE games; ANALYZE game_channels`); err != nil {
		t.Fatal(err)
	}
	for _, q := range []struct {
		name, sql string
		args      []any
	}{
		{"RemindersDue (a tick, nothing due)", remindersDueSQL, []any{int64(1_600_000_000_000_000_000), 500}},
		{"RemindersDue (a tick, 500 due)", remindersDueSQL, []any{int64(1_800_000_000_000_000_000), 500}},
		{"ByChannel (a busy channel)", byChannelSQL, []any{"c0"}},
		{"ByChannel (a thread)", byChannelSQL, []any{"th-77"}},
		{"ByChannelPlayer (a chat line in a busy channel)", byChannelPlayerSQL, []any{"c0", "p7"}},
		{"Due (clocks)", "SELECT id FROM games WHERE deadline <= $1 ORDER BY deadline, id", []any{int64(1_600_000_000_000_000_000)}},
		{"OpenChallenges", "SELECT id, record FROM games WHERE open_guild = $1 ORDER BY id", []any{"g1"}},
		{"ExpiredChallenges (a tick, none)", expiredSQL, []any{int64(1_600_000_000_000_000_000), 500}},
	} {
		rows, err := s.pool.Query(ctx, "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) "+q.sql, q.args...)
		if err != nil {
			t.Fatal(err)
		}
		var plan []string
		for rows.Next() {
			var line string
			if err := rows.Scan(&line); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, line)
		}
		rows.Close()
		text := strings.Join(plan, "\n")
		t.Logf("%s: %s\n%s", q.name, q.sql, text)
		if strings.Contains(text, "Seq Scan on games") || strings.Contains(text, "Seq Scan on game_channels") {
			t.Errorf("%s scans a whole table:\n%s", q.name, text)
		}
	}
}

// TestCheckFindsIndexProblems: Check finds a remind_at or open_created
// column that disagrees with its record, a place row missing, and a
// place row that belongs to no game that should have it.
func TestCheckFindsIndexProblems(t *testing.T) {
	s := open(t, pgtest.Database(t))
	ctx := t.Context()
	g := &tessera.Game{Status: tessera.StatusPlaying, ChannelID: "c", RemindAt: time.Unix(1_700_000_000, 5), Players: []tessera.Player{{ID: "ana"}, {ID: "bo"}}}
	ch := &tessera.Game{Status: tessera.StatusChallenge, Open: true, GuildID: "g", ChannelID: "c", Created: time.Unix(1_700_000_000, 7), Players: []tessera.Player{{ID: "ana"}}}
	for _, x := range []*tessera.Game{g, ch} {
		if err := s.Create(ctx, x, ""); err != nil {
			t.Fatal(err)
		}
	}
	if errs := s.Check(ctx); len(errs) != 0 {
		t.Fatalf("check of a healthy database: %v", errs)
	}
	for _, sql := range []string{
		"UPDATE games SET remind_at = remind_at + 1 WHERE id = 1",
		"UPDATE games SET open_created = NULL WHERE id = 2",
		"DELETE FROM game_channels WHERE game_id = 2",
		"INSERT INTO game_channels (channel_id, game_id) VALUES ('elsewhere', 1)",
	} {
		if _, err := s.pool.Exec(ctx, sql); err != nil {
			t.Fatal(err)
		}
	}
	var text []string
	for _, e := range s.Check(ctx) {
		text = append(text, e.Error())
	}
	all := strings.Join(text, "\n")
	for _, want := range []string{
		"game 1: its remind_at column disagrees with its record",
		"game 2: its open_created column disagrees with its record",
		`game 2: missing from the place index under "c"`,
		`the place index lists game 1 under "elsewhere"`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("check did not say %q; it said:\n%s", want, all)
		}
	}
	if len(text) != 4 {
		t.Errorf("%d problems, want 4:\n%s", len(text), all)
	}
}
