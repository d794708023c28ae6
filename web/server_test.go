package web

import (
	"net/http"
	"strings"
	"testing"
)

// TestRoutes: every route answers, with the security headers, and a bad
// address or path gets a short page, not a server error.
func TestRoutes(t *testing.T) {
	s := newSite(t)
	g := s.start("elemental", "borders=RBGY")
	addr := s.addr(g.ID)
	for _, tc := range []struct {
		name, path string
		code       int
		want       string
	}{
		{"the game's page", addr, 200, "Moves"},
		{"a position by number", addr + "?move=0", 200, "Start"},
		{"past the end: the last position", addr + "?move=999", 200, "Move"},
		{"a number too big for an int: the last position", addr + "?move=99999999999999999999", 200, "Ana"},
		{"not a number", addr + "?move=abc", 400, "move number"},
		{"the fragment", addr + "?part=position", 200, `class="position"`},
		{"a wrong mac", addr[:len(addr)-2] + "xx", 404, "no game at this address"},
		{"no such game", "/g/999-AAAAAAAAAAAAAAAAAAAAAA", 404, "no game"},
		{"garbage", "/g/%00%ff", 404, "no game"},
		{"nothing there", "/nothing", 404, "no page here"},
		{"the script", "/static/app.js", 200, "EventSource"},
		{"the style sheet", "/static/style.css", 200, "min-height: 44px"},
		{"a preview, as a spectator", addr + "/preview?move=pass", 403, "Only a player"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, body := s.get(nil, tc.path)
			if res.StatusCode != tc.code || !strings.Contains(body, tc.want) {
				t.Fatalf("%s: %d, want %d with %q; body:\n%.600s", tc.path, res.StatusCode, tc.code, tc.want, body)
			}
			for k, v := range map[string]string{"Content-Security-Policy": csp, "X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff"} {
				if got := res.Header.Get(k); got != v {
					t.Errorf("%s: %s %q, want %q", tc.path, k, got, v)
				}
			}
			if strings.Contains(body, "<script>") || strings.Contains(body, " style=") || strings.Contains(body, "<style") {
				t.Errorf("%s: inline script or style, which the CSP forbids", tc.path)
			}
		})
	}
}

// TestPostNeedsPlayer: a post without the player's cookie, the page's
// token or the same origin is refused with 403 and changes nothing.
func TestPostNeedsPlayer(t *testing.T) {
	s := newSite(t)
	g := s.start("elemental", "borders=RBGY")
	res, err := s.client().PostForm(s.srv.URL+s.addr(g.ID)+"/move", map[string][]string{"move": {"pass"}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusForbidden {
		t.Fatalf("post without origin: %d, want 403", res.StatusCode)
	}
	if after := s.game(g.ID); after.Version != g.Version {
		t.Fatalf("the game changed: version %d, was %d", after.Version, g.Version)
	}
}

// TestSameOrigin: a post counts as the pages' own only when the browser
// says so (Sec-Fetch-Site), or, from an older browser, when its Origin is
// the server's host or the pages' public address.
func TestSameOrigin(t *testing.T) {
	const public = "https://tessera.example.org"
	for _, tc := range []struct {
		name, site, origin, host string
		want                     bool
	}{
		{"the browser says same-origin", "same-origin", "", "x", true},
		{"the browser says same-site: another subdomain", "same-site", "https://tessera.example.org", "tessera.example.org", false},
		{"the browser says cross-site, whatever the Origin", "cross-site", public, "tessera.example.org", false},
		{"a user's own navigation is no form of ours", "none", "", "x", false},
		{"Origin is the host", "", "http://127.0.0.1:8080", "127.0.0.1:8080", true},
		{"Origin is the public address behind a proxy", "", public, "10.0.0.5:8080", true},
		{"Origin of another site", "", "https://evil.example", "tessera.example.org", false},
		{"Origin null (a sandboxed frame)", "", "null", "x", false},
		{"neither header", "", "", "x", false},
	} {
		r, _ := http.NewRequest("POST", "http://"+tc.host+"/g/1-x/move", nil)
		r.Host = tc.host
		if tc.site != "" {
			r.Header.Set("Sec-Fetch-Site", tc.site)
		}
		if tc.origin != "" {
			r.Header.Set("Origin", tc.origin)
		}
		if got := sameOrigin(r, public); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestPageCache: spectators share a page made once, but a move (a new
// version) is never answered with the old page, and a player's page,
// with their hand, is never one a spectator is given.
func TestPageCache(t *testing.T) {
	s := newSite(t)
	g := s.start("elemental", "borders=RBGY")
	c, _ := s.player(g.ID, ana) // Ana's page first: it must not be kept for others
	if _, body := s.get(c, s.addr(g.ID)); !strings.Contains(body, "Your hand") {
		t.Fatal("the player's page has no hand")
	}
	_, first := s.get(nil, s.addr(g.ID))
	if strings.Contains(first, "Your hand") || !strings.Contains(first, "Start · no moves yet") {
		t.Fatalf("the spectator's page: hand %v, start %v", strings.Contains(first, "Your hand"), strings.Contains(first, "Start · no moves yet"))
	}
	st, mover, _ := s.turn(g)
	if _, err := s.svc.Move(s.req(mover), "", st.Legal()[0].String()); err != nil {
		t.Fatal(err)
	}
	if _, body := s.get(nil, s.addr(g.ID)); !strings.Contains(body, "Move 1 of 1") {
		t.Fatal("after a move, the spectator's page is the old one")
	}
}

// TestStaticFolderNotListed: the assets are served one by one; the
// folder itself is the not-found page, not a listing.
func TestStaticFolderNotListed(t *testing.T) {
	s := newSite(t)
	if res, body := s.get(nil, "/static/"); res.StatusCode != http.StatusNotFound || strings.Contains(body, `href="app.js"`) {
		t.Fatalf("/static/: %d\n%.200s", res.StatusCode, body)
	}
	for _, f := range []string{"/static/app.js", "/static/style.css"} {
		if res, _ := s.get(nil, f); res.StatusCode != http.StatusOK || res.Header.Get("Content-Security-Policy") == "" {
			t.Fatalf("%s: %d %v", f, res.StatusCode, res.Header)
		}
	}
}
