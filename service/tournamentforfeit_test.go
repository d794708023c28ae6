package service_test

import (
	"strings"
	"testing"

	"tessera"
	"tessera/service"
	"tessera/tournament"
)

// TestEventForfeit (issue #48, part 2): a game lost on time before the
// player made a move is a forfeit: the table marks the seat that did not
// appear, it scores 1-0, and the standings and the pairing read it as
// unplayed. A player who resigns without moving appeared: that stays a
// game.
func TestEventForfeit(t *testing.T) {
	h := newHarness(t)
	id := h.newEvent(service.NewEventRequest{Game: "closure", Format: "swiss", Rounds: 2, Clock: "1d"})
	h.enter(id, players(4)...)
	h.ok(h.svc.StartEvent(h.req(ana), id))
	e := h.event(id)
	t0, t1 := e.Pairing.Played[0].Tables[0], e.Pairing.Played[0].Tables[1]
	h.ok(h.svc.ResignConfirm(h.req(userOf(e, t0.Seats[1])), e.Games[0][0]))
	h.now = h.now.Add(25 * 60 * 60e9) // table 2's first player never moves
	if _, err := h.svc.Tick(t.Context()); err != nil {
		t.Fatal(err)
	}
	e = h.event(id)
	if got := e.Pairing.Played[0].Tables[0]; got.Forfeited != nil {
		t.Errorf("a resignation is marked a forfeit: %+v", got)
	}
	got := e.Pairing.Played[0].Tables[1]
	if len(got.Forfeited) != 2 || !got.Forfeited[0] || got.Forfeited[1] {
		t.Fatalf("table 2 after the time-out: %+v, want seat 1 forfeited", got)
	}
	if x := e.Pairing.Result(t1.Seats[0], 1); x.Kind != tournament.KindForfeitLoss || x.Points != 0 || x.Played {
		t.Errorf("the absent player's round 1: %+v", x)
	}
	if x := e.Pairing.Result(t1.Seats[1], 1); x.Kind != tournament.KindForfeitWin || x.Points != 1 || x.Played {
		t.Errorf("the opponent's round 1: %+v", x)
	}
	if len(e.Pairing.Played) != 2 {
		t.Fatalf("round 2 not paired: %d rounds", len(e.Pairing.Played))
	}
	found := false
	posts := h.eventOutbox(id)[string(tessera.AnnounceEventPost)]
	for _, a := range posts {
		found = found || strings.Contains(a.Text, "(a forfeit: "+userOf(e, t1.Seats[0]).Name+" never moved)")
	}
	if !found {
		t.Errorf("no post says the forfeit: %+v", posts)
	}
	st, err := service.Standings(e)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range st {
		if s.ID == t1.Seats[0] && s.Games != 0 || s.ID == t1.Seats[1] && s.Games != 0 {
			t.Errorf("%s: %d games played, want 0 (a forfeit is no game)", s.ID, s.Games)
		}
	}
}
