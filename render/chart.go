package render

import (
	"fmt"
	"math"

	"github.com/fogleman/gg"
)

// Chart is a simple statistical picture for the lab's reports: bars (with
// optional interval whiskers) or lines, one series per compared variant,
// drawn on shared axes so the variants read side by side.
type Chart struct {
	Title  string
	XLabel string
	YLabel string
	// Labels name the bars' categories (or the lines' x positions), one
	// per value of each series.
	Labels []string
	Series []Series
	Lines  bool // lines instead of bars
	// YMax fixes the top of the y axis (0: from the data).
	YMax float64
	// Guide draws a dashed horizontal line at this y (e.g. a fair share);
	// NaN for none.
	Guide float64
}

// Series is one variant's values; Low and High, when set, are each
// value's interval.
type Series struct {
	Name      string
	Values    []float64
	Low, High []float64
}

// chartColors tell the series apart (colour-blind safe: blue, orange).
var chartColors = [][3]float64{{0.0, 0.45, 0.70}, {0.90, 0.62, 0.0}, {0.0, 0.62, 0.45}}

const (
	chartW, chartH = 720, 420
	left, right    = 70, 20
	top, bottom    = 50, 70
)

// ChartPNG draws the chart as a PNG.
func ChartPNG(c Chart) ([]byte, error) {
	loadFonts()
	fc := faces{}
	dc := gg.NewContext(chartW, chartH)
	dc.SetRGB(1, 1, 1)
	dc.Clear()
	pw, ph := float64(chartW-left-right), float64(chartH-top-bottom)
	ymax := c.YMax
	if ymax <= 0 {
		for _, s := range c.Series {
			for i, v := range s.Values {
				ymax = math.Max(ymax, v)
				if i < len(s.High) {
					ymax = math.Max(ymax, s.High[i])
				}
			}
		}
		ymax = niceCeil(ymax)
	}
	y := func(v float64) float64 { return top + ph - ph*v/ymax }

	dc.SetRGB(0, 0, 0)
	dc.SetFontFace(fc.get(18, true))
	dc.DrawStringAnchored(c.Title, chartW/2, 22, 0.5, 0.5)
	dc.SetFontFace(fc.get(13, false))
	// y axis with 5 ticks
	dc.SetLineWidth(1)
	for k := 0; k <= 5; k++ {
		v := ymax * float64(k) / 5
		dc.SetRGB(0.88, 0.88, 0.88)
		dc.DrawLine(left, y(v), left+pw, y(v))
		dc.Stroke()
		dc.SetRGB(0, 0, 0)
		dc.DrawStringAnchored(tick(v), left-6, y(v), 1, 0.5)
	}
	dc.DrawStringAnchored(c.XLabel, left+pw/2, chartH-14, 0.5, 0.5)
	dc.Push()
	dc.RotateAbout(-math.Pi/2, 16, top+ph/2)
	dc.DrawStringAnchored(c.YLabel, 16, top+ph/2, 0.5, 0.5)
	dc.Pop()

	n := len(c.Labels)
	if n > 0 {
		slot := pw / float64(n)
		every := max(1, n/15)
		for i, l := range c.Labels {
			if i%every == 0 {
				dc.DrawStringAnchored(l, left+slot*(float64(i)+0.5), top+ph+14, 0.5, 0.5)
			}
		}
		ns := max(1, len(c.Series))
		for si, s := range c.Series {
			col := chartColors[si%len(chartColors)]
			x := func(i int) float64 { return left + slot*float64(i) }
			if c.Lines {
				dc.SetRGB(col[0], col[1], col[2])
				dc.SetLineWidth(2.5)
				for i, v := range s.Values {
					if math.IsNaN(v) {
						continue
					}
					dc.LineTo(x(i)+slot/2, y(v))
				}
				dc.Stroke()
				continue
			}
			bw := slot * 0.8 / float64(ns)
			for i, v := range s.Values {
				bx := x(i) + slot*0.1 + bw*float64(si)
				dc.SetRGB(col[0], col[1], col[2])
				dc.DrawRectangle(bx, y(v), bw, y(0)-y(v))
				dc.Fill()
				if i < len(s.Low) && i < len(s.High) {
					cx := bx + bw/2
					dc.SetRGB(0, 0, 0)
					dc.SetLineWidth(1.5)
					dc.DrawLine(cx, y(s.Low[i]), cx, y(s.High[i]))
					dc.DrawLine(cx-bw/4, y(s.Low[i]), cx+bw/4, y(s.Low[i]))
					dc.DrawLine(cx-bw/4, y(s.High[i]), cx+bw/4, y(s.High[i]))
					dc.Stroke()
				}
			}
		}
	}
	if !math.IsNaN(c.Guide) && c.Guide > 0 && c.Guide <= ymax {
		dc.SetRGB(0.3, 0.3, 0.3)
		dc.SetDash(6, 4)
		dc.DrawLine(left, y(c.Guide), left+pw, y(c.Guide))
		dc.Stroke()
		dc.SetDash()
	}
	dc.SetRGB(0, 0, 0)
	dc.SetLineWidth(1)
	dc.DrawLine(left, top, left, top+ph)
	dc.DrawLine(left, top+ph, left+pw, top+ph)
	dc.Stroke()
	// legend, only when there is more than one series to tell apart
	if len(c.Series) > 1 {
		lx := float64(left + 10)
		for si, s := range c.Series {
			col := chartColors[si%len(chartColors)]
			dc.SetRGB(col[0], col[1], col[2])
			dc.DrawRectangle(lx, chartH-38, 14, 14)
			dc.Fill()
			dc.SetRGB(0, 0, 0)
			dc.DrawStringAnchored(s.Name, lx+20, chartH-31, 0, 0.5)
			w, _ := dc.MeasureString(s.Name)
			lx += 40 + w
		}
	}
	return Encode(dc.Image())
}

// niceCeil rounds up to 1, 2 or 5 times a power of ten.
func niceCeil(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}

func tick(v float64) string {
	if v == math.Trunc(v) {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.2g", v)
}
