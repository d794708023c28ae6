package postgres

// Check's part for the ratings: each row's order columns agree with its
// record (streamed, one row at a time), every rating has its history and
// every history its rating, each game's and each bin's count of players
// is its number of rows (set queries), and the indexes the reads rely on exist and are
// valid.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"

	"tessera"
	"tessera/storage"
)

// maxRatingProblems bounds what checkRatingIndexes reports.
const maxRatingProblems = 100

// checkRatingIndexes returns the problems of the ratings' tables, read in
// tx's snapshot.
func (s *Store) checkRatingIndexes(ctx context.Context, tx pgx.Tx) []error {
	var errs []error
	report := func(err error) bool {
		errs = append(errs, err)
		return len(errs) < maxRatingProblems
	}
	var valid int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
		WHERE c.relname IN ('ratings_rank', 'ratings_by_player') AND i.indisvalid`).Scan(&valid); err != nil {
		return append(errs, s.fail(err))
	}
	if valid != 2 && !report(fmt.Errorf("ratings: of the indexes ratings_rank and ratings_by_player, %d exist and are valid", valid)) {
		return errs
	}
	rows, err := tx.Query(ctx, "SELECT guild_id, game, user_id, rating, neg_ordinal, neg_games, name FROM ratings")
	if err != nil {
		return append(errs, s.fail(err))
	}
	for rows.Next() {
		var guild, game, user string
		var b, name []byte
		var negOrdinal float64
		var negGames int
		if err := rows.Scan(&guild, &game, &user, &b, &negOrdinal, &negGames, &name); err != nil {
			rows.Close()
			return append(errs, s.fail(err))
		}
		key := guild + "/" + game + "/" + user
		var r tessera.Rating
		if err := json.Unmarshal(b, &r); err != nil {
			if !report(&storage.DamagedError{Path: s.name, Reason: fmt.Sprintf("rating %s does not decode: %v", key, err)}) {
				break
			}
			continue
		}
		problem := ""
		switch {
		case r.GuildID != guild || r.Game != game || r.UserID != user:
			problem = "is stored under another key"
		case r.History != nil:
			problem = "carries its history in its row"
		case negOrdinal != -storage.Ordinal(r) || negGames != -r.Games || !bytes.Equal(name, []byte(r.Name)):
			problem = "has order columns that disagree with its record"
		}
		if problem != "" && !report(fmt.Errorf("ratings: rating %s %s", key, problem)) {
			break
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return append(errs, s.fail(err))
	}
	for _, sql := range []string{
		`SELECT guild_id || '/' || game || '/' || user_id, CASE WHEN r.user_id IS NULL THEN 'a history without its rating' ELSE 'a rating without its history' END
			FROM ratings r FULL JOIN rating_history h USING (guild_id, game, user_id)
			WHERE r.user_id IS NULL OR h.user_id IS NULL LIMIT 100`,
		`SELECT guild_id || '/' || game, format('%s players counted, %s rated', coalesce(c.players::text, 'no'), coalesce(a.n, 0))
			FROM (SELECT guild_id, game, count(*) AS n FROM ratings GROUP BY guild_id, game) a FULL JOIN rating_counts c USING (guild_id, game)
			WHERE a.n IS DISTINCT FROM c.players LIMIT 100`,
		`SELECT guild_id || '/' || game || '/bin ' || bin, format('%s players counted, %s rated', coalesce(c.players::text, 'no'), coalesce(a.n, 0))
			FROM (SELECT guild_id, game, floor(-neg_ordinal * 4)::bigint AS bin, count(*) AS n FROM ratings GROUP BY 1, 2, 3) a
			FULL JOIN (SELECT * FROM rating_bins WHERE players <> 0) c USING (guild_id, game, bin)
			WHERE a.n IS DISTINCT FROM c.players LIMIT 100`,
	} {
		rows, err := tx.Query(ctx, sql)
		if err != nil {
			return append(errs, s.fail(err))
		}
		for rows.Next() {
			var key, problem string
			if err := rows.Scan(&key, &problem); err != nil {
				rows.Close()
				return append(errs, s.fail(err))
			}
			if !report(fmt.Errorf("ratings: %s: %s", key, problem)) {
				break
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return append(errs, s.fail(err))
		}
	}
	rows, err = tx.Query(ctx, "SELECT guild_id || '/' || game || '/' || user_id, history FROM rating_history")
	if err != nil {
		return append(errs, s.fail(err))
	}
	defer rows.Close()
	for rows.Next() {
		var key string
		var h []byte
		if err := rows.Scan(&key, &h); err != nil {
			return append(errs, s.fail(err))
		}
		var points []tessera.RatingPoint
		if err := json.Unmarshal(h, &points); err != nil && !report(&storage.DamagedError{Path: s.name, Reason: fmt.Sprintf("the history of rating %s does not decode: %v", key, err)}) {
			break
		}
	}
	if err := rows.Err(); err != nil {
		return append(errs, s.fail(err))
	}
	return errs
}
