package service_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"tessera"
	"tessera/render"
	"tessera/service"
	"tessera/storage"
)

// crashingStore fails a game's transaction at its n-th tx.CreateGame
// while armed, as a process killed in the middle of pairing a round
// would leave it: the transaction is not committed.
type crashingStore struct {
	storage.Store
	armed   atomic.Bool
	creates atomic.Int32
	at      int32
}

var errCrash = errors.New("killed in the middle of pairing")

type crashingTx struct {
	storage.Tx
	s *crashingStore
}

func (t crashingTx) CreateGame(ctx context.Context, g *tessera.Game) error {
	if t.s.armed.Load() && t.s.creates.Add(1) == t.s.at {
		return errCrash
	}
	return t.Tx.CreateGame(ctx, g)
}

func (s *crashingStore) Update(ctx context.Context, id, version uint64, interactionID string, change func(*tessera.Game, storage.Tx) error) (*tessera.Game, error) {
	return s.Store.Update(ctx, id, version, interactionID, func(g *tessera.Game, tx storage.Tx) error {
		return change(g, crashingTx{tx, s})
	})
}

// TestEventRoundCrashMidPairing: the game that ends a round is killed
// while round 2's second game is being made; nothing of it is kept (the
// game is still in play, its result and round 2 unrecorded, no game
// stored). Resigning again pairs round 2 once, on both stores.
func TestEventRoundCrashMidPairing(t *testing.T) {
	eachAdapter(t, func(t *testing.T, a adapter) {
		cs := &crashingStore{Store: a.open(t, 1)[0], at: 2}
		h := &harness{t: t, sink: newSink(), now: time.Unix(1700000000, 0).UTC()}
		h.svc = service.New(cs, service.Config{Renderer: render.Renderer{},
			Seed:    func() uint64 { return 7 },
			Now:     func() time.Time { return h.now },
			Mention: func(u service.User) string { return "<@" + u.ID + ">" },
		})
		id := h.newEvent(service.NewEventRequest{Game: "closure", Format: "swiss", Rounds: 2})
		h.enter(id, players(4)...)
		h.ok(h.svc.StartEvent(h.req(ana), id))
		e := h.event(id)
		t0 := e.Pairing.Played[0].Tables[0]
		h.ok(h.svc.ResignConfirm(h.req(userOf(e, t0.Seats[1])), e.Games[0][0]))
		before := countGames(t, h)

		t1 := e.Pairing.Played[0].Tables[1]
		loser := userOf(e, t1.Seats[1])
		cs.armed.Store(true)
		if _, err := h.svc.ResignConfirm(h.req(loser), e.Games[0][1]); !errors.Is(err, errCrash) {
			t.Fatalf("the crash: %v", err)
		}
		cs.armed.Store(false)
		e = h.event(id)
		if g := h.game(e.Games[0][1]); g.Status != tessera.StatusPlaying || len(e.Pairing.Played) != 1 || e.Pairing.Played[0].Tables[1].Played() || countGames(t, h) != before {
			t.Fatalf("after the crash: game %s, %d rounds, %d games stored (%d before)", g.Status, len(e.Pairing.Played), countGames(t, h), before)
		}
		h.ok(h.svc.ResignConfirm(h.req(loser), e.Games[0][1]))
		e = h.event(id)
		checkRounds(t, e)
		if len(e.Pairing.Played) != 2 || len(e.Games[1]) != 2 || countGames(t, h) != before+2 {
			t.Fatalf("round 2: %d rounds, %d games stored (%d before)", len(e.Pairing.Played), countGames(t, h), before)
		}
	})
}
