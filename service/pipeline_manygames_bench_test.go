package service_test

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"tessera"
	"tessera/engine"
	"tessera/internal/cputime"
	"tessera/render"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/boltdb"
)

// manyGames is how many games BenchmarkMovePipelineCPUManyGames plays in
// turn: more than the renderer keeps recent boards of (8), and more than
// its kept compressed bands hold (about 40 late boards).
const manyGames = 64

// BenchmarkMovePipelineCPUManyGames is BenchmarkMovePipelineCPU as a
// server with many games in play sees its moves: players move days
// apart, so between two moves of a game the process draws the boards of
// many others. manyGames Elemental games start 48 moves in, and each has
// its first move made untimed (its previous board drawn, as it was when
// its last move was delivered); then an op is one move of the next game
// in turn, so every move's previous board was drawn manyGames-1 boards
// before. A game that ends is replaced by a new one, its first move
// untimed.
func BenchmarkMovePipelineCPUManyGames(b *testing.B) {
	st, err := boltdb.Open(filepath.Join(b.TempDir(), "bench.db"), storage.Options{}) // fsync on
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	svc := service.New(st, service.Config{Renderer: render.Renderer{}, Now: func() time.Time { return time.Unix(0, 0) }})
	type inPlay struct {
		g   *tessera.Game
		pos engine.State
	}
	var (
		seed, n uint64
		games   [manyGames]inPlay
	)
	// play makes the next move of game i (chosen as
	// BenchmarkMovePipelineCPU chooses, after the autocomplete that warms
	// the position cache) and delivers its announcements; timed says
	// whether its CPU counts.
	play := func(i int, timed bool) time.Duration {
		gp := &games[i]
		u := service.User{ID: gp.g.Players[gp.pos.ToMove()].ID}
		ref := fmt.Sprint(gp.g.ID)
		move := svc.MoveChoices(service.Request{User: u}, ref, "")[0].Value
		n++
		c0 := cputime.Used()
		if timed {
			b.StartTimer()
		}
		moveAndDeliver(b, svc, gp.g.ID, u, move, fmt.Sprint("i", n))
		if timed {
			b.StopTimer()
		}
		used := cputime.Used() - c0
		applyMove(b, gp.pos, move)
		return used
	}
	// start puts a new game in slot i and makes its first move untimed.
	start := func(i int) {
		seed++
		games[i].g, games[i].pos = gameAt(b, st, seed, 48)
		play(i, false)
	}
	b.StopTimer()
	for i := range games {
		start(i)
	}
	var cpu time.Duration
	next := 0
	b.ReportAllocs()
	b.StartTimer()
	for b.Loop() {
		b.StopTimer()
		if games[next].pos.Over() {
			start(next)
		}
		cpu += play(next, true)
		next = (next + 1) % manyGames
		b.StartTimer()
	}
	b.ReportMetric(float64(cpu)/float64(b.N)/1e6, "cpu-ms/op")
}
