package web

import (
	"context"
	"html"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"tessera/internal/chrome"
)

// TestCrossSiteLink follows a player's private link from a page of
// another site, as from Discord in a browser: the link page is served on
// localhost, the game on 127.0.0.1 (two sites to the browser). The
// player's page shows their hand and their moves at once, and again
// after a reload, because the cookie is SameSite=Lax: a Strict one was
// stored but not sent on the redirect that followed the link, and the
// player saw the spectators' page. A post from the other site still
// carries no cookie and is refused (the form token and the origin check
// guard the move).
func TestCrossSiteLink(t *testing.T) {
	s := newSite(t)
	g := s.start("elemental", "borders=RBGY")
	_, mover, _ := s.turn(g)
	token, err := s.svc.PlayerToken(context.Background(), g, mover.ID)
	if err != nil {
		t.Fatal(err)
	}
	link := s.srv.URL + s.addr(g.ID) + "?t=" + token
	// The other site: a link to the game, and a form that posts a move to
	// it, as a hostile page would.
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!doctype html><title>elsewhere</title><a id="go" href="` + html.EscapeString(link) + `">your game</a>` +
			`<form id="evil" method="post" action="` + html.EscapeString(s.srv.URL+s.addr(g.ID)+"/move") + `"><input name="move" value="pass"><input name="version" value="1"></form>`))
	}))
	defer other.Close()
	otherURL := strings.Replace(other.URL, "127.0.0.1", "localhost", 1)

	tab := chrome.Isolated(t)
	chrome.Do(t, tab,
		chromedp.EmulateViewport(phoneW, phoneH),
		chromedp.Navigate(otherURL),
		chromedp.WaitVisible(chromedp.CSS("#go")),
		chromedp.Click(chromedp.CSS("#go")),
		chromedp.WaitVisible(chromedp.CSS("#board")),
	)
	isPlayer := `!!document.querySelector("#play") && !!document.querySelector("#playbar .hand")`
	if loc := chrome.Run(t, tab, chromedp.Location()); loc != s.srv.URL+s.addr(g.ID) {
		t.Fatalf("after the link the address is %q", loc)
	}
	if !chrome.Run(t, tab, chromedp.Evaluate[bool](isPlayer)) {
		t.Fatal("the link followed from another site shows the spectators' page")
	}
	chrome.Do(t, tab, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#board")))
	if !chrome.Run(t, tab, chromedp.Evaluate[bool](isPlayer)) {
		t.Fatal("after a reload the page is the spectators'")
	}
	// The hostile page's form: posted cross-site, refused.
	chrome.Do(t, tab, chromedp.Navigate(otherURL), chromedp.WaitVisible(chromedp.CSS("#evil")))
	chrome.Do(t, tab, chromedp.Submit(chromedp.CSS("#evil")), chromedp.WaitVisible(chromedp.CSS("section.error")))
	if body := chrome.Run(t, tab, chromedp.Text(chromedp.CSS("section.error"))); !strings.Contains(body, "did not come from the game's page") {
		t.Fatalf("the cross-site post was answered %q", body)
	}
	if after := s.game(g.ID); after.Version != g.Version {
		t.Fatal("the cross-site post changed the game")
	}
}
