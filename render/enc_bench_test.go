package render

import (
	"bytes"
	"errors"
	"hash/adler32"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/klauspost/compress/flate"

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

// TestBandsSameBytes: a picture's PNG is the same bytes whether its bands
// of rows were kept from an earlier picture or not, on one core or two,
// and the encoder gives up with errTooLarge, having written nothing, on
// a limit the file reaches; the Up filter a word at a time gives the
// bytes of the filter byte by byte.
func TestBandsSameBytes(t *testing.T) {
	img := benchImage(t)
	encode := func(limit int) ([]byte, error) {
		var buf bytes.Buffer
		err := encodeRGBUnder(&buf, img, limit, rgbBandKeys(img))
		return buf.Bytes(), err
	}
	bandsKept.forget()
	fresh, err := encode(0)
	if err != nil {
		t.Fatal(err)
	}
	if kept, err := encode(0); err != nil || !bytes.Equal(kept, fresh) {
		t.Fatalf("with its bands kept: %v, or the bytes differ", err)
	}
	// A picture that differs in a few rows: its other bands are kept.
	img2 := image.NewRGBA(img.Bounds())
	copy(img2.Pix, img.Pix)
	for x := 100; x < 200; x++ {
		img2.Pix[300*img2.Stride+4*x] ^= 0x55
	}
	var withKept, without bytes.Buffer
	if err := encodeRGBUnder(&withKept, img2, 0, rgbBandKeys(img2)); err != nil {
		t.Fatal(err)
	}
	bandsKept.forget()
	old := runtime.GOMAXPROCS(1)
	err = encodeRGBUnder(&without, img2, 0, rgbBandKeys(img2))
	runtime.GOMAXPROCS(old)
	if err != nil || !bytes.Equal(withKept.Bytes(), without.Bytes()) {
		t.Fatalf("drawn from kept bands (%d bytes) and from none on one core (%d bytes): %v, or they differ", withKept.Len(), without.Len(), err)
	}
	if dec, err := png.Decode(bytes.NewReader(without.Bytes())); err != nil || firstDiff(toRGBA(dec), img2) >= 0 {
		t.Fatalf("the PNG does not decode to the picture: %v", err)
	}
	for _, kept := range []bool{false, true} {
		if !kept {
			bandsKept.forget()
		}
		if got, err := encode(len(fresh) / 2); err != errTooLarge || len(got) != 0 {
			t.Fatalf("limit %d on a file of %d (bands kept %v): %v, %d bytes written", len(fresh)/2, len(fresh), kept, err, len(got))
		}
	}
	if got, err := encode(len(fresh) + 1); err != nil || !bytes.Equal(got, fresh) {
		t.Fatalf("a limit one past the file's size: %v", err)
	}
	// The filter against the obvious one, on every pair of byte values.
	src, up := make([]byte, 4*256), make([]byte, 4*256)
	for a := 0; a < 256; a++ {
		for i := range 256 {
			src[4*i], src[4*i+1], src[4*i+2], src[4*i+3] = byte(a), byte(i), byte(a^i), byte(i*7)
			up[4*i], up[4*i+1], up[4*i+2], up[4*i+3] = byte(i), byte(a), byte(i*3), byte(a)
		}
		dst := make([]byte, 3*256)
		upFilter(dst, src, up)
		for i := range 256 {
			for c := 0; c < 3; c++ {
				if want := src[4*i+c] - up[4*i+c]; dst[3*i+c] != want {
					t.Fatalf("upFilter: %d - %d gave %d, want %d", src[4*i+c], up[4*i+c], dst[3*i+c], want)
				}
			}
		}
	}
}

// TestEncodeStream: encodeStream on one core writes the file whose rows,
// filtered as encodeRGB filters them, are one deflate stream (the encoder
// before the bands, on one core), and it decodes to the picture.
func TestEncodeStream(t *testing.T) {
	img := benchImage(t)
	var rows []byte
	row := make([]byte, 1+3*img.Bounds().Dx())
	for y := 0; y < img.Bounds().Dy(); y++ {
		rgbRow(img, y, row)
		rows = append(rows, row...)
	}
	var z bytes.Buffer
	fw, _ := flate.NewWriter(&z, flate.BestSpeed)
	fw.Write(rows)
	fw.Close()
	old := runtime.GOMAXPROCS(1)
	var got bytes.Buffer
	err := encodeStream(&got, img)
	runtime.GOMAXPROCS(old)
	if want := pngOverhead(nil) + z.Len(); err != nil || got.Len() != want {
		t.Fatalf("encodeStream: %v, %d bytes, want %d", err, got.Len(), want)
	}
	if dec, err := png.Decode(&got); err != nil || firstDiff(toRGBA(dec), img) >= 0 {
		t.Fatalf("the PNG does not decode to the picture: %v", err)
	}
}

func toRGBA(im image.Image) *image.RGBA {
	out := image.NewRGBA(im.Bounds())
	draw.Draw(out, out.Bounds(), im, im.Bounds().Min, draw.Src)
	return out
}

// TestOpaque: one pixel not fully opaque, anywhere (the last of a row of
// odd width included), makes the rows' filter and the palette's count
// report a picture not opaque.
func TestOpaque(t *testing.T) {
	opaque := func(img *image.RGBA) (filtered, counted bool) {
		filtered = true
		row := make([]byte, 1+3*img.Bounds().Dx())
		for y := 0; y < img.Bounds().Dy(); y++ {
			filtered = rgbRow(img, y, row) && filtered
		}
		return filtered, new(colourTable).count(img, nil, false)
	}
	for _, w := range []int{1, 2, 3, 7, 8} {
		img := image.NewRGBA(image.Rect(0, 0, w, 3))
		for i := range img.Pix {
			img.Pix[i] = 255
		}
		if f, c := opaque(img); !f || !c {
			t.Fatalf("width %d: an opaque picture is not opaque (filter %v, count %v)", w, f, c)
		}
		for y := 0; y < 3; y++ {
			for x := 0; x < w; x++ {
				img.Pix[y*img.Stride+4*x+3] = 254
				if f, c := opaque(img); f || c {
					t.Fatalf("width %d: pixel %d,%d at alpha 254 is opaque (filter %v, count %v)", w, x, y, f, c)
				}
				img.Pix[y*img.Stride+4*x+3] = 255
			}
		}
	}
}

// TestEncodeNotOpaque: a picture with a pixel not fully opaque is written
// by image/png, wherever the pixel is: in the first rows, in the last
// (after the truecolour file of a noisy picture reached the size limit,
// where the palette's count finds it), or in a run of one colour (of a
// picture of more than 256 colours, each a row: one of at most 256 is
// written with its own palette, alpha included, before any other check).
func TestEncodeNotOpaque(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	noisy := image.NewRGBA(image.Rect(0, 0, Width, 200)) // 4 bands, 2 of them past the limit
	for i := range noisy.Pix {
		noisy.Pix[i] = byte(r.Uint32())
		if i%4 == 3 {
			noisy.Pix[i] = 255
		}
	}
	flat := image.NewRGBA(image.Rect(0, 0, Width, 300)) // a colour a row
	for i := range flat.Pix {
		flat.Pix[i] = byte(i / flat.Stride)
		if i%4 == 2 {
			flat.Pix[i] = byte(i / flat.Stride / 256)
		}
		if i%4 == 3 {
			flat.Pix[i] = 255
		}
	}
	for name, img := range map[string]*image.RGBA{"noisy": noisy, "flat": flat} {
		h := img.Bounds().Dy()
		for _, at := range []image.Point{{0, 0}, {5, 1}, {Width - 1, h / 2}, {Width / 2, h - 1}, {Width - 1, h - 1}} {
			i := img.PixOffset(at.X, at.Y) + 3
			img.Pix[i] = 128
			got, err := Encode(img)
			if err != nil {
				t.Fatal(err)
			}
			var want bytes.Buffer
			if err := encoder.Encode(&want, img); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want.Bytes()) {
				t.Errorf("%s picture, pixel %v at alpha 128: not image/png's file", name, at)
			}
			// Each way on its own refuses it, whichever Encode took.
			if err := encodeOwnPalette(io.Discard, img, rgbBandKeys(img), true); !errors.Is(err, errNotOpaque) {
				t.Errorf("%s picture, pixel %v at alpha 128: the palette's answer %v", name, at, err)
			}
			if err := encodeRGB(io.Discard, img); !errors.Is(err, errNotOpaque) {
				t.Errorf("%s picture, pixel %v at alpha 128: the truecolour answer %v", name, at, err)
			}
			img.Pix[i] = 255
		}
	}
}

func BenchmarkUpFilter(b *testing.B) {
	img := benchImage(b)
	row := make([]byte, 1+3*img.Bounds().Dx())
	for b.Loop() {
		for y := 0; y < img.Bounds().Dy(); y++ {
			rgbRow(img, y, row)
		}
	}
}

// TestToPaletted: a picture of at most 256 colours (white and black
// among them, and colours seen again after others) is copied with its
// colours in the order first seen, and one of 257 is not.
func TestToPaletted(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 16, 20))
	var want color.Palette
	for i := 0; i < 256; i++ {
		c := color.RGBA{uint8(i), uint8(255 - i), uint8(i * 7), uint8(255 - i%3)}
		switch i {
		case 0:
			c = color.RGBA{255, 255, 255, 255}
		case 1:
			c = color.RGBA{0, 0, 0, 255}
		case 2:
			c = color.RGBA{0, 0, 0, 0}
		}
		want = append(want, c)
		img.SetRGBA(i%16, i/16, c)
	}
	for i := 256; i < 320; i++ { // seen before
		img.SetRGBA(i%16, i/16, want[(i*37)%256].(color.RGBA))
	}
	p := toPaletted(img)
	if p == nil {
		t.Fatal("256 colours: no paletted copy")
	}
	if len(p.Palette) != 256 {
		t.Fatalf("%d colours in the palette, want 256", len(p.Palette))
	}
	for i, c := range want {
		if p.Palette[i] != c {
			t.Fatalf("entry %d is %v, want %v", i, p.Palette[i], c)
		}
	}
	for y := 0; y < 20; y++ {
		for x := 0; x < 16; x++ {
			if got := p.Palette[p.ColorIndexAt(x, y)]; got != img.RGBAAt(x, y) {
				t.Fatalf("pixel %d,%d is %v, want %v", x, y, got, img.RGBAAt(x, y))
			}
		}
	}
	img.SetRGBA(15, 19, color.RGBA{1, 2, 3, 4})
	if toPaletted(img) != nil {
		t.Fatal("257 colours: a paletted copy")
	}
}
