package web

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"tessera/internal/chrome"
)

// step does one click of a player on their page, as a person would:
// pick the first piece while none is picked, then tap the first marked
// cell until the confirm shows, then press Play. It says what it did.
const step = `(() => {
  const piece = document.querySelector("#playbar .choose button");
  if (piece && !document.querySelector('#playbar .choose button[aria-pressed="true"]')) { piece.click(); return "piece " + piece.textContent; }
  const play = document.querySelector('#playbar [data-act="play"]:not([disabled])');
  if (play) { const move = document.querySelector("#moveform [name=move]").value; play.click(); return "play " + move; }
  const cell = document.querySelector("figure.board .targets .target");
  if (cell) { cell.click(); return "tap"; }
  return "stuck";
})()`

// TestClickToMove plays the first move of each game by clicking, in
// Chromium on a phone's screen: the player's private link, a piece from
// the hand, the marked cells, Play. The move is in the record, the page
// says so, and a spectator's tab on the same game shows it without a
// reload (the live stream) and never receives the hand.
func TestClickToMove(t *testing.T) {
	for _, kind := range []string{"closure", "elemental", "glorieta", "knotwork", "tilingking"} {
		t.Run(kind, func(t *testing.T) {
			s := newSite(t)
			g := s.start(kind, "")
			_, mover, _ := s.turn(g)
			token, err := s.svc.PlayerToken(context.Background(), g, mover.ID)
			if err != nil {
				t.Fatal(err)
			}
			// The spectator is someone else, without the player's cookie:
			// the browser keeps cookies by host, and the spectator asks
			// the same server as localhost, the player as 127.0.0.1.
			spectator := chrome.Tab(t)
			chrome.Do(t, spectator, chromedp.EmulateViewport(390, 844), chromedp.Navigate(strings.Replace(s.srv.URL, "127.0.0.1", "localhost", 1)+s.addr(g.ID)),
				chromedp.WaitVisible(chromedp.CSS("#board")))
			player := chrome.Tab(t)
			chrome.Do(t, player, chromedp.EmulateViewport(390, 844), chromedp.Navigate(s.srv.URL+s.addr(g.ID)+"?t="+token),
				chromedp.WaitVisible(chromedp.CSS("#playbar .picker")))
			if url := chrome.Run(t, player, chromedp.Evaluate[string](`location.href`)); strings.Contains(url, "t=") {
				t.Fatalf("the token stayed in the address: %s", url)
			}
			played := ""
			for i := 0; i < 10 && played == ""; i++ {
				did := chrome.Run(t, player, chromedp.Evaluate[string](step))
				switch {
				case did == "stuck":
					t.Fatalf("nothing to click after %d steps", i)
				case strings.HasPrefix(did, "play "):
					played = strings.TrimPrefix(did, "play ")
				}
			}
			if played == "" {
				t.Fatal("no move after 10 clicks")
			}
			chrome.Run(t, player, chromedp.Poll[bool](`!!document.querySelector("#said.ok")`, chromedp.WithPollingMutation(), chromedp.WithPollingTimeout(chrome.Timeout)))
			after := s.game(g.ID)
			if len(after.Moves) != 1 || !strings.HasPrefix(played, after.Moves[0].Text) {
				t.Fatalf("clicked %q, the record has %+v", played, after.Moves)
			}
			chrome.Run(t, spectator, chromedp.Poll[bool](`document.querySelector(".at").textContent.trim() === "Move 1 of 1"`, chromedp.WithPollingMutation(), chromedp.WithPollingTimeout(chrome.Timeout)))
			if html := chrome.Run(t, spectator, chromedp.Evaluate[string](`document.documentElement.outerHTML`)); strings.Contains(html, "Your hand") || strings.Contains(html, `class="hand"`) {
				t.Fatal("the spectator's tab received a hand")
			}
		})
	}
}
