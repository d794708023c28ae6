package service_test

import (
	"fmt"
	"slices"
	"testing"

	"tessera"
	"tessera/service"
)

// TestButtonsRefuseStrangers holds every button action to its table
// entry's Who: someone with no part in the game or tournament who presses
// it (a button is seen by everyone who sees its message) is refused, and
// nothing changes. An action the test does not know fails it, so that a
// new button gets a case here.
func TestButtonsRefuseStrangers(t *testing.T) {
	h := newHarness(t)
	di := service.User{ID: "9", Name: "Di"}
	challenge := h.ok(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "elemental", Opponents: []service.User{bo}})).Challenge
	playing := h.newGame("elemental", "", ana, bo)
	finished := h.newGame("elemental", "", ana, bo)
	h.resign(ana, finished)
	event := h.newEvent(service.NewEventRequest{Name: "Cup", Game: "closure", Format: "swiss", Max: 4})
	h.ok(h.svc.Click(h.req(bo), fmt.Sprintf("tjoin:%d", event)))

	// ids: the id a stranger presses, per action.
	ids := map[string]string{
		"accept":   fmt.Sprintf("accept:%d", challenge),
		"decline":  fmt.Sprintf("decline:%d", challenge),
		"withdraw": fmt.Sprintf("withdraw:%d", challenge),
		"resign":   fmt.Sprintf("resign:%d", playing),
		"rematch":  fmt.Sprintf("rematch:%d", finished),
		"tleave":   fmt.Sprintf("tleave:%d", event),
		"tstart":   fmt.Sprintf("tstart:%d", event),
		"tquit":    fmt.Sprintf("tquit:%d", event),
		"tkick":    fmt.Sprintf("tkick:%d:%s", event, bo.ID),
	}
	before := func() string {
		return fmt.Sprintf("%+v %+v %+v %+v", *h.game(challenge), *h.game(playing), *h.game(finished), *h.event(event))
	}
	was := before()
	for _, b := range service.Buttons() {
		if b.Who == service.AnyMember {
			continue
		}
		id, ok := ids[b.Prefix]
		if !ok {
			t.Errorf("button %q (who: %d) has no case in this test", b.Prefix, b.Who)
			continue
		}
		if got, _ := service.ButtonFor(id); got.Prefix != b.Prefix {
			t.Errorf("%s: ButtonFor finds %q", id, got.Prefix)
		}
		_, err := h.svc.Click(h.req(di), id)
		// A tournament's player who is not entered is told so (EINVALID);
		// everyone else without a part is forbidden.
		want := []string{tessera.EFORBIDDEN}
		if b.Who == service.EventPlayers {
			want = append(want, tessera.EINVALID)
		}
		if err == nil || !slices.Contains(want, tessera.ErrorCode(err)) {
			t.Errorf("%s pressed by a stranger: %v, want one of %v", id, err, want)
		}
	}
	if now := before(); now != was {
		t.Errorf("a stranger's presses changed something:\n%s\n%s", was, now)
	}
}

// TestUnknownButtons: ids that are none of the table's, or whose number
// does not read, change nothing and say so.
func TestUnknownButtons(t *testing.T) {
	h := newHarness(t)
	for _, id := range []string{"", "nope:1", "accept", "accept:", "accept:x", "accept:1:2", "tjoin:1:2", "tkick:1", "history:1"} {
		if _, err := h.svc.Click(h.req(ana), id); tessera.ErrorCode(err) != tessera.EINVALID && tessera.ErrorCode(err) != tessera.ENOTFOUND {
			t.Errorf("%q: %v", id, err)
		}
	}
}
