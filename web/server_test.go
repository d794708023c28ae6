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
