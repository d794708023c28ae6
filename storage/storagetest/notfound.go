package storagetest

import (
	"errors"
	"testing"

	"tessera"
	"tessera/storage"
)

// testNotFound: every way of reaching a missing record answers the
// error of its kind of record (a missing tournament is not "no such
// game"), which is ErrNotFound as well, user-safe, and none of the other
// kinds' errors. A change that fails so writes nothing.
func testNotFound(t *testing.T, open func(t *testing.T) storage.Store) {
	s := open(t)
	ctx := t.Context()
	g := NewGame()
	if err := s.Create(ctx, g, ""); err != nil {
		t.Fatal(err)
	}
	const missing = 99
	kinds := []error{storage.ErrGameNotFound, storage.ErrEventNotFound, storage.ErrAnalysisNotFound}
	for _, c := range []struct {
		what string
		want error
		run  func() error
	}{
		{"Game", storage.ErrGameNotFound, func() error { _, err := s.Game(ctx, missing); return err }},
		{"Update", storage.ErrGameNotFound, func() error { _, err := s.Update(ctx, missing, 1, "", noop); return err }},
		{"Modify", storage.ErrGameNotFound, func() error { _, err := s.Modify(ctx, missing, noop); return err }},
		{"CreateLinked from a missing game", storage.ErrGameNotFound, func() error {
			return s.CreateLinked(ctx, NewGame(), "", missing, func(*tessera.Game) error { return nil })
		}},
		{"Tx.ModifyGame", storage.ErrGameNotFound, func() error {
			_, err := s.UpdateUser(ctx, "u1", func(_ *tessera.UserSettings, tx storage.Tx) error {
				return tx.ModifyGame(ctx, missing, func(*tessera.Game) error { return nil })
			})
			return err
		}},
		{"Event", storage.ErrEventNotFound, func() error { _, err := s.Event(ctx, missing); return err }},
		{"UpdateEvent", storage.ErrEventNotFound, func() error {
			_, err := s.UpdateEvent(ctx, missing, 1, "", func(*tessera.Event, storage.Tx) error { return nil })
			return err
		}},
		// A game's transaction that reaches for its tournament: the game
		// is there, the tournament is not.
		{"Tx.Event", storage.ErrEventNotFound, func() error {
			_, err := s.Update(ctx, g.ID, g.Version, "", func(_ *tessera.Game, tx storage.Tx) error {
				_, err := tx.Event(ctx, missing)
				return err
			})
			return err
		}},
		{"Tx.PutEvent", storage.ErrEventNotFound, func() error {
			_, err := s.Update(ctx, g.ID, g.Version, "", func(_ *tessera.Game, tx storage.Tx) error {
				return tx.PutEvent(ctx, &tessera.Event{ID: missing, Version: 1})
			})
			return err
		}},
		{"Analysis", storage.ErrAnalysisNotFound, func() error { _, err := s.Analysis(ctx, g.ID); return err }},
		{"UpdateAnalysis", storage.ErrAnalysisNotFound, func() error {
			_, err := s.UpdateAnalysis(ctx, g.ID, func(*tessera.Analysis) error { return nil })
			return err
		}},
	} {
		err := c.run()
		if !errors.Is(err, c.want) {
			t.Errorf("%s of a missing record: %v, want %v", c.what, err, c.want)
			continue
		}
		for _, other := range kinds {
			if other != c.want && errors.Is(err, other) {
				t.Errorf("%s: %v is also %v", c.what, err, other)
			}
		}
		if !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("%s: %v is not ErrNotFound", c.what, err)
		}
		if code, msg := tessera.ErrorCode(err), tessera.ErrorMessage(err); code != tessera.ENOTFOUND || msg != c.want.Error() {
			t.Errorf("%s: code %q, message %q; want %q, %q", c.what, code, msg, tessera.ENOTFOUND, c.want.Error())
		}
	}
	// The failed changes wrote nothing: the game is as it was.
	if got, err := s.Game(ctx, g.ID); err != nil || got.Version != g.Version {
		t.Errorf("after the failed changes: %+v, %v; want version %d", got, err, g.Version)
	}
}
