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

// BenchmarkAutocompleteLarge: the first autocomplete of positions with
// many legal moves (Glorieta's ~8,000 pairs, TilingKing on square11).
func BenchmarkAutocompleteLarge(b *testing.B) {
	st, err := boltdb.Open(filepath.Join(b.TempDir(), "bench.db"), storage.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	for _, c := range []struct {
		game    string
		players int
		opts    map[string]string
	}{{"glorieta", 2, nil}, {"tilingking", 3, map[string]string{"board": "square11"}}} {
		b.Run(c.game, func(b *testing.B) {
			setup := engine.Setup{Game: c.game, Players: c.players, Seed: 1, Options: c.opts}
			pos, _ := engine.New(setup)
			g := &tessera.Game{Status: tessera.StatusPlaying, Setup: setup, ChannelID: "c" + c.game}
			for i := 0; i < c.players; i++ {
				g.Players = append(g.Players, tessera.Player{ID: fmt.Sprint(i + 1), Accepted: true})
			}
			for i := 0; i < 6; i++ {
				l := pos.Legal()
				m := l[(i*37)%len(l)]
				g.Moves = append(g.Moves, tessera.MoveEntry{Seat: int(pos.ToMove()), Text: m.String()})
				pos.Apply(m)
			}
			st.Create(b.Context(), g, "")
			ref := fmt.Sprint(g.ID)
			req := service.Request{User: service.User{ID: fmt.Sprint(int(pos.ToMove()) + 1)}}
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				svc := service.New(st, service.Config{Renderer: render.Renderer{}})
				svc.Board(req, ref) // replayed and cached, not yet listed
				b.StartTimer()
				if len(svc.MoveChoices(req, ref, "")) == 0 {
					b.Fatal("no choices")
				}
			}
		})
	}
}
