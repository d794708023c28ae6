package service_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"tessera"
	"tessera/service"
	"tessera/tournament"
)

// runTournament runs /tournament sub from the command table, as Discord
// and the console do.
func (h *harness) runTournament(u service.User, sub string, in service.Args) (service.Reply, error) {
	h.t.Helper()
	cmd, _ := service.LookupCommand("tournament")
	for _, c := range cmd.Subcommands {
		if c.Name == sub {
			return c.Run(h.svc, h.req(u), in)
		}
	}
	h.t.Fatalf("no /tournament %s", sub)
	return service.Reply{}, nil
}

// TestEventByeEndToEnd (issue #48, part 2): the organiser sets the
// limits at new (one half-point bye, no zero-point bye, byes up to
// round 2); a player asks for a bye through /tournament bye, is refused
// with a reason past the limits, and is left out of the round they asked
// for, which scores them half a point; a cancelled request pairs them
// again.
func TestEventByeEndToEnd(t *testing.T) {
	h := newHarness(t)
	r := h.ok(h.runTournament(ana, "new", service.Args{"game": "closure", "format": "swiss", "name": "Cup", "rounds": 3,
		"zero-byes": 0, "byes-until": 2, "tiebreaks": "bh-c1, sb"}))
	id := r.Event
	e := h.event(id)
	if e.Pairing.MaxHalfByes != 1 || e.Pairing.MaxZeroByes != 0 || e.Pairing.LastByeRound != 2 || !slices.Equal(e.Pairing.TieBreaks, []string{"BH-C1", "SB"}) {
		t.Fatalf("limits %d %d %d, tie-breaks %v", e.Pairing.MaxHalfByes, e.Pairing.MaxZeroByes, e.Pairing.LastByeRound, e.Pairing.TieBreaks)
	}
	ps := players(5)
	h.enter(id, ps...)
	asker := ps[0]
	bye := func(in service.Args) (service.Reply, error) {
		in["event"] = fmt.Sprint(id)
		return h.runTournament(asker, "bye", in)
	}
	// Before the start: round 1 asked, then taken back; round 2 asked.
	if r := h.ok(bye(service.Args{"round": 1})); !strings.Contains(r.Text, "You will sit out round 1 of **Cup** (#1) with a half-point bye (0.5 points)") {
		t.Fatalf("bye round 1: %q", r.Text)
	}
	if r := h.ok(bye(service.Args{"round": 1, "cancel": true})); !strings.Contains(r.Text, "paired in round 1") {
		t.Fatalf("cancel: %q", r.Text)
	}
	h.ok(bye(service.Args{"round": 2}))
	for _, c := range []struct {
		in   service.Args
		want string
	}{
		{service.Args{"round": 3}, "Byes can be asked for up to round 2"},
		{service.Args{"round": 1}, "You have had or asked for the 1 half-point byes the organiser allows"},
		{service.Args{"round": 1, "kind": "zero"}, "The organiser allows no zero-point byes"},
		{service.Args{"round": 2}, "You already asked to sit out round 2"},
		{service.Args{"round": 1, "kind": "full"}, "kind:half"},
		{service.Args{"round": 3, "cancel": true}, "You have no bye asked for round 3"},
	} {
		_, err := bye(c.in)
		if tessera.ErrorCode(err) != tessera.EINVALID || !strings.Contains(h.svc.Fail(err).Text, c.want) {
			t.Errorf("%v: %v, want a refusal saying %q", c.in, err, c.want)
		}
	}
	if _, err := h.runTournament(service.User{ID: "999", Name: "Zed"}, "bye", service.Args{"event": fmt.Sprint(id), "round": 2}); err == nil || !strings.Contains(h.svc.Fail(err).Text, "not entered") {
		t.Errorf("a stranger's bye: %v", err)
	}

	h.ok(h.svc.StartEvent(h.req(ana), id))
	e = h.playRound(id)
	if len(e.Pairing.Played) != 2 {
		t.Fatalf("%d rounds", len(e.Pairing.Played))
	}
	rd := e.Pairing.Played[1]
	if !slices.Equal(rd.Absent, []tournament.Absence{{ID: asker.ID, Bye: tournament.ByeHalf}}) || len(rd.Tables) != 2 || len(rd.Byes) != 0 {
		t.Fatalf("round 2: %+v", rd)
	}
	if x := e.Pairing.Result(asker.ID, 2); x.Kind != tournament.KindHalfBye || x.Points != 0.5 {
		t.Fatalf("the asker's round 2: %+v", x)
	}
	// A round already paired cannot be asked for.
	if _, err := bye(service.Args{"round": 2, "cancel": true}); err == nil {
		t.Error("a paired round's bye taken back")
	}
	if _, err := bye(service.Args{"round": 2}); err == nil || !strings.Contains(h.svc.Fail(err).Text, "already paired") {
		t.Errorf("a paired round: %v", err)
	}
	st := h.ok(h.svc.EventStandings(h.req(bo), fmt.Sprint(id)))
	if !strings.Contains(st.Text, "Buchholz cut 1:") || !strings.Contains(st.Text, "Sonneborn-Berger:") || strings.Contains(st.Text, "wins:") {
		t.Errorf("standings with the organiser's tie-breaks: %q", st.Text)
	}
}

// TestEventByeRefusedOutsideSwiss: a round robin pairs every round at
// the start, so there is no bye to ask for, and new refuses bye limits
// for it.
func TestEventByeRefusedOutsideSwiss(t *testing.T) {
	h := newHarness(t)
	if _, err := h.runTournament(ana, "new", service.Args{"game": "closure", "format": "round-robin", "half-byes": 2}); err == nil || !strings.Contains(h.svc.Fail(err).Text, "are for swiss") {
		t.Errorf("round robin with half-byes: %v", err)
	}
	if _, err := h.runTournament(ana, "new", service.Args{"game": "closure", "format": "swiss", "tiebreaks": "BH, XYZ"}); err == nil || !strings.Contains(h.svc.Fail(err).Text, "choose from") {
		t.Errorf("an unknown tie-break: %v", err)
	}
	id := h.newEvent(service.NewEventRequest{Game: "closure", Format: "round-robin"})
	h.enter(id, players(3)...)
	_, err := h.runTournament(players(3)[0], "bye", service.Args{"event": fmt.Sprint(id), "round": 2})
	if err == nil || !strings.Contains(h.svc.Fail(err).Text, "only in a Swiss event") {
		t.Errorf("a round robin's bye: %v", err)
	}
}

// playRound ends every game in play of the event (the first seat
// resigns) and returns the event.
func (h *harness) playRound(id uint64) *tessera.Event {
	h.t.Helper()
	e := h.event(id)
	last := len(e.Pairing.Played) - 1
	for t, table := range e.Pairing.Played[last].Tables {
		if !table.Played() {
			h.ok(h.svc.ResignConfirm(h.req(userOf(e, table.Seats[0])), e.Games[last][t]))
		}
	}
	return h.event(id)
}
