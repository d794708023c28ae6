package svg

import (
	"fmt"
	"math"

	"tessera/engine"
	"tessera/picture"
)

// The course of a rating, as render/profile.go plots it under each game
// of a profile card: a line through the displayed rating before the
// first game and after each, oldest first, in a pale box, with the
// highest and lowest values written at its left; the title above.
const (
	chartTitleH  = 56 // the title's band
	plotX        = pad + 76
	plotW, plotH = Width - pad - plotX, 84.0
	chartH       = chartTitleH + plotH + pad
)

var (
	plotPaper  = engine.Hex("#fbf8f1")
	plotBorder = engine.Hex("#b9b09c")
	plotLine   = engine.Hex("#2f6db5")
)

// RatingChart draws a rating's course (the displayed ratings, oldest
// first; empty: the box alone) under a title.
func (r *Renderer) RatingChart(course []int, title string) ([]byte, error) {
	w := &writer{decimals: 1}
	w.open(Width, chartH, Width, chartH, "")
	w.title(title)
	w.path(engine.Rect(0, 0, Width, chartH), engine.Paper, engine.Color{}, 0)
	w.path(engine.Rect(plotX, chartTitleH, plotW, plotH), plotPaper, plotBorder, 1)
	w.flush()
	w.text(fitWidth(title, picture.NameSize, true, Width-2*pad), pad, 28, picture.NameSize, engine.Ink, engine.Left, true)
	w.flush()
	if len(course) == 0 {
		return w.close(), nil
	}
	lo, hi := course[0], course[0]
	for _, v := range course {
		lo, hi = min(lo, v), max(hi, v)
	}
	span := math.Max(float64(hi-lo), 1)
	const inset = 8.0
	x, y := float64(plotX), float64(chartTitleH)
	px := func(i int) float64 {
		if len(course) == 1 {
			return x + plotW/2
		}
		return x + inset + float64(i)*(plotW-2*inset)/float64(len(course)-1)
	}
	py := func(v int) float64 { return y + plotH - inset - float64(v-lo)*(plotH-2*inset)/span }
	line, dots := &engine.Path{}, &engine.Path{}
	for i, v := range course {
		if i == 0 {
			line.MoveTo(px(i), py(v))
		} else {
			line.LineTo(px(i), py(v))
		}
		dots.Ops = append(dots.Ops, engine.Circle(px(i), py(v), 3).Ops...)
		dots.Pts = append(dots.Pts, engine.Circle(px(i), py(v), 3).Pts...)
	}
	if len(course) > 1 {
		w.path(line, engine.Color{}, plotLine, 2.5)
	}
	w.path(dots, plotLine, engine.Color{}, 0)
	w.text(fmt.Sprint(hi), x-8, y+inset, picture.TextSize, picture.PanelGrey, engine.Right, false)
	if hi != lo {
		w.text(fmt.Sprint(lo), x-8, y+plotH-inset, picture.TextSize, picture.PanelGrey, engine.Right, false)
	}
	return w.close(), nil
}
