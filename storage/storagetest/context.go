package storagetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"tessera"
	"tessera/storage"
)

// testCancelledContext: a call whose context is already done returns
// that context's error and changes nothing. bbolt checks ctx before its
// transaction starts; PostgreSQL does not start the query. (A call
// cancelled in flight is PostgreSQL's alone to show: bbolt cannot
// interrupt a transaction; see storage/postgres.)
func testCancelledContext(t *testing.T, open func(t *testing.T) storage.Store) {
	s := open(t)
	id := create(t, s, NewGame())
	enqueue(t, s, id, "post")
	for _, done := range []struct {
		name string
		ctx  func() context.Context
		want error
	}{
		{"cancelled", func() context.Context {
			ctx, cancel := context.WithCancel(t.Context())
			cancel()
			return ctx
		}, context.Canceled},
		// A deadline in the past is what a statement timeout set by the
		// caller looks like once it ran out.
		{"deadline passed", func() context.Context {
			ctx, cancel := context.WithDeadline(t.Context(), time.Unix(0, 0))
			t.Cleanup(cancel)
			return ctx
		}, context.DeadlineExceeded},
	} {
		ctx := done.ctx()
		change := func(g *tessera.Game, tx storage.Tx) error {
			g.Moves = append(g.Moves, tessera.MoveEntry{Text: "x"})
			return nil
		}
		for _, c := range []struct {
			name string
			call func() error
		}{
			// One call of each role, reads and writes.
			{"Create", func() error { return s.Create(ctx, NewGame(), "new:"+done.name) }},
			{"Game", func() error { _, err := s.Game(ctx, id); return err }},
			{"Update", func() error { _, err := s.Update(ctx, id, 1, "move:"+done.name, change); return err }},
			{"Modify", func() error { _, err := s.Modify(ctx, id, change); return err }},
			{"ByPlayer", func() error { _, err := s.ByPlayer(ctx, "1"); return err }},
			{"OpenChallenges", func() error { _, err := s.OpenChallenges(ctx, "g"); return err }},
			{"NewestChallenges", func() error { _, _, err := s.NewestChallenges(ctx, "g", 5); return err }},
			{"Due", func() error { _, err := s.Due(ctx, time.Now()); return err }},
			{"AITurns", func() error { _, err := s.AITurns(ctx); return err }},
			{"Claim", func() error { _, err := s.Claim(ctx, time.Now(), "one", time.Minute, 10); return err }},
			{"Pending", func() error { _, err := s.Pending(ctx, time.Now(), 10); return err }},
			{"UpdateUser", func() error {
				_, err := s.UpdateUser(ctx, "ana", func(u *tessera.UserSettings, _ storage.Tx) error { u.TimeZone = "UTC"; return nil })
				return err
			}},
			{"MarkHandled", func() error { return s.MarkHandled(ctx, "mark:"+done.name) }},
			{"Ratings", func() error { _, err := s.AllRatings(ctx); return err }},
		} {
			if err := c.call(); !errors.Is(err, done.want) {
				t.Errorf("%s on a %s context: %v, want %v", c.name, done.name, err, done.want)
			}
		}
	}
	// Nothing was written: the game is as it was, no game was made, no
	// interaction marked handled, no settings stored, the post still owed.
	g := game(t, s, id)
	if g.Version != 1 || len(g.Moves) != 0 {
		t.Errorf("the game changed: version %d, %d moves", g.Version, len(g.Moves))
	}
	if all, err := s.ByPlayer(t.Context(), "1"); err != nil || len(all) != 1 {
		t.Errorf("player 1 has %d games (%v), want the one", len(all), err)
	}
	for _, interaction := range []string{"new:cancelled", "move:cancelled", "mark:cancelled", "mark:deadline passed"} {
		if handled, err := s.Handled(t.Context(), interaction); err != nil || handled {
			t.Errorf("interaction %s handled: %v (%v)", interaction, handled, err)
		}
	}
	if u, err := s.User(t.Context(), "ana"); err != nil || u.TimeZone != "" {
		t.Errorf("ana's settings changed: %+v (%v)", u, err)
	}
	if p, err := s.Claim(t.Context(), time.Now(), "two", time.Minute, 10); err != nil || len(p) != 1 {
		t.Errorf("claimed %d announcements (%v), want the post owed (no lease left by the cancelled claim)", len(p), err)
	}
}
