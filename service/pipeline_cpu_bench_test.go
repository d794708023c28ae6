package service_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"tessera/delivery"
	"tessera/internal/cputime"
	"tessera/render"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/boltdb"
)

// BenchmarkMovePipelineCPU is BenchmarkMovePipeline that also reports the
// CPU time of the timed part of each move (cpu-ms/op, every goroutine's,
// the encoder's and the collector's included). On a machine shared with
// other work the wall time says how long the move waited for a core as
// much as how long it took; the CPU time is steadier, and it is what
// bounds how many moves a machine delivers per second.
func BenchmarkMovePipelineCPU(b *testing.B) {
	st, err := boltdb.Open(filepath.Join(b.TempDir(), "bench.db"), storage.Options{}) // fsync on
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	svc := service.New(st, service.Config{Renderer: render.Renderer{}, Now: func() time.Time { return time.Unix(0, 0) }})
	seed := uint64(0)
	var cpu time.Duration
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		seed++
		id := lateGame(b, st, seed)
		g, _ := st.Game(b.Context(), id)
		u := service.User{ID: g.Players[len(g.Moves)%2].ID}
		ref := fmt.Sprint(id)
		move := svc.MoveChoices(service.Request{User: u}, ref, "")[0].Value
		c0 := cputime.Used()
		b.StartTimer()
		if _, err := svc.Move(service.Request{User: u, InteractionID: fmt.Sprint("i", seed)}, ref, move); err != nil {
			b.Fatal(err)
		}
		if n, err := delivery.New(svc, svc.Store()).Deliver(context.Background(), discard{}); err != nil || n != 3 {
			b.Fatalf("delivered %d: %v", n, err)
		}
		b.StopTimer()
		cpu += cputime.Used() - c0
		b.StartTimer()
	}
	b.ReportMetric(float64(cpu)/float64(b.N)/1e6, "cpu-ms/op")
}
