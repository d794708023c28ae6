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
		{"play", s.addr(play.ID) + "?t=" + token, "#play .picker"},
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
				chrome.Do(t, tab, chromedp.Click("#play .picker .choose button", chromedp.NodeVisible), chromedp.WaitVisible("figure.board svg g.hits"))
				chrome.Run(t, tab, chromedp.Evaluate[bool]("window.scrollTo(0, 0) || true"))
			}
			shot := chrome.Run(t, tab, chromedp.CaptureScreenshot())
			name := filepath.Join(dir, p.name+"-"+itoa(uint64(size.w))+".png")
			if err := os.WriteFile(name, shot, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d bytes", name, len(shot))
		}
	}
}
