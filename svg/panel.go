package svg

import (
	"fmt"
	"math"
	"strings"

	"tessera/engine"
	"tessera/picture"
)

// The panel under a board, laid out as render/panel.go lays it out (the
// same sizes, places, wrapping and colours): the game's title, the
// status, a row per seat and the legend.

// Text sizes of the panel, in pixels (render's).
const (
	textSize   = 25
	statusSize = 28
	nameSize   = 27
	scoreSize  = 36
	textLineH  = 32
	statusH    = 36
)

var (
	panelGrey   = engine.Hex("#5a5a5a")
	infoInk     = engine.Hex("#4a4a4a")
	legendInk   = engine.Hex("#3a3a3a")
	panelColour = engine.Hex("#e4dccb")
	toMoveShade = engine.Hex("#fff6d6")
)

// line is one text of the panel, centred vertically on y.
type line struct {
	text  string
	px    float64
	bold  bool
	x, y  float64
	align engine.Align
	color engine.Color
}

// seatRow is where a seat's row lies, for its shading and colour disc.
type seatRow struct {
	top, h, cy float64
	toMove     bool
	color      engine.Color
}

type panelLayout struct {
	h     float64 // from top to the picture's bottom
	lines []line
	rows  []seatRow
}

// layoutPanel places the panel's texts below top.
func layoutPanel(p picture.Panel, top float64) panelLayout {
	var l panelLayout
	y := top + 4
	l.lines = append(l.lines, line{fitWidth(p.Title, textSize, false, Width-2*pad), textSize, false, pad, y + 14, engine.Left, panelGrey})
	y += textLineH
	for _, s := range wrap(p.Status, statusSize, true, Width-2*pad) {
		l.lines = append(l.lines, line{s, statusSize, true, pad, y + 16, engine.Left, engine.Ink})
		y += statusH
	}
	y += 8
	for _, s := range p.Seats {
		rowTop := y
		score := fmt.Sprint(s.Score)
		textW := Width - pad - textWidth(score, scoreSize, true) - 16 - (pad + 52)
		y += 22
		strong := s.ToMove || s.Winner
		l.lines = append(l.lines, line{fitWidth(picture.SeatTitle(s), nameSize, strong, textW), nameSize, strong, pad + 52, y, engine.Left, engine.Ink})
		y += 33
		var info []string
		if s.InHand >= 0 {
			info = append(info, fmt.Sprintf("in hand: %d", s.InHand))
		}
		info = append(info, s.Info...)
		if len(info) == 0 {
			y -= textLineH
		}
		for _, t := range wrap(strings.Join(info, " · "), textSize, false, textW) {
			l.lines = append(l.lines, line{t, textSize, false, pad + 52, y, engine.Left, infoInk})
			y += textLineH
		}
		y += 2
		row := seatRow{top: rowTop, h: y - rowTop, toMove: s.ToMove, color: s.Color}
		row.cy = rowTop + row.h/2 - 2
		l.rows = append(l.rows, row)
		l.lines = append(l.lines, line{score, scoreSize, true, Width - pad, row.cy, engine.Right, engine.Ink})
	}
	y += 4
	for _, legend := range p.Legend {
		for _, t := range wrap(legend, textSize, false, Width-2*pad) {
			l.lines = append(l.lines, line{t, textSize, false, pad, y + 16, engine.Left, legendInk})
			y += textLineH
		}
	}
	l.h = y + 12 - top
	return l
}

// panel writes the laid-out panel from top down to the picture's bottom
// (height h).
func (w *writer) panel(l panelLayout, top, h float64) {
	w.path(engine.Rect(0, top-pad/2, Width, h-top+pad/2), panelColour, engine.Color{}, 0)
	for _, r := range l.rows {
		if r.toMove {
			w.path(roundedRect(pad/2, r.top-2, Width-pad, r.h, 8), toMoveShade, engine.Color{}, 0)
			w.path(triangle(pad+4, r.cy, 9), engine.Highlight, engine.Color{}, 0)
		}
		if !r.color.None() {
			w.path(engine.Circle(pad+30, r.cy, 13), r.color, engine.Ink, 2)
		}
	}
	w.flush()
	var fonts []font
	for _, t := range l.lines {
		fonts = append(fonts, font{t.px, t.align, t.bold})
	}
	w.fontGroup(fonts)
	for _, t := range l.lines {
		if textWidth(t.text, t.px, t.bold) > Width/3 { // long enough to run off
			w.fitText(t.text, t.x, t.y, t.px, t.color, t.align, t.bold)
		} else {
			w.text(t.text, t.x, t.y, t.px, t.color, t.align, t.bold)
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
