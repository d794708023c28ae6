package postgres

// Games: their rows, the indexes beside them, and the changes that write
// them. Every write goes through putGame, which derives the indexed
// columns and index rows from the record in the same transaction, as the
// bbolt adapter's putGame keeps its buckets.

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"tessera"
	"tessera/storage"
)

// nextGameID takes the next game id inside the transaction: a counter row
// (a rolled-back create gives its id back, as bbolt's sequence does),
// never below an id already stored (games copied in by tessera migrate).
func (t *Tx) nextGameID(ctx context.Context) (uint64, error) {
	return t.nextID(ctx, "games")
}

// nextID takes the next id of table (games, events) from its counter row
// in the transaction, never below an id stored in table. table is one of
// this package's own names, never input.
func (t *Tx) nextID(ctx context.Context, table string) (uint64, error) {
	var id int64
	err := t.tx.QueryRow(ctx, `UPDATE counters
		SET value = greatest(value, (SELECT coalesce(max(id), 0) FROM `+table+`)) + 1
		WHERE name = $1 RETURNING value`, table).Scan(&id)
	return uint64(id), err
}

// lockGame reads a game and locks its row until the transaction ends, so
// that a racing change in any process waits and then sees this one's.
func (t *Tx) lockGame(ctx context.Context, id uint64) (*tessera.Game, error) {
	var b []byte
	err := t.tx.QueryRow(ctx, "SELECT record FROM games WHERE id = $1 FOR UPDATE", int64(id)).Scan(&b)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, storage.ErrGameNotFound
	}
	if err != nil {
		return nil, err
	}
	return t.s.decodeGame(int64(id), b)
}

// putGame writes a game and keeps its indexes in step; old is the game as
// it was (nil when new). The statements go in one round trip.
func (t *Tx) putGame(ctx context.Context, g, old *tessera.Game) error {
	rec, err := json.Marshal(g)
	if err != nil {
		return err
	}
	var openGuild *string
	if g.Open && g.Status == tessera.StatusChallenge {
		openGuild = &g.GuildID
	}
	var deadline *int64
	if !g.Deadline.IsZero() && g.Status == tessera.StatusPlaying {
		d := g.Deadline.UnixNano()
		deadline = &d
	}
	id := int64(g.ID)
	b := &pgx.Batch{}
	b.Queue(`INSERT INTO games (id, version, open_guild, ai_turn, deadline, remind_at, open_created, record) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
		ON CONFLICT (id) DO UPDATE SET version = $2, open_guild = $3, ai_turn = $4, deadline = $5, remind_at = $6, open_created = $7, record = $8`,
		id, int64(g.Version), openGuild, g.AITurn && g.Status == tessera.StatusPlaying, deadline, remindColumn(g), openColumn(g), rec)
	players := make([]string, len(g.Players))
	for i, p := range g.Players {
		players[i] = p.ID
	}
	b.Queue("INSERT INTO game_players (player_id, game_id) SELECT unnest($1::text[]), $2 ON CONFLICT DO NOTHING", players, id)
	if old != nil { // a player who left an open challenge is no longer in it
		var left []string
		for _, p := range old.Players {
			if !g.HasPlayer(p.ID) {
				left = append(left, p.ID)
			}
		}
		if len(left) > 0 {
			b.Queue("DELETE FROM game_players WHERE game_id = $1 AND player_id = ANY($2)", id, left)
		}
	}
	queuePlaces(b, g, old) // reminders.go
	if g.Status == tessera.StatusFinished {
		b.Queue("INSERT INTO finished (player_id, ended, game_id) SELECT unnest($1::text[]), $2, $3 ON CONFLICT DO NOTHING",
			players, storage.Ended(g), id)
	}
	return t.send(ctx, b)
}

// markHandled records an interaction id; storage.ErrDuplicate if it was
// already (by any process: the id is the primary key, and a racing insert
// of the same id waits for the other transaction's outcome).
func (t *Tx) markHandled(ctx context.Context, interactionID string, now time.Time) error {
	if interactionID == "" {
		return nil
	}
	tag, err := t.tx.Exec(ctx, "INSERT INTO handled (interaction_id, at) VALUES ($1, $2) ON CONFLICT DO NOTHING", interactionID, now.Unix())
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return storage.ErrDuplicate
	}
	return nil
}

// Create stores a new game, giving it the next id, and marks the
// interaction that created it as handled.
func (s *Store) Create(ctx context.Context, g *tessera.Game, interactionID string) error {
	return s.CreateWith(ctx, g, interactionID, nil)
}

// CreateWith is Create with a change made in the same transaction once the
// game has its id. An error from change aborts everything.
func (s *Store) CreateWith(ctx context.Context, g *tessera.Game, interactionID string, change func(g *tessera.Game, tx storage.Tx) error) error {
	return s.inTx(ctx, func(t *Tx) error {
		if err := t.markHandled(ctx, interactionID, g.Created); err != nil {
			return err
		}
		id, err := t.nextGameID(ctx)
		if err != nil {
			return s.fail(err)
		}
		g.ID, g.Version = id, 1
		if change != nil {
			if err := change(g, t); err != nil {
				return err
			}
		}
		return s.fail(t.putGame(ctx, g, nil))
	})
}

// CreateLinked stores a new game made from another one (a rematch) and
// records its id in that one's Rematch, in one transaction; the other
// game's row is locked first, so two clicks in two processes make one.
func (s *Store) CreateLinked(ctx context.Context, g *tessera.Game, interactionID string, fromID uint64, link func(from *tessera.Game) error) error {
	return s.inTx(ctx, func(t *Tx) error {
		if err := t.markHandled(ctx, interactionID, g.Created); err != nil {
			return err
		}
		from, err := t.lockGame(ctx, fromID)
		if err != nil {
			return err
		}
		old := *from
		if err := link(from); err != nil {
			return err
		}
		id, err := t.nextGameID(ctx)
		if err != nil {
			return s.fail(err)
		}
		g.ID, g.Version = id, 1
		from.Rematch = id
		if err := t.putGame(ctx, from, &old); err != nil {
			return s.fail(err)
		}
		return s.fail(t.putGame(ctx, g, nil))
	})
}

// Game loads a game.
func (s *Store) Game(ctx context.Context, id uint64) (*tessera.Game, error) {
	var b []byte
	err := s.pool.QueryRow(ctx, "SELECT record FROM games WHERE id = $1", int64(id)).Scan(&b)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, storage.ErrGameNotFound
	}
	if err != nil {
		return nil, s.fail(err)
	}
	return s.decodeGame(int64(id), b)
}

// Update changes a game in one transaction: it locks and loads the game,
// checks that its version is still version (else storage.ErrConflict),
// marks the interaction handled (else storage.ErrDuplicate), calls change,
// bumps the version and writes. An error from change aborts everything,
// including what it enqueued.
func (s *Store) Update(ctx context.Context, id, version uint64, interactionID string, change func(g *tessera.Game, tx storage.Tx) error) (*tessera.Game, error) {
	var out *tessera.Game
	err := s.inTx(ctx, func(t *Tx) error {
		g, err := t.lockGame(ctx, id)
		if err != nil {
			return s.failGame(err)
		}
		if g.Version != version {
			return storage.ErrConflict
		}
		if err := t.markHandled(ctx, interactionID, time.Now()); err != nil {
			return s.failGame(err)
		}
		old := *g
		if err := change(g, t); err != nil {
			return err
		}
		g.Version++
		if err := t.putGame(ctx, g, &old); err != nil {
			return s.fail(err)
		}
		out = g
		return nil
	})
	return out, err
}

// failGame passes the port's own errors through and names the database in
// a driver's.
func (s *Store) failGame(err error) error {
	var damaged *storage.DamagedError
	switch {
	case errors.Is(err, storage.ErrNotFound), errors.Is(err, storage.ErrDuplicate), errors.Is(err, storage.ErrConflict):
		return err
	case errors.As(err, &damaged):
		damaged.Path = s.name
		return err
	}
	return s.fail(err)
}

// Modify changes what a game's record does not derive from (its place,
// status message, reminders) without a version check or bump.
func (s *Store) Modify(ctx context.Context, id uint64, change func(g *tessera.Game, tx storage.Tx) error) (*tessera.Game, error) {
	var out *tessera.Game
	err := s.inTx(ctx, func(t *Tx) error {
		g, err := t.lockGame(ctx, id)
		if err != nil {
			return s.failGame(err)
		}
		old := *g
		if err := change(g, t); err != nil {
			return err
		}
		if err := t.putGame(ctx, g, &old); err != nil {
			return s.fail(err)
		}
		out = g
		return nil
	})
	return out, err
}

// ModifyGame changes a game inside a user update; like Store.Modify it
// neither checks nor bumps the version.
func (t *Tx) ModifyGame(ctx context.Context, id uint64, change func(g *tessera.Game) error) error {
	g, err := t.lockGame(ctx, id)
	if err != nil {
		return err
	}
	old := *g
	if err := change(g); err != nil {
		return err
	}
	return t.putGame(ctx, g, &old)
}

// Games lists a user's games inside the transaction.
func (t *Tx) Games(ctx context.Context, userID string) ([]*tessera.Game, error) {
	return t.s.queryGames(ctx, t.tx, byPlayerSQL, userID)
}

const byPlayerSQL = "SELECT g.id, g.record FROM game_players p JOIN games g ON g.id = p.game_id WHERE p.player_id = $1 ORDER BY g.id"

// ByPlayer lists a player's games, oldest first.
func (s *Store) ByPlayer(ctx context.Context, userID string) ([]*tessera.Game, error) {
	return s.queryGames(ctx, s.pool, byPlayerSQL, userID)
}

// ByChannel lists the challenges and games in play of a channel or
// thread, and the game whose own thread it is, oldest first: game_channels
// holds only those (reminders.go), read by its primary key.
func (s *Store) ByChannel(ctx context.Context, channelID string) ([]*tessera.Game, error) {
	return s.queryGames(ctx, s.pool, byChannelSQL, channelID)
}

// ByChannelPlayer lists the games of ByChannel(channelID) in which userID
// has a seat, oldest first: the two indexes are joined on their primary
// keys, and only the games both list are read.
func (s *Store) ByChannelPlayer(ctx context.Context, channelID, userID string) ([]*tessera.Game, error) {
	return s.queryGames(ctx, s.pool, byChannelPlayerSQL, channelID, userID)
}

const byChannelPlayerSQL = `SELECT g.id, g.record FROM game_channels c
	JOIN game_players p ON p.game_id = c.game_id AND p.player_id = $2
	JOIN games g ON g.id = c.game_id
	WHERE c.channel_id = $1 ORDER BY g.id`

const byChannelSQL = "SELECT g.id, g.record FROM game_channels c JOIN games g ON g.id = c.game_id WHERE c.channel_id = $1 ORDER BY g.id"

// OpenChallenges lists the open challenges of a server inside a
// transaction. It first takes an advisory lock on the server's list until
// the transaction ends, so that two processes counting one server's
// challenges before creating one do it one after the other; the query,
// run after the lock, sees the other's committed challenge.
func (t *Tx) OpenChallenges(ctx context.Context, guildID string) ([]*tessera.Game, error) {
	if _, err := t.tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1, hashtext($2))", openLockClass, guildID); err != nil {
		return nil, err
	}
	return t.s.queryGames(ctx, t.tx, "SELECT id, record FROM games WHERE open_guild = $1 ORDER BY id", guildID)
}

// openLockClass is the first key of the open challenges' advisory locks
// (ratingLockClass is 1).
const openLockClass int32 = 2

// OpenChallenges lists the open challenges of a server, oldest first.
func (s *Store) OpenChallenges(ctx context.Context, guildID string) ([]*tessera.Game, error) {
	return s.queryGames(ctx, s.pool, "SELECT id, record FROM games WHERE open_guild = $1 ORDER BY id", guildID)
}

// NewestChallenges lists a server's open challenges newest first, at most
// max, and how many it has: a backward scan of games_open for the page,
// an index-only count for the total.
func (s *Store) NewestChallenges(ctx context.Context, guildID string, max int) (page []*tessera.Game, total int, err error) {
	if err := s.pool.QueryRow(ctx, "SELECT count(*) FROM games WHERE open_guild = $1", guildID).Scan(&total); err != nil {
		return nil, 0, s.fail(err)
	}
	if total == 0 || max <= 0 {
		return nil, total, nil
	}
	page, err = s.queryGames(ctx, s.pool, "SELECT id, record FROM games WHERE open_guild = $1 ORDER BY id DESC LIMIT $2", guildID, max)
	return page, total, err
}

// AllOpenChallenges lists every server's open challenges, by server and
// then oldest first (bbolt's order).
func (s *Store) AllOpenChallenges(ctx context.Context) ([]*tessera.Game, error) {
	return s.queryGames(ctx, s.pool, "SELECT id, record FROM games WHERE open_guild IS NOT NULL ORDER BY open_guild, id")
}

// Finished lists a player's finished games, newest first (by when they
// ended, then by id), keeping those keep accepts (nil: all): skip of them
// are passed over and at most limit returned; more reports whether others
// follow. The rows are read as needed, so a first page is cheap.
func (s *Store) Finished(ctx context.Context, playerID string, keep func(*tessera.Game) bool, skip, limit int) (page []*tessera.Game, more bool, err error) {
	rows, err := s.pool.Query(ctx, `SELECT g.id, g.record FROM finished f JOIN games g ON g.id = f.game_id
		WHERE f.player_id = $1 ORDER BY f.ended DESC, f.game_id DESC`, playerID)
	if err != nil {
		return nil, false, s.fail(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var b []byte
		if err := rows.Scan(&id, &b); err != nil {
			return nil, false, s.fail(err)
		}
		g, err := s.decodeGame(id, b)
		if err != nil {
			return nil, false, err
		}
		if keep != nil && !keep(g) {
			continue
		}
		if skip > 0 {
			skip--
			continue
		}
		if len(page) == limit {
			return page, true, nil
		}
		page = append(page, g)
	}
	return page, false, s.fail(rows.Err())
}

// All calls fn for every game in id order, from one snapshot.
func (s *Store) All(ctx context.Context, fn func(g *tessera.Game) error) error {
	rows, err := s.pool.Query(ctx, "SELECT id, record FROM games ORDER BY id")
	if err != nil {
		return s.fail(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var b []byte
		if err := rows.Scan(&id, &b); err != nil {
			return s.fail(err)
		}
		g, err := s.decodeGame(id, b)
		if err != nil {
			return err
		}
		if err := fn(g); err != nil {
			return err
		}
	}
	return s.fail(rows.Err())
}

// AITurns lists the games in play where an AI seat is to move, by id.
func (s *Store) AITurns(ctx context.Context) ([]uint64, error) {
	return s.ids(ctx, "SELECT id FROM games WHERE ai_turn ORDER BY id")
}

// Due lists the games whose deadline is at or before now, earliest first.
func (s *Store) Due(ctx context.Context, now time.Time) ([]uint64, error) {
	return s.ids(ctx, "SELECT id FROM games WHERE deadline <= $1 ORDER BY deadline, id", now.UnixNano())
}

// NextDeadline is the earliest deadline of a game in play (zero if none).
func (s *Store) NextDeadline(ctx context.Context) (time.Time, error) {
	var n *int64
	if err := s.pool.QueryRow(ctx, "SELECT min(deadline) FROM games WHERE deadline IS NOT NULL").Scan(&n); err != nil {
		return time.Time{}, s.fail(err)
	}
	if n == nil {
		return time.Time{}, nil
	}
	return time.Unix(0, *n), nil
}

func (s *Store) ids(ctx context.Context, sql string, args ...any) ([]uint64, error) {
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, s.fail(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, s.fail(err)
	}
	var out []uint64
	for _, id := range ids {
		out = append(out, uint64(id))
	}
	return out, nil
}

// Handled reports whether an interaction id was already handled.
func (s *Store) Handled(ctx context.Context, interactionID string) (bool, error) {
	var ok bool
	err := s.pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM handled WHERE interaction_id = $1)", interactionID).Scan(&ok)
	return ok, s.fail(err)
}

// MarkHandled records an interaction id that changed nothing in a game
// (storage.ErrDuplicate if it was already recorded).
func (s *Store) MarkHandled(ctx context.Context, interactionID string) error {
	return s.inTx(ctx, func(t *Tx) error { return s.failGame(t.markHandled(ctx, interactionID, time.Now())) })
}

// PruneHandled forgets interaction ids handled before the cutoff, except
// those that begin with storage.LongHandled.
func (s *Store) PruneHandled(ctx context.Context, before time.Time) (int, error) {
	tag, err := s.pool.Exec(ctx, "DELETE FROM handled WHERE at < $1 AND NOT starts_with(interaction_id, $2)", before.Unix(), storage.LongHandled)
	if err != nil {
		return 0, s.fail(err)
	}
	return int(tag.RowsAffected()), nil
}

// PruneLongHandled forgets the ids that begin with storage.LongHandled
// handled before the cutoff (the index on at finds the old rows).
func (s *Store) PruneLongHandled(ctx context.Context, before time.Time) (int, error) {
	tag, err := s.pool.Exec(ctx, "DELETE FROM handled WHERE at < $1 AND starts_with(interaction_id, $2)", before.Unix(), storage.LongHandled)
	if err != nil {
		return 0, s.fail(err)
	}
	return int(tag.RowsAffected()), nil
}
