package postgres

// Ratings, one row per server, game and player, written in the
// transaction of the game's end that changed them. The row holds the
// rating without its history (tessera.Rating as JSON) and the columns of
// the leaderboard's order; the history is a row of rating_history; each
// game's count of rated players is kept in rating_counts, and each bin's
// of a quarter of a point of ordinal in rating_bins (migration
// 0009_rating_ranks.sql). Every read a player causes is an index read of
// what it returns: see each query's EXPLAIN in docs/scaling.md.

import (
	"context"
	"encoding/json"
	"errors"
	"math"

	"github.com/jackc/pgx/v5"

	"tessera"
	"tessera/storage"
)

// Rating is the stored rating of user for game in guild, with its
// history; ok false when the player has none yet.
//
// A rating is read to be changed (the game's end reads each player's and
// writes the next), so the read takes a lock on that player's rating until
// the transaction ends: two games of one player ending at once in two
// processes then change the rating one after the other, where two plain
// reads would both start from the old rating and one change would be lost.
// The lock is an advisory one on the key, so that it also covers a player
// who has no rating row yet; it is taken before the read, whose snapshot
// then sees the other game's committed change.
func (t *Tx) Rating(ctx context.Context, guild, game, user string) (r tessera.Rating, ok bool, err error) {
	if _, err := t.tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1, hashtext($2))", ratingLockClass, guild+"/"+game+"/"+user); err != nil {
		return r, false, err
	}
	var b, h []byte
	err = t.tx.QueryRow(ctx, `SELECT r.rating, h.history FROM ratings r LEFT JOIN rating_history h USING (guild_id, game, user_id)
		WHERE r.guild_id = $1 AND r.game = $2 AND r.user_id = $3`, guild, game, user).Scan(&b, &h)
	if errors.Is(err, pgx.ErrNoRows) {
		return r, false, nil
	}
	if err != nil {
		return r, false, err
	}
	r, err = decodeRating(b, h)
	return r, err == nil, err
}

// decodeRating decodes a row and its history (nil: none read).
func decodeRating(row, history []byte) (tessera.Rating, error) {
	var r tessera.Rating
	if err := json.Unmarshal(row, &r); err != nil {
		return r, err
	}
	r.History = nil
	if history != nil {
		if err := json.Unmarshal(history, &r.History); err != nil {
			return r, err
		}
	}
	return r, nil
}

// ratingLockClass is the first key of the ratings' advisory locks (the
// two-number lock keys never meet the migrations' one-number key).
const ratingLockClass int32 = 1

// putRatingSQL writes a rating's row and its history in one statement,
// and gives the row's ordinal before (NULL: a new row). Every part of the
// statement reads the snapshot from before it.
const putRatingSQL = `WITH old AS (
	SELECT neg_ordinal FROM ratings WHERE guild_id = $1 AND game = $2 AND user_id = $3
), h AS (
	INSERT INTO rating_history (guild_id, game, user_id, history) VALUES ($1, $2, $3, $8)
	ON CONFLICT (guild_id, game, user_id) DO UPDATE SET history = $8
), up AS (
	INSERT INTO ratings (guild_id, game, user_id, rating, neg_ordinal, neg_games, name) VALUES ($1, $2, $3, $4, $5, $6, $7)
	ON CONFLICT (guild_id, game, user_id) DO UPDATE SET rating = $4, neg_ordinal = $5, neg_games = $6, name = $7
	RETURNING 1
)
SELECT (SELECT neg_ordinal FROM old) FROM up`

// countRatingSQL counts a new row in its game's count of players.
const countRatingSQL = `INSERT INTO rating_counts (guild_id, game, players) VALUES ($1, $2, 1)
ON CONFLICT (guild_id, game) DO UPDATE SET players = rating_counts.players + 1`

// binRatingSQL changes the count of players of a bin by $4.
const binRatingSQL = `INSERT INTO rating_bins (guild_id, game, bin, players) VALUES ($1, $2, $3, $4)
ON CONFLICT (guild_id, game, bin) DO UPDATE SET players = rating_bins.players + $4`

// ordinalBin is the bin of an ordinal: floor(4 x ordinal), as the
// migration and rankSQL compute it (exactly: 4 x is exact).
func ordinalBin(ordinal float64) int64 {
	return int64(math.Floor(ordinal * 4))
}

// PutRating stores r, replacing the rating of the same guild, game and
// user. The counts a new row or a new bin change are queued with the
// transaction's last statements (as an announcement is, see Enqueue):
// their rows, which every game's end in the same server and game may
// write, are then locked only for the moment before the commit, never
// while the transaction waits for another's rating rows.
func (t *Tx) PutRating(ctx context.Context, r tessera.Rating) error {
	h, err := json.Marshal(r.History)
	if err != nil {
		return err
	}
	row := r
	row.History = nil
	b, err := json.Marshal(row)
	if err != nil {
		return err
	}
	ordinal := storage.Ordinal(r)
	var was *float64
	if err := t.tx.QueryRow(ctx, putRatingSQL, r.GuildID, r.Game, r.UserID, b, -ordinal, -r.Games, []byte(r.Name), h).Scan(&was); err != nil {
		return err
	}
	if t.queued == nil {
		t.queued = &pgx.Batch{}
	}
	bin := ordinalBin(ordinal)
	switch {
	case was == nil:
		t.queued.Queue(countRatingSQL, r.GuildID, r.Game)
		t.queued.Queue(binRatingSQL, r.GuildID, r.Game, bin, 1)
	case ordinalBin(-*was) != bin:
		t.queued.Queue(binRatingSQL, r.GuildID, r.Game, ordinalBin(-*was), -1)
		t.queued.Queue(binRatingSQL, r.GuildID, r.Game, bin, 1)
	}
	return nil
}

// NextRatingSeq gives the next number of the order in which games change
// ratings. It is taken after the players' ratings are read (and locked,
// see Rating), so a game that changed a player's rating after another did
// is numbered after it; the counter row stays locked until the commit, so
// the numbers are also the commits' order.
func (t *Tx) NextRatingSeq(ctx context.Context) (uint64, error) {
	var v int64
	err := t.tx.QueryRow(ctx, "UPDATE counters SET value = value + 1 WHERE name = 'ratings' RETURNING value").Scan(&v)
	return uint64(v), err
}

// ratings reads the ratings a query selects: rows of the rating and its
// history (NULL: none read).
func ratings(ctx context.Context, q interface {
	Query(context.Context, string, ...any) (pgx.Rows, error)
}, sql string, args ...any) ([]tessera.Rating, error) {
	rows, err := q.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []tessera.Rating
	for rows.Next() {
		var b, h []byte
		if err := rows.Scan(&b, &h); err != nil {
			return nil, err
		}
		r, err := decodeRating(b, h)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

const withHistorySQL = `SELECT r.rating, h.history FROM ratings r LEFT JOIN rating_history h USING (guild_id, game, user_id) `

// Ratings are the ratings of everyone who played a rated game of game in
// guild, with their history (in key order, though the port promises none).
func (s *Store) Ratings(ctx context.Context, guild, game string) ([]tessera.Rating, error) {
	rs, err := ratings(ctx, s.pool, withHistorySQL+"WHERE r.guild_id = $1 AND r.game = $2 ORDER BY r.user_id", guild, game)
	return rs, s.fail(err)
}

// PlayerRatings are user's ratings in guild, one per game played rated,
// with their history (the index ratings_by_player).
func (s *Store) PlayerRatings(ctx context.Context, guild, user string) ([]tessera.Rating, error) {
	rs, err := ratings(ctx, s.pool, withHistorySQL+"WHERE r.guild_id = $1 AND r.user_id = $2 ORDER BY r.game", guild, user)
	return rs, s.fail(err)
}

// PlayerRating is user's rating for game in guild without its history.
func (s *Store) PlayerRating(ctx context.Context, guild, game, user string) (r tessera.Rating, ok bool, err error) {
	var b []byte
	err = s.pool.QueryRow(ctx, "SELECT rating FROM ratings WHERE guild_id = $1 AND game = $2 AND user_id = $3", guild, game, user).Scan(&b)
	if errors.Is(err, pgx.ErrNoRows) {
		return r, false, nil
	}
	if err != nil {
		return r, false, s.fail(err)
	}
	r, err = decodeRating(b, nil)
	return r, err == nil, s.fail(err)
}

// RatingHistory is user's rating for game in guild after each rated game.
func (s *Store) RatingHistory(ctx context.Context, guild, game, user string) ([]tessera.RatingPoint, error) {
	var h []byte
	err := s.pool.QueryRow(ctx, "SELECT history FROM rating_history WHERE guild_id = $1 AND game = $2 AND user_id = $3", guild, game, user).Scan(&h)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, s.fail(err)
	}
	var out []tessera.RatingPoint
	return out, s.fail(json.Unmarshal(h, &out))
}

// leadersSQL is a page of a leaderboard and the count of its players, in
// one statement (one snapshot): an ordered read of the index ratings_rank
// with a limit, and one row of rating_counts. With no row in the page it
// still gives the count, beside a NULL rating.
const leadersSQL = `SELECT c.players, p.rating
FROM (SELECT coalesce((SELECT players FROM rating_counts WHERE guild_id = $1 AND game = $2), 0) AS players) c
LEFT JOIN LATERAL (SELECT rating FROM ratings WHERE guild_id = $1 AND game = $2
	ORDER BY neg_ordinal, neg_games, name, user_id LIMIT $3 OFFSET $4) p ON true`

// Leaders are the ratings of game in guild in the leaderboard's order,
// without history.
func (s *Store) Leaders(ctx context.Context, guild, game string, skip, limit int) (rs []tessera.Rating, rated int, err error) {
	rows, err := s.pool.Query(ctx, leadersSQL, guild, game, max(limit, 0), max(skip, 0))
	if err != nil {
		return nil, 0, s.fail(err)
	}
	defer rows.Close()
	for rows.Next() {
		var b []byte
		if err := rows.Scan(&rated, &b); err != nil {
			return nil, 0, s.fail(err)
		}
		if b == nil {
			continue
		}
		r, err := decodeRating(b, nil)
		if err != nil {
			return nil, 0, s.fail(err)
		}
		rs = append(rs, r)
	}
	return rs, rated, s.fail(rows.Err())
}

// rankSQL is a player's place and the count of players: the players of
// the bins above the player's (rating_bins: a few hundred rows at most),
// plus the entries of the index ratings_rank in the player's own bin
// before the player's, counted by an index-only scan bounded by the bin
// (a row comparison in the index's own order), and one row of
// rating_counts. Place 0: no rating.
const rankSQL = `SELECT coalesce((SELECT players FROM rating_counts WHERE guild_id = $1 AND game = $2), 0),
	coalesce((SELECT 1
		+ (SELECT coalesce(sum(b.players), 0) FROM rating_bins b WHERE b.guild_id = $1 AND b.game = $2 AND b.bin > floor(-m.neg_ordinal * 4)::bigint)::bigint
		+ (SELECT count(*) FROM ratings o WHERE o.guild_id = $1 AND o.game = $2
			AND o.neg_ordinal > -(floor(-m.neg_ordinal * 4) + 1) / 4
			AND (o.neg_ordinal, o.neg_games, o.name, o.user_id) < (m.neg_ordinal, m.neg_games, m.name, m.user_id))
		FROM ratings m WHERE m.guild_id = $1 AND m.game = $2 AND m.user_id = $3), 0)`

// RatingRank is user's place for game in guild.
func (s *Store) RatingRank(ctx context.Context, guild, game, user string) (place, rated int, err error) {
	err = s.pool.QueryRow(ctx, rankSQL, guild, game, user).Scan(&rated, &place)
	return place, rated, s.fail(err)
}

// AllRatings are every stored rating, with its history.
func (s *Store) AllRatings(ctx context.Context) ([]tessera.Rating, error) {
	rs, err := ratings(ctx, s.pool, withHistorySQL+"ORDER BY r.guild_id, r.game, r.user_id")
	return rs, s.fail(err)
}

// ReplaceRatings replaces every stored rating by rs in one transaction.
// It takes the ratings counter's row first, as a game's end does before
// writing ratings, so the two wait for each other instead of deadlocking.
func (s *Store) ReplaceRatings(ctx context.Context, rs []tessera.Rating) error {
	return s.inTx(ctx, func(t *Tx) error {
		if _, err := t.tx.Exec(ctx, "SELECT value FROM counters WHERE name = 'ratings' FOR UPDATE"); err != nil {
			return s.fail(err)
		}
		if _, err := t.tx.Exec(ctx, "DELETE FROM ratings; DELETE FROM rating_history; DELETE FROM rating_counts; DELETE FROM rating_bins"); err != nil {
			return s.fail(err)
		}
		for _, r := range rs {
			if err := t.PutRating(ctx, r); err != nil {
				return s.fail(err)
			}
		}
		return nil
	})
}

// dumpRatings gives Dump every rating with its history, in key order.
func (s *Store) dumpRatings(ctx context.Context, tx pgx.Tx, put func(storage.Record) error) error {
	rows, err := tx.Query(ctx, withHistorySQL+"ORDER BY r.guild_id, r.game, r.user_id")
	if err != nil {
		return s.fail(err)
	}
	defer rows.Close()
	for rows.Next() {
		var b, h []byte
		if err := rows.Scan(&b, &h); err != nil {
			return s.fail(err)
		}
		r, err := decodeRating(b, h)
		if err != nil {
			return &storage.DamagedError{Path: s.name, Reason: "a rating does not decode: " + err.Error()}
		}
		if err := put(storage.Record{Rating: &r}); err != nil {
			return err
		}
	}
	return s.fail(rows.Err())
}
