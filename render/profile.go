package render

// The /profile picture: a player's rating in each game they played rated
// in a server, with its record and its course, then their games against
// the computer by level.

import (
	"fmt"
	"image"
	"math"

	"github.com/fogleman/gg"

	"tessera/engine"
	"tessera/picture"
)

const (
	profileHead  = 100
	profileGameH = 220
	// The course of a rating is plotted under its game's lines, the whole
	// width but the room for its scale's labels.
	plotX        = pad + 76
	plotW, plotH = Width - pad - plotX, 84.0
)

// Profile draws c as a PNG.
func Profile(c ProfileCard) ([]byte, error) {
	return Encode(profileImage(c, nil))
}

// profileImage draws the profile; with log set, it notes every text's
// place there.
func profileImage(c ProfileCard, log *[]TextBox) *image.RGBA {
	loadFonts()
	fc := facePool.get()
	defer facePool.put(fc)
	note := wrap(fc.get(picture.TextSize, false), c.Note, Width-2*pad)
	h := profileHead + max(1, len(c.Games))*profileGameH + 12 + len(note)*picture.TextLineH + 8
	if len(c.AI) > 0 {
		h += 44 + 34*len(c.AI)
	}
	dc := gg.NewContext(Width, h)
	dc.SetColor(rgba(engine.Paper))
	dc.Clear()
	pn, img := pen{fc, log}, dc.Image().(*image.RGBA)
	grey := engine.Hex("#5a5a5a")

	pn.text(img, titleSize, true, fitWidth(fc.get(titleSize, true), c.Title, Width-2*pad), pad, 32, 0, engine.Ink)
	pn.text(img, picture.TextSize, false, fmt.Sprintf("Games in play: %d", c.InPlay), pad, 72, 0, grey)
	y := float64(profileHead)
	if len(c.Games) == 0 {
		pn.text(img, picture.TextSize, false, "No rated games in this server yet.", pad, y+30, 0, grey)
		y += profileGameH
	}
	for i, g := range c.Games {
		if i%2 == 1 {
			dc.SetColor(rgba(engine.Hex("#ebe4d4")))
			dc.DrawRectangle(pad/2, y, Width-pad, profileGameH)
			dc.Fill()
		}
		rating := fmt.Sprint(g.Rating)
		if g.Provisional {
			rating += "?"
		}
		ratingW := width(fc.get(picture.ScoreSize, true), rating)
		pn.text(img, picture.NameSize, true, fitWidth(fc.get(picture.NameSize, true), g.Name, Width-2*pad-ratingW-16), pad, y+28, 0, engine.Ink)
		pn.text(img, picture.ScoreSize, true, rating, Width-pad, y+28, 1, engine.Ink)
		games := g.Won + g.Lost + g.Shared
		pn.text(img, picture.TextSize, false, fmt.Sprintf("won %d · lost %d · shared %d", g.Won, g.Lost, g.Shared), pad, y+66, 0, engine.Ink)
		pn.text(img, picture.TextSize, false, fmt.Sprintf("%d games · best %d · %s of %d", games, g.Best, place(g.Place), g.Rated), pad, y+100, 0, grey)
		plot(dc, img, pn, g.Course, plotX, y+124)
		y += profileGameH
	}
	if len(c.AI) > 0 {
		pn.text(img, picture.NameSize, true, "Against the computer (unrated)", pad, y+24, 0, engine.Ink)
		y += 44
		for _, a := range c.AI {
			line := fmt.Sprintf("%s: won %d · lost %d · shared %d", a.Level, a.Won, a.Lost, a.Shared)
			pn.text(img, picture.TextSize, false, line, pad+16, y+17, 0, engine.Ink)
			y += 34
		}
	}
	y += 12
	for _, l := range note {
		pn.text(img, picture.TextSize, false, l, pad, y+picture.TextLineH/2, 0, grey)
		y += picture.TextLineH
	}
	return img
}

func place(n int) string {
	switch {
	case n%100 >= 11 && n%100 <= 13:
		return fmt.Sprint(n, "th")
	case n%10 == 1:
		return fmt.Sprint(n, "st")
	case n%10 == 2:
		return fmt.Sprint(n, "nd")
	case n%10 == 3:
		return fmt.Sprint(n, "rd")
	}
	return fmt.Sprint(n, "th")
}

// plot draws the course of a rating as a line in a plotW x plotH box at
// (x, y), with its lowest and highest values written at the left.
func plot(dc *gg.Context, img *image.RGBA, pn pen, course []int, x, y float64) {
	dc.SetColor(rgba(engine.Hex("#fbf8f1")))
	dc.DrawRectangle(x, y, plotW, plotH)
	dc.FillPreserve()
	dc.SetColor(rgba(engine.Hex("#b9b09c")))
	dc.SetLineWidth(1)
	dc.Stroke()
	if len(course) == 0 {
		return
	}
	lo, hi := course[0], course[0]
	for _, v := range course {
		lo, hi = min(lo, v), max(hi, v)
	}
	span := math.Max(float64(hi-lo), 1)
	const inset = 8.0
	px := func(i int) float64 {
		if len(course) == 1 {
			return x + plotW/2
		}
		return x + inset + float64(i)*(plotW-2*inset)/float64(len(course)-1)
	}
	py := func(v int) float64 { return y + plotH - inset - float64(v-lo)*(plotH-2*inset)/span }
	dc.SetColor(rgba(engine.Hex("#2f6db5")))
	dc.SetLineWidth(2.5)
	for i, v := range course {
		if i == 0 {
			dc.MoveTo(px(i), py(v))
		} else {
			dc.LineTo(px(i), py(v))
		}
	}
	dc.Stroke()
	for i, v := range course {
		dc.DrawCircle(px(i), py(v), 3)
	}
	dc.Fill()
	grey := engine.Hex("#5a5a5a")
	labels := fmt.Sprint(hi)
	pn.text(img, picture.TextSize, false, labels, x-8, y+inset, 1, grey)
	if hi != lo {
		pn.text(img, picture.TextSize, false, fmt.Sprint(lo), x-8, y+plotH-inset, 1, grey)
	}
}
