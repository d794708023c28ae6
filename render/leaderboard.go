package render

// The /leaderboard picture: a server's best players of one game, one row
// each, and the caller's own row below when they are not among them.

import (
	"fmt"
	"image"

	"github.com/fogleman/gg"

	"tessera/engine"
	"tessera/picture"
)

const (
	leaderRowH = 40
	leaderTop  = 104 // the title and the column heads
	titleSize  = 30
	// leaderNameW is the room for a player's name, up to the ratings.
	leaderNameW = Width - 238 - 84 - (pad + 64)
)

// Leaderboard draws t as a PNG.
func Leaderboard(t LeaderTable) ([]byte, error) {
	return Encode(leaderboardImage(t, nil))
}

// leaderboardImage draws the leaderboard; with log set, it notes every
// text's place there.
func leaderboardImage(t LeaderTable, log *[]TextBox) *image.RGBA {
	loadFonts()
	rows := len(t.Rows)
	if rows == 0 {
		rows = 1 // room for "no rated games yet"
	}
	fc := facePool.get()
	defer facePool.put(fc)
	note := wrap(fc.get(picture.TextSize, false), t.Note, Width-2*pad)
	h := leaderTop + rows*leaderRowH + 12 + len(note)*picture.TextLineH + 8
	if t.Own != nil {
		h += leaderRowH + 14
	}
	dc := gg.NewContext(Width, h)
	dc.SetColor(rgba(engine.Paper))
	dc.Clear()
	pn, img := pen{fc, log}, dc.Image().(*image.RGBA)

	grey := engine.Hex("#5a5a5a")
	pn.text(img, titleSize, true, fitWidth(fc.get(titleSize, true), t.Title, Width-2*pad), pad, 32, 0, engine.Ink)
	cols := []struct {
		x     float64
		ax    float64
		label string
	}{{pad + 44, 1, "#"}, {pad + 64, 0, "Player"}, {Width - 250, 1, "Rating"}, {Width - 130, 1, "Games"}, {Width - pad, 1, "Wins"}}
	for _, c := range cols {
		pn.text(img, picture.TextSize, true, c.label, c.x, 80, c.ax, grey)
	}
	y := float64(leaderTop)
	if len(t.Rows) == 0 {
		pn.text(img, picture.TextSize, false, "No rated games yet.", pad+64, y+leaderRowH/2, 0, grey)
		y += leaderRowH
	}
	for i, r := range t.Rows {
		leaderRow(dc, img, pn, r, y, i%2 == 1)
		y += leaderRowH
	}
	if t.Own != nil {
		dc.SetColor(rgba(grey))
		dc.SetLineWidth(1)
		dc.DrawLine(pad, y+7, Width-pad, y+7)
		dc.Stroke()
		y += 14
		leaderRow(dc, img, pn, *t.Own, y, false)
		y += leaderRowH
	}
	y += 12
	for _, l := range note {
		pn.text(img, picture.TextSize, false, l, pad, y+picture.TextLineH/2, 0, grey)
		y += picture.TextLineH
	}
	return img
}

func leaderRow(dc *gg.Context, img *image.RGBA, pn pen, r LeaderRow, y float64, shade bool) {
	switch {
	case r.Me:
		dc.SetColor(rgba(engine.Hex("#fff6d6")))
		dc.DrawRectangle(pad/2, y, Width-pad, leaderRowH)
		dc.Fill()
	case shade:
		dc.SetColor(rgba(engine.Hex("#ebe4d4")))
		dc.DrawRectangle(pad/2, y, Width-pad, leaderRowH)
		dc.Fill()
	}
	cy := y + leaderRowH/2
	rating := fmt.Sprint(r.Rating)
	if r.Provisional {
		rating += "?"
	} else {
		rating += " " // keeps the digits of both kinds aligned
	}
	pn.text(img, picture.TextSize, r.Me, fmt.Sprint(r.Place), pad+44, cy, 1, engine.Ink)
	pn.text(img, picture.TextSize, r.Me, fitWidth(pn.fc.get(picture.TextSize, r.Me), r.Name, leaderNameW), pad+64, cy, 0, engine.Ink)
	pn.text(img, picture.TextSize, true, rating, Width-238, cy, 1, engine.Ink)
	pn.text(img, picture.TextSize, false, fmt.Sprint(r.Games), Width-130, cy, 1, engine.Ink)
	pn.text(img, picture.TextSize, false, fmt.Sprint(r.Wins), Width-pad, cy, 1, engine.Ink)
}
