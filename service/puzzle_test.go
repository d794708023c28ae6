package service_test

import (
	"strings"
	"testing"
	"time"

	"tessera"
	"tessera/service"
)

// TestPuzzleAlone: a puzzle starts at once for its player alone, even on
// a server whose games have a clock: it has none, is never an open
// challenge, and gets no turn notices, reminders or time-outs however
// long its player thinks.
func TestPuzzleAlone(t *testing.T) {
	h := newHarnessClock(t, "3d")
	h.refused(tessera.EINVALID, "no \"medium\" puzzle")(h.svc.Puzzle(h.req(ana), service.PuzzleRequest{Level: "medium"}))
	r := h.ok(h.svc.Puzzle(h.req(ana), service.PuzzleRequest{Level: "HARD"}))
	if !strings.Contains(r.Text, "**Knotwork**, game #1, for Ana alone, begins in its own thread.") || len(r.Buttons) != 0 || len(r.Mentions) != 0 {
		t.Fatalf("/puzzle: %q %+v", r.Text, r)
	}
	g := h.game(1)
	if g.Status != tessera.StatusPlaying || g.Open || g.Clock.Kind != "none" || !g.Deadline.IsZero() || g.Setup.Options["puzzle"] != "hard" {
		t.Fatalf("game: %+v", g)
	}
	if r := h.ok(h.svc.Challenges(h.req(bo))); len(r.Buttons) != 0 {
		t.Fatalf("a puzzle is listed as an open challenge: %q", r.Text)
	}
	log := h.deliver()
	if len(of(log, "dm")) != 0 || strings.Contains(texts(log), "your turn") || strings.Contains(texts(log), "<@1>") {
		t.Fatalf("start pings or notices the player alone:\n%s", texts(log))
	}
	h.now = h.now.Add(60 * 24 * time.Hour)
	if n, err := h.svc.Tick(t.Context()); err != nil || n != 0 {
		t.Fatalf("tick: %d %v", n, err)
	}
	if log := h.deliver(); len(log) != 0 {
		t.Fatalf("after 60 days:\n%s", texts(log))
	}
	if g := h.game(1); g.Status != tessera.StatusPlaying {
		t.Fatalf("status %s", g.Status)
	}
	// /new with the puzzle option and no opponent is the same.
	r = h.ok(h.svc.NewGame(h.req(bo), service.NewGameRequest{Game: "knotwork", Opponents: nil, Options: "puzzle=easy", Clock: ""}))
	if !strings.Contains(r.Text, "game #2, for Bo alone, begins") {
		t.Fatalf("/new puzzle=easy: %q", r.Text)
	}
	games := h.ok(h.svc.Games(h.req(ana)))
	if !strings.Contains(games.Text, "#1 Knotwork (alone): **your turn**") || strings.Contains(games.Text, "vs") {
		t.Fatalf("/games: %q", games.Text)
	}
}

// TestHintOnlyForPuzzles: a game without hints says so; a Knotwork game
// between two players gives none (it would play for one side); only the
// puzzle's player gets its hints.
func TestHintOnlyForPuzzles(t *testing.T) {
	h := newHarness(t)
	h.start() // #1, Elemental
	h.refused(tessera.EINVALID, "Elemental Connection has no hints")(h.svc.Hint(h.req(ana), "1"))
	h.ok(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "knotwork", Opponents: []service.User{bo}, Options: "", Clock: ""}))
	h.ok(h.svc.Click(h.req(bo), "accept:2"))
	h.refused(tessera.EINVALID, "Hints are for puzzles played alone")(h.svc.Hint(h.req(ana), "2"))
	h.ok(h.svc.Puzzle(h.req(cy), service.PuzzleRequest{}))
	if g := h.game(3); g.Setup.Options["puzzle"] != "easy" {
		t.Fatalf("default level: %+v", g.Setup.Options)
	}
	h.refused(tessera.EFORBIDDEN, "not playing")(h.svc.Hint(h.req(bo), "3"))
	r := h.ok(h.svc.Hint(h.req(cy), ""))
	if !r.Ephemeral || !strings.HasPrefix(r.Text, "Try ") {
		t.Fatalf("hint: %q", r.Text)
	}
}
