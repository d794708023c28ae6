package postgres

// Ratings, one row per server, game and player, written in the
// transaction of the game's end that changed them.

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/jackc/pgx/v5"

	"tessera"
)

// Rating is the stored rating of user for game in guild; ok false when the
// player has none yet.
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
	var b []byte
	err = t.tx.QueryRow(ctx, "SELECT rating FROM ratings WHERE guild_id = $1 AND game = $2 AND user_id = $3", guild, game, user).Scan(&b)
	if errors.Is(err, pgx.ErrNoRows) {
		return r, false, nil
	}
	if err != nil {
		return r, false, err
	}
	err = json.Unmarshal(b, &r)
	return r, err == nil, err
}

// ratingLockClass is the first key of the ratings' advisory locks (the
// two-number lock keys never meet the migrations' one-number key).
const ratingLockClass int32 = 1

// PutRating stores r, replacing the rating of the same guild, game and
// user.
func (t *Tx) PutRating(ctx context.Context, r tessera.Rating) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = t.tx.Exec(ctx, `INSERT INTO ratings (guild_id, game, user_id, rating) VALUES ($1, $2, $3, $4)
		ON CONFLICT (guild_id, game, user_id) DO UPDATE SET rating = $4`, r.GuildID, r.Game, r.UserID, b)
	return err
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

// ratings reads the ratings a query selects.
func (s *Store) ratings(ctx context.Context, sql string, args ...any) ([]tessera.Rating, error) {
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, s.fail(err)
	}
	defer rows.Close()
	var out []tessera.Rating
	for rows.Next() {
		var b []byte
		if err := rows.Scan(&b); err != nil {
			return nil, s.fail(err)
		}
		var r tessera.Rating
		if err := json.Unmarshal(b, &r); err != nil {
			return nil, s.fail(err)
		}
		out = append(out, r)
	}
	return out, s.fail(rows.Err())
}

// Ratings are the ratings of everyone who played a rated game of game in
// guild (in key order, though the port promises none).
func (s *Store) Ratings(ctx context.Context, guild, game string) ([]tessera.Rating, error) {
	return s.ratings(ctx, "SELECT rating FROM ratings WHERE guild_id = $1 AND game = $2 ORDER BY user_id", guild, game)
}

// PlayerRatings are user's ratings in guild, one per game played rated.
func (s *Store) PlayerRatings(ctx context.Context, guild, user string) ([]tessera.Rating, error) {
	return s.ratings(ctx, "SELECT rating FROM ratings WHERE guild_id = $1 AND user_id = $2 ORDER BY game", guild, user)
}

// AllRatings are every stored rating.
func (s *Store) AllRatings(ctx context.Context) ([]tessera.Rating, error) {
	return s.ratings(ctx, "SELECT rating FROM ratings ORDER BY guild_id, game, user_id")
}

// ReplaceRatings replaces every stored rating by rs in one transaction.
func (s *Store) ReplaceRatings(ctx context.Context, rs []tessera.Rating) error {
	return s.inTx(ctx, func(t *Tx) error {
		if _, err := t.tx.Exec(ctx, "DELETE FROM ratings"); err != nil {
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
