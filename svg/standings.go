package svg

import (
	"math"

	"tessera/engine"
	"tessera/picture"
)

// Standings draws an event's standings as render.DrawStandings does, from
// the same layout (picture.LayoutStandings) measured with the Go fonts'
// advances.
func (r *Renderer) Standings(s picture.Standings) ([]byte, error) {
	l := picture.LayoutStandings(textWidth, s, Width, pad)
	h := math.Ceil(l.H)
	w := &writer{decimals: 1}
	w.open(Width, h, Width, h, "")
	w.title(s.Title)
	w.path(engine.Rect(0, 0, Width, h), engine.Paper, engine.Color{}, 0)
	for _, y := range l.Shades {
		w.path(engine.Rect(pad/2, y, Width-pad, picture.StandingsRowH), picture.StandingsShade, engine.Color{}, 0)
	}
	w.flush()
	for _, t := range l.Lines {
		if textWidth(t.Text, t.Px, t.Bold) > Width/3 { // long enough to run off
			w.fitText(t.Text, t.X, t.Y, t.Px, t.Color, t.Align, t.Bold)
		} else {
			w.text(t.Text, t.X, t.Y, t.Px, t.Color, t.Align, t.Bold)
		}
	}
	return w.close(), nil
}
