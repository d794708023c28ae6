package web

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"tessera/service"
)

var (
	csrfRe = regexp.MustCompile(`name="csrf" value="([^"]+)"`)
	keyRe  = regexp.MustCompile(`name="key" value="([^"]+)"`)
)

// player opens a player's private link in a fresh browser and returns the
// browser and the page's CSRF token.
func (s *site) player(id uint64, u service.User) (*http.Client, string) {
	s.t.Helper()
	g := s.game(id)
	token, err := s.svc.PlayerToken(context.Background(), g, u.ID)
	if err != nil {
		s.t.Fatal(err)
	}
	c := s.client()
	res, body := s.get(c, s.addr(id)+"?t="+url.QueryEscape(token))
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != s.addr(id) {
		s.t.Fatalf("private link: %d to %q, want 303 to the address without the token; %s", res.StatusCode, res.Header.Get("Location"), body)
	}
	ck := res.Cookies()
	// Lax, so that the link works when followed from another site (Discord
	// in a browser), and kept as long as the link lives, not only until
	// the browser closes (TestCrossSiteLink).
	if len(ck) != 1 || !ck[0].HttpOnly || ck[0].SameSite != http.SameSiteLaxMode || ck[0].Path != s.addr(id) || ck[0].Value != token ||
		ck[0].MaxAge != int(service.DefaultLinkTTL/time.Second) {
		s.t.Fatalf("cookie %+v: want the token, HttpOnly, SameSite=Lax, the game's path, the link's 30 days", ck)
	}
	if cc := res.Header.Get("Cache-Control"); cc != "no-store" {
		s.t.Errorf("Cache-Control %q on the link's answer", cc)
	}
	res, body = s.get(c, s.addr(id))
	if res.StatusCode != 200 || res.Header.Get("Cache-Control") != "no-store" || strings.Contains(body, token) {
		s.t.Fatalf("player's page: %d, Cache-Control %q, token in page %v", res.StatusCode, res.Header.Get("Cache-Control"), strings.Contains(body, token))
	}
	m := csrfRe.FindStringSubmatch(body)
	if m == nil {
		s.t.Fatalf("no CSRF token on the player's page")
	}
	return c, m[1]
}

// post sends a form from the page's origin.
func (s *site) post(c *http.Client, path string, form url.Values, header map[string]string) (*http.Response, string) {
	s.t.Helper()
	req, _ := http.NewRequest("POST", s.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", s.srv.URL)
	for k, v := range header {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	res, err := c.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := res.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return res, b.String()
}

// TestPlayFromThePage: a private link becomes the player's cookie; their
// page shows their hand and their moves; a move posted with the page's
// token is played through the service (the record has it), and posts
// without the token, from another site, or by the other seat are refused
// with 403 or a short message, changing nothing.
func TestPlayFromThePage(t *testing.T) {
	s := newSite(t)
	g := s.start("elemental", "borders=RBGY")
	st, mover, other := s.turn(g)
	legal := st.Legal()[0].String()
	c, csrf := s.player(g.ID, mover)
	oc, ocsrf := s.player(g.ID, other)
	path := s.addr(g.ID) + "/move"
	form := func(move, token string) url.Values {
		return url.Values{"move": {move}, "csrf": {token}, "version": {strconv.FormatUint(g.Version, 10)}}
	}
	for _, tc := range []struct {
		name   string
		c      *http.Client
		form   url.Values
		header map[string]string
		code   int
		want   string
	}{
		{"no CSRF token", c, form(legal, ""), nil, 403, "out of date"},
		{"another page's token", c, form(legal, ocsrf), nil, 403, "out of date"},
		{"from another site", c, form(legal, csrf), map[string]string{"Sec-Fetch-Site": "cross-site"}, 403, "did not come from"},
		{"no Origin, no Sec-Fetch-Site", c, form(legal, csrf), map[string]string{"Origin": ""}, 403, "did not come from"},
		{"an Origin of another host", c, form(legal, csrf), map[string]string{"Origin": "https://evil.example"}, 403, "did not come from"},
		{"a spectator", s.client(), form(legal, csrf), nil, 403, "Only a player"},
		{"not their turn", oc, form(legal, ocsrf), nil, 403, "turn"},
		{"an illegal move", c, form("zz99", csrf), map[string]string{"Accept": "application/json"}, 400, `"ok":false`},
		{"resignation without its confirm", c, form("resign", csrf), nil, 400, "Confirm"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, body := s.post(tc.c, path, tc.form, tc.header)
			if res.StatusCode != tc.code || !strings.Contains(body, tc.want) {
				t.Fatalf("%d, want %d with %q; %.400s", res.StatusCode, tc.code, tc.want, body)
			}
			if after := s.game(g.ID); after.Version != g.Version {
				t.Fatal("the game changed")
			}
		})
	}
	res, body := s.post(c, path, form(legal, csrf), nil)
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("legal move: %d %s", res.StatusCode, body)
	}
	after := s.game(g.ID)
	if len(after.Moves) != 1 || after.Moves[0].Text != legal {
		t.Fatalf("record %+v, want %q", after.Moves, legal)
	}
}

// TestResignAndDownloads: a confirmed resignation from the page ends the
// game; the finished game's page offers its record and replay, which are
// the service's /export files and GIF; before the end they are refused.
func TestResignAndDownloads(t *testing.T) {
	s := newSite(t)
	g := s.start("elemental", "borders=RBGY")
	addr := s.addr(g.ID)
	if res, body := s.get(nil, addr+"/record.json"); res.StatusCode != 404 || !strings.Contains(body, "once the game is over") {
		t.Fatalf("record of a game in play: %d %.200s", res.StatusCode, body)
	}
	c, csrf := s.player(g.ID, bo)
	res, body := s.post(c, addr+"/move", url.Values{"move": {"resign"}, "confirm": {"yes"}, "csrf": {csrf}, "version": {itoa(g.Version)}}, nil)
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("resign: %d %.300s", res.StatusCode, body)
	}
	if after := s.game(g.ID); after.Status != "finished" {
		t.Fatalf("status %s after resigning", after.Status)
	}
	_, page := s.get(nil, addr)
	for _, f := range []string{"/record.json", "/record.txt", "/replay.gif"} {
		if !strings.Contains(page, addr+f) {
			t.Errorf("the finished game's page does not offer %s", f)
		}
	}
	for _, tc := range []struct{ file, ctype, want string }{
		{"/record.json", "application/json", `"format": "tessera-record/1"`},
		{"/record.txt", "text/plain; charset=utf-8", "Bo"},
		{"/replay.gif", "image/gif", "GIF89a"},
	} {
		res, body := s.get(nil, addr+tc.file)
		if res.StatusCode != 200 || res.Header.Get("Content-Type") != tc.ctype || !strings.Contains(body, tc.want) || !strings.HasPrefix(res.Header.Get("Content-Disposition"), "attachment") {
			t.Errorf("%s: %d %s %q, want %q", tc.file, res.StatusCode, res.Header.Get("Content-Type"), res.Header.Get("Content-Disposition"), tc.want)
		}
	}
	if res, _ := s.get(nil, addr+"/nothing.exe"); res.StatusCode != 404 {
		t.Errorf("an unknown file: %d", res.StatusCode)
	}
}

// TestPreview: the player to move gets the board after a legal move as
// SVG; the other seat, a bad move and a spectator get a short refusal.
func TestPreview(t *testing.T) {
	s := newSite(t)
	g := s.start("elemental", "borders=RBGY")
	st, mover, other := s.turn(g)
	legal := url.QueryEscape(st.Legal()[0].String())
	c, _ := s.player(g.ID, mover)
	oc, _ := s.player(g.ID, other)
	path := s.addr(g.ID) + "/preview?move="
	for _, tc := range []struct {
		name string
		c    *http.Client
		move string
		code int
		want string
	}{
		{"the player to move", c, legal, 200, `id="board"`},
		{"an illegal move", c, "zz99", 400, ""},
		{"a move too long", c, strings.Repeat("a", 500), 400, "too long"},
		{"the other seat", oc, legal, 403, "not your turn"},
		{"a spectator", nil, legal, 403, "Only a player"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, body := s.get(tc.c, path+tc.move)
			if res.StatusCode != tc.code || !strings.Contains(body, tc.want) {
				t.Fatalf("%d, want %d with %q; %.300s", res.StatusCode, tc.code, tc.want, body)
			}
			if tc.code == 200 && (res.Header.Get("Content-Type") != "image/svg+xml" || res.Header.Get("Cache-Control") != "no-store") {
				t.Fatalf("headers %v", res.Header)
			}
		})
	}
	if after := s.game(g.ID); after.Version != g.Version {
		t.Fatal("a preview changed the game")
	}
}

// TestPrivateLinks: a link whose token is not valid gets a 403 page
// saying what to do and no cookie; once a token expires, its cookie
// makes a spectator (no hand) and is deleted.
func TestPrivateLinks(t *testing.T) {
	s := newSite(t)
	g := s.start("elemental", "borders=RBGY")
	for _, bad := range []string{"", "garbage", strings.Repeat("A", 5000), "%00"} {
		res, body := s.get(nil, s.addr(g.ID)+"?t="+bad)
		if res.StatusCode != 403 || !strings.Contains(body, "/link") || len(res.Cookies()) != 0 {
			t.Fatalf("token %.20q: %d, cookies %v; %.200s", bad, res.StatusCode, res.Cookies(), body)
		}
	}
	c, _ := s.player(g.ID, ana)
	s.mu.Lock()
	s.now = s.now.Add(service.DefaultLinkTTL + time.Hour)
	s.mu.Unlock()
	res, body := s.get(c, s.addr(g.ID))
	if res.StatusCode != 200 || strings.Contains(body, "Your hand") {
		t.Fatalf("an expired cookie: %d, hand shown %v", res.StatusCode, strings.Contains(body, "Your hand"))
	}
	if ck := res.Cookies(); len(ck) != 1 || ck[0].MaxAge >= 0 {
		t.Fatalf("the expired cookie was not deleted: %v", ck)
	}
}

// TestPuzzleFromThePage: a puzzle's page offers its hint and no
// resignation; the hint is the service's, shown to the player; after a
// move, undo is one of the page's buttons.
func TestPuzzleFromThePage(t *testing.T) {
	s := newSite(t)
	if _, err := s.svc.Puzzle(s.req(ana), service.PuzzleRequest{Level: "easy"}); err != nil {
		t.Fatal(err)
	}
	g := s.game(1)
	c, csrf := s.player(g.ID, ana)
	_, page := s.get(c, s.addr(g.ID))
	if !strings.Contains(page, `name="hint" value="yes"`) || strings.Contains(page, "Resign") {
		t.Fatalf("a puzzle's page: hint %v, resign %v", strings.Contains(page, `name="hint"`), strings.Contains(page, "Resign"))
	}
	res, body := s.post(c, s.addr(g.ID)+"/move", url.Values{"hint": {"yes"}, "csrf": {csrf}}, map[string]string{"Accept": "application/json"})
	if res.StatusCode != 200 || !strings.Contains(body, `"ok":true`) || !strings.Contains(body, "game #1") {
		t.Fatalf("hint: %d %s", res.StatusCode, body)
	}
	st, _ := service.Replay(g)
	key := keyRe.FindStringSubmatch(page)[1] // the page's forms' idempotency key
	res, _ = s.post(c, s.addr(g.ID)+"/move", url.Values{"move": {st.Legal()[0].String()}, "csrf": {csrf}, "key": {key}}, nil)
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("a puzzle's move: %d", res.StatusCode)
	}
	if _, page = s.get(c, s.addr(g.ID)); !strings.Contains(page, `name="move" value="undo"`) {
		t.Fatal("no undo button after a move")
	}
}
