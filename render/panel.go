package render

import (
	"fmt"
	"strings"

	"golang.org/x/image/font"

	"tessera/engine"
)

// The panel under a board: the game's title, the status (whose turn, who
// won), a row per seat and the legend. On a phone Discord shows the
// picture at about 390 px wide, half its width, so every text is at least
// textSize (capitals 9 px high on a phone) and a line that does not fit
// is wrapped, not shrunk: the hand counts, the legend and the title must
// stay readable.

// Text sizes of the panel, in pixels.
const (
	textSize   = 25 // the least size of a text in any picture: capitals 18 px, 9 on a phone
	statusSize = 28
	nameSize   = 27
	scoreSize  = 36
	textLineH  = 32 // a line of textSize
	statusH    = 36 // a line of statusSize
)

var (
	panelGrey   = engine.Hex("#5a5a5a")
	infoInk     = engine.Hex("#4a4a4a")
	legendInk   = engine.Hex("#3a3a3a")
	panelColour = engine.Hex("#e4dccb")
	toMoveShade = engine.Hex("#fff6d6")
)

// line is one text of a layout, centred vertically on y.
type line struct {
	text     string
	px       float64
	bold     bool
	x, y, ax float64
	color    engine.Color
}

// seatRow is where a seat's row lies, for its shading and colour disc.
type seatRow struct {
	top, h, cy float64
	toMove     bool
	color      engine.Color
}

// panelLayout is everything the panel draws, placed.
type panelLayout struct {
	h     float64 // from top to the picture's bottom
	lines []line
	rows  []seatRow
}

// layoutPanel places the panel's texts below top.
func layoutPanel(fc faces, p Panel, top float64) panelLayout {
	var l panelLayout
	y := top + 4
	l.lines = append(l.lines, line{fitWidth(fc.get(textSize, false), p.Title, Width-2*pad), textSize, false, pad, y + 14, 0, panelGrey})
	y += textLineH
	for _, s := range wrap(fc.get(statusSize, true), p.Status, Width-2*pad) {
		l.lines = append(l.lines, line{s, statusSize, true, pad, y + 16, 0, engine.Ink})
		y += statusH
	}
	y += 8
	for _, s := range p.Seats {
		rowTop := y
		score := fmt.Sprint(s.Score)
		scoreW := float64(font.MeasureString(fc.get(scoreSize, true), score)) / 64
		textW := Width - pad - scoreW - 16 - (pad + 52)
		y += 22
		l.lines = append(l.lines, line{fitWidth(fc.get(nameSize, s.ToMove || s.Winner), SeatTitle(s), textW), nameSize, s.ToMove || s.Winner, pad + 52, y, 0, engine.Ink})
		y += 33
		var info []string
		if s.InHand >= 0 {
			info = append(info, fmt.Sprintf("in hand: %d", s.InHand))
		}
		info = append(info, s.Info...)
		if len(info) == 0 {
			y -= textLineH
		}
		for _, t := range wrap(fc.get(textSize, false), strings.Join(info, " · "), textW) {
			l.lines = append(l.lines, line{t, textSize, false, pad + 52, y, 0, infoInk})
			y += textLineH
		}
		y += 2
		row := seatRow{top: rowTop, h: y - rowTop, toMove: s.ToMove, color: s.Color}
		row.cy = rowTop + row.h/2 - 2
		l.rows = append(l.rows, row)
		l.lines = append(l.lines, line{score, scoreSize, true, Width - pad, row.cy, 1, engine.Ink})
	}
	y += 4
	for _, legend := range p.Legend {
		for _, t := range wrap(fc.get(textSize, false), legend, Width-2*pad) {
			l.lines = append(l.lines, line{t, textSize, false, pad, y + 16, 0, legendInk})
			y += textLineH
		}
	}
	l.h = y + 12 - top
	return l
}

func drawPanel(dc *canvas, pn pen, p Panel, top float64) {
	l := layoutPanel(pn.fc, p, top)
	dc.SetColor(rgba(panelColour))
	dc.DrawRectangle(0, top-pad/2, Width, float64(dc.Height())-top+pad/2)
	dc.Fill()
	for _, r := range l.rows {
		if r.toMove {
			dc.SetColor(rgba(toMoveShade))
			dc.DrawRoundedRectangle(pad/2, r.top-2, Width-pad, r.h, 8)
			dc.Fill()
			dc.SetColor(rgba(engine.Highlight))
			dc.DrawRegularPolygon(3, pad+4, r.cy, 9, 0)
			dc.Fill()
		}
		if !r.color.None() {
			dc.SetColor(rgba(r.color))
			dc.DrawCircle(pad+30, r.cy, 13)
			dc.FillPreserve()
			dc.SetColor(rgba(engine.Ink))
			dc.SetLineWidth(2)
			dc.Stroke()
		}
	}
	for _, t := range l.lines {
		pn.text(dc.im, t.px, t.bold, t.text, t.x, t.y, t.ax, t.color)
	}
}

// width is a text's advance in a face, in pixels.
func width(face font.Face, s string) float64 {
	return float64(font.MeasureString(face, s)) / 64
}

// fitWidth shortens s with an ellipsis until it is at most w pixels wide
// in face (a fixed number of letters overflowed with wide ones and wasted
// room with narrow ones).
func fitWidth(face font.Face, s string, w float64) string {
	if width(face, s) <= w {
		return s
	}
	r := []rune(s)
	lo, hi := 0, len(r) // the longest prefix that fits is in [lo, hi)
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if width(face, string(r[:mid])+"…") <= w {
			lo = mid
		} else {
			hi = mid
		}
	}
	return strings.TrimRight(string(r[:lo]), " ") + "…"
}

// wrap breaks s into lines at most w pixels wide in face, at spaces; a
// word wider than a line is shortened. An empty s is no line.
func wrap(face font.Face, s string, w float64) []string {
	var lines []string
	cur := ""
	for _, word := range strings.Fields(s) {
		if cur == "" {
			cur = word
		} else if width(face, cur+" "+word) <= w {
			cur += " " + word
		} else {
			lines = append(lines, fitWidth(face, cur, w))
			cur = word
		}
	}
	if cur != "" {
		lines = append(lines, fitWidth(face, cur, w))
	}
	return lines
}
