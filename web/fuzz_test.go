package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"tessera/service"
)

// FuzzRequests sends the game's routes what a page or a stranger might:
// any ?move= and ?part=, any posted move (with and without the confirm),
// from the seat to move with a good cookie and CSRF token. The server
// never answers 5xx, and the game changes only by a move that was legal
// for that seat (or a confirmed resignation).
func FuzzRequests(f *testing.F) {
	for _, seed := range []struct{ q, move, confirm string }{
		{"3", "a1 BYGY", ""}, {"-1", "pass", ""}, {"last", "resign", "yes"}, {"1e9", "resign", ""},
		{"", "", ""}, {"%00", "a1\x00", ""}, {"999999999999999999999", strings.Repeat("x", 300), "no"}, {"+2", "A1 bygy", ""},
	} {
		f.Add(seed.q, seed.move, seed.confirm)
	}
	f.Fuzz(func(t *testing.T, q, move, confirm string) {
		s := newSite(t)
		g := s.start("elemental", "borders=RBGY")
		h := s.web.Handler()
		get := httptest.NewRequest("GET", s.addr(g.ID)+"?"+url.Values{"move": {q}, "part": {q}}.Encode(), nil)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, get)
		if w.Code >= 500 {
			t.Fatalf("GET ?move=%q: %d %s", q, w.Code, w.Body)
		}

		st, err := service.Replay(g)
		if err != nil {
			t.Fatal(err)
		}
		seat := int(st.ToMove())
		u := []service.User{ana, bo}[seat]
		token, err := s.svc.PlayerToken(context.Background(), g, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		form := url.Values{"move": {move}, "confirm": {confirm}, "csrf": {csrfToken(token)}, "version": {itoa(g.Version)}}
		post := httptest.NewRequest("POST", s.addr(g.ID)+"/move", strings.NewReader(form.Encode()))
		post.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		post.Header.Set("Sec-Fetch-Site", "same-origin")
		post.AddCookie(&http.Cookie{Name: tokenCookie, Value: token})
		w = httptest.NewRecorder()
		h.ServeHTTP(w, post)
		if w.Code >= 500 {
			t.Fatalf("POST move=%q: %d %s", move, w.Code, w.Body)
		}
		after := s.game(g.ID)
		if after.Version != g.Version {
			text := strings.TrimSpace(move)
			_, parseErr := st.Clone().Parse(text)
			resign := strings.EqualFold(text, "resign") && confirm == "yes"
			if parseErr != nil && !resign {
				t.Fatalf("POST move=%q changed the game, but it does not parse for seat %d: %v", move, seat+1, parseErr)
			}
			if n := len(after.Moves); n != len(g.Moves)+1 || after.Moves[n-1].Seat != seat {
				t.Fatalf("POST move=%q: the record went from %d to %d entries", move, len(g.Moves), n)
			}
		}
	})
}
