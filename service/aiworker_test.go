package service_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"tessera"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/boltdb"
	"tessera/storage/storagetest/watch"
)

// cutStore fails the next fails writes of a game as a cut connection
// does, before they reach the store.
type cutStore struct {
	storage.Store
	mu    sync.Mutex
	fails int
	lost  bool // the next write is stored, but its answer is cut
}

func (c *cutStore) Update(ctx context.Context, id, version uint64, interactionID string, change func(g *tessera.Game, tx storage.Tx) error) (*tessera.Game, error) {
	c.mu.Lock()
	cut := c.fails > 0
	if cut {
		c.fails--
	}
	lost := c.lost
	c.lost = false
	c.mu.Unlock()
	if lost {
		c.Store.Update(ctx, id, version, interactionID, change)
		return nil, errors.New("database: read tcp 10.0.0.2:5432: connection reset by peer")
	}
	if cut {
		return nil, errors.New("database: read tcp 10.0.0.2:5432: connection reset by peer")
	}
	return c.Store.Update(ctx, id, version, interactionID, change)
}

// TestAICommitRetried: when the store fails to take the AI's move (a cut
// connection, 17 times in a chaos run), the worker keeps the move it
// thought and stores it after a short back-off on its clock (RetryBase,
// then twice that), instead of parking the turn for a minute; the move is
// stored once, also when a try was stored and only its answer cut. When
// the store keeps failing, it gives up after
// aiCommitTries and says why.
func TestAICommitRetried(t *testing.T) {
	st, err := boltdb.Open(filepath.Join(t.TempDir(), "t.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	h := &harness{t: t, sink: newSink(), now: time.Unix(1700000000, 0).UTC(), store: watch.New(st)}
	cut := &cutStore{Store: h.store}
	var waits []time.Duration
	cfg := h.aiConfig("")
	cfg.RetryBase = time.Second
	cfg.After = func(d time.Duration) <-chan time.Time {
		// The fake clock: the wait is noted and over at once.
		waits = append(waits, d)
		c := make(chan time.Time, 1)
		c <- h.now.Add(d)
		return c
	}
	h.svc = service.New(cut, cfg)
	h.svc.SetBot(botUser)
	h.ok(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "glorieta", Opponents: []service.User{botUser}, Level: "easy"}))
	h.ok(h.svc.Move(h.req(ana), "", "g7"))

	cut.fails = 2
	if n := h.playAI(); n != 1 {
		t.Fatalf("%d AI moves stored, want 1", n)
	}
	if g := h.game(1); len(g.Moves) != 2 || g.Moves[1].Seat != 1 {
		t.Fatalf("record %+v", g.Moves)
	}
	if want := []time.Duration{time.Second, 2 * time.Second}; !slices.Equal(waits, want) {
		t.Fatalf("waits %v, want %v", waits, want)
	}

	// A store that stays down: six tries, then an error naming the game.
	h.ok(h.svc.Move(h.req(ana), "", h.position(1).Legal()[0].String()))
	waits, cut.fails = nil, 100
	_, err = h.svc.PlayAI(context.Background())
	if err == nil || len(waits) != 5 {
		t.Fatalf("a store that stays down: %v after %d waits, want an error after 5", err, len(waits))
	}
	if want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 7500 * time.Millisecond, 7500 * time.Millisecond}; !slices.Equal(waits, want) {
		t.Fatalf("waits %v, want %v (capped at an eighth of the lease margin)", waits, want)
	}
	if g := h.game(1); len(g.Moves) != 3 || !g.AITurn {
		t.Fatalf("after the store stayed down: %d moves, AI turn %v", len(g.Moves), g.AITurn)
	}

	// A try stored, its answer cut: the next try is a conflict, and the
	// move is in the record once.
	cut.fails = 0
	h.playAI()
	h.ok(h.svc.Move(h.req(ana), "", h.position(1).Legal()[0].String()))
	before := len(h.game(1).Moves)
	cut.lost = true
	h.playAI()
	if g := h.game(1); len(g.Moves) != before+1 || g.Moves[before].Seat != 1 {
		t.Fatalf("a stored try whose answer was cut: %d moves after %d", len(g.Moves), before)
	}
}
