package web

import (
	"bufio"
	"context"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"tessera"
	"tessera/service"
	"tessera/storage"
)

// lateGame stores a game of kind whose record is a random game played to
// its end but for its last few moves: a late position, in play.
func (s *site) lateGame(tb testing.TB, kind, options string) *tessera.Game {
	tb.Helper()
	g := s.start(kind, options)
	st, err := service.Replay(g)
	if err != nil {
		tb.Fatal(err)
	}
	r := rand.New(rand.NewPCG(uint64(len(kind)), 1))
	var moves []tessera.MoveEntry
	for !st.Over() {
		legal := st.Legal()
		m := legal[r.IntN(len(legal))]
		moves = append(moves, tessera.MoveEntry{Seat: int(st.ToMove()), Text: m.String(), At: s.clock()})
		if _, err := st.Apply(m); err != nil {
			tb.Fatal(err)
		}
	}
	moves = moves[:max(0, len(moves)-3)]
	g, err = s.svc.Store().Update(context.Background(), g.ID, g.Version, "", func(g *tessera.Game, tx storage.Tx) error {
		g.Moves = moves
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// BenchmarkGamePage is the server's time for a late position's page of
// each game, as a spectator sees it and as the player to move does (their
// hand and legal moves with what each gains), and as the spectators after
// the first get it (the page cache); ms-median is the median of
// the requests timed one by one, the goal being at most 20 ms;
// svg-bytes is the board's inline SVG (goal: at most 40 KB).
func BenchmarkGamePage(b *testing.B) {
	for _, kind := range []string{"closure", "elemental", "glorieta", "knotwork", "tilingking"} {
		s := newSite(b)
		g := s.lateGame(b, kind, "")
		st, mover, _ := s.turn(g)
		token, _ := s.svc.PlayerToken(context.Background(), g, mover.ID)
		board, err := s.web.cfg.SVG.BoardOnly(st.Board())
		if err != nil {
			b.Fatal(err)
		}
		for _, who := range []string{"spectator", "player", "spectator-cached"} {
			b.Run(kind+"/"+who, func(b *testing.B) {
				s.web.cache.life = -1 // every page made anew
				if who == "spectator-cached" {
					s.web.cache.life = pageLife // as after a move: every open page asks for the same one
				}
				h := s.web.Handler()
				var times []time.Duration
				size := 0
				for b.Loop() {
					req := httptest.NewRequest("GET", s.addr(g.ID), nil)
					if who == "player" {
						req.AddCookie(&http.Cookie{Name: tokenCookie, Value: token})
					}
					w := httptest.NewRecorder()
					start := time.Now()
					h.ServeHTTP(w, req)
					times = append(times, time.Since(start))
					if w.Code != 200 {
						b.Fatalf("%d %s", w.Code, w.Body)
					}
					size = w.Body.Len()
				}
				slices.Sort(times)
				b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms-median")
				b.ReportMetric(float64(size), "page-bytes")
				b.ReportMetric(float64(len(g.Moves)), "moves")
				b.ReportMetric(float64(len(board)), "svg-bytes")
			})
		}
	}
}

// BenchmarkLive opens 2,000 event streams on one game in one process
// and makes a move: mem/conn is the process's heap and stacks per
// connection (both ends: the client's side is in the same process),
// ms-to-last the time from the move's commit to the last stream's event
// (the pollers read every 250 ms, the default), ms-to-last-page to the
// last page's new position fetched, as the page's script does.
func BenchmarkLive(b *testing.B) {
	const conns = 2000
	for b.Loop() {
		s := newSite(b)
		s.web.hub.poll = DefaultPoll
		s.web.hub.perClient = conns // 2,000 pages of as many people, all from this one address
		g := s.start("elemental", "borders=RBGY")
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		ctx, cancel := context.WithCancel(context.Background())
		tr := &http.Transport{MaxIdleConnsPerHost: conns, MaxConnsPerHost: 0}
		client := &http.Client{Transport: tr}
		var ready, got, shown sync.WaitGroup
		ready.Add(conns)
		got.Add(conns)
		shown.Add(conns)
		for range conns {
			go func() {
				req, _ := http.NewRequestWithContext(ctx, "GET", s.srv.URL+s.addr(g.ID)+"/events?v="+itoa(g.Version), nil)
				res, err := client.Do(req)
				if err != nil {
					b.Error(err)
					ready.Done()
					got.Done()
					shown.Done()
					return
				}
				defer res.Body.Close()
				sc := bufio.NewScanner(res.Body)
				sc.Scan() // retry:
				ready.Done()
				for sc.Scan() {
					if strings.HasPrefix(sc.Text(), "event: change") {
						got.Done()
						// As the page's script does: fetch the new position.
						page, err := client.Get(s.srv.URL + s.addr(g.ID) + "?part=position")
						if err == nil {
							io.Copy(io.Discard, page.Body)
							page.Body.Close()
						}
						shown.Done()
						return
					}
				}
				got.Done()
				shown.Done()
			}()
		}
		ready.Wait()
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		st, mover, _ := s.turn(g)
		if _, err := s.svc.Move(s.req(mover), "", st.Legal()[0].String()); err != nil {
			b.Fatal(err)
		}
		moved := time.Now()
		got.Wait()
		b.ReportMetric(float64(time.Since(moved).Microseconds())/1000, "ms-to-last")
		shown.Wait()
		b.ReportMetric(float64(time.Since(moved).Microseconds())/1000, "ms-to-last-page")
		b.ReportMetric(float64((after.HeapInuse+after.StackInuse)-(before.HeapInuse+before.StackInuse))/conns, "bytes/conn")
		cancel()
		tr.CloseIdleConnections()
	}
}
