package service_test

import (
	"strings"
	"testing"

	"tessera/service"
)

// TestMoveChoicesShowWhatEachMoveGains: the move list shows, beside each
// move, what it gains in that game, and lists those that gain most first
// (issue #24, item 19: TilingKing and Glorieta listed no gains, in cell
// order, and Knotwork showed (+0) for every move). TilingKing's first
// piece covers its cells and can enclose nothing on an empty board, so
// the best first moves are the 4-cell pieces, each "+4: covers 4" (there
// are far more than 25 of them), where cell order began with a1 and the
// one-cell M1. Knotwork's first tile closes no knot: no gain is shown,
// and no "(+0)".
func TestMoveChoicesShowWhatEachMoveGains(t *testing.T) {
	h := newHarness(t)
	h.ok(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "tilingking", Opponents: []service.User{bo}, Options: "", Clock: ""}))
	h.ok(h.svc.Click(h.req(bo), "accept:1"))
	cs := h.svc.MoveChoices(h.req(ana), "1", "")
	if len(cs) != service.MaxChoices {
		t.Fatalf("%d choices, want %d", len(cs), service.MaxChoices)
	}
	for _, c := range cs {
		if !strings.HasSuffix(c.Name, " (+4: covers 4)") || len(strings.Fields(c.Value)) != 4 || len(c.Name) > 100 {
			t.Fatalf("TilingKing's first moves: %q (%q), want a 4-cell piece gaining +4: covers 4", c.Name, c.Value)
		}
	}

	h.ok(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "knotwork", Opponents: []service.User{bo}, Options: "", Clock: ""}))
	h.ok(h.svc.Click(h.req(bo), "accept:2"))
	cs = h.svc.MoveChoices(h.req(ana), "2", "")
	if len(cs) == 0 {
		t.Fatal("no Knotwork moves")
	}
	for _, c := range cs {
		if c.Name != c.Value {
			t.Fatalf("Knotwork's first tile %q is shown as %q: it closes no knot", c.Value, c.Name)
		}
	}
}
