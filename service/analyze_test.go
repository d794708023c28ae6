package service_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"tessera"
	"tessera/engine"
	"tessera/render"
	"tessera/service"
)

// analysisIterations keeps the service's analyses quick in tests: the
// worker, the store and the posts are what these tests look at, not the
// search (ai/analyze_test.go).
const analysisIterations = 24

func newAnalysisHarness(t *testing.T) *harness {
	return newHarnessWith(t, func(c *service.Config) { c.AnalysisIterations = analysisIterations })
}

// finishedGame stores a finished 2-player game of game: k random moves
// from a seeded deal, then the player to move resigns unless the game
// ended by itself. It returns the game's id.
func finishedGame(t *testing.T, h *harness, game string, k int, seed uint64) uint64 {
	t.Helper()
	setup := engine.Setup{Game: game, Players: 2, Seed: seed}
	st, err := engine.New(setup)
	if err != nil {
		t.Fatal(err)
	}
	r := engine.NewRand(seed)
	var moves []tessera.MoveEntry
	for i := 0; i < k && !st.Over(); i++ {
		legal := st.Legal()
		m := legal[r.IntN(len(legal))]
		moves = append(moves, tessera.MoveEntry{Seat: int(st.ToMove()), Text: m.String(), At: h.now})
		if _, err := st.Apply(m); err != nil {
			t.Fatal(err)
		}
	}
	if !st.Over() {
		moves = append(moves, tessera.MoveEntry{Seat: int(st.ToMove()), Text: "resign", At: h.now})
	}
	g := &tessera.Game{Status: tessera.StatusFinished, Setup: setup, Moves: moves,
		Players: []tessera.Player{{ID: ana.ID, Name: ana.Name}, {ID: bo.ID, Name: bo.Name}},
		GuildID: "g", ChannelID: "c", ThreadID: "thread-" + game, StatusID: "status-" + game, Created: h.now, Updated: h.now}
	if err := h.svc.Store().Create(t.Context(), g, ""); err != nil {
		t.Fatal(err)
	}
	return g.ID
}

// results are the analyses' result posts among deliveries (the posts with
// the chart).
func results(log []sent) []sent {
	var out []sent
	for _, s := range of(log, "post") {
		if len(s.Msg.Files) > 0 && strings.HasSuffix(s.Msg.Files[0].Name, "-analysis.png") {
			out = append(out, s)
		}
	}
	return out
}

// TestAnalyzeEveryGame: a finished game of each of the five games is
// analysed off the interaction path: the reply says it started, a
// progress line is posted in the game's thread and edited, the chart and
// the costly moves follow there, and asking again answers at once from
// the store with the same picture.
func TestAnalyzeEveryGame(t *testing.T) {
	for _, game := range []string{"elemental", "closure", "glorieta", "knotwork", "tilingking"} {
		t.Run(game, func(t *testing.T) {
			h := newAnalysisHarness(t)
			k := 14
			if game == "glorieta" || game == "tilingking" {
				k = 6 // thousands of moves a position
			}
			id := finishedGame(t, h, game, k, 3)
			r := h.ok(h.svc.Analyze(h.req(ana), fmt.Sprint(id)))
			if !strings.Contains(r.Text, fmt.Sprintf("analysis of game #%d has started", id)) || len(r.Files) != 0 {
				t.Fatalf("first reply: %q", r.Text)
			}
			n, err := h.svc.AnalyzeQueued(t.Context())
			if err != nil || n != 1 {
				t.Fatalf("analysed %d: %v", n, err)
			}
			log := h.deliver()
			place := "thread-" + game
			posts := of(log, "post")
			if len(posts) < 2 || posts[0].Channel != place || !strings.Contains(posts[0].Msg.Text, "positions") {
				t.Fatalf("no progress line first in %s: %+v", place, log)
			}
			edits := of(log, "edit")
			if len(edits) == 0 || edits[len(edits)-1].ID != posts[0].ID || !strings.Contains(edits[len(edits)-1].Msg.Text, "done") {
				t.Fatalf("the progress line was not edited to done: %+v", edits)
			}
			res := results(log)
			if len(res) != 1 || res[0].Channel != place {
				t.Fatalf("result posts %+v", res)
			}
			text := res[0].Msg.Text
			if !strings.Contains(text, "**Analysis**") || !strings.Contains(text, "Ana: ") || !strings.Contains(text, "Bo: ") {
				t.Fatalf("result text %q", text)
			}
			png := res[0].Msg.Files[0].Data
			if len(png) < 1000 || string(png[1:4]) != "PNG" {
				t.Fatalf("chart of %d bytes", len(png))
			}
			a, err := h.svc.Store().Analysis(t.Context(), id)
			if err != nil || a.Status != tessera.AnalysisDone {
				t.Fatalf("stored: %+v %v", a, err)
			}
			g, _ := h.svc.Store().Game(t.Context(), id)
			if len(a.Positions) != len(g.Moves)+1 {
				t.Fatalf("%d positions for %d moves", len(a.Positions), len(g.Moves))
			}
			for i, p := range a.Positions {
				sum := 0.0
				for _, w := range p.Win {
					sum += w
				}
				if len(p.Win) != 2 || sum < 0.999 || sum > 1.001 {
					t.Fatalf("position %d: chances %v", i, p.Win)
				}
			}
			again := h.ok(h.svc.Analyze(h.req(cy), fmt.Sprint(id))) // not a player: the shared analysis only (a player's has their own view too, TestAnalysisParts)
			if again.Text != text || len(again.Files) != 1 || string(again.Files[0].Data) != string(png) {
				t.Fatalf("asked again: %q, %d files", again.Text, len(again.Files))
			}
			if n, err := h.svc.AnalyzeQueued(t.Context()); err != nil || n != 0 {
				t.Fatalf("asking again queued it: %d %v", n, err)
			}
			if log := h.deliver(); len(log) != 0 {
				t.Fatalf("asking again posted %+v", log)
			}
		})
	}
}

// TestAnalyzeRefusals: a game in play is refused with the reason (and
// nothing is queued), as are an aborted game and a game that does not
// exist.
func TestAnalyzeRefusals(t *testing.T) {
	h := newAnalysisHarness(t)
	id := h.start()
	h.refused(tessera.EFORBIDDEN, "still in play: it can be analysed once it is over")(h.svc.Analyze(h.req(ana), fmt.Sprint(id)))
	h.refused(tessera.EFORBIDDEN, "still in play")(h.svc.Analyze(h.req(cy), fmt.Sprint(id)))
	if ids, err := h.svc.Store().AnalysisQueue(t.Context()); err != nil || len(ids) != 0 {
		t.Fatalf("queue %v %v", ids, err)
	}
	h.refused(tessera.ENOTFOUND, "There is no game #99")(h.svc.Analyze(h.req(ana), "99"))
	h.refused(tessera.EINVALID, "is not a game number")(h.svc.Analyze(h.req(ana), "d5"))
}

// TestAnalyzeQueue: a second game asked for while one waits is told its
// place in the queue, and the queue is taken in the order asked.
func TestAnalyzeQueue(t *testing.T) {
	var started []uint64
	h := newHarnessWith(t, func(c *service.Config) {
		c.AnalysisIterations = analysisIterations
		c.AnalysisHook = func(_ context.Context, id uint64, positions int) {
			if positions == 0 {
				started = append(started, id)
			}
		}
	})
	first := finishedGame(t, h, "knotwork", 6, 1)
	second := finishedGame(t, h, "closure", 6, 2)
	h.ok(h.svc.Analyze(h.req(ana), fmt.Sprint(second)))
	h.now = h.now.Add(time.Second)
	r := h.ok(h.svc.Analyze(h.req(bo), fmt.Sprint(first)))
	if !strings.Contains(r.Text, "is queued: 2nd in line") {
		t.Fatalf("second reply %q", r.Text)
	}
	again := h.ok(h.svc.Analyze(h.req(cy), fmt.Sprint(first)))
	if !strings.Contains(again.Text, "2nd in line") {
		t.Fatalf("asked again while queued: %q", again.Text)
	}
	if n, err := h.svc.AnalyzeQueued(t.Context()); err != nil || n != 2 {
		t.Fatalf("analysed %d: %v", n, err)
	}
	if fmt.Sprint(started) != fmt.Sprint([]uint64{second, first}) {
		t.Fatalf("analysed in the order %v, asked %d then %d", started, second, first)
	}
	// Each game's result in its own thread (the courier delivers games
	// in parallel, so their order between games is not fixed).
	res := results(h.deliver())
	got := map[string]int{}
	for _, r := range res {
		got[r.Channel]++
	}
	if len(res) != 2 || got["thread-knotwork"] != 1 || got["thread-closure"] != 1 {
		t.Fatalf("results %+v", got)
	}
}

// stopAfter is an AnalysisHook that cancels the analysis's context once
// it has written n positions, as a process stopping would.
func stopAfter(n int, cancel context.CancelFunc) func(context.Context, uint64, int) {
	return func(_ context.Context, _ uint64, positions int) {
		if positions >= n {
			cancel()
		}
	}
}

// TestAnalyzeResumesAfterRestart: an analysis stopped under way keeps the
// positions it wrote; the next process resumes from there (once: a second
// interruption gives it up, and asking again starts it anew).
func TestAnalyzeResumesAfterRestart(t *testing.T) {
	h := newAnalysisHarness(t)
	id := finishedGame(t, h, "closure", 12, 5)
	h.ok(h.svc.Analyze(h.req(ana), fmt.Sprint(id)))
	restart := func(stop int) (*service.Service, context.Context) {
		ctx, cancel := context.WithCancel(t.Context())
		t.Cleanup(cancel)
		cfg := service.Config{Renderer: render.Renderer{}, AnalysisIterations: analysisIterations, Now: func() time.Time { return h.now }}
		if stop > 0 {
			cfg.AnalysisHook = stopAfter(stop, cancel)
		}
		return service.New(h.svc.Store(), cfg), ctx
	}
	svc, ctx := restart(4)
	if _, err := svc.AnalyzeQueued(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped: %v", err)
	}
	a, _ := h.svc.Store().Analysis(t.Context(), id)
	if a.Status != tessera.AnalysisQueued || len(a.Positions) != 4 || a.Owner != "" || !a.Started {
		t.Fatalf("after the stop: %s, %d positions, owner %q", a.Status, len(a.Positions), a.Owner)
	}
	kept := fmt.Sprint(a.Positions)
	svc, ctx = restart(0)
	if n, err := svc.AnalyzeQueued(ctx); err != nil || n != 1 {
		t.Fatalf("resumed: %d %v", n, err)
	}
	b, _ := h.svc.Store().Analysis(t.Context(), id)
	g, _ := h.svc.Store().Game(t.Context(), id)
	if b.Status != tessera.AnalysisDone || b.Resumed != 1 || len(b.Positions) != len(g.Moves)+1 || fmt.Sprint(b.Positions[:4]) != kept {
		t.Fatalf("after resuming: %s, resumed %d, %d positions", b.Status, b.Resumed, len(b.Positions))
	}
	// The same analysis from the start in one run gives the same
	// positions: resuming changed nothing.
	h2 := newAnalysisHarness(t)
	id2 := finishedGame(t, h2, "closure", 12, 5)
	h2.ok(h2.svc.Analyze(h2.req(ana), fmt.Sprint(id2)))
	if _, err := h2.svc.AnalyzeQueued(t.Context()); err != nil {
		t.Fatal(err)
	}
	whole, _ := h2.svc.Store().Analysis(t.Context(), id2)
	if fmt.Sprint(whole.Positions) != fmt.Sprint(b.Positions) {
		t.Fatal("a resumed analysis differs from one run whole")
	}
	if len(results(h.deliver())) != 1 {
		t.Fatal("no result posted after resuming")
	}

	// Interrupted twice: given up, said so, and asked again starts anew.
	id3 := finishedGame(t, h, "knotwork", 10, 6)
	h.ok(h.svc.Analyze(h.req(ana), fmt.Sprint(id3)))
	for range 2 {
		svc, ctx = restart(2)
		svc.AnalyzeQueued(ctx)
	}
	svc, ctx = restart(0)
	if _, err := svc.AnalyzeQueued(ctx); err != nil {
		t.Fatal(err)
	}
	c, _ := h.svc.Store().Analysis(t.Context(), id3)
	if c.Status != tessera.AnalysisFailed || !strings.Contains(c.Error, "interrupted twice") {
		t.Fatalf("interrupted twice: %s %q", c.Status, c.Error)
	}
	log := h.deliver()
	if edits := of(log, "edit"); len(edits) == 0 || !strings.Contains(edits[len(edits)-1].Msg.Text, "Ask again with /analyze") {
		t.Fatalf("the progress line does not say it stopped: %+v", log)
	}
	r := h.ok(h.svc.Analyze(h.req(ana), fmt.Sprint(id3)))
	if !strings.Contains(r.Text, "has started") {
		t.Fatalf("asked again after it failed: %q", r.Text)
	}
	if n, err := h.svc.AnalyzeQueued(t.Context()); err != nil || n != 1 {
		t.Fatalf("anew: %d %v", n, err)
	}
}
