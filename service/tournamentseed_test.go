package service_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"tessera"
	"tessera/service"
	"tessera/storage"
)

// joinDuringRead is a store whose first point read of a rating runs join
// first: a player joining an event while Start reads its entrants'
// ratings.
type joinDuringRead struct {
	storage.Store
	once sync.Once
	join func()
}

func (s *joinDuringRead) PlayerRating(ctx context.Context, guild, game, user string) (tessera.Rating, bool, error) {
	s.once.Do(s.join)
	return s.Store.PlayerRating(ctx, guild, game, user)
}

// TestEventSeedsALateJoiner: an entrant who joins while Start reads the
// ratings (one point read an entrant) is seeded by their own rating, not
// the 1000 of a player without one: Start reads the ratings again.
func TestEventSeedsALateJoiner(t *testing.T) {
	h := newHarness(t)
	wrapped := &joinDuringRead{Store: h.store, join: func() {}}
	h.svc = service.New(wrapped, h.svc.Config())
	id := h.newEvent(service.NewEventRequest{Game: "closure", Format: "swiss", Rounds: 3})
	ps := players(5)
	h.enter(id, ps[:4]...)
	// p5 has the best rating of closure in the server.
	if _, err := h.store.Modify(context.Background(), h.newGame("closure", "", ana, bo), func(_ *tessera.Game, tx storage.Tx) error {
		return tx.PutRating(context.Background(), tessera.Rating{GuildID: "g", Game: "closure", UserID: ps[4].ID, Name: "p5", Mu: 40, Sigma: 2, Games: 9})
	}); err != nil {
		t.Fatal(err)
	}
	wrapped.join = func() { h.enter(id, ps[4]) }
	h.ok(h.svc.Click(h.req(ana), fmt.Sprintf("tstart:%d", id)))
	e := h.event(id)
	if len(e.Pairing.Players) != 5 {
		t.Fatalf("entrants %+v: want 5", e.Pairing.Players)
	}
	want := service.DisplayRating(tessera.Rating{Mu: 40, Sigma: 2})
	for _, p := range e.Pairing.Players {
		if p.ID == ps[4].ID && p.Rating != want {
			t.Errorf("the late joiner seeded at %d, want their rating %d", p.Rating, want)
		}
	}
	if e.Pairing.Players[0].ID != ps[4].ID {
		t.Errorf("seed 1 is %s, want the best rated, p5", e.Pairing.Players[0].ID)
	}
}
