package postgres

// The outbox: announcements owed to Discord, written in the transaction of
// the change that owes them, and the couriers' leases on them.
//
// The column game_id of outbox and outbox_leases holds the announcement's
// queue (tessera.Announcement.Queue): its game's id, or for a
// tournament's announcement its event's id negated, so an event's
// announcements are ordered, held back and leased as a game's are, apart
// from every game's (game ids are positive).
//
// Several processes' couriers share the outbox through outbox_leases, one
// row per game that ever had an announcement. Claim locks the rows of
// games with due announcements and no live lease of another owner with
// SELECT ... FOR UPDATE SKIP LOCKED (a row another claimer is taking is
// passed over, not waited for; one it has just taken is re-checked against
// its new lease and passed over too), writes its own lease into them, and
// returns their announcements. A process killed while holding leases
// holds them only until they expire; then any other owner's Claim takes
// the games over.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"tessera"
)

// nanos is t as the outbox stores it: unix nanoseconds, NULL when zero.
func nanos(t time.Time) *int64 {
	if t.IsZero() {
		return nil
	}
	n := t.UnixNano()
	return &n
}

// Enqueue adds an announcement to the outbox; it is delivered after the
// transaction commits, and survives a crash. Its Seq is the row's (a.Seq
// is ignored). The insert is sent with the game's write (putGame) or just
// before the commit, in the same round trip: no read in a transaction
// looks at the outbox, so nothing can miss it meanwhile.
// MarkHandled records an interaction id in the transaction
// (storage.ErrDuplicate if it was already, by any process).
func (t *Tx) MarkHandled(ctx context.Context, interactionID string) error {
	return t.markHandled(ctx, interactionID, time.Now())
}

func (t *Tx) Enqueue(ctx context.Context, a tessera.Announcement) error {
	a.Seq = 0
	if a.Enqueued.IsZero() {
		a.Enqueued = time.Now().UTC()
	}
	body, err := json.Marshal(a)
	if err != nil {
		return err
	}
	if t.queued == nil {
		t.queued = &pgx.Batch{}
	}
	t.queued.Queue(enqueueSQL, int64(a.Queue()), nanos(a.Next), body)
	return nil
}

// enqueueSQL inserts an announcement and makes its game's lease row when
// it is the game's first.
const enqueueSQL = `WITH lease AS (INSERT INTO outbox_leases (game_id) VALUES ($1) ON CONFLICT DO NOTHING)
	INSERT INTO outbox (game_id, next_at, body) VALUES ($1, $2, $3)`

// send sends b with the announcements enqueued so far, in one round trip.
func (t *Tx) send(ctx context.Context, b *pgx.Batch) error {
	if t.queued != nil {
		b.QueuedQueries = append(b.QueuedQueries, t.queued.QueuedQueries...)
		t.queued = nil
	}
	if b.Len() == 0 {
		return nil
	}
	return t.tx.SendBatch(ctx, b).Close()
}

// decodeAnnouncement reads an outbox row.
func (s *Store) decodeAnnouncement(seq int64, body []byte) (tessera.Announcement, error) {
	var a tessera.Announcement
	if err := json.Unmarshal(body, &a); err != nil {
		return a, fmt.Errorf("database %s: outbox %d: %w", s.name, seq, err)
	}
	a.Seq = uint64(seq)
	return a, nil
}

// Pending lists the announcements due at now, oldest first (at most max).
// An announcement waiting for a retry holds back the later ones of its
// game, so a game's messages are never delivered out of order.
func (s *Store) Pending(ctx context.Context, now time.Time, max int) ([]tessera.Announcement, error) {
	rows, err := s.pool.Query(ctx, `SELECT o.seq, o.body FROM outbox o
		WHERE NOT EXISTS (SELECT 1 FROM outbox h WHERE h.game_id = o.game_id AND h.seq <= o.seq AND h.next_at > $1)
		ORDER BY o.seq LIMIT $2`, now.UnixNano(), max)
	if err != nil {
		return nil, s.fail(err)
	}
	defer rows.Close()
	var out []tessera.Announcement
	for rows.Next() {
		var seq int64
		var body []byte
		if err := rows.Scan(&seq, &body); err != nil {
			return nil, s.fail(err)
		}
		a, err := s.decodeAnnouncement(seq, body)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, s.fail(rows.Err())
}

// Claim leases to owner up to max games that have due announcements and no
// live lease held by another owner, oldest first, and returns those games'
// pending announcements in order (see storage.Store).
func (s *Store) Claim(ctx context.Context, now time.Time, owner string, lease time.Duration, max int) ([]tessera.Announcement, error) {
	var out []tessera.Announcement
	err := s.inTx(ctx, func(t *Tx) error {
		rows, err := t.tx.Query(ctx, `SELECT l.game_id FROM outbox_leases l
			JOIN (SELECT DISTINCT ON (game_id) game_id, seq, next_at FROM outbox ORDER BY game_id, seq) first
				ON first.game_id = l.game_id
			WHERE (first.next_at IS NULL OR first.next_at <= $1)
				AND (l.owner = '' OR l.owner = $2 OR l.lease_until <= $1)
			ORDER BY first.seq
			LIMIT $3
			FOR UPDATE OF l SKIP LOCKED`, now.UnixNano(), owner, max)
		if err != nil {
			return s.fail(err)
		}
		var games []int64
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return s.fail(err)
			}
			games = append(games, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return s.fail(err)
		}
		if len(games) == 0 {
			return nil
		}
		if _, err := t.tx.Exec(ctx, "UPDATE outbox_leases SET owner = $1, lease_until = $2 WHERE game_id = ANY($3)",
			owner, now.Add(lease).UnixNano(), games); err != nil {
			return s.fail(err)
		}
		rows, err = t.tx.Query(ctx, "SELECT seq, game_id, next_at, body FROM outbox WHERE game_id = ANY($1) ORDER BY seq", games)
		if err != nil {
			return s.fail(err)
		}
		defer rows.Close()
		held := map[int64]bool{}
		for rows.Next() {
			var seq, game int64
			var next *int64
			var body []byte
			if err := rows.Scan(&seq, &game, &next, &body); err != nil {
				return s.fail(err)
			}
			if held[game] || next != nil && *next > now.UnixNano() {
				held[game] = true
				continue
			}
			a, err := s.decodeAnnouncement(seq, body)
			if err != nil {
				return err
			}
			out = append(out, a)
		}
		return s.fail(rows.Err())
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Release ends owner's leases on games; another owner's are kept.
func (s *Store) Release(ctx context.Context, owner string, games ...uint64) error {
	if len(games) == 0 {
		return nil
	}
	ids := make([]int64, len(games))
	for i, g := range games {
		ids[i] = int64(g)
	}
	_, err := s.pool.Exec(ctx, "UPDATE outbox_leases SET owner = '', lease_until = 0 WHERE owner = $1 AND game_id = ANY($2)", owner, ids)
	return s.fail(err)
}

// Outbox counts the announcements not yet delivered.
func (s *Store) Outbox(ctx context.Context) (int, error) {
	var n int
	err := s.pool.QueryRow(ctx, "SELECT count(*) FROM outbox").Scan(&n)
	return n, s.fail(err)
}

func seqIDs(seqs []uint64) []int64 {
	ids := make([]int64, len(seqs))
	for i, s := range seqs {
		ids[i] = int64(s)
	}
	return ids
}

// Delivered removes delivered (or abandoned) announcements, in one
// transaction.
func (s *Store) Delivered(ctx context.Context, seqs ...uint64) error {
	if len(seqs) == 0 {
		return nil
	}
	_, err := s.pool.Exec(ctx, "DELETE FROM outbox WHERE seq = ANY($1)", seqIDs(seqs))
	return s.fail(err)
}

// rewrite changes, in one transaction, the announcements a query selects
// (seq, body; it must lock them FOR UPDATE); change reports whether it
// changed one. It returns how many were changed.
func (s *Store) rewrite(ctx context.Context, change func(a *tessera.Announcement) bool, sql string, args ...any) (int, error) {
	n := 0
	err := s.inTx(ctx, func(t *Tx) error {
		rows, err := t.tx.Query(ctx, sql, args...)
		if err != nil {
			return s.fail(err)
		}
		var changed []tessera.Announcement
		for rows.Next() {
			var seq int64
			var body []byte
			if err := rows.Scan(&seq, &body); err != nil {
				rows.Close()
				return s.fail(err)
			}
			a, err := s.decodeAnnouncement(seq, body)
			if err != nil {
				rows.Close()
				return err
			}
			if change(&a) {
				changed = append(changed, a)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return s.fail(err)
		}
		for _, a := range changed {
			seq := a.Seq
			a.Seq = 0
			body, err := json.Marshal(a)
			if err != nil {
				return err
			}
			if _, err := t.tx.Exec(ctx, "UPDATE outbox SET next_at = $2, body = $3 WHERE seq = $1", int64(seq), nanos(a.Next), body); err != nil {
				return s.fail(err)
			}
		}
		n = len(changed)
		return nil
	})
	return n, err
}

// Retry records a failed delivery attempt; it is tried again after next.
func (s *Store) Retry(ctx context.Context, seq uint64, next time.Time) error {
	_, err := s.rewrite(ctx, func(a *tessera.Announcement) bool {
		a.Tries++
		a.Next = next
		return true
	}, "SELECT seq, body FROM outbox WHERE seq = $1 FOR UPDATE", int64(seq))
	return err
}

// Attempting records that delivery of these announcements starts at (for
// each, only its first attempt counts), in one transaction.
func (s *Store) Attempting(ctx context.Context, at time.Time, seqs ...uint64) error {
	if len(seqs) == 0 {
		return nil
	}
	_, err := s.rewrite(ctx, func(a *tessera.Announcement) bool {
		if !a.Attempted.IsZero() {
			return false
		}
		a.Attempted = at
		return true
	}, "SELECT seq, body FROM outbox WHERE seq = ANY($1) ORDER BY seq FOR UPDATE", seqIDs(seqs))
	return err
}

// RetryNow makes every announcement waiting for a retry due now.
func (s *Store) RetryNow(ctx context.Context) (int, error) {
	// Channel updates are frequent on a busy server: an index-free look
	// with no lock first, as bbolt's adapter does.
	var waiting bool
	if err := s.pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM outbox WHERE next_at IS NOT NULL)").Scan(&waiting); err != nil || !waiting {
		return 0, s.fail(err)
	}
	return s.rewrite(ctx, func(a *tessera.Announcement) bool {
		a.Next = time.Time{}
		return true
	}, "SELECT seq, body FROM outbox WHERE next_at IS NOT NULL ORDER BY seq FOR UPDATE")
}

// ClaimAITurn leases game id's AI turn to owner unless another owner
// holds a live lease (see storage.Store): one statement, which the row's
// lock makes atomic between processes.
func (s *Store) ClaimAITurn(ctx context.Context, id uint64, owner string, now time.Time, lease time.Duration) (bool, error) {
	var got int64
	err := s.pool.QueryRow(ctx, `INSERT INTO ai_leases (game_id, owner, lease_until) VALUES ($1, $2, $3)
		ON CONFLICT (game_id) DO UPDATE SET owner = EXCLUDED.owner, lease_until = EXCLUDED.lease_until
		WHERE ai_leases.owner = EXCLUDED.owner OR ai_leases.lease_until <= $4
		RETURNING game_id`, int64(id), owner, now.Add(lease).UnixNano(), now.UnixNano()).Scan(&got)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil // another owner's live lease
	}
	if err != nil {
		return false, s.fail(err)
	}
	return true, nil
}

// ReleaseAITurn ends owner's lease on game id's AI turn.
func (s *Store) ReleaseAITurn(ctx context.Context, id uint64, owner string) error {
	_, err := s.pool.Exec(ctx, "DELETE FROM ai_leases WHERE game_id = $1 AND owner = $2", int64(id), owner)
	return s.fail(err)
}
