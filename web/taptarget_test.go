package web

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"tessera/internal/chrome"
)

// tapState is what TestTapTargets reads of the page at each step: the
// marked cells' hit boxes, the piece to pick, the cells tapped so far.
const tapState = `(() => {
  const box = (el) => {
    if (!el || el.hidden || el.closest("[hidden]")) return null;
    const r = el.getBoundingClientRect();
    const at = (x, y) => { const h = document.elementFromPoint(x, y); return !!h && (h === el || el.contains(h)); };
    const cx = r.left + r.width / 2, cy = r.top + r.height / 2, dx = r.width / 2 - 2, dy = r.height / 2 - 2;
    return { X: r.left, Y: r.top, W: r.width, H: r.height, Top: at(cx, cy),
      Whole: at(cx, cy) && at(cx - dx, cy) && at(cx + dx, cy) && at(cx, cy - dy) && at(cx, cy + dy) };
  };
  const picked = document.querySelector('#playbar .choose [aria-pressed="true"]');
  const play = document.querySelector('#playbar [data-act="play"]');
  return JSON.stringify({
    VW: innerWidth, VH: innerHeight, ScrollY: scrollY,
    Piece: picked ? null : box(document.querySelector("#playbar .choose button")),
    Enabled: !!play && !play.disabled,
    Targets: [...document.querySelectorAll("figure.board .targets .target")].map(b => Object.assign(box(b) || {}, { P: b.dataset.point })),
    Taps: document.querySelector("#playbar .picker").dataset.taps || "",
    Zoomed: document.querySelector("figure.board").classList.contains("zoomed"),
  });
})()`

type tapTarget struct {
	X, Y, W, H float64
	Top, Whole bool
	P          string
}

type tapStep struct {
	VW, VH, ScrollY float64
	Piece           *rect
	Enabled         bool
	Targets         []tapTarget
	Taps            string
	Zoomed          bool
}

// TestTapTargets: on a phone's screen (390×844, touch), in every game, at
// the start and late in a game, every marked cell is drawn at least 24
// CSS px (WCAG 2.2's 2.5.8) inside the screen, and every cell a tap takes
// was a hit box of at least 44 CSS px (2.5.5) that a tap anywhere inside
// reaches (its centre and four points 2 px inside its edges: not covered,
// not overlapping a neighbour). Where the cells are drawn smaller
// (Glorieta's, TilingKing's, Closure's late), the first tap on the board
// zooms it in around the tap and takes no cell; the cells in view are
// then 44 px or more.
func TestTapTargets(t *testing.T) {
	for _, kind := range []string{"closure", "elemental", "glorieta", "knotwork", "tilingking"} {
		for _, late := range []bool{false, true} {
			name := kind
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
				chrome.Do(t, tab, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch),
					chromedp.Navigate(s.srv.URL+s.addr(g.ID)+"?t="+token),
					chromedp.WaitVisible(chromedp.CSS("#playbar .picker")))
				read := func() tapStep {
					t.Helper()
					var st tapStep
					js := chrome.Run(t, tab, chromedp.Evaluate[string](tapState))
					if err := json.Unmarshal([]byte(js), &st); err != nil {
						t.Fatal(err)
					}
					return st
				}
				tap := func(x, y float64) {
					t.Helper()
					chrome.Do(t, tab, chromedp.MouseClickXY(x, y))
					chrome.Run(t, tab, chromedp.Evaluate[bool](`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`, chromedp.EvalAwaitPromise))
				}
				taken, zooms, smallest := 0, 0, math.Inf(1)
				for i := 0; ; i++ {
					if i == 12 {
						t.Fatal("no move after 12 taps")
					}
					st := read()
					if st.ScrollY != 0 {
						t.Fatalf("step %d: the page scrolled to %v", i, st.ScrollY)
					}
					if st.Piece != nil {
						tap(st.Piece.X+st.Piece.W/2, st.Piece.Y+st.Piece.H/2)
						continue
					}
					if st.Enabled {
						break
					}
					if len(st.Targets) == 0 {
						t.Fatalf("step %d: no marked cell and no move to play", i)
					}
					least := math.Inf(1)
					for _, r := range st.Targets {
						if r.W < 24 || r.H < 24 {
							t.Fatalf("step %d: the cell %s drawn %.1f×%.1f px: under 24", i, r.P, r.W, r.H)
						}
						if !(rect{X: r.X, Y: r.Y, W: r.W, H: r.H}).inside(st.VW, st.VH) {
							t.Fatalf("step %d: the cell %s at %+v is outside the screen", i, r.P, r)
						}
						least = min(least, r.W, r.H)
					}
					smallest = min(smallest, least)
					if least >= 44-0.5 {
						// A tap takes a cell: each one's whole box is its own.
						for _, r := range st.Targets {
							if !r.Whole {
								t.Fatalf("step %d: the cell %s's hit box %+v is not reached whole (covered, or overlapping a neighbour)", i, r.P, r)
							}
						}
					}
					first := st.Targets[0]
					tap(first.X+first.W/2, first.Y+first.H/2)
					after := read()
					if least >= 44-0.5 {
						want := strings.TrimSpace(st.Taps + " " + first.P)
						if after.Taps != want {
							t.Fatalf("step %d: tapped the %.0f px cell %s, the cells taken are %q, want %q", i, least, first.P, after.Taps, want)
						}
						taken++
						continue
					}
					// Smaller than 44: the tap zooms in, it takes no cell.
					if st.Zoomed {
						t.Fatalf("step %d: zoomed in, the cells are still %.1f px", i, least)
					}
					if !after.Zoomed || after.Taps != st.Taps {
						t.Fatalf("step %d: a tap on a %.1f px cell: zoomed %v, cells taken %q (before %q), want a zoom and none taken", i, least, after.Zoomed, after.Taps, st.Taps)
					}
					zooms++
				}
				if taken == 0 {
					t.Fatal("no cell taken")
				}
				t.Logf("%s: smallest cell drawn %.1f px, %d zooms, %d cells taken at 44 px or more", name, smallest, zooms, taken)
				if zooms > 0 {
					// Zoomed in, then the move named: the whole board again.
					if st := read(); st.Zoomed {
						t.Fatal("still zoomed in once the move is named")
					}
				}
			})
		}
	}
}

// TestZoomOut: zoomed in on Glorieta's small cells, a tap on the board
// away from every marked cell zooms out again, taking none.
func TestZoomOut(t *testing.T) {
	s := newSite(t)
	g := s.start("glorieta", "")
	_, mover, _ := s.turn(g)
	token, err := s.svc.PlayerToken(context.Background(), g, mover.ID)
	if err != nil {
		t.Fatal(err)
	}
	tab := chrome.Isolated(t)
	chrome.Do(t, tab, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch),
		chromedp.Navigate(s.srv.URL+s.addr(g.ID)+"?t="+token),
		chromedp.WaitVisible(chromedp.CSS("figure.board .targets .target")))
	var st tapStep
	read := func() {
		if err := json.Unmarshal([]byte(chrome.Run(t, tab, chromedp.Evaluate[string](tapState))), &st); err != nil {
			t.Fatal(err)
		}
	}
	read()
	if len(st.Targets) == 0 || st.Targets[0].W >= 44 {
		t.Fatalf("Glorieta's cells on a phone: %d targets, the first %+v; the test wants small cells", len(st.Targets), st.Targets)
	}
	n := len(st.Targets)
	f := st.Targets[0]
	chrome.Do(t, tab, chromedp.MouseClickXY(f.X+f.W/2, f.Y+f.H/2))
	read()
	if !st.Zoomed || len(st.Targets) >= n {
		t.Fatalf("after a tap on a small cell: zoomed %v, %d cells listed of %d", st.Zoomed, len(st.Targets), n)
	}
	// A point of the board farthest from every marked cell in view.
	spot := chrome.Run(t, tab, chromedp.Evaluate[[]float64](`(() => {
	  const b = document.querySelector("figure.board svg").getBoundingClientRect();
	  const cs = [...document.querySelectorAll("figure.board .targets .target")].map(t => { const r = t.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2, r.width / 2]; });
	  let best = null, bd = -1;
	  for (let x = b.left + 4; x < b.right - 4; x += 4) for (let y = b.top + 4; y < b.bottom - 4; y += 4) {
	    const h = document.elementFromPoint(x, y);
	    if (!h || !h.closest("figure.board") || h.closest(".target")) continue;
	    const d = Math.min(...cs.map(c => Math.hypot(x - c[0], y - c[1]) - c[2]));
	    if (d > bd) { bd = d; best = [x, y, d]; }
	  }
	  return best;
	})()`))
	if spot == nil {
		t.Fatal("no spot on the board away from the cells")
	}
	chrome.Do(t, tab, chromedp.MouseClickXY(spot[0], spot[1]))
	read()
	if st.Zoomed || st.Taps != "" || len(st.Targets) != n {
		t.Fatalf("after a tap away from the cells (%v): zoomed %v, taken %q, %d cells of %d", spot, st.Zoomed, st.Taps, len(st.Targets), n)
	}
}
