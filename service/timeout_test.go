package service_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"tessera"
	"tessera/render"
	"tessera/service"
	"tessera/storage/postgres/pgtest"
)

// TestStoreTimeoutAnsweredSafely (issue #25): on PostgreSQL, a move whose
// game another transaction holds does not hang. The statement timeout,
// or the request's context cancelled while the move waits, ends it; the
// player gets the generic answer (nothing of the database in it) and
// nothing changed, so the same move, sent again, goes through once the
// game is free.
func TestStoreTimeoutAnsweredSafely(t *testing.T) {
	for _, tc := range []struct {
		name    string
		timeout time.Duration // the store's statement timeout (0: none)
		cancel  bool          // cancel the request once its move waits
	}{
		{"statement timeout", 50 * time.Millisecond, false},
		// No timeout to save it: only the cancellation ends the wait.
		{"request cancelled", 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := pgtest.Database(t)
			st := openPostgres(t, url, tc.timeout)
			svc := service.New(st, service.Config{Renderer: render.Renderer{}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
			games(t, svc, 1, 0) // game 1, between 101 (to move) and 201
			release := holdRow(t, openPostgres(t, url, 0), 1)

			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			req := service.Request{User: service.User{ID: "101", Name: "A1"}, GuildID: "g", ChannelID: "c1", InteractionID: "move"}
			moves := svc.MoveChoices(req, "1", "")
			if len(moves) == 0 {
				t.Fatal("no legal move")
			}
			type answer struct {
				r   service.Reply
				err error
			}
			done := make(chan answer, 1)
			go func() {
				r, err := svc.Move(req.WithContext(ctx), "1", moves[0].Value)
				done <- answer{r, err}
			}()
			if tc.cancel {
				pgtest.AwaitLockWait(t.Context(), t, url)
				cancel()
			}
			a := <-done
			if a.err == nil {
				t.Fatalf("the move went through while its game was held: %+v", a.r)
			}
			r := svc.Fail(a.err)
			if want := tessera.ErrorMessage(errors.New("any fault of ours")); r.Text != want || !r.Ephemeral {
				t.Fatalf("answer %+v, want the private generic one %q (error: %v)", r, want, a.err)
			}
			for _, leak := range []string{"postgres", "statement", "context", "canceled", "57014", url} {
				if strings.Contains(strings.ToLower(r.Text), strings.ToLower(leak)) {
					t.Fatalf("the answer %q shows %q", r.Text, leak)
				}
			}

			release()
			if g, err := st.Game(t.Context(), 1); err != nil || len(g.Moves) != 0 {
				t.Fatalf("the game changed: %v moves (%v)", len(g.Moves), err)
			}
			if _, err := svc.Move(req.WithContext(t.Context()), "1", moves[0].Value); err != nil {
				t.Fatalf("the same move once the game is free: %v", err)
			}
		})
	}
}
