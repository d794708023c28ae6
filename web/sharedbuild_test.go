package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestSharedPageOutlivesItsAsker: a spectator's page is made once for
// everyone asking at the same time, so the request that makes it must not
// end it by leaving: the others would all get its error. A request whose
// context is already cancelled (its browser gone) still makes the page
// (the store is read on a context of the page's own), and the next asker
// gets it from the cache. (The request is handed to showGame itself:
// through the handler, reading the game by its address would fail first
// on the cancelled context, which is right for a request alone.)
func TestSharedPageOutlivesItsAsker(t *testing.T) {
	s := newSite(t)
	g := s.start("elemental", "borders=RBGY")
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("GET", s.addr(g.ID), nil).WithContext(gone)
	req.SetPathValue("address", s.svc.GameAddress(g.ID))
	s.web.showGame(rec, req, g, -1, "game.html", http.StatusOK, "")
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `id="board"`) {
		t.Fatalf("the page made for a request that left: %d\n%.300s", rec.Code, rec.Body)
	}
	res, body := s.get(nil, s.addr(g.ID))
	if res.StatusCode != http.StatusOK || body != rec.Body.String() {
		t.Fatalf("the next spectator: %d, same page %v", res.StatusCode, body == rec.Body.String())
	}
}
