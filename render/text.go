package render

import (
	"image"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"

	"tessera/engine"
)

// TextBox is where one text of a picture went: what the layout tests
// read, so that they check the renderer's own placement and sizes.
type TextBox struct {
	Text string
	Size float64         // the face's size in pixels (its em)
	Cap  float64         // the height of its capital letters in pixels (of 'H')
	Box  image.Rectangle // the bounds of its ink in the picture
}

// pen draws texts with a set of faces. With log set it only lays the
// picture out: it notes each text's TextBox there, and neither it nor
// drawScene paints anything (the layout tests read thousands of
// pictures).
type pen struct {
	fc  faces
	log *[]TextBox
}

// text is drawText with a face of px pixels.
func (pn pen) text(img *image.RGBA, px float64, isBold bool, s string, x, y, ax float64, c engine.Color) {
	face := pn.fc.get(px, isBold)
	if pn.log == nil {
		drawText(img, face, s, x, y, ax, c)
		return
	}
	if s == "" {
		return
	}
	dot := textDot(face, s, x, y, ax)
	b, _ := font.BoundString(face, s)
	*pn.log = append(*pn.log, TextBox{
		Text: s,
		Size: px,
		Cap:  px * capRatio(isBold),
		Box: image.Rect(
			(dot.X + b.Min.X).Floor(), (dot.Y + b.Min.Y).Floor(),
			(dot.X + b.Max.X).Ceil(), (dot.Y + b.Max.Y).Ceil()),
	})
}

// textDot is where drawText puts a text's baseline origin.
func textDot(face font.Face, s string, x, y, ax float64) fixed.Point26_6 {
	w := float64(font.MeasureString(face, s)) / 64
	h := float64(face.Metrics().Height) / 64
	return fixed.Point26_6{X: fixed.Int26_6(math.Round((x - ax*w) * 64)), Y: fixed.Int26_6(math.Round((y + 0.35*h) * 64))}
}

// capRatio is the height of a capital H over the font's size.
func capRatio(isBold bool) float64 {
	loadFonts()
	if isBold {
		return boldCap
	}
	return regularCap
}

// PhoneWidth is the width, in pixels, of a phone's chat column, where
// Discord shows a picture scaled to fit; MinPhoneCap is the least height
// a capital letter may have there. Every text of every picture is sized
// so that its capitals, scaled by PhoneWidth over the picture's width,
// are at least MinPhoneCap high (TestEveryTextReadableOnAPhone).
const (
	PhoneWidth  = 390
	MinPhoneCap = 9.0
)
