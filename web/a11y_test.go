package web

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"tessera/internal/chrome"
)

// axeScript is axe-core's browser build. It is not committed (MPL-2.0,
// and a test tool): .ci/run installs it with npm ci from
// testdata/a11y/package-lock.json; $AXE_CORE may name another copy.
// Without it the accessibility test skips, unless CI=true.
func axeScript(t *testing.T) string {
	t.Helper()
	path := os.Getenv("AXE_CORE")
	if path == "" {
		path = filepath.Join("testdata", "a11y", "node_modules", "axe-core", "axe.min.js")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("axe-core: %v (CI=true: run npm ci in web/testdata/a11y)", err)
		}
		t.Skipf("axe-core: %v (npm ci in web/testdata/a11y installs it)", err)
	}
	return string(b)
}

// axeViolation is one rule axe-core found broken.
type axeViolation struct {
	ID     string
	Impact string
	Help   string
	Nodes  []struct{ Target []string }
}

// runAxe runs axe-core, already loaded in the tab's page (through the
// DevTools protocol: the pages' CSP forbids scripts from elsewhere), and
// returns what it found, WCAG 2.2 A and AA and best practices.
func runAxe(t *testing.T, tab context.Context) []axeViolation {
	t.Helper()
	js := chrome.Run(t, tab, chromedp.Evaluate[string](`axe.run(document, {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]}}).then(r => JSON.stringify(r.violations))`, chromedp.EvalAwaitPromise))
	var out []axeViolation
	if err := json.Unmarshal([]byte(js), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestAccessibility runs axe-core on every kind of page, at a phone's
// size and then a desktop's: a spectator's game page, a player's page on
// their turn (with a piece picked and its cells marked) and off it, a
// finished game's, and the server's pages; none may have a violation.
func TestAccessibility(t *testing.T) {
	axe := axeScript(t)
	s, base, _ := playersSite(t)
	late := s.lateGame(t, "elemental", "borders=RBGY")
	play := s.start("tilingking", "")
	_, mover, other := s.turn(play)
	moverToken, err := s.svc.PlayerToken(context.Background(), play, mover.ID)
	if err != nil {
		t.Fatal(err)
	}
	otherToken, err := s.svc.PlayerToken(context.Background(), play, other.ID)
	if err != nil {
		t.Fatal(err)
	}
	pages := []struct{ name, path, ready, then string }{
		{"spectator", s.addr(late.ID), "#game .position", ""},
		{"spectator at the start", s.addr(late.ID) + "?move=0", "#game .position", ""},
		{"player to move", s.addr(play.ID) + "?t=" + moverToken, "#playbar .picker", `document.querySelector("#playbar .choose button").click()`},
		{"player waiting", s.addr(play.ID) + "?t=" + otherToken, "#playbar", ""},
		{"server", base, "main", ""},
		{"leaderboard", base + "/leaderboard/elemental", "main", ""},
		{"player's profile", base + "/players/1", "main", ""},
		{"challenges", base + "/challenges", "main", ""},
		{"not found", "/no/such/page", "main", ""},
	}
	for _, p := range pages {
		t.Run(p.name, func(t *testing.T) {
			// One load and one copy of axe per page: the desktop's size
			// is the same page, laid out again.
			tab := chrome.Isolated(t)
			chrome.Do(t, tab, chromedp.EmulateViewport(390, 844), chromedp.Navigate(s.srv.URL+p.path), chromedp.WaitVisible(p.ready))
			if p.then != "" {
				chrome.Run(t, tab, chromedp.Evaluate[bool](p.then+";true"))
				chrome.Do(t, tab, chromedp.WaitVisible("figure.board .targets .target"))
			}
			chrome.Run(t, tab, chromedp.Evaluate[bool](axe+";true"))
			for _, size := range []struct{ w, h int64 }{{390, 844}, {1280, 800}} {
				chrome.Do(t, tab, chromedp.EmulateViewport(size.w, size.h))
				for _, v := range runAxe(t, tab) {
					var where []string
					for _, n := range v.Nodes {
						where = append(where, strings.Join(n.Target, " "))
					}
					t.Errorf("at %d px: %s (%s): %s, at %s", size.w, v.ID, v.Impact, v.Help, strings.Join(where, "; "))
				}
			}
		})
	}
}

// TestScreenReaderPage: what a screen reader is given. The board is an
// image whose name says the position in words (scores, whose turn, the
// last move, where each player has played); the page has an h1; the
// scrub buttons have names even when disabled; and a polite live
// region, outside the part of the page a move replaces and changed in
// place, announces each move as it arrives.
func TestScreenReaderPage(t *testing.T) {
	s := newSite(t)
	g := s.start("elemental", "borders=RBGY")
	st, mover, _ := s.turn(g)
	tab := chrome.Isolated(t)
	chrome.Do(t, tab, chromedp.EmulateViewport(phoneW, phoneH), chromedp.Navigate(s.srv.URL+s.addr(g.ID)), chromedp.WaitVisible("#board"))
	if n := chrome.Run(t, tab, chromedp.Evaluate[int](`document.querySelectorAll("h1").length`)); n != 1 {
		t.Errorf("%d h1 elements", n)
	}
	unnamed := chrome.Run(t, tab, chromedp.Evaluate[[]string](`[...document.querySelectorAll("nav.scrub .btn")].filter(b => !b.getAttribute("aria-label")).map(b => b.outerHTML)`))
	if len(unnamed) > 0 {
		t.Errorf("scrub buttons without a name: %q", unnamed)
	}
	label := func() string {
		return chrome.Run(t, tab, chromedp.Evaluate[string](`(() => { const b = document.querySelector("figure.board [role=img]"); return document.getElementById(b.getAttribute("aria-labelledby")).textContent; })()`))
	}
	if got := label(); !strings.Contains(got, "Scores: Ana 0, Bo 0") || !strings.Contains(got, "has not played yet") {
		t.Fatalf("the board's words at the start: %q", got)
	}
	// The live region: the same element before and after a move.
	chrome.Run(t, tab, chromedp.Evaluate[bool](`window.liveRegion = document.getElementById("announce"); window.liveRegion.getAttribute("aria-live") === "polite"`))
	move := st.Legal()[0].String()
	if _, err := s.svc.Move(s.req(mover), itoa(g.ID), move); err != nil {
		t.Fatal(err)
	}
	chrome.Run(t, tab, chromedp.Poll[bool](`document.getElementById("announce").textContent.includes("Move 1")`, chromedp.WithPollingMutation(), chromedp.WithPollingTimeout(chrome.Timeout)))
	said := chrome.Run(t, tab, chromedp.Evaluate[string](`document.getElementById("announce").textContent`))
	if !strings.Contains(said, mover.Name+" played "+move) {
		t.Errorf("the live region said %q, want the move %s by %s", said, move, mover.Name)
	}
	if !chrome.Run(t, tab, chromedp.Evaluate[bool](`window.liveRegion === document.getElementById("announce")`)) {
		t.Error("the live region was replaced, not changed in place")
	}
	if got := label(); !strings.Contains(got, "Last move: "+mover.Name+" played "+move) || !strings.Contains(got, mover.Name+" has played "+move) {
		t.Errorf("the board's words after the move: %q", got)
	}
}

// TestKeyboardMove plays a move with the keyboard alone: Tab reaches
// the pieces, Enter picks one, the focus goes to the first marked cell,
// an arrow key moves among the cells, Enter taps one, the focus goes to
// Play and Enter plays the move named.
func TestKeyboardMove(t *testing.T) {
	s := newSite(t)
	g := s.start("elemental", "borders=RBGY")
	_, mover, _ := s.turn(g)
	token, err := s.svc.PlayerToken(context.Background(), g, mover.ID)
	if err != nil {
		t.Fatal(err)
	}
	tab := chrome.Isolated(t)
	chrome.Do(t, tab, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(s.srv.URL+s.addr(g.ID)+"?t="+token), chromedp.WaitVisible("#playbar .picker"))
	focused := func() string {
		return chrome.Run(t, tab, chromedp.Evaluate[string](`(() => { const e = document.activeElement; return e.className + ":" + (e.getAttribute("aria-label") || e.textContent); })()`))
	}
	// Tab until a piece has the focus (the page's links and scrubber come first).
	for i := 0; !strings.HasPrefix(focused(), "btn piece:"); i++ {
		if i == 30 {
			t.Fatalf("30 Tabs and no piece: the focus is on %q", focused())
		}
		chrome.Do(t, tab, chromedp.KeyEvent(kb.Tab))
	}
	chrome.Do(t, tab, chromedp.KeyEvent(kb.Enter))
	first := focused()
	if !strings.HasPrefix(first, "target:") {
		t.Fatalf("after Enter on a piece the focus is on %q, want a marked cell", first)
	}
	chrome.Do(t, tab, chromedp.KeyEvent(kb.ArrowRight))
	second := focused()
	if !strings.HasPrefix(second, "target:") || second == first {
		t.Fatalf("after the right arrow the focus is on %q (was %q)", second, first)
	}
	if n := chrome.Run(t, tab, chromedp.Evaluate[int](`document.querySelectorAll('.targets .target[tabindex="0"]').length`)); n != 1 {
		t.Fatalf("%d cells in the Tab order, want 1 (a roving tabindex)", n)
	}
	chrome.Do(t, tab, chromedp.KeyEvent(kb.Enter))
	if got := focused(); !strings.HasPrefix(got, "btn primary:Play") {
		t.Fatalf("after Enter on a cell the focus is on %q, want Play", got)
	}
	chosen := chrome.Run(t, tab, chromedp.Evaluate[string](`document.querySelector("#moveform [name=move]").value`))
	if !strings.HasPrefix(chosen, strings.TrimPrefix(second, "target:")) {
		t.Fatalf("the cell %q was tapped, the move chosen is %q", second, chosen)
	}
	chrome.Do(t, tab, chromedp.KeyEvent(kb.Enter))
	chrome.Run(t, tab, chromedp.Poll[bool](`!!document.querySelector("#said.ok")`, chromedp.WithPollingMutation(), chromedp.WithPollingTimeout(chrome.Timeout)))
	if after := s.game(g.ID); len(after.Moves) != 1 || after.Moves[0].Text != chosen {
		t.Fatalf("chose %q, the record has %+v", chosen, after.Moves)
	}
}

func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

// TestOneChosenMove: the board and the list share one chosen move. A
// move chosen on the board is the list's selection, and the list's own
// Play plays it (it played the list's first entry); a move chosen from
// the list is drawn on the board (its piece picked, Play on the bar
// enabled). The picked piece looks picked (the style sheet's selector
// missed it), the pieces are in the hand's order, and no two buttons
// touch.
func TestOneChosenMove(t *testing.T) {
	s := newSite(t)
	g := s.start("closure", "") // a list short enough to be a list
	_, mover, _ := s.turn(g)
	token, err := s.svc.PlayerToken(context.Background(), g, mover.ID)
	if err != nil {
		t.Fatal(err)
	}
	tab := chrome.Isolated(t)
	chrome.Do(t, tab, chromedp.EmulateViewport(phoneW, phoneH), chromedp.Navigate(s.srv.URL+s.addr(g.ID)+"?t="+token), chromedp.WaitVisible("#playbar .picker"))
	pieces := chrome.Run(t, tab, chromedp.Evaluate[[]string](`[...document.querySelectorAll("#playbar .choose button")].map(b => b.textContent)`))
	hand := chrome.Run(t, tab, chromedp.Evaluate[string](`document.querySelector("#playbar .choose").dataset.pieces`))
	if strings.Join(pieces, " ") != hand || !strings.Contains(chrome.Run(t, tab, chromedp.Evaluate[string](`document.querySelector("#playbar figure.hand").getAttribute("aria-label")`)), strings.Join(pieces, ", ")) {
		t.Fatalf("the buttons list %q, the hand %q", pieces, hand)
	}
	// The list first: its choice is drawn on the board.
	listed := chrome.Run(t, tab, chromedp.Evaluate[string](`(() => { const s = document.querySelector("#moveform select"); s.selectedIndex = 7; s.dispatchEvent(new Event("change")); return s.value; })()`))
	pieceOf := func(move string) string { // the move's piece, from the page's placements
		return chrome.Run(t, tab, chromedp.Evaluate[string](`(() => { const d = JSON.parse(document.querySelector("#playbar .placements").textContent); const m = d.m.find(m => m[0] === `+strconvQuote(move)+`); return m ? d.k[m[1]] : ""; })()`))
	}
	picked := chrome.Run(t, tab, chromedp.Evaluate[string](`(document.querySelector('#playbar .choose [aria-pressed="true"]') || {}).textContent || ""`))
	if picked == "" || picked != pieceOf(listed) {
		t.Fatalf("the list's %q (piece %q) picked %q on the board", listed, pieceOf(listed), picked)
	}
	if !chrome.Run(t, tab, chromedp.Evaluate[bool](`!document.querySelector('#playbar [data-act="play"]').disabled && document.querySelector("#playbar .chosen").textContent.startsWith(document.querySelector("#moveform select").value)`)) {
		t.Fatalf("the bar does not show the list's %q ready to play", listed)
	}
	// The picked piece looks picked.
	if !chrome.Run(t, tab, chromedp.Evaluate[bool](`(() => { const on = document.querySelector('#playbar .choose [aria-pressed="true"]'), off = document.querySelector('#playbar .choose [aria-pressed="false"]'); return getComputedStyle(on).backgroundColor !== getComputedStyle(off).backgroundColor; })()`)) {
		t.Error("the picked piece looks like the others")
	}
	// Then the board: cancel, pick the other piece, tap a cell.
	chrome.Run(t, tab, chromedp.Evaluate[bool](`document.querySelector('#playbar [data-act="cancel"]').click(); document.querySelectorAll("#playbar .choose button")[1].click(); true`))
	chrome.Run(t, tab, chromedp.Evaluate[bool](`document.querySelector("figure.board .targets .target").click(); true`))
	board := chrome.Run(t, tab, chromedp.Evaluate[string](`document.querySelector("#moveform select").value`))
	if board == "" || board == listed || pieceOf(board) != pieces[1] {
		t.Fatalf("after tapping the board the list says %q (it said %q)", board, listed)
	}
	// No two buttons on one line touch.
	touching := chrome.Run(t, tab, chromedp.Evaluate[[]string](`(() => {
	  const bs = [...document.querySelectorAll(".btn, .target")].filter(b => b.offsetParent).map(b => [b, b.getBoundingClientRect()]);
	  const out = [];
	  for (const [a, r] of bs) for (const [b, q] of bs) {
	    if (a === b || a.classList.contains("target") || b.classList.contains("target")) continue;
	    const sameLine = r.top < q.bottom && q.top < r.bottom;
	    const gap = q.left - r.right;
	    if (sameLine && gap >= 0 && gap < 4) out.push(a.textContent + " | " + b.textContent);
	  }
	  return out;
	})()`))
	if len(touching) > 0 {
		t.Errorf("buttons that touch: %q", touching)
	}
	// The list's own Play plays the board's choice.
	chrome.Run(t, tab, chromedp.Evaluate[bool](`document.querySelector("#moveform button[type=submit]").click(); true`))
	chrome.Run(t, tab, chromedp.Poll[bool](`!!document.querySelector("#said.ok")`, chromedp.WithPollingMutation(), chromedp.WithPollingTimeout(chrome.Timeout)))
	if after := s.game(g.ID); len(after.Moves) != 1 || after.Moves[0].Text != board {
		t.Fatalf("chose %q on the board, the list's Play played %+v", board, after.Moves)
	}
}
