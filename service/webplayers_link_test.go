package service_test

import (
	"testing"

	"tessera/service"
)

// TestPlayersPagesAreLinked: with the pages on, /leaderboard, /profile
// and /challenges answer with a link button to the same thing as a page
// of the server's players' pages (nothing else links to them from
// Discord); with the pages off, or the server's turned off, with none.
func TestPlayersPagesAreLinked(t *testing.T) {
	h := newWebHarness(t)
	h.start()
	if _, err := h.svc.NewOpen(h.req(cy), service.NewGameRequest{Game: "closure"}); err != nil {
		t.Fatal(err)
	}
	base := "https://t.example/s/" + h.svc.GuildAddress("g")
	link := func(what string, r service.Reply, label, url string) {
		t.Helper()
		last := service.Button{}
		if len(r.Buttons) > 0 {
			last = r.Buttons[len(r.Buttons)-1]
		}
		if last.URL != url || last.Label != label || last.ID != "" {
			t.Errorf("%s: buttons %+v, want the last to link %q to %s", what, r.Buttons, label, url)
		}
	}
	link("/leaderboard", h.ok(h.svc.Leaderboard(h.req(ana), "elemental")), service.LeaderboardPageLabel, base+"/leaderboard/elemental")
	link("/profile", h.ok(h.svc.Profile(h.req(ana), service.User{})), service.ProfilePageLabel, base+"/players/"+ana.ID)
	r := h.ok(h.svc.Challenges(h.req(ana)))
	link("/challenges", r, service.ChallengesPageLabel, base+"/challenges")
	if len(r.Buttons) != 2 || r.Buttons[0].ID == "" {
		t.Errorf("/challenges: %+v, want Join then the link", r.Buttons)
	}

	off := h.req(ana)
	off.ManageServer = true
	h.ok(h.svc.ServerSettings(off, "off"))
	for what, r := range map[string]service.Reply{
		"/leaderboard": h.ok(h.svc.Leaderboard(h.req(ana), "elemental")),
		"/profile":     h.ok(h.svc.Profile(h.req(ana), service.User{})),
		"/challenges":  h.ok(h.svc.Challenges(h.req(ana))),
	} {
		for _, b := range r.Buttons {
			if b.URL != "" {
				t.Errorf("%s with the server's pages off: %+v", what, b)
			}
		}
	}
	plain := newHarness(t)
	if r := plain.ok(plain.svc.Leaderboard(plain.req(ana), "elemental")); len(r.Buttons) != 0 {
		t.Errorf("/leaderboard without pages: %+v", r.Buttons)
	}
}
