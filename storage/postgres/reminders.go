package postgres

// The reminders' index, the open challenges' expiry index and the place
// index (migration 0008): a game in play's RemindAt in games.remind_at
// and an open challenge's Created in games.open_created, each under a
// partial index, and the
// games active in each channel, with each thread's own game, in
// game_channels (storage.Places). putGame keeps both in the game's own
// transaction.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"tessera"
	"tessera/storage"
)

// remindColumn is g's games.remind_at: unix nanos, nil when it has no
// key in the reminders' index.
func remindColumn(g *tessera.Game) *int64 {
	if n, ok := storage.RemindNanos(g); ok {
		return &n
	}
	return nil
}

// openColumn is g's games.open_created: unix nanos, nil when it is not
// an open challenge.
func openColumn(g *tessera.Game) *int64 {
	if n, ok := storage.OpenNanos(g); ok {
		return &n
	}
	return nil
}

// expiredSQL reads the partial index games_open_created and stops at max.
const expiredSQL = "SELECT id, record FROM games WHERE open_created <= $1 ORDER BY open_created, id LIMIT $2"

// ExpiredChallenges lists the open challenges made at or before cutoff,
// oldest first (then by id), at most max.
func (s *Store) ExpiredChallenges(ctx context.Context, cutoff time.Time, max int) ([]*tessera.Game, error) {
	if max <= 0 {
		return nil, nil
	}
	return s.queryGames(ctx, s.pool, expiredSQL, cutoff.UnixNano(), max)
}

// queuePlaces queues the statements that keep g's rows in game_channels
// in step; old is the game as it was (nil when new), whose rows are the
// table's until now. Both statements use the primary key.
func queuePlaces(b *pgx.Batch, g, old *tessera.Game) {
	want := storage.Places(g)
	if old != nil {
		var gone []string
		for _, p := range storage.Places(old) {
			if !slices.Contains(want, p) {
				gone = append(gone, p)
			}
		}
		if len(gone) > 0 {
			b.Queue("DELETE FROM game_channels WHERE channel_id = ANY($1) AND game_id = $2", gone, int64(g.ID))
		}
	}
	if len(want) > 0 {
		b.Queue("INSERT INTO game_channels (channel_id, game_id) SELECT unnest($1::text[]), $2 ON CONFLICT DO NOTHING", want, int64(g.ID))
	}
}

// remindersDueSQL reads the partial index games_remind and stops at max.
const remindersDueSQL = "SELECT id FROM games WHERE remind_at <= $1 ORDER BY remind_at, id LIMIT $2"

// RemindersDue lists the games in play whose RemindAt is at or before
// now, earliest first (then by id), at most max.
func (s *Store) RemindersDue(ctx context.Context, now time.Time, max int) ([]uint64, error) {
	if max <= 0 {
		return nil, nil
	}
	return s.ids(ctx, remindersDueSQL, now.UnixNano(), max)
}

// checkActiveIndexes verifies, inside Check's read-only snapshot, the columns
// and rows of migration 0008 against the records, with set queries that
// stream (constant memory): every game's remind_at agrees with its
// record, every row of game_channels belongs to a game that should have
// it, and every place a game should have is there. At most 100 problems.
//
// The queries read the records with PostgreSQL's JSON, which fails on a
// record that does not decode: Check reports that record already (a
// DamagedError), so then these checks are left out, inside a savepoint
// that keeps the snapshot usable.
func checkActiveIndexes(ctx context.Context, tx pgx.Tx) []error {
	sp, err := tx.Begin(ctx)
	if err != nil {
		return []error{err}
	}
	errs := checkIndexRows(ctx, sp)
	var pgErr *pgconn.PgError
	for _, err := range errs {
		if errors.As(err, &pgErr) && pgErr.Code == "22P02" { // invalid input syntax for type json
			sp.Rollback(ctx)
			return nil
		}
	}
	if err := sp.Commit(ctx); err != nil { // releases the savepoint
		return append(errs, err)
	}
	return errs
}

func checkIndexRows(ctx context.Context, tx pgx.Tx) []error {
	const max = 100
	var errs []error
	// remind_at and open_created against the record, read by
	// PostgreSQL's JSON and compared here (the record's times have
	// nanoseconds, which SQL's timestamps lack).
	rows, err := tx.Query(ctx, `SELECT id, remind_at, open_created, coalesce(j ->> 'status', ''), coalesce(j ->> 'remind_at', ''),
			coalesce((j ->> 'open')::boolean, false), coalesce(j ->> 'created', '')
		FROM games, LATERAL (SELECT convert_from(record, 'UTF8')::jsonb AS j) r
		WHERE remind_at IS NOT NULL OR open_created IS NOT NULL OR j ->> 'status' IN ('playing', 'challenge') ORDER BY id`)
	if err != nil {
		return []error{err}
	}
	for rows.Next() && len(errs) < max {
		var id int64
		var remind, opened *int64
		var status, at, created string
		var open bool
		if err := rows.Scan(&id, &remind, &opened, &status, &at, &open, &created); err != nil {
			rows.Close()
			return append(errs, err)
		}
		g := tessera.Game{Status: tessera.Status(status), Open: open}
		for _, f := range []struct {
			text string
			t    *time.Time
		}{{at, &g.RemindAt}, {created, &g.Created}} {
			if f.text != "" {
				if *f.t, err = time.Parse(time.RFC3339Nano, f.text); err != nil {
					errs = append(errs, fmt.Errorf("game %d: %q in its record is not a time", id, f.text))
				}
			}
		}
		same := func(a, b *int64) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
		if !same(remindColumn(&g), remind) {
			errs = append(errs, fmt.Errorf("game %d: its remind_at column disagrees with its record", id))
		}
		if !same(openColumn(&g), opened) {
			errs = append(errs, fmt.Errorf("game %d: its open_created column disagrees with its record", id))
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return append(errs, err)
	}
	// The places every game should have (storage.Places, in SQL), then
	// the rows either way.
	const wanted = `WITH f AS (
			SELECT id, coalesce(j ->> 'status', '') AS status, coalesce(j ->> 'channel_id', '') AS channel, coalesce(j ->> 'thread_id', '') AS thread
			FROM games, LATERAL (SELECT convert_from(record, 'UTF8')::jsonb AS j) r),
		w AS (
			SELECT channel AS place, id FROM f WHERE channel <> '' AND status IN ('challenge', 'playing')
			UNION
			SELECT thread, id FROM f WHERE thread <> '' AND thread <> channel)`
	for _, q := range []struct{ sql, what string }{
		{wanted + ` SELECT w.place, w.id FROM w WHERE NOT EXISTS (SELECT 1 FROM game_channels c WHERE c.channel_id = w.place AND c.game_id = w.id) ORDER BY w.id LIMIT $1`,
			"game %[2]d: missing from the place index under %[1]q"},
		{wanted + ` SELECT c.channel_id, c.game_id FROM game_channels c WHERE NOT EXISTS (SELECT 1 FROM w WHERE w.place = c.channel_id AND w.id = c.game_id) ORDER BY c.game_id LIMIT $1`,
			"the place index lists game %[2]d under %[1]q, which is not its place"},
	} {
		rows, err := tx.Query(ctx, q.sql, max-len(errs))
		if err != nil {
			return append(errs, err)
		}
		for rows.Next() {
			var place string
			var id int64
			if err := rows.Scan(&place, &id); err != nil {
				rows.Close()
				return append(errs, err)
			}
			errs = append(errs, fmt.Errorf(q.what, place, id))
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return append(errs, err)
		}
		if len(errs) >= max {
			break
		}
	}
	return errs
}
