package postgres

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"tessera"
	"tessera/storage"
	"tessera/storage/postgres/pgtest"
)

// ratingRanksMigration is the number of the migration that moves the
// ratings' history apart and adds their order's columns.
func ratingRanksMigration(t *testing.T) int {
	t.Helper()
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if strings.HasSuffix(m.name, "_rating_ranks.sql") {
			return m.version
		}
	}
	t.Fatal("no migration named *_rating_ranks.sql")
	return 0
}

// migrateTo applies the migrations before version upto, as the tessera
// of that time left the database.
func migrateTo(t *testing.T, conn *pgx.Conn, upto int) {
	t.Helper()
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(t.Context(), `CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		t.Fatal(err)
	}
	for _, m := range ms[:upto-1] {
		if _, err := conn.Exec(t.Context(), m.sql); err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
		if _, err := conn.Exec(t.Context(), "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", m.version, m.name); err != nil {
			t.Fatal(err)
		}
	}
}

// oldRatings are ratings as the code before the migration stored them:
// their history inside the row. Equal ordinals, names that sort by
// bytes, a rating without history, numbers JSON writes with exponents.
func oldRatings() []tessera.Rating {
	var rs []tessera.Rating
	for i, u := range []string{"1", "2", "3", "4", "5", "6"} {
		r := tessera.Rating{GuildID: "g1", Game: "elemental", UserID: u, Name: []string{"Ana", "ana", "Ána", "Bo", "Ana", "b"}[i],
			Mu: 20 + float64(i%3) + 1e-9*float64(i), Sigma: 5 + 1.0/3, Games: 1 + i%2, Won: 1}
		for j := range r.Games {
			r.History = append(r.History, tessera.RatingPoint{GameID: uint64(10*i + j), At: time.Unix(int64(1000*i+j), int64(7*j)).UTC(), Mu: r.Mu, Sigma: 1e-7})
		}
		rs = append(rs, r)
	}
	rs = append(rs, tessera.Rating{GuildID: "g1", Game: "closure", UserID: "1", Name: "Ana", Mu: 30, Sigma: 3, Games: 1,
		History: []tessera.RatingPoint{{GameID: 99, At: time.Unix(5, 0).UTC(), Mu: 30, Sigma: 3}}})
	rs = append(rs, tessera.Rating{GuildID: "g2", Game: "elemental", UserID: "1", Name: "Ana", Mu: 25, Sigma: 8, Games: 1})
	return rs
}

// TestRatingRanksMigrated: the migration moves each rating's history
// apart, fills the order's columns exactly as the code computes them and
// counts the players; a migration killed half-way (its backend ended
// while it waits for a lock, the history table already filled) leaves
// the database as it was, and the next open migrates it.
func TestRatingRanksMigrated(t *testing.T) {
	url := pgtest.Database(t)
	ctx := t.Context()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	version := ratingRanksMigration(t)
	migrateTo(t, conn, version)
	rs := oldRatings()
	for _, r := range rs {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := conn.Exec(ctx, "INSERT INTO ratings (guild_id, game, user_id, rating) VALUES ($1, $2, $3, $4)", r.GuildID, r.Game, r.UserID, b); err != nil {
			t.Fatal(err)
		}
	}

	// A reader holds the ratings table: the migration fills the history,
	// then waits to alter the table, and is killed there.
	reader, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := reader.Exec(ctx, "SELECT 1 FROM ratings LIMIT 1"); err != nil {
		t.Fatal(err)
	}
	opened := make(chan error, 1)
	go func() {
		s, err := Open(context.WithoutCancel(ctx), url, storage.Options{})
		if err == nil {
			s.Close()
		}
		opened <- err
	}()
	pgtest.AwaitLockWait(ctx, t, url)
	pgtest.Kill(t, url) // the migration's backend, and the reader's
	if err := <-opened; err == nil {
		t.Fatal("an open whose migration was killed succeeded")
	}
	check, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer check.Close(context.WithoutCancel(ctx))
	var applied int
	var history bool
	if err := check.QueryRow(ctx, "SELECT max(version), to_regclass('rating_history') IS NOT NULL FROM schema_migrations").Scan(&applied, &history); err != nil {
		t.Fatal(err)
	}
	if applied != version-1 || history {
		t.Fatalf("after the killed migration: version %d, history table %v; want %d and none", applied, history, version-1)
	}

	s := open(t, url)
	all, err := s.AllRatings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	key := func(r tessera.Rating) string { return r.GuildID + "/" + r.Game + "/" + r.UserID }
	want := slices.Clone(rs)
	slices.SortFunc(want, func(a, b tessera.Rating) int { return strings.Compare(key(a), key(b)) })
	if !reflect.DeepEqual(all, want) {
		t.Fatalf("ratings after the migration:\n%+v\nwant\n%+v", all, want)
	}
	var elemental []tessera.Rating
	for _, r := range rs {
		if r.GuildID == "g1" && r.Game == "elemental" {
			r.History = nil
			elemental = append(elemental, r)
		}
	}
	slices.SortFunc(elemental, storage.CompareRank)
	page, n, err := s.Leaders(ctx, "g1", "elemental", 0, 20)
	if err != nil || !reflect.DeepEqual(page, elemental) || n != len(elemental) {
		t.Fatalf("leaderboard after the migration: %+v of %d (%v)\nwant %+v", page, n, err, elemental)
	}
	for i, r := range elemental {
		if place, _, err := s.RatingRank(ctx, "g1", "elemental", r.UserID); err != nil || place != i+1 {
			t.Errorf("place of %s: %d (%v), want %d", r.UserID, place, err, i+1)
		}
	}
	if errs := s.Check(ctx); len(errs) != 0 {
		t.Fatalf("check after the migration: %v", errs)
	}
}

// TestRatingQueriesUseIndexes: on a server with many rated players, the
// reads a player causes are index reads of what they return (EXPLAIN
// ANALYZE: no sequential scan of ratings or of their history; the rows
// read are the page's, or the entries above the place). The plans are logged (go test -v) for docs/scaling.md.
func TestRatingQueriesUseIndexes(t *testing.T) {
	url := pgtest.Database(t)
	s := open(t, url)
	ctx := t.Context()
	// 20,000 players of elemental in g1, 20,000 in g2, and closure: rows
	// written as PutRating writes them, in bulk.
	if _, err := s.pool.Exec(ctx, `INSERT INTO ratings (guild_id, game, user_id, rating, neg_ordinal, neg_games, name)
		SELECT g, game, 'u' || i, convert_to(json_build_object('guild_id', g, 'game', game, 'user_id', 'u' || i, 'name', 'p' || i,
			'mu', 25 + (i % 97) / 10.0, 'sigma', 3, 'games', 1 + i % 7)::text, 'UTF8'),
			-(25 + (i % 97) / 10.0 - 9), -(1 + i % 7), convert_to('p' || i, 'UTF8')
		FROM generate_series(1, 20000) i, (VALUES ('g1'), ('g2')) s(g), (VALUES ('elemental'), ('closure')) t(game)`); err != nil {
		t.Fatal(err)
	}
	for _, sql := range []string{
		"INSERT INTO rating_history SELECT guild_id, game, user_id, convert_to('[]', 'UTF8') FROM ratings",
		"INSERT INTO rating_counts SELECT guild_id, game, count(*) FROM ratings GROUP BY 1, 2",
		"INSERT INTO rating_bins SELECT guild_id, game, floor(-neg_ordinal * 4)::bigint, count(*) FROM ratings GROUP BY 1, 2, 3",
		"VACUUM ANALYZE ratings", "VACUUM ANALYZE rating_history", "VACUUM ANALYZE rating_counts", "VACUUM ANALYZE rating_bins",
	} {
		if _, err := s.pool.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	// u10050 is somewhere in the middle.
	place, n, err := s.RatingRank(ctx, "g1", "elemental", "u10050")
	if err != nil || place < 2 || n != 20000 {
		t.Fatalf("place of u10050: %d of %d (%v)", place, n, err)
	}
	for _, q := range []struct {
		name string
		sql  string
		args []any
	}{
		{"leaderboard (Leaders, first page)", leadersSQL, []any{"g1", "elemental", 20, 0}},
		{"leaderboard (Leaders, page 5 of the web's)", leadersSQL, []any{"g1", "elemental", 100, 400}},
		{"place (RatingRank)", rankSQL, []any{"g1", "elemental", "u10050"}},
		{"point read (PlayerRating)", "SELECT rating FROM ratings WHERE guild_id = $1 AND game = $2 AND user_id = $3", []any{"g1", "elemental", "u10050"}},
		{"a player's ratings (PlayerRatings)", withHistorySQL + "WHERE r.guild_id = $1 AND r.user_id = $2 ORDER BY r.game", []any{"g1", "u10050"}},
		{"history (RatingHistory)", "SELECT history FROM rating_history WHERE guild_id = $1 AND game = $2 AND user_id = $3", []any{"g1", "elemental", "u10050"}},
	} {
		rows, err := s.pool.Query(ctx, "EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF, SUMMARY OFF) "+q.sql, q.args...)
		if err != nil {
			t.Fatalf("%s: %v", q.name, err)
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
		t.Logf("%s, at place %d of %d:\n%s", q.name, place, n, text)
		// rating_counts has a row a server and game, rating_bins a few
		// hundred a server and game: pages the planner may read whole;
		// ratings and rating_history never.
		if strings.Contains(text, "Seq Scan on ratings") || strings.Contains(text, "Seq Scan on rating_history") {
			t.Errorf("%s scans a table:\n%s", q.name, text)
		}
	}
}
