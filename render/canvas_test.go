package render

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"math"
	"strings"
	"testing"

	"github.com/fogleman/gg"
	"golang.org/x/image/font"

	"tessera/engine"
	_ "tessera/engine/games"
	"tessera/picture"
)

// positions are several positions of every game (the start, a few moves
// in, mid-game, late and finished), with two and three players and every
// TilingKing board, played with moves picked by a fixed rule.
func positions(t testing.TB) map[string]engine.State {
	out := map[string]engine.State{}
	for _, g := range engine.Games() {
		setups := []engine.Setup{}
		for _, n := range []int{2, 3} {
			if n < g.MinPlayers || n > g.MaxPlayers {
				continue
			}
			setups = append(setups, engine.Setup{Game: g.ID, Players: n, Seed: 5})
		}
		if g.ID == "tilingking" {
			for _, b := range []string{"square9", "square11", "hex", "tri"} {
				setups = append(setups, engine.Setup{Game: g.ID, Players: 3, Seed: 5, Options: map[string]string{"board": b}})
			}
		}
		for _, s := range setups {
			st, err := engine.New(s)
			if err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("%s/%dp%v", s.Game, s.Players, s.Options["board"])
			out[name+"/0"] = st.Clone()
			for i := 1; i < 400; i++ {
				l := st.Legal()
				if len(l) == 0 {
					break
				}
				if _, err := st.Apply(l[(i*17)%len(l)]); err != nil {
					t.Fatal(err)
				}
				if i == 1 || i%9 == 0 {
					out[fmt.Sprintf("%s/%d", name, i)] = st.Clone()
				}
			}
			out[name+"/end"] = st
		}
	}
	return out
}

// TestCanvasMatchesGG: every board (and every hand) of every game drawn
// with the canvas is, byte for byte, the picture gg draws. The reference
// draws each with new font faces, the canvas with the faces kept from the
// positions before: the pictures also do not depend on what was drawn
// before them.
func TestCanvasMatchesGG(t *testing.T) {
	for name, st := range positions(t) {
		sc := st.Board()
		p := NewPanel(name, st.View(engine.NoSeat), []string{"Ana", "Bo", "Cy"})
		got, _ := boardImage(sc, p, false)
		want := ggBoard(sc, p)
		if i := firstDiff(got, want); i >= 0 {
			t.Fatalf("%s: board differs from gg's at pixel %d", name, i)
		}
		for s := 0; s < st.Players(); s++ {
			hs := st.HandScene(engine.Seat(s))
			a, _ := Scene(hs)
			b, _ := ggScene(hs)
			if !bytes.Equal(a, b) {
				t.Fatalf("%s: hand %d differs from gg's", name, s)
			}
		}
	}
}

func firstDiff(a, b *image.RGBA) int {
	if a.Rect != b.Rect {
		return 0
	}
	for i := range a.Pix {
		if a.Pix[i] != b.Pix[i] {
			return i / 4
		}
	}
	return -1
}

// What follows is the drawing as it was before the canvas, through gg,
// kept as the reference the canvas must match.

func ggBoard(sc engine.Scene, p Panel) *image.RGBA {
	t, boardH, h := boardLayout(sc, p)
	img := image.NewRGBA(image.Rect(0, 0, Width, h))
	loadFonts()
	fc := faces{}
	dc := gg.NewContextForRGBA(img)
	bg := sc.Background
	if bg.None() {
		bg = engine.Paper
	}
	dc.SetColor(rgba(bg))
	dc.Clear()
	ggDrawScene(dc, fc, sc, t)
	ggDrawPanel(dc, fc, p, boardH)
	return img
}

func ggScene(sc engine.Scene) ([]byte, error) {
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
	dc := gg.NewContext(Width, h)
	bg := sc.Background
	if bg.None() {
		bg = engine.Paper
	}
	dc.SetColor(rgba(bg))
	dc.Clear()
	ggDrawScene(dc, faces{}, sc, t)
	return Encode(dc.Image())
}

func ggDrawScene(dc *gg.Context, fc faces, sc engine.Scene, t Transform) {
	for _, it := range sc.Items {
		if it.Path != nil {
			ggTracePath(dc, it.Path, t)
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
				continue
			}
			x, y := t.Apply(it.At)
			ax := 0.5
			switch it.Align {
			case engine.Left:
				ax = 0
			case engine.Right:
				ax = 1
			}
			text(dc, fc.get(px, it.Bold), it.Text, x, y, ax, it.Color)
		}
	}
}

func ggTracePath(dc *gg.Context, p *engine.Path, t Transform) {
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

func ggDrawPanel(dc *gg.Context, fc faces, p Panel, top float64) {
	l := layoutPanel(fc, p, top)
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
		text(dc, fc.get(t.Px, t.Bold), t.Text, t.X, t.Y, ax, t.Color)
	}
}

// TestBoardOnMatchesBoard: a board drawn from its game's start position's
// kept layer (only the tiles that differ painted again) is, byte for
// byte, the board drawn whole, for every game at every position; the
// pictures start full of noise, so a pixel left undrawn shows.
func TestBoardOnMatchesBoard(t *testing.T) {
	all := positions(t)
	layered := 0
	for name, st := range all {
		start := all[name[:strings.LastIndex(name, "/")]+"/0"]
		base, sc := start.Board(), st.Board()
		p := NewPanel(name, st.View(engine.NoSeat), []string{"Ana", "Bo", "Cy"})
		tr, boardH, h := boardLayout(sc, p)
		want := image.NewRGBA(image.Rect(0, 0, Width, h))
		drawBoard(want, sc, p, tr, boardH, nil)
		for round := 0; round < 2; round++ { // the layer drawn, then kept
			got := image.NewRGBA(image.Rect(0, 0, Width, h))
			for i := range got.Pix {
				got.Pix[i] = byte(i*7 + 3)
			}
			drawBoardOn(got, base, sc, p, tr, boardH)
			if i := firstDiff(got, want); i >= 0 {
				t.Fatalf("%s (round %d): differs from the whole drawing at pixel %d (%d,%d)", name, round, i, i%Width, i/Width)
			}
		}
		img := image.NewRGBA(image.Rect(0, 0, Width, h))
		if drawOnLayer(img, newCanvas(img), pen{fc: faces{}}, base, sc, tr, int(boardH-pad/2)) {
			layered++
		}
	}
	// The service's base: the start dealt from seed 1, whose Elemental
	// borders differ from the game's (their bands are painted again).
	b1, _ := engine.New(engine.Setup{Game: "elemental", Players: 2, Seed: 1})
	st, _ := engine.New(engine.Setup{Game: "elemental", Players: 2, Seed: 9})
	for i := 0; i < 24; i++ {
		sc := st.Board()
		p := NewPanel("seed 9", st.View(engine.NoSeat), nil)
		tr, boardH, h := boardLayout(sc, p)
		want := image.NewRGBA(image.Rect(0, 0, Width, h))
		drawBoard(want, sc, p, tr, boardH, nil)
		got := image.NewRGBA(image.Rect(0, 0, Width, h))
		drawBoardOn(got, b1.Board(), sc, p, tr, boardH)
		if i := firstDiff(got, want); i >= 0 {
			t.Fatalf("elemental seed 9 on seed 1's layer: differs at pixel %d", i)
		}
		l := st.Legal()
		st.Apply(l[(i*5)%len(l)])
	}
	if layered < len(all)/5 {
		t.Fatalf("only %d of %d boards were drawn on a layer", layered, len(all))
	}
	t.Logf("%d of %d boards drawn on their start's layer", layered, len(all))
}

// TestPaletteRuns: counting and mapping a run of one colour once (as
// histogram and Quantize do) gives what counting and mapping every pixel
// gives, on a Glorieta board (the one written with a palette).
func TestPaletteRuns(t *testing.T) {
	st, _ := engine.New(engine.Setup{Game: "glorieta", Players: 2, Seed: 3})
	for i := 0; i < 30; i++ {
		l := st.Legal()
		st.Apply(l[(i*13)%len(l)])
	}
	img, _ := boardImage(st.Board(), NewPanel("x", st.View(engine.NoSeat), nil), false)
	want := map[uint32]int{}
	for i := 0; i < len(img.Pix); i += 4 {
		want[uint32(img.Pix[i])<<16|uint32(img.Pix[i+1])<<8|uint32(img.Pix[i+2])]++
	}
	got := histogram(img)
	if len(got) != len(want) || len(got) < 257 {
		t.Fatalf("%d colours, want %d (over 256)", len(got), len(want))
	}
	for c, n := range want {
		if got[c] != n {
			t.Fatalf("colour %06x: %d, want %d", c, got[c], n)
		}
	}
	pal := Palette(img, 256)
	q := Quantize(img, pal)
	for i := 0; i < len(img.Pix); i += 4 {
		c := uint32(img.Pix[i])<<16 | uint32(img.Pix[i+1])<<8 | uint32(img.Pix[i+2])
		if q.Pix[i/4] != nearest(pal, c) {
			t.Fatalf("pixel %d mapped to %d, not its nearest %d", i/4, q.Pix[i/4], nearest(pal, c))
		}
	}
}

// TestEncodePaletted: a board written with its own palette decodes (with
// image/png) to exactly the quantized picture, pixel for pixel, and is
// under MaxPictureBytes.
func TestEncodePaletted(t *testing.T) {
	st, _ := engine.New(engine.Setup{Game: "glorieta", Players: 2, Seed: 3})
	for i := 0; i < 30; i++ {
		l := st.Legal()
		st.Apply(l[(i*13)%len(l)])
	}
	img, _ := boardImage(st.Board(), NewPanel("x", st.View(engine.NoSeat), nil), false)
	data, err := Encode(img)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) >= MaxPictureBytes {
		t.Fatalf("%d bytes", len(data))
	}
	dec, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	p, ok := dec.(*image.Paletted)
	if !ok {
		t.Fatalf("decoded as %T, want a paletted image", dec)
	}
	want := Quantize(img, Palette(img, 256))
	if p.Bounds() != want.Bounds() || len(p.Palette) != len(want.Palette) {
		t.Fatalf("bounds %v, %d colours; want %v, %d", p.Bounds(), len(p.Palette), want.Bounds(), len(want.Palette))
	}
	for y := 0; y < want.Bounds().Dy(); y++ {
		for x := 0; x < want.Bounds().Dx(); x++ {
			r1, g1, b1, a1 := p.At(x, y).RGBA()
			r2, g2, b2, a2 := want.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				t.Fatalf("pixel %d,%d differs", x, y)
			}
		}
	}
}

// text draws a label with its left (ax 0), centre (0.5) or right (1) at x,
// centred on y. It draws the glyphs straight onto the picture: gg's
// DrawString resamples every glyph through a transform, which cost more
// than all the other text work together.
func text(dc *gg.Context, face font.Face, s string, x, y, ax float64, c engine.Color) {
	if img, ok := dc.Image().(*image.RGBA); ok {
		drawText(img, face, s, x, y, ax, c)
	}
}
