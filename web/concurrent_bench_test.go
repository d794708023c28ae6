package web

import (
	"context"
	"io"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"tessera/internal/cputime"
)

// BenchmarkConcurrentPages asks for a late position's page 50 at a time
// (over the network, as browsers do), as spectators and as the player to
// move, and reports the 95th percentile of the answers' times (ms-p95)
// and their median: the goal is a player's p95 within twice a
// spectator's. A spectator's page comes from the page cache after the
// first; a player's is made for them (their hand, their legal moves).
// cpu-ms/answer is the process's CPU time (server and clients, which are
// the same for both kinds) over the answers: on a loaded machine the
// times are mostly waiting for a core, the CPU is not.
func BenchmarkConcurrentPages(b *testing.B) {
	const clients, each = 50, 4
	for _, kind := range []string{"closure", "elemental", "glorieta", "knotwork", "tilingking"} {
		s := newSite(b)
		g := s.lateGame(b, kind, "")
		_, mover, _ := s.turn(g)
		token, err := s.svc.PlayerToken(context.Background(), g, mover.ID)
		if err != nil {
			b.Fatal(err)
		}
		for _, who := range []string{"spectator", "player"} {
			b.Run(kind+"/"+who, func(b *testing.B) {
				tr := &http.Transport{MaxIdleConnsPerHost: clients}
				defer tr.CloseIdleConnections()
				client := &http.Client{Transport: tr}
				var times []time.Duration
				var mu sync.Mutex
				cpu0 := cputime.Used()
				for b.Loop() {
					var wg sync.WaitGroup
					for range clients {
						wg.Add(1)
						go func() {
							defer wg.Done()
							for range each {
								req, _ := http.NewRequest("GET", s.srv.URL+s.addr(g.ID), nil)
								if who == "player" {
									req.AddCookie(&http.Cookie{Name: tokenCookie, Value: token})
								}
								start := time.Now()
								res, err := client.Do(req)
								if err != nil {
									b.Error(err)
									return
								}
								io.Copy(io.Discard, res.Body)
								res.Body.Close()
								d := time.Since(start)
								if res.StatusCode != 200 {
									b.Errorf("%d", res.StatusCode)
								}
								mu.Lock()
								times = append(times, d)
								mu.Unlock()
							}
						}()
					}
					wg.Wait()
				}
				cpu := cputime.Used() - cpu0
				slices.Sort(times)
				b.ReportMetric(float64(cpu.Microseconds())/1000/float64(len(times)), "cpu-ms/answer")
				b.ReportMetric(float64(times[len(times)*95/100].Microseconds())/1000, "ms-p95")
				b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms-median")
			})
		}
	}
}
