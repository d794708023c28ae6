package web

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"tessera/internal/chrome"
	"tessera/service"
)

// TestLongMoveListIsFetched: Glorieta's second turn has thousands of
// legal pairs of stones. The player's page lists none of them (it was
// 1.2 MB, sent again on every live update): the form takes the move
// typed in, and the script fetches the placements from ?part=placements,
// which a spectator gets empty. A typed move is played.
func TestLongMoveListIsFetched(t *testing.T) {
	s := newSite(t)
	g := s.start("glorieta", "")
	st, _ := service.Replay(g)
	if _, err := s.svc.Move(s.req([]service.User{ana, bo}[st.ToMove()]), itoa(g.ID), st.Legal()[0].String()); err != nil {
		t.Fatal(err)
	}
	g = s.game(g.ID)
	st, _ = service.Replay(g)
	legal := st.Legal()
	if len(legal) <= maxListed {
		t.Fatalf("%d legal moves: the test needs more than %d", len(legal), maxListed)
	}
	c, csrf := s.player(g.ID, []service.User{ana, bo}[st.ToMove()])
	for _, part := range []string{"", "?part=position"} {
		res, page := s.get(c, s.addr(g.ID)+part)
		if res.StatusCode != 200 || len(page) > 100<<10 || strings.Contains(page, "<option") || strings.Contains(page, "<li data-move") {
			t.Fatalf("%q: %d, %d bytes, options %v: want a short page without the list", part, res.StatusCode, len(page), strings.Contains(page, "<option"))
		}
		if !strings.Contains(page, `data-src="`+s.addr(g.ID)+`?part=placements&amp;v=`) || !strings.Contains(page, `<input id="move" name="move"`) {
			t.Fatalf("%q: no fetched list or no typed move", part)
		}
	}
	res, list := s.get(c, s.addr(g.ID)+"?part=placements&v="+strconv.FormatUint(g.Version, 10))
	var got placements
	if err := json.Unmarshal([]byte(list), &got); err != nil {
		t.Fatal(err)
	}
	if n := len(got.Moves); res.StatusCode != 200 || n != len(legal) || res.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("placements: %d, %d moves (want %d), Cache-Control %q", res.StatusCode, n, len(legal), res.Header.Get("Cache-Control"))
	}
	// Compact (it was 803 KB: every move's cells spelled out), and
	// gzipped on the wire.
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	zw.Write([]byte(list))
	zw.Close()
	t.Logf("placements: %d moves in %d bytes, %d gzipped", len(got.Moves), len(list), zipped.Len())
	if len(list) > 250<<10 || zipped.Len() > 60<<10 {
		t.Errorf("placements of %d bytes (%d gzipped): want at most 250 KB (60 KB)", len(list), zipped.Len())
	}
	if res, list := s.get(nil, s.addr(g.ID)+"?part=placements"); res.StatusCode != 200 || strings.Contains(list, `"m":[[`) {
		t.Fatalf("a spectator's placements: %d %.200q", res.StatusCode, list)
	}
	move := legal[len(legal)-1].String()
	form := url.Values{"move": {move}, "csrf": {csrf}, "version": {strconv.FormatUint(g.Version, 10)}}
	if res, body := s.post(c, s.addr(g.ID)+"/move", form, nil); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("a typed move: %d %.300s", res.StatusCode, body)
	}
	if after := s.game(g.ID); len(after.Moves) != len(g.Moves)+1 || after.Moves[len(g.Moves)].Text != move {
		t.Fatalf("record %+v, want %q last", after.Moves, move)
	}
}

// TestBrowserLongMoveList: in a browser, the Glorieta player's page
// fetches its long list of placements and offers moving by clicking:
// the picker shows, with every legal move listed.
func TestBrowserLongMoveList(t *testing.T) {
	s := newSite(t)
	g := s.start("glorieta", "")
	st, _ := service.Replay(g)
	if _, err := s.svc.Move(s.req([]service.User{ana, bo}[st.ToMove()]), itoa(g.ID), st.Legal()[0].String()); err != nil {
		t.Fatal(err)
	}
	g = s.game(g.ID)
	st, _ = service.Replay(g)
	token, err := s.svc.PlayerToken(context.Background(), g, []service.User{ana, bo}[st.ToMove()].ID)
	if err != nil {
		t.Fatal(err)
	}
	tab := chrome.Tab(t)
	chrome.Do(t, tab,
		chromedp.Navigate(s.srv.URL+s.addr(g.ID)+"?t="+url.QueryEscape(token)),
		chromedp.WaitVisible(chromedp.CSS("#playbar .picker")),
	)
	n := chrome.Run(t, tab, chromedp.Evaluate[int](`+document.querySelector("#playbar .picker").dataset.moves`))
	if n != len(st.Legal()) {
		t.Fatalf("the page holds %d placements, want %d", n, len(st.Legal()))
	}
}
