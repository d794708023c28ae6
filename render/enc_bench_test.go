package render

import (
	"bytes"
	"hash/adler32"
	"image"
	"image/png"
	"testing"

	"tessera/engine"
	"tessera/engine/elemental"
)

func benchImage(b testing.TB) *image.RGBA {
	st, _ := engine.New(engine.Setup{Game: elemental.ID, Players: 2, Seed: 3})
	for i := 0; i < 60; i++ {
		l := st.Legal()
		st.Apply(l[(i*13)%len(l)])
	}
	img, _ := BoardImage(st.Board(), NewPanel("x", st.View(engine.NoSeat), nil))
	return img.(*image.RGBA)
}

func BenchmarkEncodeStd(b *testing.B) {
	img := benchImage(b)
	var n int
	for b.Loop() {
		var buf bytes.Buffer
		(&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img)
		n = buf.Len()
	}
	b.ReportMetric(float64(n), "bytes")
}

func BenchmarkEncodeUp(b *testing.B) {
	img := benchImage(b)
	var n int
	for b.Loop() {
		var buf bytes.Buffer
		encodeRGB(&buf, img)
		n = buf.Len()
	}
	b.ReportMetric(float64(n), "bytes")
}

// TestEncodeRGBLossless: the fast encoder's PNG decodes (with image/png)
// to exactly the drawn picture, pixel for pixel.
func TestEncodeRGBLossless(t *testing.T) {
	img := benchImage(t)
	var buf bytes.Buffer
	if err := encodeRGB(&buf, img); err != nil {
		t.Fatal(err)
	}
	dec, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if dec.Bounds() != img.Bounds() {
		t.Fatalf("bounds %v, want %v", dec.Bounds(), img.Bounds())
	}
	for y := 0; y < img.Bounds().Dy(); y++ {
		for x := 0; x < img.Bounds().Dx(); x++ {
			r1, g1, b1, a1 := img.At(x, y).RGBA()
			r2, g2, b2, a2 := dec.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				t.Fatalf("pixel %d,%d differs", x, y)
			}
		}
	}
}

func TestAdler32Combine(t *testing.T) {
	data := bytes.Repeat([]byte("tessera tiles \xff\x00"), 9000)
	for _, cut := range []int{0, 1, 65521, 70000, len(data)} {
		got := adler32Combine(adler32.Checksum(data[:cut]), adler32.Checksum(data[cut:]), len(data)-cut)
		if want := adler32.Checksum(data); got != want {
			t.Fatalf("cut %d: %08x, want %08x", cut, got, want)
		}
	}
}
