package service_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"tessera"
	"tessera/render"
	"tessera/service"
	"tessera/storage"
)

// heldUpdate is a store whose change of one game waits until the test
// lets it go, after telling the test it arrived: the move's time is
// already read then (the service reads it before the transaction).
type heldUpdate struct {
	storage.Store
	game    uint64
	arrived chan struct{}
	release chan struct{}
}

func (h heldUpdate) Update(ctx context.Context, id, version uint64, interactionID string, change func(*tessera.Game, storage.Tx) error) (*tessera.Game, error) {
	if id == h.game {
		close(h.arrived)
		<-h.release
	}
	return h.Store.Update(ctx, id, version, interactionID, change)
}

// sameRatings fails unless stored and computed hold the same ratings,
// field by field (times compared as instants).
func sameRatings(t *testing.T, stored, computed []tessera.Rating) {
	t.Helper()
	key := func(r tessera.Rating) string { return r.GuildID + "/" + r.Game + "/" + r.UserID }
	have := map[string]tessera.Rating{}
	for _, r := range stored {
		have[key(r)] = r
	}
	if len(stored) != len(computed) {
		t.Errorf("%d ratings stored, %d computed", len(stored), len(computed))
	}
	for _, c := range computed {
		s := have[key(c)]
		same := s.Mu == c.Mu && s.Sigma == c.Sigma && s.Games == c.Games && s.Won == c.Won && s.Lost == c.Lost && s.Shared == c.Shared && len(s.History) == len(c.History)
		for i := 0; same && i < len(s.History); i++ {
			a, b := s.History[i], c.History[i]
			same = a.GameID == b.GameID && a.At.Equal(b.At) && a.Mu == b.Mu && a.Sigma == b.Sigma
		}
		if !same {
			t.Errorf("%s: stored %+v, computed again %+v", key(c), s, c)
		}
	}
}

// TestRatingsOrderOfChanges (issue #24 item 9): two rated games of Ana
// end at nearly the same moment through two handles (two processes on
// PostgreSQL). Bo resigns game 1 first (its time is earlier) but its
// transaction is held until Cy's resignation of game 2, a second later,
// is stored: Ana's rating changes by game 2, then by game 1. Computing
// the ratings again from the finished games (what tessera ratings does)
// must replay them in that order and find exactly the stored ratings;
// replayed by the moves' times (game 1 first) Ana's numbers differ.
func TestRatingsOrderOfChanges(t *testing.T) {
	eachAdapter(t, func(t *testing.T, a adapter) {
		stores := a.Open(t, 2)
		var mu sync.Mutex
		now := time.Unix(1700000000, 0).UTC()
		clock := func() time.Time {
			mu.Lock()
			defer mu.Unlock()
			return now
		}
		held := heldUpdate{Store: stores[0], game: 1, arrived: make(chan struct{}), release: make(chan struct{})}
		svc1 := service.New(held, service.Config{Renderer: render.Renderer{}, Seed: func() uint64 { return 7 }, Now: clock})
		svc2 := service.New(stores[1], service.Config{Renderer: render.Renderer{}, Seed: func() uint64 { return 7 }, Now: clock})
		n := 0
		req := func(u service.User) service.Request {
			n++
			return service.Request{User: u, GuildID: "g", ChannelID: "c", InteractionID: fmt.Sprint("i", n)}
		}
		// Ana has a rated game against each of Bo and Cy (game 1 and 2)
		// and one finished game already, against Bo (game 3, which Ana
		// won), so that the order of the two ends changes her numbers.
		for i, opp := range []service.User{bo, cy, bo} {
			if _, err := svc2.NewGame(req(ana), service.NewGameRequest{Game: "elemental", Opponents: []service.User{opp}, Options: "borders=RBGY", Clock: ""}); err != nil {
				t.Fatal(err)
			}
			if _, err := svc2.Click(req(opp), fmt.Sprint("accept:", i+1)); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := svc2.ResignConfirm(req(bo), 3); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		now = now.Add(time.Minute)
		mu.Unlock()
		done := make(chan error, 1)
		go func() {
			_, err := svc1.ResignConfirm(req(bo), 1) // reads its time, then waits
			done <- err
		}()
		<-held.arrived
		mu.Lock()
		now = now.Add(time.Second)
		mu.Unlock()
		if _, err := svc2.ResignConfirm(req(cy), 2); err != nil {
			t.Fatal(err)
		}
		close(held.release)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		st := stores[1]
		g1, _ := st.Game(t.Context(), 1)
		g2, _ := st.Game(t.Context(), 2)
		if g1.Status != tessera.StatusFinished || g2.Status != tessera.StatusFinished || storage.Ended(g1) >= storage.Ended(g2) {
			t.Fatalf("games 1 and 2: %s and %s, ended %v and %v; want both finished, game 1 first by its time",
				g1.Status, g2.Status, time.Unix(0, storage.Ended(g1)), time.Unix(0, storage.Ended(g2)))
		}
		stored, err := st.AllRatings(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		computed, err := service.RebuildRatings(t.Context(), st)
		if err != nil {
			t.Fatal(err)
		}
		sameRatings(t, stored, computed)
		// Ana's history is in the order of the changes: game 3, 2, 1.
		for _, r := range stored {
			if r.UserID != ana.ID {
				continue
			}
			var order []uint64
			for _, p := range r.History {
				order = append(order, p.GameID)
			}
			if fmt.Sprint(order) != "[3 2 1]" {
				t.Errorf("Ana's rating changed by games %v, want [3 2 1]", order)
			}
		}
	})
}
