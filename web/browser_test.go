package web

// Browser tests: the pages in a headless Chromium (internal/chrome),
// which skip without one unless CI=true.

import (
	"fmt"
	"slices"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"tessera/engine"
	"tessera/internal/chrome"
	"tessera/service"
)

// phone is the viewport the pages are made for first.
const phoneW, phoneH = 390, 844

// boardTexts are the texts a scene's board shows (its labels and the
// letters of its tiles), in order.
func boardTexts(sc engine.Scene) []string {
	var out []string
	for _, it := range sc.Items {
		if it.Text != "" {
			out = append(out, it.Text)
		}
	}
	return out
}

// TestBrowserGamePage opens an Elemental game's page on a phone-sized
// screen after six moves: the inline board shows the position's cells
// (the scene's letters and coordinates), the table its scores, nothing
// scrolls sideways; the left arrow key goes back one move without
// leaving the page (the board and the counter follow), the right arrow
// forward again.
func TestBrowserGamePage(t *testing.T) {
	s := newSite(t)
	g := s.start("elemental", "borders=RBGY")
	st, err := service.Replay(g)
	if err != nil {
		t.Fatal(err)
	}
	users := map[string]service.User{ana.ID: ana, bo.ID: bo}
	var scenes []engine.Scene // the board after each move, from the start
	scenes = append(scenes, st.Board())
	for i := 0; i < 6; i++ {
		m := st.Legal()[0]
		if _, err := s.svc.Move(s.req(users[g.Players[st.ToMove()].ID]), itoa(g.ID), m.String()); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Apply(m); err != nil {
			t.Fatal(err)
		}
		scenes = append(scenes, st.Board())
	}

	tab := chrome.Tab(t)
	chrome.Do(t, tab,
		chromedp.EmulateViewport(phoneW, phoneH),
		chromedp.Navigate(s.srv.URL+s.addr(g.ID)),
		chromedp.WaitVisible(chromedp.CSS("#board")),
	)
	read := func() []string {
		return chrome.Run(t, tab, chromedp.Evaluate[[]string](`[...document.querySelectorAll("#board text")].map(e => e.textContent)`))
	}
	if got, want := read(), boardTexts(scenes[6]); !slices.Equal(got, want) {
		t.Fatalf("the board shows %q, want the position's %q", got, want)
	}
	scores := chrome.Run(t, tab, chromedp.Evaluate[[]string](`[...document.querySelectorAll("table.seats tbody tr td:nth-child(2)")].map(e => e.textContent.trim())`))
	var want []string
	for _, v := range st.Scores() {
		want = append(want, strconv.Itoa(v))
	}
	if !slices.Equal(scores, want) {
		t.Fatalf("scores %q, want %q", scores, want)
	}
	if w := chrome.Run(t, tab, chromedp.Evaluate[int]("document.documentElement.scrollWidth")); w > phoneW {
		t.Errorf("the page is %d px wide on a %d px screen: it scrolls sideways", w, phoneW)
	}

	for _, step := range []struct {
		key   string
		moves int
	}{
		{kb.ArrowLeft, 5},  // back one move
		{kb.ArrowLeft, 4},  // and another
		{kb.ArrowRight, 5}, // forward again
	} {
		chrome.Do(t, tab, chromedp.KeyEvent(step.key))
		chrome.Run(t, tab, chromedp.Poll[bool](fmt.Sprintf(`document.querySelector("section.position").dataset.moves === "%d"`, step.moves)))
		if got, want := read(), boardTexts(scenes[step.moves]); !slices.Equal(got, want) {
			t.Fatalf("after the arrow to move %d the board shows %q, want %q", step.moves, got, want)
		}
		at := chrome.Run(t, tab, chromedp.Text(chromedp.CSS("nav.scrub .at")))
		if at != fmt.Sprintf("Move %d of 6", step.moves) {
			t.Fatalf("the counter says %q at move %d", at, step.moves)
		}
	}
	if loc := chrome.Run(t, tab, chromedp.Location()); loc != s.srv.URL+s.addr(g.ID)+"?move=5" {
		t.Errorf("the address bar says %q, want the position's address", loc)
	}
}

// TestBrowserPlayerPage: a player's page on a phone-sized screen shows
// their rating's chart drawn (an SVG as wide as the page, not wider)
// and nothing scrolls sideways.
func TestBrowserPlayerPage(t *testing.T) {
	s, base, _ := playersSite(t)
	tab := chrome.Tab(t)
	chrome.Do(t, tab,
		chromedp.EmulateViewport(phoneW, phoneH),
		chromedp.Navigate(s.srv.URL+base+"/players/1"),
		chromedp.WaitVisible(chromedp.CSS("figure.chart svg")),
	)
	w := chrome.Run(t, tab, chromedp.Evaluate[float64](`document.querySelector("figure.chart svg").getBoundingClientRect().width`))
	if w < 300 || w > phoneW {
		t.Errorf("the chart is %.0f px wide on a %d px screen", w, phoneW)
	}
	if sw := chrome.Run(t, tab, chromedp.Evaluate[int]("document.documentElement.scrollWidth")); sw > phoneW {
		t.Errorf("the page is %d px wide on a %d px screen: it scrolls sideways", sw, phoneW)
	}
}
