package render

import (
	"fmt"

	"github.com/fogleman/gg"

	"tessera/picture"
)

// Win charts: a finished game's analysis (picture.WinChart), each seat's
// chance of winning over the moves.

const (
	winW, winH        = 800, 440
	winLeft, winRight = 64, 24
	winTop, winBottom = 52, 92
	winLine           = 3
	winMarkR          = 6
	winLegendY        = winH - 30
	winTicks          = 4 // 0, 25, 50, 75, 100%
	winMaxLabels      = 16
)

// winColors are the lines' colours for seats without one of their own
// (colour-blind safe: blue, orange, bluish green, vermillion).
var winColors = [][3]float64{{0.0, 0.45, 0.70}, {0.90, 0.62, 0.0}, {0.0, 0.62, 0.45}, {0.84, 0.37, 0.0}}

// WinChart draws a win chart as a PNG.
func (Renderer) WinChart(c picture.WinChart) ([]byte, error) { return WinChartPNG(c) }

// WinChartPNG draws a win chart as a PNG.
func WinChartPNG(c picture.WinChart) ([]byte, error) {
	loadFonts()
	fc := faces{}
	dc := gg.NewContext(winW, winH)
	dc.SetRGB(1, 1, 1)
	dc.Clear()
	pw, ph := float64(winW-winLeft-winRight), float64(winH-winTop-winBottom)
	moves := 0
	for _, s := range c.Seats {
		moves = max(moves, len(s.Chance)-1)
	}
	x := func(i int) float64 {
		if moves == 0 {
			return winLeft
		}
		return winLeft + pw*float64(i)/float64(moves)
	}
	y := func(v float64) float64 { return winTop + ph - ph*min(1, max(0, v)) }

	dc.SetRGB(0, 0, 0)
	dc.SetFontFace(fc.get(18, true))
	dc.DrawStringAnchored(c.Title, winW/2, 24, 0.5, 0.5)
	dc.SetFontFace(fc.get(13, false))
	dc.SetLineWidth(1)
	for k := 0; k <= winTicks; k++ {
		v := float64(k) / winTicks
		dc.SetRGB(0.88, 0.88, 0.88)
		dc.DrawLine(winLeft, y(v), winLeft+pw, y(v))
		dc.Stroke()
		dc.SetRGB(0, 0, 0)
		dc.DrawStringAnchored(fmt.Sprintf("%d%%", k*100/winTicks), winLeft-6, y(v), 1, 0.5)
	}
	every := max(1, (moves+winMaxLabels-1)/winMaxLabels)
	for i := 0; i <= moves; i += every {
		dc.DrawStringAnchored(fmt.Sprint(i), x(i), winTop+ph+14, 0.5, 0.5)
	}
	dc.DrawStringAnchored("moves played", winLeft+pw/2, winTop+ph+34, 0.5, 0.5)
	// The costly moves: a grey band across each.
	for _, m := range c.Marks {
		if m < 1 || m > moves {
			continue
		}
		dc.SetRGBA(0.5, 0.5, 0.5, 0.18)
		dc.DrawRectangle(x(m-1), winTop, x(m)-x(m-1), ph)
		dc.Fill()
		dc.SetRGB(0.3, 0.3, 0.3)
		dc.DrawStringAnchored(fmt.Sprint(m), (x(m-1)+x(m))/2, winTop-8, 0.5, 0.5)
	}
	lx := float64(winLeft)
	for si, s := range c.Seats {
		r, g, b := seatRGB(s, si)
		dc.SetRGB(r, g, b)
		dc.SetLineWidth(winLine)
		for i, v := range s.Chance {
			dc.LineTo(x(i), y(v))
		}
		dc.Stroke()
		dc.DrawCircle(lx+7, winLegendY, winMarkR)
		dc.Fill()
		dc.SetRGB(0, 0, 0)
		dc.DrawStringAnchored(s.Name, lx+20, winLegendY, 0, 0.5)
		w, _ := dc.MeasureString(s.Name)
		lx += 44 + w
	}
	dc.SetRGB(0, 0, 0)
	dc.SetLineWidth(1)
	dc.DrawLine(winLeft, winTop, winLeft, winTop+ph)
	dc.DrawLine(winLeft, winTop+ph, winLeft+pw, winTop+ph)
	dc.Stroke()
	return Encode(dc.Image())
}

// seatRGB is a seat's line colour: its own, unless it has none or is too
// pale to read on white, else one of winColors.
func seatRGB(s picture.ChartSeat, i int) (r, g, b float64) {
	c := s.Color
	if c.A > 0 && int(c.R)+int(c.G)+int(c.B) < 3*215 {
		return float64(c.R) / 255, float64(c.G) / 255, float64(c.B) / 255
	}
	w := winColors[i%len(winColors)]
	return w[0], w[1], w[2]
}
