package service_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"tessera"
	"tessera/delivery"
	"tessera/engine"
	"tessera/render"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/boltdb"
)

// lateGame stores a 2-player Elemental game 56 moves in (8 cells left)
// and returns its id.
func lateGame(b *testing.B, st storage.Store, seed uint64) uint64 {
	setup := engine.Setup{Game: "elemental", Players: 2, Seed: seed, Options: map[string]string{"borders": "RBGY"}}
	pos, _ := engine.New(setup)
	g := &tessera.Game{Status: tessera.StatusPlaying, Setup: setup, ChannelID: fmt.Sprint("c", seed),
		Players: []tessera.Player{{ID: "1", Name: "Ana", Accepted: true}, {ID: "2", Name: "Bo", Accepted: true}}}
	for i := 0; i < 56; i++ {
		l := pos.Legal()
		m := l[(i*31)%len(l)]
		g.Moves = append(g.Moves, tessera.MoveEntry{Seat: int(pos.ToMove()), Text: m.String()})
		pos.Apply(m)
	}
	if err := st.Create(b.Context(), g, ""); err != nil {
		b.Fatal(err)
	}
	return g.ID
}

// BenchmarkMovePipeline: one late-game move through the whole pipeline:
// parse, check, store with fsync, then deliver its announcements (the
// post, the status edit and the turn notice: one rendering and encoding
// of the board, shared) to a transport that discards them.
func BenchmarkMovePipeline(b *testing.B) {
	st, err := boltdb.Open(filepath.Join(b.TempDir(), "bench.db"), storage.Options{}) // fsync on
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	svc := service.New(st, service.Config{Renderer: render.Renderer{}, Now: func() time.Time { return time.Unix(0, 0) }})
	seed := uint64(0)
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		seed++
		id := lateGame(b, st, seed)
		g, _ := st.Game(b.Context(), id)
		u := service.User{ID: g.Players[len(g.Moves)%2].ID}
		ref := fmt.Sprint(id)
		move := svc.MoveChoices(service.Request{User: u}, ref, "")[0].Value // warms the position cache, as a player's autocomplete does
		b.StartTimer()
		if _, err := svc.Move(service.Request{User: u, InteractionID: fmt.Sprint("i", seed)}, ref, move); err != nil {
			b.Fatal(err)
		}
		if n, err := delivery.New(svc, svc.Store()).Deliver(context.Background(), discard{}); err != nil || n != 3 {
			b.Fatalf("delivered %d: %v", n, err)
		}
	}
}

// BenchmarkAutocomplete: the first autocomplete of a late-game position
// (it lists and scores every legal move) and later keystrokes.
func BenchmarkAutocomplete(b *testing.B) {
	st, err := boltdb.Open(filepath.Join(b.TempDir(), "bench.db"), storage.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	b.Run("first", func(b *testing.B) {
		seed := uint64(100)
		b.ReportAllocs()
		for b.Loop() {
			b.StopTimer()
			seed++
			svc := service.New(st, service.Config{Renderer: render.Renderer{}})
			id := lateGame(b, st, seed)
			svc.Board(service.Request{User: service.User{ID: "1"}}, fmt.Sprint(id)) // replayed and cached, not yet listed
			b.StartTimer()
			svc.MoveChoices(service.Request{User: service.User{ID: "1"}}, fmt.Sprint(id), "")
		}
	})
	b.Run("typing", func(b *testing.B) {
		svc := service.New(st, service.Config{Renderer: render.Renderer{}})
		id := lateGame(b, st, 1)
		ref := fmt.Sprint(id)
		req := service.Request{User: service.User{ID: "1"}}
		svc.MoveChoices(req, ref, "")
		b.ReportAllocs()
		for b.Loop() {
			svc.MoveChoices(req, ref, "e4 r")
		}
	})
}

// discard is a transport that accepts everything.
type discard struct{}

func (discard) Thread(context.Context, string, string, string) (string, error) { return "t", nil }
func (discard) Post(context.Context, string, service.Message, string) (string, error) {
	return "m", nil
}
func (discard) Edit(context.Context, string, string, service.Message) error { return nil }
func (discard) DM(context.Context, string, service.Message, string) error   { return nil }
func (discard) React(context.Context, string, string, string) error         { return nil }
