package picture

import (
	"fmt"
	"strings"

	"tessera/engine"
)

// The panel under a board is laid out here, once, and drawn by each
// renderer with its own fonts: render/ (PNG, gg) and svg/ place every
// text and row alike because they share this layout and differ only in
// how they measure a text. On a phone Discord shows a picture at about
// 390 px wide, half its width, so every text is at least TextSize
// (capitals 9 px high on a phone) and a line that does not fit is
// wrapped, not shrunk: the hand counts, the legend and the title must
// stay readable.

// Text sizes of the panel, in pixels, and its lines' heights.
const (
	TextSize   = 25 // the least size of a text in any picture: capitals 18 px, 9 on a phone
	StatusSize = 28
	NameSize   = 27
	ScoreSize  = 36
	TextLineH  = 32 // a line of TextSize
	StatusH    = 36 // a line of StatusSize
)

// The panel's colours.
var (
	PanelGrey   = engine.Hex("#5a5a5a")
	InfoInk     = engine.Hex("#4a4a4a")
	LegendInk   = engine.Hex("#3a3a3a")
	PanelColour = engine.Hex("#e4dccb")
	ToMoveShade = engine.Hex("#fff6d6")
)

// Measure is a renderer's width of s, in pixels, at size px.
type Measure func(s string, px float64, bold bool) float64

// Fit shortens s with an ellipsis until it is at most w pixels wide (a
// fixed number of letters overflowed with wide ones and wasted room with
// narrow ones).
func Fit(width func(string) float64, s string, w float64) string {
	if width(s) <= w {
		return s
	}
	r := []rune(s)
	lo, hi := 0, len(r) // the longest prefix that fits is in [lo, hi)
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if width(string(r[:mid])+"…") <= w {
			lo = mid
		} else {
			hi = mid
		}
	}
	return strings.TrimRight(string(r[:lo]), " ") + "…"
}

// Wrap breaks s into lines at most w pixels wide, at spaces; a word wider
// than a line is shortened. An empty s is no line.
func Wrap(width func(string) float64, s string, w float64) []string {
	var lines []string
	cur := ""
	for _, word := range strings.Fields(s) {
		if cur == "" {
			cur = word
		} else if width(cur+" "+word) <= w {
			cur += " " + word
		} else {
			lines = append(lines, Fit(width, cur, w))
			cur = word
		}
	}
	if cur != "" {
		lines = append(lines, Fit(width, cur, w))
	}
	return lines
}

// Line is one text of a layout, centred vertically on Y; X is its left
// end (Align Left) or its right end (Align Right).
type Line struct {
	Text  string
	Px    float64
	Bold  bool
	X, Y  float64
	Align engine.Align
	Color engine.Color
}

// Row is where a seat's row of the panel lies, for its shading and its
// colour disc.
type Row struct {
	Top, H, CY float64
	ToMove     bool
	Color      engine.Color
}

// PanelLayout is everything the panel draws, placed.
type PanelLayout struct {
	H     float64 // from its top to the picture's bottom
	Lines []Line
	Rows  []Row
}

// LayoutPanel places p's texts below top on a picture width pixels wide
// with margins of pad, measuring texts with m.
func LayoutPanel(m Measure, p Panel, top, width, pad float64) PanelLayout {
	at := func(px float64, bold bool) func(string) float64 {
		return func(s string) float64 { return m(s, px, bold) }
	}
	var l PanelLayout
	y := top + 4
	l.Lines = append(l.Lines, Line{Fit(at(TextSize, false), p.Title, width-2*pad), TextSize, false, pad, y + 14, engine.Left, PanelGrey})
	y += TextLineH
	for _, s := range Wrap(at(StatusSize, true), p.Status, width-2*pad) {
		l.Lines = append(l.Lines, Line{s, StatusSize, true, pad, y + 16, engine.Left, engine.Ink})
		y += StatusH
	}
	y += 8
	for _, s := range p.Seats {
		rowTop := y
		score := fmt.Sprint(s.Score)
		textW := width - pad - m(score, ScoreSize, true) - 16 - (pad + 52)
		y += 22
		strong := s.ToMove || s.Winner
		l.Lines = append(l.Lines, Line{Fit(at(NameSize, strong), SeatTitle(s), textW), NameSize, strong, pad + 52, y, engine.Left, engine.Ink})
		y += 33
		var info []string
		if s.InHand >= 0 {
			info = append(info, fmt.Sprintf("in hand: %d", s.InHand))
		}
		info = append(info, s.Info...)
		if len(info) == 0 {
			y -= TextLineH
		}
		for _, t := range Wrap(at(TextSize, false), strings.Join(info, " · "), textW) {
			l.Lines = append(l.Lines, Line{t, TextSize, false, pad + 52, y, engine.Left, InfoInk})
			y += TextLineH
		}
		y += 2
		row := Row{Top: rowTop, H: y - rowTop, ToMove: s.ToMove, Color: s.Color}
		row.CY = rowTop + row.H/2 - 2
		l.Rows = append(l.Rows, row)
		l.Lines = append(l.Lines, Line{score, ScoreSize, true, width - pad, row.CY, engine.Right, engine.Ink})
	}
	y += 4
	for _, legend := range p.Legend {
		for _, t := range Wrap(at(TextSize, false), legend, width-2*pad) {
			l.Lines = append(l.Lines, Line{t, TextSize, false, pad, y + 16, engine.Left, LegendInk})
			y += TextLineH
		}
	}
	l.H = y + 12 - top
	return l
}
