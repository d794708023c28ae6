package web

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"tessera/service"
)

// TestStalePageMove: a move posted from a page made before the game
// changed (here the player moved from Discord and the opponent answered,
// so it is their turn again) is refused with 409 and changes nothing: it
// was chosen for another position. A form sent twice is played once.
func TestStalePageMove(t *testing.T) {
	s := newSite(t)
	g := s.start("elemental", "borders=RBGY")
	st, _ := service.Replay(g)
	mover, other := ana, bo
	if st.ToMove() == 1 {
		mover, other = bo, ana
	}
	c, csrf := s.player(g.ID, mover)
	stale := strconv.FormatUint(g.Version, 10) // the page's version
	if _, err := s.svc.Move(s.req(mover), itoa(g.ID), st.Legal()[0].String()); err != nil {
		t.Fatal(err)
	}
	st, _ = service.Replay(s.game(g.ID))
	if _, err := s.svc.Move(s.req(other), itoa(g.ID), st.Legal()[0].String()); err != nil {
		t.Fatal(err)
	}
	before := s.game(g.ID)
	st, _ = service.Replay(before)
	legal := st.Legal()[0].String()
	path := s.addr(g.ID) + "/move"
	for _, tc := range []struct {
		name   string
		header map[string]string
		want   string
	}{
		{"without the script", nil, "out of date"},
		{"from the script", map[string]string{"Accept": "application/json"}, `"ok":false`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, body := s.post(c, path, url.Values{"move": {legal}, "csrf": {csrf}, "version": {stale}}, tc.header)
			if res.StatusCode != http.StatusConflict || !strings.Contains(body, tc.want) {
				t.Fatalf("%d, want 409 with %q; %.300s", res.StatusCode, tc.want, body)
			}
			if after := s.game(g.ID); after.Version != before.Version {
				t.Fatal("a stale page's move was played")
			}
		})
	}
	// The page as it is now: its form is played, once.
	current := url.Values{"move": {legal}, "csrf": {csrf}, "version": {strconv.FormatUint(before.Version, 10)}}
	if res, body := s.post(c, path, current, nil); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("a current page's move: %d %.300s", res.StatusCode, body)
	}
	if res, _ := s.post(c, path, current, nil); res.StatusCode >= 500 {
		t.Fatalf("the form sent twice: %d", res.StatusCode)
	}
	if n := len(s.game(g.ID).Moves); n != len(before.Moves)+1 {
		t.Fatalf("%d moves after the form sent twice, want %d", n, len(before.Moves)+1)
	}
}
