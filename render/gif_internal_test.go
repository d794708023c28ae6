package render

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"testing"

	"tessera/engine"
)

// TestReplayGIFShowsEveryFrame: played through, the animation shows after
// each frame exactly that frame's picture mapped to the palette (the
// changed rectangles and transparent pixels lose nothing), a frame equal
// to the one before adds its time to it instead of a frame, and the last
// is held longest.
func TestReplayGIFShowsEveryFrame(t *testing.T) {
	var frames []ReplayFrame
	sc := engine.Scene{W: 8, H: 8}
	sc.Fill(engine.Rect(0, 0, 8, 8), engine.Paper, engine.Ink, 0.05)
	for i := 0; i < 5; i++ {
		if i != 3 { // frame 3 repeats frame 2
			sc.Items = append(sc.Items[:len(sc.Items):len(sc.Items)], engine.Item{Path: engine.Rect(float64(i), float64(i), 1, 1), Fill: []engine.Color{engine.Red, engine.Blue, engine.Green, engine.Yellow, engine.Teal}[i]})
		}
		p := Panel{Title: "test", Status: "move", Seats: []Seat{{Name: "Ana"}, {Name: "Bo"}}}
		if i == 4 {
			p.Legend = []string{"a longer panel"} // a taller last frame
		}
		frames = append(frames, ReplayFrame{Scene: sc, Panel: p, Caption: "frame"})
		if i == 3 {
			frames[3].Caption = frames[2].Caption
		}
	}
	data, err := ReplayGIF(frames)
	if err != nil {
		t.Fatal(err)
	}
	anim, err := gif.DecodeAll(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(anim.Image) != 4 || anim.Delay[2] != 2*FrameDelay || anim.Delay[3] != FinalDelay {
		t.Fatalf("%d frames, delays %v", len(anim.Image), anim.Delay)
	}
	pal := anim.Config.ColorModel.(color.Palette)
	screen := image.NewRGBA(image.Rect(0, 0, anim.Config.Width, anim.Config.Height))
	want := image.NewRGBA(screen.Rect)
	for i, k := range []int{0, 1, 2, 4} {
		draw.Draw(screen, anim.Image[i].Bounds(), anim.Image[i], anim.Image[i].Bounds().Min, draw.Over)
		drawFrame(want, frames[k], nil)
		q := Quantize(want, pal[:transparent])
		for j := range q.Pix {
			x, y := j%q.Stride, j/q.Stride
			if got, w := screen.RGBAAt(x, y), pal[q.Pix[j]].(color.RGBA); got != w {
				t.Fatalf("frame %d pixel (%d,%d): %v, want %v", i, x, y, got, w)
			}
		}
	}
	if _, err := ReplayGIF(nil); err == nil {
		t.Fatal("a replay without frames")
	}
}

// TestReplayGIFLoops: a replay plays again from the start after its last
// position is held, forever (issue #24, item 22: it played once and
// stopped). In a GIF that is the NETSCAPE2.0 application extension with a
// loop count of 0; image/gif writes it only for LoopCount >= 0, and
// decodes its absence as -1 (play once).
func TestReplayGIFLoops(t *testing.T) {
	sc := engine.Scene{W: 8, H: 8}
	p := Panel{Title: "test", Status: "move", Seats: []Seat{{Name: "Ana"}, {Name: "Bo"}}}
	frames := []ReplayFrame{{Scene: sc, Panel: p, Caption: "start"}}
	sc.Fill(engine.Rect(0, 0, 1, 1), engine.Red, engine.Color{}, 0)
	frames = append(frames, ReplayFrame{Scene: sc, Panel: p, Caption: "move 1"})
	data, err := ReplayGIF(frames)
	if err != nil {
		t.Fatal(err)
	}
	anim, err := gif.DecodeAll(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if anim.LoopCount != 0 {
		t.Fatalf("loop count %d, want 0 (loop forever)", anim.LoopCount)
	}
	// The extension as written: "NETSCAPE2.0", a 3-byte sub-block, 1,
	// then the count (little-endian 0: forever).
	if !bytes.Contains(data, []byte("NETSCAPE2.0\x03\x01\x00\x00")) {
		t.Fatal("no NETSCAPE2.0 extension looping forever in the file")
	}
}
