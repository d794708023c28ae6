package web

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"tessera/internal/chrome"
)

// rect is an element's box in the viewport, in CSS px.
type rect struct {
	X, Y, W, H float64
	Top        bool    // the element is what a tap at its centre reaches (nothing covers it)
	Mark       float64 // a marked cell's ring, its width (CSS px)
}

func (r rect) inside(w, h float64) bool {
	return r.W > 0 && r.H > 0 && r.X >= -0.5 && r.Y >= -0.5 && r.X+r.W <= w+0.5 && r.Y+r.H <= h+0.5
}

// moveStep is what the player's page shows at one step of a move.
type moveStep struct {
	VW, VH   float64
	ScrollY  float64
	Board    rect
	Hand     *rect
	Piece    *rect // the first piece not picked yet, while none is
	Picked   *rect // the piece picked
	Turn     *rect // the turner, when the move has variants
	Play     rect
	Enabled  bool // Play may be pressed
	Targets  []rect
	Chosen   string
	Finished bool
}

// stepState reads a moveStep from the page.
const stepState = `(() => {
  const box = (el) => {
    if (!el || el.hidden || el.closest("[hidden]")) return null;
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return { X: r.left, Y: r.top, W: r.width, H: r.height, Top: !!hit && (hit === el || el.contains(hit)) };
  };
  const play = document.querySelector('#playbar [data-act="play"]');
  return JSON.stringify({
    VW: innerWidth, VH: innerHeight, ScrollY: scrollY,
    Board: box(document.querySelector("figure.board svg")),
    Hand: box(document.querySelector("#playbar figure.hand")),
    Piece: document.querySelector('#playbar .choose [aria-pressed="true"]') ? null : box(document.querySelector("#playbar .choose button")),
    Picked: box(document.querySelector('#playbar .choose [aria-pressed="true"]')),
    Turn: box(document.querySelector('#playbar [data-act="turn"]')),
    Play: box(play) || {},
    Enabled: !!play && !play.disabled,
    Targets: [...document.querySelectorAll("figure.board .targets .target")].map(b => Object.assign(box(b) || {}, { Mark: parseFloat(getComputedStyle(b, "::before").width) })),
    Chosen: document.querySelector("#moveform [name=move]").value,
  });
})()`

// TestWholeMoveOnOneScreen plays a move of every game on a phone's
// screen (390×844, touch) and a desktop's (1280×800) by tapping at the
// places the page shows, never scrolling: at every step the board, the
// hand, the piece picked, the marked cells, the turner and Play are all
// inside the viewport and uncovered (a tap at each one's centre reaches
// it), and the marked cells are at least 24 CSS px (WCAG 2.2's minimum
// target size). The move played is the one chosen. On the phone, late
// in the game too (a bigger board, fewer moves).
func TestWholeMoveOnOneScreen(t *testing.T) {
	for _, kind := range []string{"closure", "elemental", "glorieta", "knotwork", "tilingking"} {
		for _, size := range []struct {
			w, h  int64
			touch bool
		}{{390, 844, true}, {1280, 800, false}} {
			for _, late := range []bool{false, true} {
				if late && !size.touch {
					continue // the phone, with the least room, checks the late positions
				}
				name := fmt.Sprintf("%s/%dx%d", kind, size.w, size.h)
				if late {
					name += "/late"
				}
				t.Run(name, func(t *testing.T) {
					s := newSite(t)
					g := s.start(kind, "")
					if late {
						g = s.lateGame(t, kind, "")
					}
					_, mover, _ := s.turn(g)
					token, err := s.svc.PlayerToken(context.Background(), g, mover.ID)
					if err != nil {
						t.Fatal(err)
					}
					tab := chrome.Isolated(t)
					var opts []chromedp.EmulateViewportOption
					if size.touch {
						opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateTouch)
					}
					chrome.Do(t, tab, chromedp.EmulateViewport(size.w, size.h, opts...),
						chromedp.Navigate(s.srv.URL+s.addr(g.ID)+"?t="+token),
						chromedp.WaitVisible(chromedp.CSS("#playbar .picker")))
					tap := func(what string, r rect) {
						t.Helper()
						if !r.Top {
							t.Fatalf("%s at %+v is covered: a tap there does not reach it", what, r)
						}
						chrome.Do(t, tab, chromedp.MouseClickXY(r.X+r.W/2, r.Y+r.H/2))
					}
					chosen := ""
					for i := 0; ; i++ {
						if i == 12 {
							t.Fatal("no move after 12 taps")
						}
						var st moveStep
						js := chrome.Run(t, tab, chromedp.Evaluate[string](stepState))
						if err := json.Unmarshal([]byte(js), &st); err != nil {
							t.Fatal(err)
						}
						if st.ScrollY != 0 {
							t.Fatalf("step %d: the page scrolled to %v", i, st.ScrollY)
						}
						check := func(what string, r *rect) {
							t.Helper()
							if r != nil && !r.inside(st.VW, st.VH) {
								t.Fatalf("step %d: %s at %+v is outside the %v×%v screen", i, what, *r, st.VW, st.VH)
							}
						}
						check("the board", &st.Board)
						check("the hand", st.Hand)
						check("the piece picked", st.Picked)
						check("the turner", st.Turn)
						check("Play", &st.Play)
						if st.Hand == nil {
							t.Fatalf("step %d: no hand on the bar", i)
						}
						switch {
						case st.Piece != nil:
							check("a piece", st.Piece)
							tap("a piece", *st.Piece)
						case st.Enabled:
							chosen = st.Chosen
							tap("Play", st.Play)
						case len(st.Targets) > 0:
							for _, r := range st.Targets {
								check("a marked cell", &r)
								if r.W < 24 || r.H < 24 {
									t.Fatalf("step %d: a marked cell of %.0f×%.0f px: under 24", i, r.W, r.H)
								}
								// The ring marks the cell, it does not hide
								// the board (Closure's were 295 px circles
								// over the laid tile on a desktop).
								if r.Mark <= 0 || r.Mark > 44 {
									t.Fatalf("step %d: a marked cell's ring is %.0f px wide: want 1 to 44", i, r.Mark)
								}
							}
							tap("a marked cell", st.Targets[0])
						default:
							t.Fatalf("step %d: nothing to tap: %s", i, js)
						}
						if chosen != "" {
							break
						}
						// Wait for the page to take the tap: the preview's
						// fetch, the targets redrawn.
						chrome.Run(t, tab, chromedp.Evaluate[bool](`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`, chromedp.EvalAwaitPromise))
					}
					// Polled every 50 ms, not on each mutation: under -race, a
					// poll on mutations begun as the zoomed board was drawn
					// again never returned, though #said.ok was there.
					chrome.Run(t, tab, chromedp.Poll[bool](`!!document.querySelector("#said.ok")`, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(chrome.Timeout)))
					after := s.game(g.ID)
					if len(after.Moves) != len(g.Moves)+1 || !strings.EqualFold(after.Moves[len(g.Moves)].Text, chosen) {
						t.Fatalf("chose %q, the record ends %+v", chosen, after.Moves[len(g.Moves):])
					}
				})
			}
		}
	}
}

// TestSpectatorBoardAndScrubberOnScreen: a spectator's page of every
// game, late in the game, shows the whole board and the scrubber under
// it without scrolling, on a phone and on a 1280×800 desktop (the board
// ended at 805 px there, the scrubber below the fold).
func TestSpectatorBoardAndScrubberOnScreen(t *testing.T) {
	for _, kind := range []string{"closure", "elemental", "glorieta", "knotwork", "tilingking"} {
		s := newSite(t)
		g := s.lateGame(t, kind, "")
		for _, size := range []struct{ w, h int64 }{{390, 844}, {1280, 800}} {
			t.Run(fmt.Sprintf("%s/%dx%d", kind, size.w, size.h), func(t *testing.T) {
				tab := chrome.Isolated(t)
				chrome.Do(t, tab, chromedp.EmulateViewport(size.w, size.h), chromedp.Navigate(s.srv.URL+s.addr(g.ID)), chromedp.WaitVisible("#board"))
				for _, sel := range []string{"figure.board svg", "nav.scrub", ".status"} {
					r := chrome.Run(t, tab, chromedp.Evaluate[[]float64](`(() => { const r = document.querySelector(`+strconvQuote(sel)+`).getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })()`))
					if r[0] < -0.5 || r[1] < -0.5 || r[2] > float64(size.w)+0.5 || r[3] > float64(size.h)+0.5 {
						t.Errorf("%s spans %v on a %dx%d screen", sel, r, size.w, size.h)
					}
				}
			})
		}
	}
}
