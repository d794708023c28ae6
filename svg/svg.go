// Package svg draws what render/ draws, as SVG for the web companion's
// pages: a board from its engine.Scene (alone, or with the panel of
// picture.Panel below it as in the posts), a hand, and a rating's course.
// It copies render's geometry (the fit of a scene, the least stroke and
// text sizes, the panel's layout and colours) so that a page and a post
// show the same picture (the PNG-vs-SVG test compares them in Chromium),
// and needs no library: it imports the engine and picture alone.
//
// Every picture is one standalone <svg> element, without an XML prolog,
// to inline in a page; every text in it is escaped (encoding/xml).
package svg

import (
	"math"

	"tessera/engine"
	"tessera/picture"
)

// Layout sizes, in pixels: render's, so that the pictures match.
const (
	Width     = 760 // a board's picture with its panel, and a hand's
	BoardBox  = 720 // a board scene is fitted into this square...
	BoardMaxH = 900 // ...or this much height for a tall scene
	pad       = 20
	// minText is the least text size drawn, in pixels: render skips a
	// smaller text rather than smear it.
	minText = 6
)

// Renderer draws the pictures as SVG. It holds nothing and is safe for
// concurrent use.
type Renderer struct{}

// New returns a renderer.
func New() *Renderer { return &Renderer{} }

// transform maps scene units to pixels: p*Scale + (DX, DY).
type transform struct{ Scale, DX, DY float64 }

// fit centres a w x h scene in the box at (x, y) of size bw x bh, as
// render.Fit does.
func fit(w, h, x, y, bw, bh float64) transform {
	if w <= 0 || h <= 0 {
		return transform{Scale: 1, DX: x, DY: y}
	}
	s := math.Min(bw/w, bh/h)
	return transform{Scale: s, DX: x + (bw-w*s)/2, DY: y + (bh-h*s)/2}
}

// boardFit is where a board scene goes in its picture (render's
// boardLayout): fitted into the box, at the top.
func boardFit(sc engine.Scene) transform {
	t := fit(sc.W, sc.H, pad, pad, BoardBox, BoardMaxH)
	t.DY = pad
	return t
}

// decimalsFor is how many decimals a coordinate needs in units drawn at
// scale px per unit: a tenth of a unit while that is at most a sixth of a
// pixel, else a hundredth.
func decimalsFor(scale float64) int {
	if scale <= 1.6 {
		return 1
	}
	return 2
}

func background(sc engine.Scene) engine.Color {
	if sc.Background.None() {
		return engine.Paper
	}
	return sc.Background
}

// scene queues sc's items in scene units, drawn at scale pixels per
// unit: a stroke is at least one pixel wide, and a text under minText
// pixels is left out, as render draws them.
func (w *writer) scene(sc engine.Scene, scale float64) {
	var fonts []font
	for _, it := range sc.Items {
		if it.Text != "" && it.Size*scale >= minText {
			fonts = append(fonts, font{it.Size, it.Align, it.Bold})
		}
	}
	w.fontGroup(fonts)
	defer w.endFontGroup()
	for _, it := range sc.Items {
		if it.Path != nil && len(it.Path.Ops) > 0 {
			width := 0.0
			if !it.Stroke.None() && it.Width > 0 {
				width = math.Max(1/scale, it.Width)
			}
			if !it.Fill.None() || width > 0 {
				w.path(it.Path, it.Fill, it.Stroke, width)
			}
		}
		if it.Text != "" && it.Size*scale >= minText {
			w.text(it.Text, it.At.X, it.At.Y, it.Size, it.Color, it.Align, it.Bold)
		}
	}
	w.flush()
}

// BoardOnly draws the board alone, as the board part of Board: its
// viewBox is the scene's own units (0 0 W H), so that a page's overlays
// (the cells a player taps, engine.Placement's points) use the scene's
// coordinates; it is sized as Board draws it, and has id="board".
func (r *Renderer) BoardOnly(sc engine.Scene) ([]byte, error) {
	t := boardFit(sc)
	w := &writer{decimals: decimalsFor(t.Scale)}
	w.open(sc.W*t.Scale, sc.H*t.Scale, sc.W, sc.H, ` id="board"`)
	w.path(engine.Rect(0, 0, sc.W, sc.H), background(sc), engine.Color{}, 0)
	w.flush()
	w.scene(sc, t.Scale)
	return w.close(), nil
}

// Board draws a board scene with the panel below it, as render.Board
// does: Width pixels wide, the board fitted at the top, the panel under.
func (r *Renderer) Board(sc engine.Scene, p picture.Panel) ([]byte, error) {
	t := boardFit(sc)
	boardH := math.Ceil(sc.H*t.Scale) + 2*pad
	l := layoutPanel(p, boardH)
	h := math.Ceil(boardH + l.H)
	w := &writer{decimals: 1}
	w.open(Width, h, Width, h, "")
	w.title(p.Title)
	w.path(engine.Rect(0, 0, Width, h), background(sc), engine.Color{}, 0)
	w.flush()
	w.b.WriteString(`<g transform="translate(` + w.fmtNum(t.DX) + " " + w.fmtNum(t.DY) + `) scale(` + trim(t.Scale) + `)">`)
	w.decimals = decimalsFor(t.Scale)
	w.scene(sc, t.Scale)
	w.b.WriteString("</g>")
	w.decimals = 1
	w.panel(l, boardH, h)
	return w.close(), nil
}

// trim writes a scale with enough digits that a 900 px board is off by
// less than a hundredth of a pixel.
func trim(v float64) string {
	w := writer{decimals: 6}
	return w.fmtNum(v)
}

// Scene draws a scene alone (a hand, a tile set), as render.Scene does:
// Width pixels wide (up to 2,000 high). Its viewBox is the scene's own
// units, as BoardOnly's.
func (r *Renderer) Scene(sc engine.Scene) ([]byte, error) {
	t := fit(sc.W, sc.H, 0, 0, Width, math.Max(1, sc.H*Width/math.Max(sc.W, 1)))
	h := math.Max(1, math.Ceil(sc.H*t.Scale))
	if h > 2000 {
		t = fit(sc.W, sc.H, 0, 0, Width, 2000)
		h = 2000
	}
	w := &writer{decimals: decimalsFor(t.Scale)}
	vw, vh := math.Max(sc.W, 1), math.Max(sc.H, 1)
	w.open(vw*t.Scale, h, vw, vh, "")
	w.path(engine.Rect(0, 0, vw, vh), background(sc), engine.Color{}, 0)
	w.flush()
	w.scene(sc, t.Scale)
	return w.close(), nil
}
