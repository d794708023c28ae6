// Package render turns what a game says to draw (an engine.Scene) and the
// players' panel into a PNG. It is the only importer of gg. Fonts are
// embedded (Go fonts), so rendering never depends on the host.
package render

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"sync"

	"github.com/golang/freetype/truetype"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/math/fixed"

	"tessera/engine"
)

// Layout sizes, in pixels. The picture is portrait, board on top and the
// panel below, because on a phone Discord shows images at the screen's
// width: a narrow picture keeps the labels large.
const (
	Width    = 760 // image width
	BoardBox = 720 // the board scene is fitted into a BoardBox square
	// BoardMaxH is how tall a board scene may be drawn: a scene taller
	// than wide (a board with its lines below) keeps the width a square
	// one has, and so its texts' size, up to this height.
	BoardMaxH = 900
	pad       = 20
)

var (
	fontsOnce     sync.Once
	regular, bold *truetype.Font
	// regularCap and boldCap are the fonts' capital height over their size.
	regularCap, boldCap float64
)

func loadFonts() {
	fontsOnce.Do(func() {
		var err error
		if regular, err = truetype.Parse(goregular.TTF); err != nil {
			panic(err)
		}
		if bold, err = truetype.Parse(gobold.TTF); err != nil {
			panic(err)
		}
		regularCap, boldCap = capHeight(regular), capHeight(bold)
	})
}

// capHeight is the height of the font's capital H over its size, read
// from the glyph's outline at size 1000 (in 26.6 units, as a face of that
// size reports it). A face is not made for it: truetype.NewFace allocates
// its glyph cache as one picture sized for the font's largest glyph, 512
// glyphs high, which at size 1000 is about 850 MB a font.
func capHeight(ft *truetype.Font) float64 {
	const size = 1000
	var g truetype.GlyphBuf
	if err := g.Load(ft, fixed.Int26_6(size*64), ft.Index('H'), font.HintingNone); err != nil || ft.Index('H') == 0 {
		panic("render: the font has no H")
	}
	return float64(g.Bounds.Max.Y-g.Bounds.Min.Y) / 64 / size
}

// faces caches font faces (and so their glyphs). A face is not safe for
// concurrent use: each drawing takes a set and gives it back.
//
// A face is found by its exact size: when sizes were rounded to a quarter
// pixel, a face made for one size served the next sizes close to it, so
// the same position's picture could differ by a few glyph pixels
// depending on what had been drawn before with the same set.
type faces map[faceKey]font.Face

type faceKey struct {
	px   float64
	bold bool
}

// maxFaces bounds a set: sizes follow each game's scale, a handful each,
// but hand pictures scale with the hand.
const maxFaces = 64

var facePool = newKeep(8, func() faces { return faces{} })

func (f faces) get(px float64, isBold bool) font.Face {
	k := faceKey{px, isBold}
	if face, ok := f[k]; ok {
		return face
	}
	if len(f) >= maxFaces {
		clear(f)
	}
	ft := regular
	if isBold {
		ft = bold
	}
	face := &advanceFace{Face: truetype.NewFace(ft, &truetype.Options{Size: px, DPI: 72, Hinting: font.HintingNone}), adv: map[rune]fixed.Int26_6{}}
	f[k] = face
	return face
}

// advanceFace keeps each glyph's advance: a truetype face reads the
// glyph's outline from the font again for every advance it is asked for,
// and every text is measured before it is drawn (a tenth of drawing a
// board, issue #50).
type advanceFace struct {
	font.Face
	adv map[rune]fixed.Int26_6
}

func (f *advanceFace) GlyphAdvance(r rune) (fixed.Int26_6, bool) {
	if a, ok := f.adv[r]; ok {
		return a, true
	}
	a, ok := f.Face.GlyphAdvance(r)
	if ok {
		f.adv[r] = a
	}
	return a, ok
}

func rgba(c engine.Color) color.NRGBA { return color.NRGBA{c.R, c.G, c.B, c.A} }

// Transform maps scene units to pixels.
type Transform struct {
	Scale, DX, DY float64
}

// Apply maps a scene point to a pixel position.
func (t Transform) Apply(p engine.Point) (x, y float64) {
	return t.DX + p.X*t.Scale, t.DY + p.Y*t.Scale
}

// Fit is the transform that centres a w x h scene in the box at (x, y)
// of size bw x bh.
func Fit(w, h, x, y, bw, bh float64) Transform {
	if w <= 0 || h <= 0 {
		return Transform{Scale: 1, DX: x, DY: y}
	}
	s := math.Min(bw/w, bh/h)
	return Transform{Scale: s, DX: x + (bw-w*s)/2, DY: y + (bh-h*s)/2}
}

// drawScene paints a scene through a transform. With clip, only the
// items it keeps are drawn, their text only within its rectangles (the
// canvas's painter clips the paths: see drawOnLayer).
func drawScene(dc *canvas, pn pen, sc engine.Scene, t Transform, clip func(i int) ([]image.Rectangle, bool)) {
	var rects []image.Rectangle
	for i, it := range sc.Items {
		if clip != nil {
			var keep bool
			if rects, keep = clip(i); !keep {
				continue
			}
		}
		if it.Path != nil && pn.log == nil { // a layout only: see pen
			tracePath(dc, it.Path, t)
			if !it.Fill.None() {
				dc.SetColor(rgba(it.Fill))
				if !it.Stroke.None() && it.Width > 0 {
					dc.FillPreserve()
				} else {
					dc.Fill()
				}
			}
			if !it.Stroke.None() && it.Width > 0 {
				dc.SetColor(rgba(it.Stroke))
				dc.SetLineWidth(math.Max(1, it.Width*t.Scale))
				dc.Stroke()
			}
			dc.ClearPath()
		}
		if it.Text != "" {
			px := it.Size * t.Scale
			if px < 6 {
				continue // unreadable: skip rather than smear
			}
			x, y := t.Apply(it.At)
			ax := 0.5
			switch it.Align {
			case engine.Left:
				ax = 0
			case engine.Right:
				ax = 1
			}
			if clip == nil {
				pn.text(dc.im, px, it.Bold, it.Text, x, y, ax, it.Color)
				continue
			}
			for _, r := range rects {
				drawText(dc.im.SubImage(r).(*image.RGBA), pn.fc.get(px, it.Bold), it.Text, x, y, ax, it.Color)
			}
		}
	}
}

func tracePath(dc *canvas, p *engine.Path, t Transform) {
	k := 0
	pt := func() (float64, float64) {
		x, y := t.Apply(p.Pts[k])
		k++
		return x, y
	}
	for _, op := range p.Ops {
		switch op {
		case engine.MoveTo:
			dc.NewSubPath()
			x, y := pt()
			dc.MoveTo(x, y)
		case engine.LineTo:
			x, y := pt()
			dc.LineTo(x, y)
		case engine.QuadTo:
			cx, cy := pt()
			x, y := pt()
			dc.QuadraticTo(cx, cy, x, y)
		case engine.CubicTo:
			c1x, c1y := pt()
			c2x, c2y := pt()
			x, y := pt()
			dc.CubicTo(c1x, c1y, c2x, c2y, x, y)
		case engine.Close:
			dc.ClosePath()
		}
	}
}

// Board draws a board scene with the panel below it and returns the PNG.
// The picture's memory is reused from one board to the next.
func Board(sc engine.Scene, p Panel) ([]byte, error) {
	img, _ := boardImage(sc, p, true)
	defer imagePool.put(img)
	return encodeBoard(img)
}

// imagePool keeps pictures for reuse: a board is about 3 MB, and a fresh
// one per move was most of the garbage the bot made.
var imagePool = newKeep(4, func() *image.RGBA { return nil })

// pooledImage is a picture Width wide and h rows high, its memory taken
// from imagePool when a kept picture is large enough (its pixels are
// then those of an earlier picture: drawing covers every one).
func pooledImage(h int) *image.RGBA {
	if old := imagePool.get(); old != nil && cap(old.Pix) >= 4*Width*h {
		return &image.RGBA{Pix: old.Pix[:4*Width*h], Stride: 4 * Width, Rect: image.Rect(0, 0, Width, h)}
	}
	return image.NewRGBA(image.Rect(0, 0, Width, h))
}

// BoardImage draws the picture and returns it with the transform used for
// the board (so tests can find a cell's pixels).
func BoardImage(sc engine.Scene, p Panel) (image.Image, Transform) {
	return boardImage(sc, p, false)
}

func boardImage(sc engine.Scene, p Panel, pooled bool) (*image.RGBA, Transform) {
	t, boardH, h := boardLayout(sc, p)
	var img *image.RGBA
	if pooled {
		img = pooledImage(h)
	} else {
		img = image.NewRGBA(image.Rect(0, 0, Width, h))
	}
	drawBoard(img, sc, p, t, boardH, nil)
	return img, t
}

// drawBoard draws the board and its panel over every pixel of img, which
// is Width wide and as high as boardLayout says.
// With log set, it notes every text's place there.
func drawBoard(img *image.RGBA, sc engine.Scene, p Panel, t Transform, boardH float64, log *[]TextBox) {
	loadFonts()
	fc := facePool.get()
	defer facePool.put(fc)
	dc := newCanvas(img)
	defer dc.release()
	paintBoard(dc, pen{fc, log}, sc, p, t, boardH)
}

// paintBoard is drawBoard on a canvas, with a pen.
func paintBoard(dc *canvas, pn pen, sc engine.Scene, p Panel, t Transform, boardH float64) {
	bg := sc.Background
	if bg.None() {
		bg = engine.Paper
	}
	dc.Clear(rgba(bg)) // every pixel, so a reused picture starts clean
	drawScene(dc, pn, sc, t, nil)
	drawPanel(dc, pn, p, boardH)
}

// boardLayout is where the board goes in its picture, the height of the
// board's part and the picture's height (the animated replay needs the
// height of every frame before drawing the first).
func boardLayout(sc engine.Scene, p Panel) (t Transform, boardH float64, h int) {
	t = Fit(sc.W, sc.H, pad, pad, BoardBox, BoardMaxH)
	boardH = math.Ceil(sc.H*t.Scale) + 2*pad
	// Shrink the board box for a wide, flat scene: no empty band.
	t.DY = pad
	loadFonts()
	fc := facePool.get()
	defer facePool.put(fc)
	return t, boardH, int(math.Ceil(boardH + layoutPanel(fc, p, boardH).H))
}

// Scene draws a scene alone (a hand, a tile set), fitted into a box
// Width px wide, and returns the PNG.
func Scene(sc engine.Scene) ([]byte, error) {
	return Encode(sceneImage(sc, nil))
}

// sceneImage draws Scene's picture; with log set, it notes every text's
// place there.
func sceneImage(sc engine.Scene, log *[]TextBox) *image.RGBA {
	loadFonts()
	w := float64(Width)
	t := Fit(sc.W, sc.H, 0, 0, w, math.Max(1, sc.H*w/math.Max(sc.W, 1)))
	h := int(math.Ceil(sc.H * t.Scale))
	if h < 1 {
		h = 1
	}
	if h > 2000 {
		t = Fit(sc.W, sc.H, 0, 0, w, 2000)
		h = 2000
	}
	img := image.NewRGBA(image.Rect(0, 0, Width, h))
	dc := newCanvas(img)
	defer dc.release()
	bg := sc.Background
	if bg.None() {
		bg = engine.Paper
	}
	dc.Clear(rgba(bg))
	fc := facePool.get()
	defer facePool.put(fc)
	drawScene(dc, pen{fc, log}, sc, t, nil)
	return img
}

var bufPool = newKeep(4, func() *bytes.Buffer { return new(bytes.Buffer) })

var encoder = png.Encoder{CompressionLevel: png.BestSpeed}

// MaxPictureBytes bounds a picture's file: phones on slow networks load
// every board of a thread, so none may weigh 150 KB or more.
const MaxPictureBytes = 150_000

// Encode writes an image as PNG. When the image has at most 256 colours it
// is written as a paletted PNG (identical, several times smaller and faster
// to encode). A board has anti-aliased edges and text in a few thousand
// colours, so it is written as truecolour with one cheap filter (see
// encodeRGB), losslessly, unless that file would reach MaxPictureBytes (a
// Glorieta board, with a number in each of its 127 cells, weighs 170-185
// KB): then it is written with a palette of its own colours (see Palette),
// which keeps every flat colour exact and approximates only edge pixels,
// at about a third of the size.
func Encode(img image.Image) ([]byte, error) {
	buf := bufPool.get()
	buf.Reset()
	defer bufPool.put(buf)
	var err error
	rgba, ok := img.(*image.RGBA)
	if p := toPaletted(img); p != nil {
		err = encoder.Encode(buf, p)
	} else if ok {
		// Opaque pixels are checked on the way (errNotOpaque): by the
		// rows' filter, or by the palette's count when the truecolour
		// file is given up before its last row.
		keys := rgbBandKeys(rgba)
		// A picture with a quarter of its bands kept from earlier ones is
		// most often a game's next board: its counted bands are worth
		// keeping too. (A board of another game may share a margin or a
		// row of the panel.)
		related := 4*bandsKept.kept(keys) >= len(keys)
		err = encodeRGBUnder(buf, rgba, MaxPictureBytes+bandSlack, keys)
		if err == nil && buf.Len() >= MaxPictureBytes-bandSlack {
			err = nearTheLimit(buf, rgba)
		}
		if errors.Is(err, errTooLarge) {
			buf.Reset()
			err = encodeOwnPalette(buf, rgba, keys, related)
		}
	}
	if !ok || errors.Is(err, errNotOpaque) {
		buf.Reset()
		err = encoder.Encode(buf, img)
	}
	if err != nil {
		return nil, err
	}
	return bytes.Clone(buf.Bytes()), nil
}

// encodeBoard writes a board picture as PNG, as Encode does: exactly in
// truecolour, or with a palette of its own colours when the truecolour
// file would reach MaxPictureBytes. Writing every board with the palette
// at once would save the truecolour file that is thrown away (5-7 ms of
// a late Elemental move, issue #50), but would change the early boards'
// anti-aliased edges, and issue #50 asks for the board picture unchanged:
// the trade is left for a decision (docs/benchmarks.md, issue #50).
func encodeBoard(img *image.RGBA) ([]byte, error) { return Encode(img) }

// bandSlack is how far from MaxPictureBytes a truecolour file in bands
// (see encodeRows) must be for the file in one stream per core, which
// decided before the bands, to be on the same side of it: the bands cost
// 32 to 1,734 bytes more than the stream on 391 boards of every game
// between 100 and 150 KB (docs/benchmarks.md, issue #50).
const bandSlack = 4000

// nearTheLimit decides for a board whose truecolour file in bands, in
// buf, is within bandSlack of MaxPictureBytes, as the encoder before the
// bands decided: by the size of the file in one stream per core. It
// returns errTooLarge when that is at least the limit; else it leaves buf
// as it is, or, when the bands reach the limit, writes the stream's file
// into buf instead.
func nearTheLimit(buf *bytes.Buffer, img *image.RGBA) error {
	var stream bytes.Buffer
	if err := encodeStream(&stream, img); err != nil {
		return err
	}
	if stream.Len() >= MaxPictureBytes {
		return errTooLarge
	}
	if buf.Len() >= MaxPictureBytes {
		buf.Reset()
		buf.Write(stream.Bytes())
	}
	return nil
}

// pixPool keeps the paletted pixels of a board (about 0.8 MB).
var pixPool = newKeep(4, func() []uint8 { return nil })

// encodeOwnPalette writes img with a palette of its own 256 colours:
// encodePaletted(w, Quantize(img, Palette(img, 256))), counting the
// colours once and into kept pixels, and each band of rows named in keys
// (not nil: see rgbBandKeys) only when it was not counted before; with
// keep, the bands counted are kept for the next picture. It returns
// errNotOpaque, having written nothing, when a pixel of img is not fully
// opaque.
func encodeOwnPalette(w io.Writer, img *image.RGBA, keys []bandKey, keep bool) error {
	b := img.Bounds()
	pix := pixPool.get()
	if cap(pix) < b.Dx()*b.Dy() {
		pix = make([]uint8, b.Dx()*b.Dy())
	}
	pix = pix[:b.Dx()*b.Dy()]
	defer pixPool.put(pix)
	pal := quantizeOwn(img, 256, pix, keys, keep)
	if pal == nil {
		return errNotOpaque
	}
	plte := make([]byte, 0, 3*len(pal))
	for _, c := range pal {
		q := c.(color.RGBA)
		plte = append(plte, q.R, q.G, q.B)
	}
	return encodePalettedPix(w, b.Dx(), b.Dy(), pix, b.Dx(), plte)
}

// toPaletted returns a paletted copy of img when it has at most 256
// distinct colours, else nil. It counts first, without making the copy:
// a board has thousands of colours, and the copy (0.7 MB) was made and
// thrown away for every one. The colours seen are kept in a small table
// of their own (open addressing, twice the 256 entries a picture may
// have, and more), not a Go map.
func toPaletted(img image.Image) *image.Paletted {
	src, ok := img.(*image.RGBA)
	if !ok {
		return nil
	}
	b := src.Bounds()
	const slots = 1024
	var keys [slots]uint64 // a colour | 1<<32; 0 is empty
	var idx [slots]uint8
	pal := make(color.Palette, 0, 256)
	// index finds (or adds) a pixel's colour; a run of one colour is
	// looked up once.
	last, lastI, have := uint32(0), uint8(0), false
	index := func(p []byte) (uint8, bool) {
		k := uint32(p[0])<<24 | uint32(p[1])<<16 | uint32(p[2])<<8 | uint32(p[3])
		if have && k == last {
			return lastI, true
		}
		s := (k * 0x9E3779B1) >> 22 // 10 bits
		key := uint64(k) | 1<<32
		for keys[s] != 0 && keys[s] != key {
			s = (s + 1) % slots
		}
		i := idx[s]
		if keys[s] == 0 {
			if len(pal) == 256 {
				return 0, false
			}
			i = uint8(len(pal))
			keys[s], idx[s] = key, i
			pal = append(pal, color.RGBA{p[0], p[1], p[2], p[3]})
		}
		last, lastI, have = k, i, true
		return i, true
	}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := src.Pix[(y-b.Min.Y)*src.Stride:]
		for x := 0; x < b.Dx(); x++ {
			if _, ok := index(row[x*4 : x*4+4 : x*4+4]); !ok {
				return nil
			}
		}
	}
	out := image.NewPaletted(b, nil)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := src.Pix[(y-b.Min.Y)*src.Stride:]
		orow := out.Pix[(y-b.Min.Y)*out.Stride:]
		for x := 0; x < b.Dx(); x++ {
			orow[x], _ = index(row[x*4 : x*4+4 : x*4+4])
		}
	}
	out.Palette = pal
	return out
}

// drawText is text on a picture without a gg context (the replay's
// caption band).
func drawText(img *image.RGBA, face font.Face, s string, x, y, ax float64, c engine.Color) {
	d := font.Drawer{Dst: img, Src: image.NewUniform(rgba(c)), Face: face, Dot: textDot(face, s, x, y, ax)}
	d.DrawString(s)
}
