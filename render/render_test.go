package render_test

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"testing"

	"tessera/engine"
	"tessera/engine/elemental"
	"tessera/render"
)

// position is an Elemental game after a few moves, with fixed borders.
func position(t testing.TB, moves int) engine.State {
	st, err := engine.New(engine.Setup{Game: elemental.ID, Players: 2, Seed: 3, Options: map[string]string{"borders": "RBGY"}})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < moves; i++ {
		l := st.Legal()
		if _, err := st.Apply(l[(i*13)%len(l)]); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

func TestBoardPicture(t *testing.T) {
	st := position(t, 30)
	panel := render.NewPanel("Elemental Connection · game #1", st.View(engine.NoSeat), []string{"Ana", "Bo"})
	img, tr := render.BoardImage(st.Board(), panel)
	b := img.Bounds()
	if b.Dx() != render.Width || b.Dy() < 900 || b.Dy() > 1100 {
		t.Fatalf("size %v, want %d wide and about 1000 high", b, render.Width)
	}
	data, err := render.Encode(img)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the PNG does not decode: %v", err)
	}
	if dec.Bounds() != b {
		t.Fatalf("decoded size %v, want %v", dec.Bounds(), b)
	}
	if len(data) > 150_000 {
		t.Fatalf("PNG %d bytes, want under 150 KB", len(data))
	}
	// Sample the middle of each edge triangle of every laid tile: the pixel
	// has the tile's colour. In the scene a cell is 80 units with the board
	// starting 44 units in, row 8 on top; a triangle's centre is 25 units
	// from the cell centre towards its edge (letters of 26 units sit at 24
	// units on the axis, so sample off-axis by 15 units).
	want := map[byte]engine.Color{'R': engine.Red, 'B': engine.Blue, 'G': engine.Green, 'Y': engine.Yellow}
	s := st.(*elemental.State)
	checked := 0
	for cell := 0; cell < 64; cell++ {
		if !s.Filled[cell] {
			continue
		}
		c, r := cell%8, cell/8
		cx, cy := 44+80*float64(c)+40, 44+80*float64(7-r)+40
		offs := [4][2]float64{{15, -25}, {25, 15}, {-15, 25}, {-25, -15}} // N, E, S, W
		for d, o := range offs {
			x, y := tr.Apply(engine.Point{X: cx + o[0], Y: cy + o[1]})
			got := dec.At(int(x), int(y))
			if !same(got, want[s.Cells[cell][d]]) {
				t.Fatalf("cell %d edge %d at (%d,%d): %v, want %c", cell, d, int(x), int(y), got, s.Cells[cell][d])
			}
			checked++
		}
	}
	if checked < 100 {
		t.Fatalf("only %d samples", checked)
	}
}

func same(c interface{ RGBA() (r, g, b, a uint32) }, want engine.Color) bool {
	r, g, b, _ := c.RGBA()
	return uint8(r>>8) == want.R && uint8(g>>8) == want.G && uint8(b>>8) == want.B
}

func TestPalettedWhenFewColours(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 40, 40))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	img.Set(3, 3, image.Black)
	data, err := render.Encode(img)
	if err != nil {
		t.Fatal(err)
	}
	dec, _ := png.Decode(bytes.NewReader(data))
	if _, ok := dec.(*image.Paletted); !ok {
		t.Fatalf("two colours encoded as %T, want paletted", dec)
	}
	r, g, b, _ := dec.At(3, 3).RGBA()
	if r|g|b != 0 {
		t.Fatal("the black pixel changed")
	}
}

func TestHandScene(t *testing.T) {
	st := position(t, 2)
	data, err := render.Scene(st.HandScene(0))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil || img.Bounds().Dx() != render.Width {
		t.Fatalf("hand picture: %v %v", img.Bounds(), err)
	}
}

func BenchmarkBoard(b *testing.B) {
	st := position(b, 60)
	panel := render.NewPanel("Elemental Connection · game #1", st.View(engine.NoSeat), []string{"Ana", "Bo"})
	sc := st.Board()
	b.ReportAllocs()
	var size int
	for b.Loop() {
		data, err := render.Board(sc, panel)
		if err != nil {
			b.Fatal(err)
		}
		size = len(data)
	}
	b.ReportMetric(float64(size), "png-bytes")
}

func BenchmarkDraw(b *testing.B) {
	st := position(b, 60)
	panel := render.NewPanel("x", st.View(engine.NoSeat), []string{"Ana", "Bo"})
	sc := st.Board()
	for b.Loop() {
		render.BoardImage(sc, panel)
	}
}

// BenchmarkBoardOn: Board and BoardOn (from the start position's kept
// layer) side by side, early, in the middle and late in an Elemental game.
func BenchmarkBoardOn(b *testing.B) {
	base := position(b, 0).Board()
	for _, moves := range []int{10, 30, 60} {
		st := position(b, moves)
		panel := render.NewPanel("Elemental Connection · game #1", st.View(engine.NoSeat), []string{"Ana", "Bo"})
		sc := st.Board()
		b.Run(fmt.Sprintf("whole/%d", moves), func(b *testing.B) {
			for b.Loop() {
				render.Board(sc, panel)
			}
		})
		b.Run(fmt.Sprintf("layer/%d", moves), func(b *testing.B) {
			for b.Loop() {
				render.BoardOn(base, sc, panel)
			}
		})
	}
}

// An event's standings of 40 players decodes as a PNG at the pictures'
// width, one row a player, and weighs under the limit every picture
// keeps.
func TestStandingsPicture(t *testing.T) {
	for _, s := range standingsPictures() {
		data, err := render.DrawStandings(s)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: the PNG does not decode: %v", s.Title, err)
		}
		if w, h := img.Bounds().Dx(), img.Bounds().Dy(); w != render.Width || h < 40*len(s.Rows) || h > 40*len(s.Rows)+300 {
			t.Errorf("%s: %dx%d, want %d wide and about 40 px a row for %d rows", s.Title, w, h, render.Width, len(s.Rows))
		}
		if len(data) >= render.MaxPictureBytes {
			t.Errorf("%s: %d bytes, want under %d", s.Title, len(data), render.MaxPictureBytes)
		}
		t.Logf("%s: %d rows, %d bytes", s.Title, len(s.Rows), len(data))
	}
}
