package render

// Animated replays: a GIF with one frame per position, each the position's
// board picture (exactly as the move posts show it) under a caption band
// that says which move it is. A GIF has at most 256 colours, so the frames
// share one palette built from the pictures' own colours (see Palette):
// the flat colours of boards, stones and text stay exact and only
// anti-aliased edges are approximated. Each frame after the first stores
// only the rectangle that changed since the one before, with unchanged
// pixels transparent: a move changes a tile, the old outline and the panel,
// so a 65-frame game weighs little more than a few full pictures.

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/gif"

	"tessera/engine"
	"tessera/picture"
)

// Timing and layout of a replay.
const (
	// CaptionHeight is the band above each board picture with the caption.
	CaptionHeight = 48
	// FrameDelay and FinalDelay are how long a position, and the last one,
	// stay on screen, in hundredths of a second.
	FrameDelay = 120
	FinalDelay = 500
)

var (
	captionBackground = engine.Ink
	captionText       = engine.White
	// panelGround fills below a frame shorter than the tallest one (its
	// panel had fewer lines).
	panelGround = engine.Hex("#e4dccb")
)

// transparent is the palette's last entry: "unchanged since the frame
// before".
const transparent = 255

// ReplayGIF draws the frames and encodes them as an animated GIF that
// holds the last position, then plays again from the start, forever. Every frame is Width
// wide and CaptionHeight plus the tallest board picture high; below the
// caption band a frame's pixels are its board picture's, each mapped to
// the nearest colour of the shared palette.
func ReplayGIF(frames []ReplayFrame) ([]byte, error) {
	if len(frames) == 0 {
		return nil, errNoFrames
	}
	height := 0
	for _, f := range frames {
		_, _, h := boardLayout(f.Scene, f.Panel)
		height = max(height, h)
	}
	height += CaptionHeight
	bounds := image.Rect(0, 0, Width, height)
	prev, cur := image.NewRGBA(bounds), image.NewRGBA(bounds)

	// The palette comes from the first and the last pictures together:
	// between them they hold the board's colours, every piece played
	// (pieces are rarely taken away) and the panel's highlights.
	drawFrame(cur, frames[len(frames)-1], nil)
	drawFrame(prev, frames[0], nil)
	both := image.NewRGBA(image.Rect(0, 0, Width, 2*height))
	copy(both.Pix, prev.Pix)
	copy(both.Pix[len(prev.Pix):], cur.Pix)
	pal := Palette(both, transparent)
	for len(pal) < transparent {
		pal = append(pal, color.RGBA{A: 255}) // unused, keeps index 255 free
	}
	pal = append(pal, color.RGBA{}) // the encoder marks it transparent
	q := &quantizer{pal: pal[:transparent], near: make(map[uint32]uint8, 8192)}

	anim := &gif.GIF{
		Config:    image.Config{ColorModel: pal, Width: Width, Height: height},
		LoopCount: 0, // loop forever, holding the final position FinalDelay first
	}
	add := func(img *image.Paletted, delay int) {
		anim.Image = append(anim.Image, img)
		anim.Delay = append(anim.Delay, delay)
		anim.Disposal = append(anim.Disposal, gif.DisposalNone)
	}
	add(q.full(prev, pal), FrameDelay)
	for i := 1; i < len(frames); i++ {
		drawFrame(cur, frames[i], nil)
		if r := changed(prev, cur); r.Empty() {
			anim.Delay[len(anim.Delay)-1] += FrameDelay // same picture: show it longer
		} else {
			add(q.delta(prev, cur, r, pal), FrameDelay)
		}
		prev, cur = cur, prev
	}
	anim.Delay[len(anim.Delay)-1] = FinalDelay
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, anim); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

type replayError string

func (e replayError) Error() string { return string(e) }

const errNoFrames = replayError("render: a replay needs at least one frame")

// drawFrame draws the caption band and the board picture into img, and
// fills what the picture leaves below.
// With log set, it notes every text's place there.
func drawFrame(img *image.RGBA, f ReplayFrame, log *[]TextBox) {
	t, boardH, h := boardLayout(f.Scene, f.Panel)
	band := img.Pix[:CaptionHeight*img.Stride]
	fill(band, rgba(captionBackground))
	board := &image.RGBA{Pix: img.Pix[CaptionHeight*img.Stride : (CaptionHeight+h)*img.Stride], Stride: img.Stride, Rect: image.Rect(0, 0, Width, h)}
	var boardLog *[]TextBox
	if log != nil {
		boardLog = new([]TextBox)
	}
	drawBoard(board, f.Scene, f.Panel, t, boardH, boardLog)
	if log != nil {
		for _, b := range *boardLog { // in the frame, below the caption band
			b.Box = b.Box.Add(image.Pt(0, CaptionHeight))
			*log = append(*log, b)
		}
	}
	fill(img.Pix[(CaptionHeight+h)*img.Stride:], rgba(panelGround))
	loadFonts()
	fc := facePool.get()
	defer facePool.put(fc)
	captionImg := &image.RGBA{Pix: band, Stride: img.Stride, Rect: image.Rect(0, 0, Width, CaptionHeight)}
	pen{fc, log}.text(captionImg, picture.TextSize, true, fitWidth(fc.get(picture.TextSize, true), f.Caption, Width-2*pad), pad, CaptionHeight/2, 0, captionText)
}

func fill(pix []byte, c color.NRGBA) {
	for i := 0; i+3 < len(pix); i += 4 {
		pix[i], pix[i+1], pix[i+2], pix[i+3] = c.R, c.G, c.B, 255
	}
}

// changed is the smallest rectangle holding every pixel that differs
// between a and b (of equal bounds).
func changed(a, b *image.RGBA) image.Rectangle {
	r := image.Rectangle{}
	w, h := a.Rect.Dx(), a.Rect.Dy()
	for y := 0; y < h; y++ {
		ra, rb := a.Pix[y*a.Stride:y*a.Stride+4*w], b.Pix[y*b.Stride:y*b.Stride+4*w]
		if bytes.Equal(ra, rb) {
			continue
		}
		x0 := 0
		for x0 < w && equalPixel(ra, rb, x0) {
			x0++
		}
		x1 := w
		for x1 > x0 && equalPixel(ra, rb, x1-1) {
			x1--
		}
		r = r.Union(image.Rect(x0, y, x1, y+1))
	}
	return r
}

// equalPixel compares pixel x of two rows (opaque, so all four bytes).
func equalPixel(a, b []byte, x int) bool {
	return binary.NativeEndian.Uint32(a[4*x:]) == binary.NativeEndian.Uint32(b[4*x:])
}

// quantizer maps colours to the nearest palette entry, remembering each
// colour's answer across frames.
type quantizer struct {
	pal  color.Palette // without the transparent entry
	near map[uint32]uint8
}

func (q *quantizer) index(pix []byte) uint8 {
	c := uint32(pix[0])<<16 | uint32(pix[1])<<8 | uint32(pix[2])
	i, ok := q.near[c]
	if !ok {
		i = nearest(q.pal, c)
		q.near[c] = i
	}
	return i
}

// full is the whole picture.
func (q *quantizer) full(img *image.RGBA, pal color.Palette) *image.Paletted {
	out := image.NewPaletted(img.Rect, pal)
	for y := 0; y < img.Rect.Dy(); y++ {
		row, orow := img.Pix[y*img.Stride:], out.Pix[y*out.Stride:]
		for x := 0; x < img.Rect.Dx(); x++ {
			orow[x] = q.index(row[4*x:])
		}
	}
	return out
}

// delta is the rectangle r of cur, with the pixels that prev already
// shows transparent.
func (q *quantizer) delta(prev, cur *image.RGBA, r image.Rectangle, pal color.Palette) *image.Paletted {
	out := image.NewPaletted(r, pal)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		pr, cr := prev.Pix[y*prev.Stride:], cur.Pix[y*cur.Stride:]
		orow := out.Pix[(y-r.Min.Y)*out.Stride : (y-r.Min.Y)*out.Stride+r.Dx()]
		if bytes.Equal(pr[4*r.Min.X:4*r.Max.X], cr[4*r.Min.X:4*r.Max.X]) {
			for i := range orow { // most rows of the rectangle did not change
				orow[i] = transparent
			}
			continue
		}
		for x := r.Min.X; x < r.Max.X; x++ {
			if equalPixel(pr, cr, x) {
				orow[x-r.Min.X] = transparent
			} else {
				orow[x-r.Min.X] = q.index(cr[4*x:])
			}
		}
	}
	return out
}
