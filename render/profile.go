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
)

// ProfileGame is one game's block of a profile.
type ProfileGame struct {
	Name               string // the game's name
	Rating             int    // as displayed
	Provisional        bool
	Won, Lost, Shared  int
	Course             []int // the displayed rating before the first game and after each, oldest first
	Best, Place, Rated int   // best rating reached; place in the server of Rated players
}

// ProfileAI is the record against the computer at one level.
type ProfileAI struct {
	Level             string
	Won, Lost, Shared int
}

// ProfileCard is a whole profile.
type ProfileCard struct {
	Title  string // the player's name
	InPlay int    // games in play now
	Games  []ProfileGame
	AI     []ProfileAI
	Note   string
}

const (
	profileHead  = 96
	profileGameH = 128
	plotW, plotH = 330.0, 96.0
)

// Profile draws c as a PNG.
func Profile(c ProfileCard) ([]byte, error) {
	return Encode(profileImage(c, nil))
}

// profileImage draws the profile; with log set, it notes every text's
// place there.
func profileImage(c ProfileCard, log *[]TextBox) *image.RGBA {
	loadFonts()
	h := profileHead + max(1, len(c.Games))*profileGameH + 44
	if len(c.AI) > 0 {
		h += 40 + 30*len(c.AI)
	}
	dc := gg.NewContext(Width, h)
	dc.SetColor(rgba(engine.Paper))
	dc.Clear()
	fc := facePool.get()
	defer facePool.put(fc)
	pn, img := pen{fc, log}, dc.Image().(*image.RGBA)
	grey := engine.Hex("#5a5a5a")

	pn.text(img, 28, true, truncate(c.Title, 40), pad, 32, 0, engine.Ink)
	pn.text(img, 18, false, fmt.Sprintf("Games in play: %d", c.InPlay), pad, 70, 0, grey)
	y := float64(profileHead)
	if len(c.Games) == 0 {
		pn.text(img, 20, false, "No rated games in this server yet.", pad, y+30, 0, grey)
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
		pn.text(img, 22, true, truncate(g.Name, 24), pad, y+24, 0, engine.Ink)
		pn.text(img, 34, true, rating, pad, y+62, 0, engine.Ink)
		games := g.Won + g.Lost + g.Shared
		pn.text(img, 17, false, fmt.Sprintf("won %d · lost %d · shared %d", g.Won, g.Lost, g.Shared), pad, y+96, 0, engine.Ink)
		pn.text(img, 15, false, fmt.Sprintf("%d games · best %d · %s of %d", games, g.Best, place(g.Place), g.Rated), pad, y+116, 0, grey)
		plot(dc, img, pn, g.Course, Width-pad-plotW, y+16)
		y += profileGameH
	}
	if len(c.AI) > 0 {
		pn.text(img, 20, true, "Against the computer (unrated)", pad, y+22, 0, engine.Ink)
		y += 40
		for _, a := range c.AI {
			line := fmt.Sprintf("%s: won %d · lost %d · shared %d", a.Level, a.Won, a.Lost, a.Shared)
			pn.text(img, 18, false, line, pad+16, y+14, 0, engine.Ink)
			y += 30
		}
	}
	pn.text(img, 15, false, truncate(c.Note, 90), pad, y+22, 0, grey)
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
	pn.text(img, 13, false, labels, x-6, y+inset, 1, grey)
	if hi != lo {
		pn.text(img, 13, false, fmt.Sprint(lo), x-6, y+plotH-inset, 1, grey)
	}
}
