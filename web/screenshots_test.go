package web

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"tessera/internal/chrome"
	"tessera/service"
)

// TestScreenshots draws each kind of page in Chromium at a phone's width
// (390 px) and a desktop's (1280 px) into the folder TESSERA_SCREENSHOTS
// names: the pictures of docs/img/web, shown by the README and
// docs/web.md. Without the variable it does nothing: it makes pictures,
// it checks nothing the other browser tests do not.
//
//	TESSERA_SCREENSHOTS=$PWD/docs/img/web go test -run '^TestScreenshots$' ./web
func TestScreenshots(t *testing.T) {
	dir := os.Getenv("TESSERA_SCREENSHOTS")
	if dir == "" {
		t.Skip("TESSERA_SCREENSHOTS names no folder")
	}
	s, base, _ := playersSite(t)
	late := s.lateGame(t, "elemental", "borders=RBGY")
	play := s.start("closure", "")
	st, err := service.Replay(play)
	if err != nil {
		t.Fatal(err)
	}
	mover := []service.User{ana, bo}[st.ToMove()]
	token, err := s.svc.PlayerToken(context.Background(), play, mover.ID)
	if err != nil {
		t.Fatal(err)
	}
	pages := []struct{ name, path, ready string }{
		{"game", s.addr(late.ID), "#game .position"},
		{"play", s.addr(play.ID) + "?t=" + token, "#playbar .picker"},
		{"server", base, "main"},
		{"leaderboard", base + "/leaderboard/elemental", "main"},
		{"player", base + "/players/1", "main svg"},
		{"challenges", base + "/challenges", "main"},
	}
	for _, size := range []struct{ w, h int64 }{{390, 844}, {1280, 800}} {
		for _, p := range pages {
			tab := chrome.Isolated(t)
			chrome.Do(t, tab, chromedp.EmulateViewport(size.w, size.h), chromedp.Navigate(s.srv.URL+p.path), chromedp.WaitVisible(p.ready))
			if p.name == "play" { // a piece picked: the cells it may go to are marked
				chrome.Do(t, tab, chromedp.Click("#playbar .choose button", chromedp.NodeVisible), chromedp.WaitVisible("figure.board .targets .target"))
			}
			shot := chrome.Run(t, tab, chromedp.CaptureScreenshot())
			name := filepath.Join(dir, p.name+"-"+itoa(uint64(size.w))+".png")
			if err := os.WriteFile(name, shot, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d bytes", name, len(shot))
		}
	}
	// Each game's player's page on a phone, in the middle of a move: a
	// piece picked and its first cell tapped, the preview on the board
	// and Play ready (docs/web.md).
	for _, kind := range []string{"closure", "elemental", "glorieta", "knotwork", "tilingking"} {
		g := s.lateGame(t, kind, "")
		_, mover, _ := s.turn(g)
		token, err := s.svc.PlayerToken(context.Background(), g, mover.ID)
		if err != nil {
			t.Fatal(err)
		}
		tab := chrome.Isolated(t)
		chrome.Do(t, tab, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch), chromedp.Navigate(s.srv.URL+s.addr(g.ID)+"?t="+token),
			chromedp.WaitVisible("#playbar .picker"))
		chrome.Run(t, tab, chromedp.Evaluate[bool](`(() => { const b = document.querySelector("#playbar .choose button"); if (b) b.click(); return true; })()`))
		chrome.Do(t, tab, chromedp.WaitVisible("figure.board .targets .target"))
		chrome.Run(t, tab, chromedp.Evaluate[bool](`document.querySelector("figure.board .targets .target").click(); true`))
		// The preview replaces the board once fetched, when the move is whole.
		chrome.Run(t, tab, chromedp.Poll[bool](`!!document.querySelector('#playbar [data-act="play"]:not([disabled])') || !!document.querySelector("figure.board .targets .target")`,
			chromedp.WithPollingTimeout(chrome.Timeout)))
		chrome.Run(t, tab, chromedp.Evaluate[bool](`new Promise(r => setTimeout(() => r(true), 500))`, chromedp.EvalAwaitPromise))
		shot := chrome.Run(t, tab, chromedp.CaptureScreenshot())
		name := filepath.Join(dir, "phone-"+kind+".png")
		if err := os.WriteFile(name, shot, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d bytes", name, len(shot))
	}
	// Glorieta's first move on a phone, zoomed in: its cells are drawn
	// about 24 px apart, so the first tap on the board zooms in.
	g := s.start("glorieta", "")
	_, mover, _ = s.turn(g)
	token, err = s.svc.PlayerToken(context.Background(), g, mover.ID)
	if err != nil {
		t.Fatal(err)
	}
	tab := chrome.Isolated(t)
	chrome.Do(t, tab, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch), chromedp.Navigate(s.srv.URL+s.addr(g.ID)+"?t="+token),
		chromedp.WaitVisible("figure.board .targets .target"))
	at := chrome.Run(t, tab, chromedp.Evaluate[[]float64](`(() => { const ts = document.querySelectorAll("figure.board .targets .target"); const r = ts[Math.floor(ts.length / 2)].getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`))
	chrome.Do(t, tab, chromedp.MouseClickXY(at[0], at[1]), chromedp.WaitVisible("figure.board.zoomed .targets .target"))
	shot := chrome.Run(t, tab, chromedp.CaptureScreenshot())
	name := filepath.Join(dir, "phone-glorieta-zoomed.png")
	if err := os.WriteFile(name, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d bytes", name, len(shot))
}
