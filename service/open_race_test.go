package service_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"tessera"
	"tessera/render"
	"tessera/service"
	"tessera/storage"
)

// createBarrier is a store whose creates wait until n of them have
// arrived, then all go on at once: every request has made whatever
// checks it makes before its create by then, so a limit checked outside
// the creating transaction is seen by all of them as not reached.
type createBarrier struct {
	storage.Store
	wg *sync.WaitGroup
}

func (b createBarrier) arrive() {
	b.wg.Done()
	b.wg.Wait()
}

func (b createBarrier) Create(ctx context.Context, g *tessera.Game, interactionID string) error {
	b.arrive()
	return b.Store.Create(ctx, g, interactionID)
}

func (b createBarrier) CreateWith(ctx context.Context, g *tessera.Game, interactionID string, change func(*tessera.Game, storage.Tx) error) error {
	b.arrive()
	return b.Store.CreateWith(ctx, g, interactionID, change)
}

// TestOpenChallengeLimitRace (issue #24 item 10): twelve open challenges
// posted at once by one player, through two handles on one database (two
// processes on PostgreSQL), make exactly 5, the limit per player and
// server; the other seven are refused with the limit's reply. Every
// request reaches its create before any create runs (the barrier), the
// interleaving that let 9 to 12 through when the limit was counted
// before the transaction.
func TestOpenChallengeLimitRace(t *testing.T) {
	eachAdapter(t, func(t *testing.T, a adapter) {
		const n = 12
		var wg sync.WaitGroup
		wg.Add(n)
		now := time.Unix(1700000000, 0).UTC()
		var svcs []*service.Service
		for _, st := range a.Open(t, 2) {
			svcs = append(svcs, service.New(createBarrier{st, &wg}, service.Config{Renderer: render.Renderer{},
				Seed: func() uint64 { return 7 }, Now: func() time.Time { return now }}))
		}
		errs := make([]error, n)
		var done sync.WaitGroup
		for i := range n {
			done.Add(1)
			go func() {
				defer done.Done()
				req := service.Request{User: ana, GuildID: "g", ChannelID: "c", InteractionID: fmt.Sprint("open", i)}
				_, errs[i] = svcs[i%2].NewOpen(req, service.NewGameRequest{Game: "closure", Seats: 0, Options: "", Clock: ""})
			}()
		}
		done.Wait()
		made, refused := 0, 0
		for _, err := range errs {
			switch {
			case err == nil:
				made++
			case tessera.ErrorCode(err) == tessera.EINVALID && strings.Contains(err.Error(), "You already have 5 open challenges"):
				refused++
			default:
				t.Errorf("unexpected error: %v", err)
			}
		}
		open, err := svcs[0].Store().OpenChallenges(t.Context(), "g")
		if err != nil {
			t.Fatal(err)
		}
		if made != 5 || refused != n-5 || len(open) != 5 {
			t.Fatalf("%d made, %d refused, %d open challenges stored; want 5, %d and 5", made, refused, len(open), n-5)
		}
	})
}

// TestJoinAfterExpiry (issue #24 item 10): a Join that comes after an
// open challenge's lifetime (7 days by default) but before the clock's
// next tick has expired it is refused, and the game does not start; one
// second before, the same Join starts it.
func TestJoinAfterExpiry(t *testing.T) {
	eachAdapter(t, func(t *testing.T, a adapter) {
		now := time.Unix(1700000000, 0).UTC()
		svc := service.New(a.Open(t, 1)[0], service.Config{Renderer: render.Renderer{}, Seed: func() uint64 { return 7 }, Now: func() time.Time { return now }})
		req := func(u service.User, id string) service.Request {
			return service.Request{User: u, GuildID: "g", ChannelID: "c", InteractionID: id}
		}
		for i := range 2 {
			if _, err := svc.NewOpen(req(ana, fmt.Sprint("new", i)), service.NewGameRequest{Game: "elemental", Seats: 0, Options: "borders=RBGY", Clock: ""}); err != nil {
				t.Fatal(err)
			}
		}
		now = now.Add(service.DefaultChallengeExpire - time.Second)
		if _, err := svc.Join(req(bo, "join1"), 1); err != nil {
			t.Fatalf("a join within the lifetime: %v", err)
		}
		now = now.Add(time.Second)
		_, err := svc.Join(req(bo, "join2"), 2)
		if tessera.ErrorCode(err) != tessera.EINVALID || !strings.Contains(err.Error(), "expired") {
			t.Fatalf("a join after the lifetime: %v, want a refusal saying it expired", err)
		}
		for id, want := range map[uint64]tessera.Status{1: tessera.StatusPlaying, 2: tessera.StatusChallenge} {
			g, err := svc.Store().Game(t.Context(), id)
			if err != nil {
				t.Fatal(err)
			}
			if g.Status != want {
				t.Errorf("game %d is %s, want %s", id, g.Status, want)
			}
		}
		if g, _ := svc.Store().Game(t.Context(), 2); len(g.Players) != 1 {
			t.Errorf("game 2 has %d players after a refused join, want 1", len(g.Players))
		}
	})
}
