package service_test

import (
	"fmt"
	"strings"
	"testing"

	"tessera"
	"tessera/service"
)

// TestStandingsSayWhereTheEventStands (issue #48, part 7): while round
// 2's only game is played, the standings say "after round 1; round 2 in
// play (1 game left)", in the text and the picture, not "after round 2
// of 2"; once it is over the event is finished and they are final.
func TestStandingsSayWhereTheEventStands(t *testing.T) {
	h := newHarness(t)
	id := h.newEvent(service.NewEventRequest{Name: "Spring", Game: "closure", Format: "swiss", Rounds: 2})
	h.enter(id, players(3)...)
	h.ok(h.svc.Click(h.req(ana), fmt.Sprintf("tstart:%d", id)))
	standings := func() (string, string) {
		t.Helper()
		r := h.ok(h.svc.EventStandings(h.req(bo), fmt.Sprint(id)))
		table, err := service.StandingsTable(h.event(id))
		if err != nil {
			t.Fatal(err)
		}
		return strings.SplitN(r.Text, "\n", 2)[0], table.Subtitle
	}
	text, sub := standings()
	if want := "Standings of **Spring** (#1), round 1 of 2 in play (1 game left):"; text != want || sub != "Round 1 of 2 in play (1 game left)" {
		t.Fatalf("round 1 in play: %q / %q, want %q", text, sub, want)
	}
	// Round 1's game ends (the first seat resigns); round 2 is paired.
	resignFirst := func() {
		e := h.event(id)
		last := len(e.Pairing.Played) - 1
		table := e.Pairing.Played[last].Tables[0]
		h.ok(h.svc.ResignConfirm(h.req(userOf(e, table.Seats[0])), e.Games[last][0]))
	}
	resignFirst()
	if e := h.event(id); len(e.Pairing.Played) != 2 || e.Status != tessera.EventRunning {
		t.Fatalf("round 2 not paired: %s, %d rounds", e.Status, len(e.Pairing.Played))
	}
	text, sub = standings()
	if want := "Standings of **Spring** (#1) after round 1; round 2 in play (1 game left):"; text != want || sub != "After round 1; round 2 in play (1 game left)" {
		t.Fatalf("round 2 in play: %q / %q, want %q", text, sub, want)
	}
	resignFirst()
	if text, sub = standings(); !strings.HasPrefix(text, "Final standings of **Spring** (#1).") || sub != "Final standings" {
		t.Fatalf("finished: %q / %q", text, sub)
	}
}
