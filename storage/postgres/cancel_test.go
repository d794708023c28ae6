package postgres

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"tessera"
	"tessera/storage"
	"tessera/storage/postgres/pgtest"
)

// holdGame locks game id's row in a transaction of s (an Update whose
// change waits) until the returned release is called; the Update's own
// error is then sent on done.
func holdGame(t *testing.T, s *Store, g *tessera.Game) (release func(), done <-chan error) {
	t.Helper()
	locked, free, out := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		_, err := s.Update(context.Background(), g.ID, g.Version, "holder", func(g *tessera.Game, _ storage.Tx) error {
			close(locked)
			<-free
			g.Moves = append(g.Moves, tessera.MoveEntry{Text: "holder's"})
			return nil
		})
		out <- err
	}()
	<-locked
	release = sync.OnceFunc(func() { close(free) })
	t.Cleanup(release)
	return release, out
}

// onlyHolders fails unless game id holds the holder's change alone.
func onlyHolders(t *testing.T, s *Store, id uint64) {
	t.Helper()
	got, err := s.Game(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Moves) != 1 || got.Moves[0].Text != "holder's" {
		t.Fatalf("moves %+v, want the holder's only", got.Moves)
	}
}

// TestQueryEndsWhenCancelledInFlight (issue #25): a change waiting for a
// row another transaction holds returns as soon as its context is
// cancelled, with the context's error, and writes nothing; the holder
// goes on, and the store's other connections still serve.
func TestQueryEndsWhenCancelledInFlight(t *testing.T) {
	url := pgtest.Database(t)
	s := open(t, url)
	g := newGame(t, s, "c")
	release, held := holdGame(t, s, g)

	ctx, cancel := context.WithCancel(t.Context())
	waiter := make(chan error, 1)
	go func() {
		_, err := s.Modify(ctx, g.ID, func(g *tessera.Game, _ storage.Tx) error {
			g.Moves = append(g.Moves, tessera.MoveEntry{Text: "waiter's"})
			return nil
		})
		waiter <- err
	}()
	pgtest.AwaitLockWait(t.Context(), t, url) // the Modify is in flight, blocked on the row
	cancel()
	if err := <-waiter; !errors.Is(err, context.Canceled) {
		t.Fatalf("the cancelled change returned %v, want context.Canceled", err)
	}

	release()
	if err := <-held; err != nil {
		t.Fatalf("the holder failed: %v", err)
	}
	onlyHolders(t, s, g.ID)
}

// TestStatementTimeout (issue #25): with Options.Timeout, a statement
// that waits longer (here for a row another transaction holds until the
// waiter has given up) ends with PostgreSQL's query_canceled (57014)
// instead of hanging, and writes nothing; the connection is not lost,
// and the next statement runs.
func TestStatementTimeout(t *testing.T) {
	url := pgtest.Database(t)
	holder := open(t, url)
	g := newGame(t, holder, "c")
	s, err := Open(t.Context(), url, storage.Options{NoSync: true, Timeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	release, held := holdGame(t, holder, g)

	_, err = s.Update(t.Context(), g.ID, g.Version, "waiter", func(g *tessera.Game, _ storage.Tx) error {
		g.Moves = append(g.Moves, tessera.MoveEntry{Text: "waiter's"})
		return nil
	})
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "57014" {
		t.Fatalf("the waiting change returned %v, want query_canceled (57014)", err)
	}
	if tessera.ErrorCode(err) != tessera.EINTERNAL {
		t.Fatalf("error code %q: a timeout is our side's, never the player's", tessera.ErrorCode(err))
	}

	release()
	if err := <-held; err != nil {
		t.Fatalf("the holder failed: %v", err)
	}
	var timeout string
	if err := s.pool.QueryRow(t.Context(), "SHOW statement_timeout").Scan(&timeout); err != nil {
		t.Fatalf("the store's next statement: %v", err)
	}
	if timeout != "50ms" {
		t.Fatalf("statement_timeout %q, want 50ms", timeout)
	}
	onlyHolders(t, s, g.ID)
	if handled, err := s.Handled(t.Context(), "waiter"); err != nil || handled {
		t.Fatalf("the timed-out change's interaction was marked handled (%v)", err)
	}
}
