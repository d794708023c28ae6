package service_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"tessera"
	"tessera/engine"
	"tessera/render"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/boltdb"
)

// fullGame stores a finished 2-player Elemental game (64 moves: a tile in
// every cell) and returns it.
func fullGame(tb testing.TB, st storage.Store, seed uint64) *tessera.Game {
	tb.Helper()
	setup := engine.Setup{Game: "elemental", Players: 2, Seed: seed, Options: map[string]string{"borders": "RBGY"}}
	pos, err := engine.New(setup)
	if err != nil {
		tb.Fatal(err)
	}
	g := &tessera.Game{Status: tessera.StatusFinished, Setup: setup, GuildID: "g", ChannelID: fmt.Sprint("c", seed),
		Players: []tessera.Player{{ID: "1", Name: "Ana", Accepted: true}, {ID: "2", Name: "Bo", Accepted: true}}}
	for i := 0; !pos.Over(); i++ {
		l := pos.Legal()
		m := l[(i*31)%len(l)]
		g.Moves = append(g.Moves, tessera.MoveEntry{Seat: int(pos.ToMove()), Text: m.String()})
		if _, err := pos.Apply(m); err != nil {
			tb.Fatal(err)
		}
	}
	if err := st.Create(tb.Context(), g, ""); err != nil {
		tb.Fatal(err)
	}
	return g
}

// BenchmarkReplayGIF: /replay of a whole 64-move Elemental game, from the
// stored record to the GIF file (65 frames). It reports the file's size.
func BenchmarkReplayGIF(b *testing.B) {
	st, err := boltdb.Open(filepath.Join(b.TempDir(), "bench.db"), storage.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	g := fullGame(b, st, 1)
	if len(g.Moves) != 64 {
		b.Fatalf("%d moves, want 64", len(g.Moves))
	}
	svc := service.New(st, service.Config{Renderer: render.Renderer{}})
	req := service.Request{GuildID: "g", User: service.User{ID: "1"}}
	size := 0
	b.ReportAllocs()
	for b.Loop() {
		r, err := svc.ReplayGIF(req, fmt.Sprint(g.ID), 0, 0)
		if err != nil {
			b.Fatal(err)
		}
		size = len(r.Files[0].Data)
	}
	b.ReportMetric(float64(size), "bytes/gif")
}
