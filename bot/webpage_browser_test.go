package bot_test

import (
	"bytes"
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"tessera/bot"
	"tessera/bot/fakediscord"
	"tessera/internal/chrome"
	"tessera/service"
	"tessera/svg"
	"tessera/web"
)

// startWebPages is a world whose service has the game pages on, served
// for real (httptest) at the address its links name, so that a browser
// can open them.
func startWebPages(t *testing.T) *world {
	t.Helper()
	ts := httptest.NewUnstartedServer(nil)
	w, logger := newWorld(t, bot.Options{})
	w.svc = newService(w.store, logger, w.clock.Now, func(c *service.Config) {
		c.Web = service.WebConfig{URL: "http://" + ts.Listener.Addr().String(), Secret: bytes.Repeat([]byte{9}, service.MinWebSecret)}
	})
	pages, err := web.New(web.Config{Service: w.svc, Store: w.svc.Store(), SVG: svg.New()})
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = pages.Handler()
	ts.Start()
	t.Cleanup(func() { pages.Close(); ts.Close() }) // the streams end, then the server
	w.begin(t, bot.Options{}, logger)
	return w
}

// TestMoveFromThePage: for each game, a game begun in Discord is played
// from its page in Chromium. A spectator opens the page from the link
// button on the game's start post; alice asks for her private link with
// /link and opens it in a tab of her own (their cookies apart). She makes
// her first move by clicking: a piece of her hand (where the game has
// one), the marked cells, Play. The move's post arrives in the game's
// thread in the fake Discord, and the spectator's tab shows the move
// without a reload (its live update), with no hand and no controls.
func TestMoveFromThePage(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ id, name string }{
		{"closure", "Closure"},
		{"elemental", "Elemental Connection"},
		{"glorieta", "Glorieta"},
		{"knotwork", "Knotwork"},
		{"tilingking", "TilingKing"},
	} {
		t.Run(c.id, func(t *testing.T) {
			w := startWebPages(t)
			start := w.startGame(t, c.id, c.name, "")
			pageURL := ""
			for _, b := range linkButtons(start.Components) {
				pageURL = b.URL
			}
			if pageURL == "" {
				t.Fatalf("the start post has no link to the game's page: %+v", start.Components)
			}

			// The spectator's tab, marked so that a reload would show.
			spectator := chrome.Isolated(t)
			chrome.Do(t, spectator, chromedp.EmulateViewport(390, 844), chromedp.Navigate(pageURL),
				chromedp.WaitVisible("#game .position"))
			chrome.Run(t, spectator, chromedp.Evaluate[bool](`window.notReloaded = true`))
			if n := chrome.Run(t, spectator, chromedp.Evaluate[int](`document.querySelectorAll('#play, #playbar, .hand').length`)); n != 0 {
				t.Fatalf("the spectator's page has %d player's elements", n)
			}

			// alice's private link, from /link.
			r := w.respond(t, w.srv.Slash("link").By(w.ana).In(w.srv.GuildID, w.thread))
			bs := linkButtons(answerComponents(r))
			if !ephemeral(r) || len(bs) != 1 || !strings.HasPrefix(bs[0].URL, pageURL+"?t=") {
				t.Fatalf("/link: %q, link buttons %+v", text(r), bs)
			}
			player := chrome.Isolated(t)
			chrome.Do(t, player, chromedp.EmulateViewport(390, 844), chromedp.Navigate(bs[0].URL),
				chromedp.WaitVisible("#playbar .picker"))
			if loc := chrome.Run(t, player, chromedp.Evaluate[string](`location.href`)); strings.Contains(loc, "t=") {
				t.Fatalf("the token stays in the address bar: %s", loc)
			}
			chosen := clickAMove(t, player)

			post := w.srv.WaitMessage(t, w.thread, func(m *fakediscord.Message) bool {
				return strings.Contains(m.Content, "**alice** played `")
			}, patience)
			if !strings.Contains(post.Content, "`"+chosen+"`") {
				t.Fatalf("the page chose %q, the thread says %q", chosen, post.Content)
			}

			// The spectator's tab shows the move by itself.
			chrome.Do(t, spectator, chromedp.WaitVisible(`#game .position:not([data-total="0"])`))
			if !chrome.Run(t, spectator, chromedp.Evaluate[bool](`window.notReloaded === true`)) {
				t.Fatal("the spectator's page was reloaded")
			}
			html := chrome.Run(t, spectator, chromedp.Evaluate[string](`document.documentElement.outerHTML`))
			if strings.Contains(html, `id="play"`) || strings.Contains(html, `id="playbar"`) || strings.Contains(html, `class="hand"`) {
				t.Fatal("the spectator's page shows a player's hand or controls")
			}
			w.settle(t)
		})
	}
}

// clickAMove makes a move on a player's page by clicking as a player
// does: the first piece of the hand when there are pieces to pick, then
// the first marked cell until the page offers to play a move, then Play.
// It returns the move the page named.
func clickAMove(t *testing.T, tab context.Context) string {
	t.Helper()
	if chrome.Run(t, tab, chromedp.Evaluate[int](`document.querySelectorAll('#playbar .picker .choose button').length`)) > 0 {
		chrome.Do(t, tab, chromedp.Click(`#playbar .picker .choose button`, chromedp.NodeVisible))
	}
	for taps := 0; ; taps++ {
		if chrome.Run(t, tab, chromedp.Evaluate[bool](`!document.querySelector('#playbar [data-act="play"]').disabled`)) {
			break
		}
		if taps == 4 {
			t.Fatal("four cells tapped and no move to play")
		}
		chrome.Do(t, tab, chromedp.Click(`figure.board .targets .target`, chromedp.NodeVisible))
	}
	move := chrome.Run(t, tab, chromedp.Evaluate[string](`document.querySelector('#moveform [name="move"]').value`))
	chrome.Do(t, tab, chromedp.Click(`#playbar [data-act="play"]`, chromedp.NodeVisible))
	return move
}
