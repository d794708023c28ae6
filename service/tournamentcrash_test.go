package service_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
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

func (t crashingTx) CreateGame(ctx context.Context, g *tessera.Game, change func(*tessera.Game) error) error {
	if t.s.armed.Load() && t.s.creates.Add(1) == t.s.at {
		return errCrash
	}
	return t.Tx.CreateGame(ctx, g, change)
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
		cs := &crashingStore{Store: a.Open(t, 1)[0], at: 2}
		h := &harness{t: t, sink: newSink(), now: time.Unix(1700000000, 0).UTC()}
		h.svc = service.New(cs, service.Config{Renderer: render.Renderer{},
			Seed: func() uint64 { return 7 },
			Now:  func() time.Time { return h.now },
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

// dyingStore is a process killed in the middle of a leave: once armed,
// the at-th game update (a resignation's transaction) and every one
// after it fail without writing, as if the process had died there.
type dyingStore struct {
	storage.Store
	armed   atomic.Bool
	updates atomic.Int32
	at      int32
}

var errKilled = errors.New("killed between the leave's steps")

func (s *dyingStore) Update(ctx context.Context, id, version uint64, interactionID string, change func(*tessera.Game, storage.Tx) error) (*tessera.Game, error) {
	if s.armed.Load() && s.updates.Add(1) >= s.at {
		return nil, errKilled
	}
	return s.Store.Update(ctx, id, version, interactionID, change)
}

// TestEventLeaveKilledBetweenSteps (issue #48, part 5): a player leaves
// a running event and the process dies after the withdrawal is
// committed, before (Swiss) or between (round robin, several games in
// play) the resignations. The withdrawal is the record of what is owed:
// the next process's first tick resigns the games left, the Swiss round
// it held up is paired at once (not when the clock runs out, 3 days
// on), and a second tick changes nothing. On both stores.
func TestEventLeaveKilledBetweenSteps(t *testing.T) {
	for _, tc := range []struct {
		format string
		at     int32 // the resignation the process dies at (1: the first)
	}{{"swiss", 1}, {"round-robin", 1}, {"round-robin", 2}} {
		t.Run(fmt.Sprintf("%s/%d", tc.format, tc.at), func(t *testing.T) {
			eachAdapter(t, func(t *testing.T, a adapter) {
				base := a.Open(t, 1)[0]
				ds := &dyingStore{Store: base, at: tc.at}
				h := &harness{t: t, sink: newSink(), now: time.Unix(1700000000, 0).UTC()}
				cfg := service.Config{Renderer: render.Renderer{},
					Seed: func() uint64 { return 7 },
					Now:  func() time.Time { return h.now },
				}
				h.svc = service.New(ds, cfg)
				id := h.newEvent(service.NewEventRequest{Game: "closure", Format: tc.format, Rounds: roundsFor(tc.format)})
				h.enter(id, players(4)...)
				h.ok(h.svc.StartEvent(h.req(ana), id))
				e := h.event(id)
				// Round 1's first table ends; the leaver sits at the second.
				t0, t1 := e.Pairing.Played[0].Tables[0], e.Pairing.Played[0].Tables[1]
				h.ok(h.svc.ResignConfirm(h.req(userOf(e, t0.Seats[1])), e.Games[0][0]))
				leaver := userOf(e, t1.Seats[0])
				inPlay := gamesInPlayOf(e, leaver.ID)

				ds.armed.Store(true)
				if _, err := h.svc.Click(h.req(leaver), fmt.Sprintf("tquit:%d", id)); !errors.Is(err, errKilled) {
					t.Fatalf("the leave: %v, want the kill", err)
				}
				e = h.event(id)
				left := 0
				for _, gid := range inPlay {
					if h.game(gid).Status == tessera.StatusPlaying {
						left++
					}
				}
				if !withdrawn(e, leaver.ID) || left != len(inPlay)-int(tc.at)+1 {
					t.Fatalf("after the kill: withdrawn %v, %d of %d games still in play, want %d", withdrawn(e, leaver.ID), left, len(inPlay), len(inPlay)-int(tc.at)+1)
				}

				// The next process, an hour on: its tick completes the leave.
				h.now = h.now.Add(time.Hour)
				h.svc = service.New(base, cfg)
				if _, err := h.svc.Tick(t.Context()); err != nil {
					t.Fatal(err)
				}
				e = h.event(id)
				for _, gid := range inPlay {
					if g := h.game(gid); g.Status == tessera.StatusPlaying {
						t.Fatalf("game #%d of the leaver still in play after the tick", gid)
					}
				}
				if tb := e.Pairing.Played[0].Tables[1]; !tb.Played() || tb.Places[0] <= tb.Places[1] {
					t.Fatalf("round 1 table 2: %+v, want the leaver (seat 1) behind", tb)
				}
				if tc.format == "swiss" {
					if len(e.Pairing.Played) != 2 {
						t.Fatalf("round 2 not paired by the tick: %d rounds", len(e.Pairing.Played))
					}
					for _, tb := range e.Pairing.Played[1].Tables {
						if slices.Contains(tb.Seats, leaver.ID) {
							t.Fatalf("the leaver is paired in round 2: %+v", e.Pairing.Played[1])
						}
					}
				}
				before := countGames(t, h)
				version := e.Version
				if n, err := h.svc.Tick(t.Context()); err != nil || countGames(t, h) != before || h.event(id).Version != version {
					t.Fatalf("a second tick: %d changed, %v; %d games (%d before), event version %d (%d before)", n, err, countGames(t, h), before, h.event(id).Version, version)
				}
			})
		})
	}
}

func roundsFor(format string) int {
	if format == "swiss" {
		return 3
	}
	return 0
}

// gamesInPlayOf lists the games in play at the tables where id sits.
func gamesInPlayOf(e *tessera.Event, id string) []uint64 {
	var out []uint64
	for r, rd := range e.Pairing.Played {
		for t, tb := range rd.Tables {
			if !tb.Played() && slices.Contains(tb.Seats, id) {
				out = append(out, e.Games[r][t])
			}
		}
	}
	return out
}

func withdrawn(e *tessera.Event, id string) bool {
	for _, p := range e.Pairing.Players {
		if p.ID == id {
			return p.Withdrawn
		}
	}
	return false
}
