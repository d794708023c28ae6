package render

import (
	"golang.org/x/image/font"

	"tessera/engine"
	"tessera/picture"
)

// The panel under a board: the game's title, the status (whose turn, who
// won), a row per seat and the legend. On a phone Discord shows the
// picture at about 390 px wide, half its width, so every text is at least
// picture.TextSize (capitals 9 px high on a phone) and a line that does
// not fit is wrapped, not shrunk: the hand counts, the legend and the
// title must stay readable.

// layoutPanel places the panel's texts below top, measured in fc.
func layoutPanel(fc faces, p Panel, top float64) picture.PanelLayout {
	return picture.LayoutPanel(func(s string, px float64, bold bool) float64 { return width(fc.get(px, bold), s) }, p, top, Width, pad)
}

func drawPanel(dc *canvas, pn pen, p Panel, top float64) {
	l := layoutPanel(pn.fc, p, top)
	dc.SetColor(rgba(picture.PanelColour))
	dc.DrawRectangle(0, top-pad/2, Width, float64(dc.Height())-top+pad/2)
	dc.Fill()
	for _, r := range l.Rows {
		if r.ToMove {
			dc.SetColor(rgba(picture.ToMoveShade))
			dc.DrawRoundedRectangle(pad/2, r.Top-2, Width-pad, r.H, 8)
			dc.Fill()
			dc.SetColor(rgba(engine.Highlight))
			dc.DrawRegularPolygon(3, pad+4, r.CY, 9, 0)
			dc.Fill()
		}
		if !r.Color.None() {
			dc.SetColor(rgba(r.Color))
			dc.DrawCircle(pad+30, r.CY, 13)
			dc.FillPreserve()
			dc.SetColor(rgba(engine.Ink))
			dc.SetLineWidth(2)
			dc.Stroke()
		}
	}
	for _, t := range l.Lines {
		ax := 0.0
		if t.Align == engine.Right {
			ax = 1
		}
		pn.text(dc.im, t.Px, t.Bold, t.Text, t.X, t.Y, ax, t.Color)
	}
}

// width is a text's advance in a face, in pixels.
func width(face font.Face, s string) float64 {
	return float64(font.MeasureString(face, s)) / 64
}

// fitWidth shortens s with an ellipsis until it is at most w pixels wide
// in face (picture.Fit).
func fitWidth(face font.Face, s string, w float64) string {
	return picture.Fit(func(t string) float64 { return width(face, t) }, s, w)
}

// wrap breaks s into lines at most w pixels wide in face, at spaces
// (picture.Wrap).
func wrap(face font.Face, s string, w float64) []string {
	return picture.Wrap(func(t string) float64 { return width(face, t) }, s, w)
}
