// Throwaway measurement (not committed): a tick with nothing due, a
// chat line and /board without game: in a busy channel, on bbolt with N
// finished games and N/10 in play, all in channel c1.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"time"

	"tessera"
	"tessera/engine"
	"tessera/render"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/boltdb"
)

func main() {
	n, _ := strconv.Atoi(os.Args[1])
	dir, _ := os.MkdirTemp("", "placesbench")
	defer os.RemoveAll(dir)
	st, err := boltdb.Open(filepath.Join(dir, "b.db"), storage.Options{NoSync: true})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	now := time.Unix(1_700_000_000, 0).UTC()
	var moves []tessera.MoveEntry
	for i := range 40 {
		moves = append(moves, tessera.MoveEntry{Seat: i % 2, Text: "a1 RGBY", At: now})
	}
	for i := range n + n/10 {
		g := &tessera.Game{Status: tessera.StatusFinished, Setup: engine.Setup{Game: "closure", Players: 2, Seed: uint64(i + 1)},
			Players: []tessera.Player{{ID: fmt.Sprint("u", i%500), Name: "a"}, {ID: fmt.Sprint("v", i%500), Name: "b"}},
			GuildID: "g", ChannelID: "c1", ThreadID: fmt.Sprint("th", i), Created: now, Updated: now, TurnStart: now, Moves: moves, Clock: tessera.Clock{Kind: "none"}}
		if i >= n {
			g.Status, g.Moves = tessera.StatusPlaying, nil
		}
		if err := st.Create(ctx, g, ""); err != nil {
			panic(err)
		}
	}
	svc := service.New(st, service.Config{Renderer: render.Renderer{}, Seed: func() uint64 { return 7 }, Now: func() time.Time { return now.Add(time.Hour) }})
	measure := func(name string, fn func()) {
		var ds []time.Duration
		for range 15 {
			t := time.Now()
			fn()
			ds = append(ds, time.Since(t))
		}
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		fmt.Printf("%d finished, %d in play: %-40s p50 %8.2f ms  max %8.2f ms\n", n, n/10, name, float64(ds[len(ds)/2].Microseconds())/1000, float64(ds[len(ds)-1].Microseconds())/1000)
	}
	measure("tick, nothing due", func() {
		if _, err := svc.Tick(ctx); err != nil {
			panic(err)
		}
	})
	req := func(user string) service.Request {
		return service.Request{User: service.User{ID: user, Name: user}, GuildID: "g", ChannelID: "c1"}
	}
	measure("chat line in c1, author plays none there", func() { svc.PlainMove(req("nobody"), "m1", "hello there") })
	measure("chat line in c1, author plays there", func() { svc.PlainMove(req("u7"), "m1", "hello there") })
	st.Close()
}
