package svg

import (
	"math"

	"tessera/engine"
	"tessera/picture"
)

// The panel under a board, laid out as render/panel.go lays it out (the
// same sizes, places, wrapping and colours): the game's title, the
// status, a row per seat and the legend.

// layoutPanel places the panel's texts below top, measured with the Go
// fonts' advances, as render measures them.
func layoutPanel(p picture.Panel, top float64) picture.PanelLayout {
	return picture.LayoutPanel(textWidth, p, top, Width, pad)
}

// panel writes the laid-out panel from top down to the picture's bottom
// (height h).
func (w *writer) panel(l picture.PanelLayout, top, h float64) {
	w.path(engine.Rect(0, top-pad/2, Width, h-top+pad/2), picture.PanelColour, engine.Color{}, 0)
	for _, r := range l.Rows {
		if r.ToMove {
			w.path(roundedRect(pad/2, r.Top-2, Width-pad, r.H, 8), picture.ToMoveShade, engine.Color{}, 0)
			w.path(triangle(pad+4, r.CY, 9), engine.Highlight, engine.Color{}, 0)
		}
		if !r.Color.None() {
			w.path(engine.Circle(pad+30, r.CY, 13), r.Color, engine.Ink, 2)
		}
	}
	w.flush()
	var fonts []font
	for _, t := range l.Lines {
		fonts = append(fonts, font{t.Px, t.Align, t.Bold})
	}
	w.fontGroup(fonts)
	for _, t := range l.Lines {
		if textWidth(t.Text, t.Px, t.Bold) > Width/3 { // long enough to run off
			w.fitText(t.Text, t.X, t.Y, t.Px, t.Color, t.Align, t.Bold)
		} else {
			w.text(t.Text, t.X, t.Y, t.Px, t.Color, t.Align, t.Bold)
		}
	}
	w.endFontGroup()
}

// roundedRect is gg's rounded rectangle: corners of radius r (circular
// arcs, as cubic curves).
func roundedRect(x, y, w, h, r float64) *engine.Path {
	k := r * (1 - 0.5522847498)
	p := &engine.Path{}
	p.MoveTo(x+r, y).LineTo(x+w-r, y)
	p.CubicTo(x+w-k, y, x+w, y+k, x+w, y+r).LineTo(x+w, y+h-r)
	p.CubicTo(x+w, y+h-k, x+w-k, y+h, x+w-r, y+h).LineTo(x+r, y+h)
	p.CubicTo(x+k, y+h, x, y+h-k, x, y+h-r).LineTo(x, y+r)
	p.CubicTo(x, y+k, x+k, y, x+r, y)
	return p.Close()
}

// triangle is gg's DrawRegularPolygon(3, x, y, r, 0): pointing up.
func triangle(x, y, r float64) *engine.Path {
	var pts []engine.Point
	for i := 0; i < 3; i++ {
		a := -math.Pi/2 + 2*math.Pi/3*float64(i)
		pts = append(pts, engine.Point{X: x + r*math.Cos(a), Y: y + r*math.Sin(a)})
	}
	return engine.Polygon(pts...)
}
