package web

import (
	"net/http"
	"strings"
	"testing"

	"tessera/service"
)

// hostile is a player whose name is markup: every page must show it as
// text.
var hostile = service.User{ID: "3", Name: `<script>alert(1)</script>"'&`}

// playersSite has Ana's win over Bo at Elemental (Bo resigned), a second
// game of theirs in play, a game between Ana and the hostile name in
// play, and an open challenge of the hostile name's.
func playersSite(t *testing.T) (s *site, base string, playing uint64) {
	s = newSite(t)
	done := s.start("elemental", "borders=RBGY")
	if _, err := s.svc.Click(s.req(bo), "resign:"+itoa(done.ID)); err != nil {
		t.Fatal(err)
	}
	playing = s.start("elemental", "borders=RBGY").ID
	if _, err := s.svc.NewOpen(s.req(hostile), service.NewGameRequest{Game: "glorieta", Options: "handful=3"}); err != nil {
		t.Fatal(err)
	}
	return s, "/s/" + s.svc.GuildAddress("g"), playing
}

// TestPlayersPages: each page shows what its command shows in Discord,
// linked together: the server's page to each game's leaderboard, a
// leaderboard to its players' pages, a player's page to the games'
// pages, with a chart of each rating's course.
func TestPlayersPages(t *testing.T) {
	s, base, playing := playersSite(t)
	for _, tc := range []struct {
		path string
		want []string // in the page, in this order
	}{
		{base, []string{base + "/challenges", base + "/leaderboard/closure", base + "/leaderboard/elemental"}},
		{base + "/leaderboard/elemental", []string{"Elemental Connection: leaderboard", `href="` + base + `/players/1">Ana</a>`, `href="` + base + `/players/2">Bo</a>`, "provisional"}},
		{base + "/leaderboard/glorieta", []string{"No rated game of Glorieta"}},
		{base + "/players/1", []string{"<h1>Ana</h1>", "Elemental Connection: ", "won 1 · lost 0", "<svg", "rating over time", "In play",
			`href="http://tessera.test/g/` + s.svc.GameAddress(playing) + `"`, "Finished", "#1 Elemental Connection", "Ana wins"}},
		{base + "/players/2", []string{"<h1>Bo</h1>", "won 0 · lost 1"}},
		{base + "/challenges", []string{"Open challenges", "Glorieta", "1 of 2 seats free with handful=3", "/challenges"}},
	} {
		res, body := s.get(nil, tc.path)
		if res.StatusCode != http.StatusOK {
			t.Errorf("%s: %d\n%s", tc.path, res.StatusCode, body)
			continue
		}
		if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") {
			t.Errorf("%s: CSP %q", tc.path, csp)
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
	}
}

// TestPlayersPagesHostileName: a name made of markup is text on every
// page that shows it, and in the chart.
func TestPlayersPagesHostileName(t *testing.T) {
	s, base, _ := playersSite(t)
	for _, path := range []string{base + "/challenges", base + "/players/1"} {
		_, body := s.get(nil, path)
		if strings.Contains(body, "<script>alert") {
			t.Errorf("%s: the name is markup in the page\n%s", path, body)
		}
	}
	_, body := s.get(nil, base+"/challenges")
	if !strings.Contains(body, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Errorf("the challenger's name is not shown escaped:\n%s", body)
	}
}

// TestPlayersPagesRefusals: a bad address, an unknown game or player and
// a bad page number get a short page saying what to do, never a 500.
func TestPlayersPagesRefusals(t *testing.T) {
	s, base, _ := playersSite(t)
	other := "/s/" + s.svc.GuildAddress("other")
	for _, tc := range []struct {
		path string
		code int
		want string
	}{
		{"/s/g", http.StatusNotFound, "page at this address"},                                   // no MAC
		{"/s/g-AAAAAAAAAAAAAAAAAAAAAA/challenges", http.StatusNotFound, "page at this address"}, // a forged one
		{"/s/" + s.svc.GameAddress(1), http.StatusNotFound, "page at this address"},             // a game's, not a server's
		{base + "/leaderboard/chess", http.StatusNotFound, "no such game"},
		{base + "/players/99", http.StatusNotFound, "no player"},
		{other + "/players/1", http.StatusNotFound, "no player"}, // Ana never played there
		{base + "/players/" + strings.Repeat("9", 100), http.StatusNotFound, "no player"},
		{base + "/players/1?page=x", http.StatusBadRequest, "?page=2"},
		{base + "/players/1?page=0", http.StatusBadRequest, "?page=2"},
		{base + "/players/1?page=2", http.StatusOK, "None on this page"},
		{base + "/leaderboard/elemental?page=x", http.StatusBadRequest, "?page=2"},
		{base + "/leaderboard/elemental?page=2", http.StatusOK, "this page is past the last"},
	} {
		res, body := s.get(nil, tc.path)
		if res.StatusCode != tc.code || !strings.Contains(body, tc.want) {
			t.Errorf("%s: %d, want %d with %q\n%s", tc.path, res.StatusCode, tc.code, tc.want, body)
		}
	}
}

// TestGamePageLinksThePlayersPages: a game's page leads to its server's
// players' pages (the only other way in is a link button in Discord).
func TestGamePageLinksThePlayersPages(t *testing.T) {
	s, base, playing := playersSite(t)
	_, body := s.get(nil, s.addr(playing))
	if !strings.Contains(body, `href="`+base+`"`) {
		t.Fatalf("the game's page has no link to %s", base)
	}
	if res, _ := s.get(nil, base); res.StatusCode != http.StatusOK {
		t.Fatalf("%s: %d", base, res.StatusCode)
	}
}
