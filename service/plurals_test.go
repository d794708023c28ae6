package service_test

import (
	"strings"
	"testing"

	"tessera/service"
)

// Item 21 of issue 24: counts of one are singular. /profile said "1 rated
// games, 1 games in play" and /leaderboard "after 1 rated games".
func TestCountsOfOneAreSingular(t *testing.T) {
	h := newHarness(t)
	h.resign(bo, h.newGame("elemental", "borders=RBGY", ana, bo))
	h.newGame("closure", "", ana, cy) // ana's one game in play
	if r := h.ok(h.svc.Profile(h.req(ana), service.User{})); !strings.HasPrefix(r.Text, "Profile of **Ana** in this server: 1 rated game, 1 game in play.") {
		t.Errorf("/profile: %q", r.Text)
	}
	if r := h.ok(h.svc.Leaderboard(h.req(bo), "elemental")); !strings.Contains(r.Text, "leaderboard of this server: 2 rated players. You are 2nd with ") || !strings.HasSuffix(r.Text, " after 1 rated game.") {
		t.Errorf("/leaderboard: %q", r.Text)
	}
}
