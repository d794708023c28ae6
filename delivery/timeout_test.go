package delivery_test

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"tessera/delivery"
	"tessera/render"
	"tessera/service"
	"tessera/storage/postgres/pgtest"
)

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
		t.Fatalf("owed %+v, want the first announcement with one failed try\n%s\n%+v", p, logs.String(), sink.Take())
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
