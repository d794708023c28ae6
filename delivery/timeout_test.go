package delivery_test

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"tessera"
	"tessera/delivery"
	"tessera/render"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/postgres"
	"tessera/storage/postgres/pgtest"
)

// openPostgres opens a store on url with the statement timeout given (0:
// none), closed when the test ends.
func openPostgres(t *testing.T, url string, timeout time.Duration) storage.Store {
	t.Helper()
	st, err := postgres.Open(t.Context(), url, storage.Options{NoSync: true, Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// holdRow locks game id's row in a transaction of st until release is
// called (which waits for that transaction's end), as a slow change in
// another process would.
func holdRow(t *testing.T, st storage.Store, id uint64) (release func()) {
	t.Helper()
	locked, free, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		_, err := st.Modify(context.Background(), id, func(*tessera.Game, storage.Tx) error {
			close(locked)
			<-free
			return nil
		})
		done <- err
	}()
	<-locked
	release = sync.OnceFunc(func() {
		close(free)
		if err := <-done; err != nil {
			t.Errorf("the transaction holding the row: %v", err)
		}
	})
	t.Cleanup(release)
	return release
}

// TestCourierRetriesStoreTimeout (issue #25): an announcement whose
// record runs into the statement timeout (its game held by another
// transaction) is retried like any error of the store, never dropped,
// and delivered once the game is free.
func TestCourierRetriesStoreTimeout(t *testing.T) {
	url := pgtest.Database(t)
	st := openPostgres(t, url, 50*time.Millisecond)
	var logs syncLog
	// Without threads the first announcement only records the game's
	// place (its channel): a write to the game's row.
	svc := service.New(st, service.Config{Renderer: render.Renderer{}, NoThreads: true, RetryBase: time.Nanosecond,
		Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	games(t, svc, 1, 0)
	release := holdRow(t, openPostgres(t, url, 0), 1)

	sink := newSink()
	if _, err := delivery.New(svc, svc.Store()).Deliver(t.Context(), sink); err != nil {
		t.Fatalf("the round: %v", err)
	}
	p, err := st.Pending(t.Context(), time.Now().Add(time.Hour), 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(p) == 0 || p[0].Tries != 1 {
		t.Fatalf("owed %+v, want the first announcement with one failed try\n%s\n%+v", p, logs.String(), sink.take())
	}
	if !strings.Contains(logs.String(), "will be retried") || !strings.Contains(logs.String(), "statement timeout") {
		t.Fatalf("no retry of the timed-out write logged:\n%s", logs.String())
	}

	release()
	if _, left := deliverAll(svc, sink); left > 0 {
		t.Fatalf("%d announcements still in the outbox", left)
	}
	if strings.Contains(logs.String(), "dropped") {
		t.Fatalf("an announcement was dropped:\n%s", logs.String())
	}
}
