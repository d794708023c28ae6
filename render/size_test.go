package render_test

import (
	"bytes"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"testing"

	"tessera/engine"
	_ "tessera/engine/games"
	"tessera/render"
)

// Every board picture of a whole game, at every stage, of every game and
// board, stays under render.MaxPictureBytes (issue #12, item 17: Glorieta
// drew 166-184 KB on every move).
func TestEveryPictureUnderTheSizeLimit(t *testing.T) {
	setups := []engine.Setup{
		{Game: "elemental", Players: 4, Seed: 1},
		{Game: "closure", Players: 3, Seed: 2},
		{Game: "glorieta", Players: 2, Seed: 3},
		{Game: "knotwork", Players: 2, Seed: 4},
		{Game: "tilingking", Players: 2, Seed: 5, Options: map[string]string{"board": "square9"}},
		{Game: "tilingking", Players: 4, Seed: 6, Options: map[string]string{"board": "square11"}},
		{Game: "tilingking", Players: 3, Seed: 7, Options: map[string]string{"board": "hex"}},
		{Game: "tilingking", Players: 3, Seed: 8, Options: map[string]string{"board": "tri"}},
	}
	for _, setup := range setups {
		t.Run(fmt.Sprintf("%s-%d-%s", setup.Game, setup.Players, setup.Options["board"]), func(t *testing.T) {
			t.Parallel()
			st, err := engine.New(setup)
			if err != nil {
				t.Fatal(err)
			}
			names := []string{"Ana", "Bo", "Cy", "Di"}[:setup.Players]
			r := engine.NewRand(setup.Seed)
			largest := 0
			for move := 0; ; move++ {
				panel := render.NewPanel(fmt.Sprintf("%s · game #%d", setup.Game, 123456), st.View(engine.NoSeat), names)
				data, err := render.Board(st.Board(), panel)
				if err != nil {
					t.Fatal(err)
				}
				if len(data) >= render.MaxPictureBytes {
					t.Fatalf("after %d moves the picture weighs %d bytes, want under %d", move, len(data), render.MaxPictureBytes)
				}
				largest = max(largest, len(data))
				if st.Over() {
					break
				}
				legal := st.Legal()
				if _, err := st.Apply(legal[r.IntN(len(legal))]); err != nil {
					t.Fatal(err)
				}
			}
			t.Logf("largest picture %d bytes", largest)
		})
	}
}

// A picture written with a palette keeps its frequent (flat) colours
// exact: only edge pixels, blends of two flat colours, are approximated.
func TestPalettedFallbackKeepsFlatColours(t *testing.T) {
	st, err := engine.New(engine.Setup{Game: "glorieta", Players: 2, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 30; i++ {
		l := st.Legal()
		if _, err := st.Apply(l[(i*7919)%len(l)]); err != nil {
			t.Fatal(err)
		}
	}
	img, _ := render.BoardImage(st.Board(), render.NewPanel("Glorieta", st.View(engine.NoSeat), []string{"Ana", "Bo"}))
	data, err := render.Encode(img)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	src := image.NewRGBA(img.Bounds())
	draw.Draw(src, src.Bounds(), img, image.Point{}, draw.Src)
	counts := map[[3]uint8]int{}
	b := src.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			o := src.PixOffset(x, y)
			counts[[3]uint8{src.Pix[o], src.Pix[o+1], src.Pix[o+2]}]++
		}
	}
	exact, approx, worst := 0, 0, 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			o := src.PixOffset(x, y)
			want := [3]uint8{src.Pix[o], src.Pix[o+1], src.Pix[o+2]}
			r, g, bl, _ := dec.At(x, y).RGBA()
			got := [3]uint8{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8)}
			if counts[want] >= 200 { // a flat colour
				exact++
				if got != want {
					t.Fatalf("flat colour %v (%d pixels) drawn as %v at %d,%d", want, counts[want], got, x, y)
				}
				continue
			}
			approx++
			for c := 0; c < 3; c++ {
				d := int(got[c]) - int(want[c])
				worst = max(worst, d, -d)
			}
		}
	}
	if approx > exact/10 {
		t.Fatalf("%d edge pixels against %d flat ones: the picture is not mostly flat colour", approx, exact)
	}
	t.Logf("%d bytes; %d flat pixels exact, %d edge pixels within %d/255", len(data), exact, approx, worst)
}
