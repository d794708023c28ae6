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
	"tessera/internal/cputime"
	"tessera/render"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/boltdb"
)

// BenchmarkMovePipelineCPUSameGame is BenchmarkMovePipelineCPU for the
// moves of one game one after the other, as a game is played: the
// previous move's picture was drawn by the same process just before, so
// the renderer may draw on it (render keeps its recent boards), where
// BenchmarkMovePipelineCPU plays each move in a new game. A game starts
// 48 moves in (late, as BenchmarkMovePipelineCPU's game at 56) and its
// first move is made untimed; each of its next moves, to the game's end,
// is one timed op; then a new game starts.
func BenchmarkMovePipelineCPUSameGame(b *testing.B) {
	st, err := boltdb.Open(filepath.Join(b.TempDir(), "bench.db"), storage.Options{}) // fsync on
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	svc := service.New(st, service.Config{Renderer: render.Renderer{}, Now: func() time.Time { return time.Unix(0, 0) }})
	var (
		seed, n uint64
		g       *tessera.Game
		pos     engine.State
	)
	// next readies the next move: its player and notation, after a new
	// game when the last one is over.
	next := func() (service.User, string) {
		if pos == nil || pos.Over() {
			seed++
			g, pos = gameAt(b, st, seed, 48)
		}
		u := service.User{ID: g.Players[pos.ToMove()].ID}
		// Chosen as BenchmarkMovePipelineCPU chooses, which warms the
		// position cache as a player's autocomplete does.
		return u, svc.MoveChoices(service.Request{User: u}, fmt.Sprint(g.ID), "")[0].Value
	}
	// play makes the move and delivers its announcements.
	play := func(u service.User, move string) {
		n++
		moveAndDeliver(b, svc, g.ID, u, move, fmt.Sprint("i", n))
		applyMove(b, pos, move)
	}
	var cpu time.Duration
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		fresh := pos == nil || pos.Over()
		u, move := next()
		if fresh {
			play(u, move) // the game's first picture in this process, untimed
			if pos.Over() {
				b.Fatal("a game ended on its first move")
			}
			u, move = next()
		}
		c0 := cputime.Used()
		b.StartTimer()
		play(u, move)
		b.StopTimer()
		cpu += cputime.Used() - c0
		b.StartTimer()
	}
	b.ReportMetric(float64(cpu)/float64(b.N)/1e6, "cpu-ms/op")
}

// gameAt stores a 2-player Elemental game n moves in, played as lateGame
// plays, and returns it with its position.
func gameAt(b *testing.B, st storage.Store, seed uint64, n int) (*tessera.Game, engine.State) {
	setup := engine.Setup{Game: "elemental", Players: 2, Seed: seed, Options: map[string]string{"borders": "RBGY"}}
	pos, _ := engine.New(setup)
	g := &tessera.Game{Status: tessera.StatusPlaying, Setup: setup, ChannelID: fmt.Sprint("s", seed),
		Players: []tessera.Player{{ID: "1", Name: "Ana", Accepted: true}, {ID: "2", Name: "Bo", Accepted: true}}}
	for i := 0; i < n; i++ {
		l := pos.Legal()
		m := l[(i*31)%len(l)]
		g.Moves = append(g.Moves, tessera.MoveEntry{Seat: int(pos.ToMove()), Text: m.String()})
		pos.Apply(m)
	}
	if err := st.Create(b.Context(), g, ""); err != nil {
		b.Fatal(err)
	}
	return g, pos
}

// moveAndDeliver makes move for u in game id (interaction names the
// request) and delivers the announcements it causes to a transport that
// discards them.
func moveAndDeliver(b *testing.B, svc *service.Service, id uint64, u service.User, move, interaction string) {
	b.Helper()
	if _, err := svc.Move(service.Request{User: u, InteractionID: interaction}, fmt.Sprint(id), move); err != nil {
		b.Fatal(err)
	}
	if _, err := delivery.New(svc, svc.Store()).Deliver(context.Background(), discard{}); err != nil {
		b.Fatal(err)
	}
}

// applyMove plays move, in its notation, on pos, as the service played it.
func applyMove(b *testing.B, pos engine.State, move string) {
	b.Helper()
	m, err := pos.Parse(move)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := pos.Apply(m); err != nil {
		b.Fatal(err)
	}
}
