package web

import (
	"context"
	"strings"
	"testing"

	"tessera"
)

// TestGamePageAnalysis: a finished game's page shows its analysis once
// done (issue #49): the chart, one line per seat from a spectator's view
// (here the board every player sees), each player's verdict, and each
// move's error in the move list; before the analysis, none of it.
func TestGamePageAnalysis(t *testing.T) {
	s := newSite(t)
	g := s.start("knotwork", "")
	for range 2 {
		st, mover, _ := s.turn(g)
		if _, err := s.svc.Move(s.req(mover), itoa(g.ID), st.Legal()[0].String()); err != nil {
			t.Fatal(err)
		}
		g = s.game(g.ID)
	}
	if _, err := s.svc.ResignConfirm(s.req(ana), g.ID); err != nil {
		t.Fatal(err)
	}
	g = s.game(g.ID)
	if g.Status != tessera.StatusFinished || len(g.Moves) != 3 {
		t.Fatalf("status %s, %d entries", g.Status, len(g.Moves))
	}
	addr := s.addr(g.ID)
	if _, page := s.get(nil, addr); strings.Contains(page, `class="analysis"`) {
		t.Fatal("an analysis shown before there is one")
	}
	// The analysis as the worker stores it: move 1 (Ana's) lost 0.20
	// against the best move, move 2 (Bo's) was the best, then Ana
	// resigned (an error of all the chance she had: 0.40).
	pos := []tessera.AnalysedPosition{
		{Seat: 0, Win: []float64{0.5, 0.5}, Best: "x", BestWin: []float64{0.6, 0.4}, Played: g.Moves[0].Text, PlayedWin: []float64{0.4, 0.6}, Public: []float64{0.5, 0.5}, Own: []float64{0.5, 0.5}},
		{Seat: 1, Win: []float64{0.4, 0.6}, Best: g.Moves[1].Text, BestWin: []float64{0.4, 0.6}, Played: g.Moves[1].Text, PlayedWin: []float64{0.4, 0.6}, Public: []float64{0.4, 0.6}, Own: []float64{0.4, 0.6}},
		{Seat: 0, Win: []float64{0.4, 0.6}, Played: g.Moves[2].Text, Public: []float64{0.4, 0.6}, Own: []float64{0.4, 0.6}},
		{Seat: -1, Win: []float64{0, 1}, Public: []float64{0, 1}, Own: []float64{0, 1}},
	}
	if err := s.store.CreateAnalysis(context.Background(), &tessera.Analysis{GameID: g.ID, Status: tessera.AnalysisDone, Iterations: 100, Positions: pos}); err != nil {
		t.Fatal(err)
	}
	s.web.cache.life = -1 // the page made before the analysis is not kept (the site's clock stands still)
	_, page := s.get(nil, addr)
	for _, want := range []string{`class="analysis"`, "<polyline", `points="0.0,80.0 133.3,96.0 266.7,96.0 400.0,160.0"`, "which every player sees whole",
		"Ana: 2 errors, total −0.60", "Bo: 0 errors", "error −0.20 (x was better)"} {
		if !strings.Contains(page, want) {
			t.Errorf("no %q in the page", want)
		}
	}
	if i := strings.Index(page, `<section class="analysis"`); i < 0 || strings.Contains(page, "ZgotmplZ") {
		t.Errorf("the analysis escaped away: %.1500s", page[max(0, i):])
	}
	if strings.Count(page, "<polyline") != 2 || strings.Count(page, "error −") != 2 { // Ana's move, and her resignation's
		t.Errorf("%d lines, %d errors in the page", strings.Count(page, "<polyline"), strings.Count(page, "error −"))
	}
}
