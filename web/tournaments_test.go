package web

import (
	"net/http"
	"strings"
	"testing"

	"tessera/service"
)

// tournamentSite has a Swiss event of Closure in server g (Ana, Bo and
// the hostile name, round 1 under way) and an open one.
func tournamentSite(t *testing.T) (s *site, base string) {
	s = newSite(t)
	r, err := s.svc.NewEvent(s.req(ana), service.NewEventRequest{Name: "Autumn", Game: "closure", Format: "swiss", Rounds: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []service.User{ana, bo, hostile} {
		if _, err := s.svc.JoinEvent(s.req(u), r.Event); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.svc.StartEvent(s.req(ana), r.Event); err != nil {
		t.Fatal(err)
	}
	if _, err := s.svc.NewEvent(s.req(bo), service.NewEventRequest{Name: "Winter", Game: "glorieta", Format: "round-robin"}); err != nil {
		t.Fatal(err)
	}
	return s, "/s/" + s.svc.GuildAddress("g")
}

// TestTournamentPages: the server's tournaments, newest first, each
// linked to its page with the standings drawn as its thread's picture;
// the players' pages link to them.
func TestTournamentPages(t *testing.T) {
	s, base := tournamentSite(t)
	for _, tc := range []struct {
		path string
		want []string // in the page, in this order
	}{
		{base, []string{`href="` + base + `/tournaments"`}},
		{base + "/tournaments", []string{`href="` + base + `/tournaments/2">Winter</a>`, "Glorieta", "open",
			`href="` + base + `/tournaments/1">Autumn</a>`, "Closure", "Swiss, 2 rounds", "round 1 of 2", ">3<"}},
		{base + "/tournaments/1", []string{"<h1>Autumn</h1>", "round 1 of 2", "<svg", "Autumn · event #1", "Round 1 of 2 in play", "BH1", "SB", "Games",
			"&lt;script&gt;alert(1)", `href="` + base + `/tournaments"`}},
	} {
		res, body := s.get(nil, tc.path)
		if res.StatusCode != http.StatusOK {
			t.Errorf("%s: %d\n%s", tc.path, res.StatusCode, body)
			continue
		}
		at := 0
		for _, w := range tc.want {
			i := strings.Index(body[at:], w)
			if i < 0 {
				t.Errorf("%s: %q missing (or out of order)\n%s", tc.path, w, body)
				break
			}
			at += i + len(w)
		}
		if strings.Contains(body, "<script>alert") {
			t.Errorf("%s: the name is markup in the page", tc.path)
		}
	}
}

// TestTournamentPagesRefusals: another server's event, a missing one and
// a bad id get the short page saying where the tournaments are listed,
// never a 500.
func TestTournamentPagesRefusals(t *testing.T) {
	s, base := tournamentSite(t)
	other := "/s/" + s.svc.GuildAddress("other")
	for _, path := range []string{other + "/tournaments/1", base + "/tournaments/9", base + "/tournaments/x", base + "/tournaments/0",
		base + "/tournaments/99999999999999999999999"} {
		res, body := s.get(nil, path)
		if res.StatusCode != http.StatusNotFound || !strings.Contains(body, "no such tournament in this server") {
			t.Errorf("%s: %d\n%s", path, res.StatusCode, body)
		}
	}
	if res, body := s.get(nil, other+"/tournaments"); res.StatusCode != http.StatusOK || !strings.Contains(body, "No tournament in this server yet") {
		t.Errorf("another server's list: %d\n%s", res.StatusCode, body)
	}
}
