package render

// An event's standings: a row per player (rank, name, points, the
// format's tie-breaks, games played), first place first, under the
// event's title and where it stands, as picture.LayoutStandings places
// them (svg/standings.go draws the same).

import (
	"bytes"
	"image"
	"math"

	"github.com/fogleman/gg"

	"tessera/engine"
	"tessera/picture"
)

// standingsColours is the standings' palette: flat text on two
// backgrounds needs few shades, and 40 rows of anti-aliased text in full
// colour weighed 166 KB (in 32 colours: 141 KB, under MaxPictureBytes).
const standingsColours = 32

// DrawStandings draws s as a PNG, with a palette of its own few colours.
func DrawStandings(s Standings) ([]byte, error) {
	img := standingsImage(s, nil)
	var buf bytes.Buffer
	if err := encodePaletted(&buf, Quantize(img, Palette(img, standingsColours))); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// standingsImage draws the standings; with log set, it notes every text's
// place there.
func standingsImage(s Standings, log *[]TextBox) *image.RGBA {
	loadFonts()
	fc := facePool.get()
	defer facePool.put(fc)
	l := picture.LayoutStandings(func(t string, px float64, bold bool) float64 { return width(fc.get(px, bold), t) }, s, Width, pad)
	dc := gg.NewContext(Width, int(math.Ceil(l.H)))
	dc.SetColor(rgba(engine.Paper))
	dc.Clear()
	pn, img := pen{fc, log}, dc.Image().(*image.RGBA)
	dc.SetColor(rgba(picture.StandingsShade))
	for _, y := range l.Shades {
		dc.DrawRectangle(pad/2, y, Width-pad, picture.StandingsRowH)
		dc.Fill()
	}
	for _, t := range l.Lines {
		ax := 0.0
		if t.Align == engine.Right {
			ax = 1
		}
		pn.text(img, t.Px, t.Bold, t.Text, t.X, t.Y, ax, t.Color)
	}
	return img
}
