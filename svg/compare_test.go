package svg_test

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"

	"tessera/engine"
	"tessera/internal/chrome"
	"tessera/render"
	"tessera/svg"
)

func TestMain(m *testing.M) { chrome.Main(m) }

// goFonts is a style sheet with the Go fonts (regular and bold), which
// svg names first in font-family: a user's browser has them rarely and
// sets Arial or Helvetica (the same metrics) instead, this machine only
// DejaVu Sans (wider).
var goFonts = "<style>" +
	"@font-face{font-family:Go;font-weight:normal;src:url(data:font/ttf;base64," + base64.StdEncoding.EncodeToString(goregular.TTF) + ")}" +
	"@font-face{font-family:Go;font-weight:bold;src:url(data:font/ttf;base64," + base64.StdEncoding.EncodeToString(gobold.TTF) + ")}" +
	"</style>"

// The SVG is drawn by a browser, the PNG by render/ with gg. The page
// gives the browser the Go fonts render embeds (goFonts), so the texts
// are the same glyphs at the same places; but the anti-aliasing differs
// at every edge and the glyphs are rasterised differently (hinting,
// gamma). So the pictures are compared by their statistics, not pixel
// for pixel:
//   - the mean absolute difference over every channel of every pixel is at
//     most maxMeanDiff (out of 255);
//   - at least minClose of the pixels are within closeDiff on each
//     channel: the flat areas (cells, ground, panel) match but for
//     rounding, edges and glyphs may not.
//
// Measured (Chromium 148, the late positions of late()): a mean of 1.0 to
// 1.8 and 95.0% to 97.0% of pixels close; the same SVG moved by 3 pixels
// right and down gives a mean of 14 to 20 and 76% to 84% close, so a
// shape out of place by a few pixels, a wrong colour or a missing layer
// fails.
const (
	maxMeanDiff = 3.0
	closeDiff   = 8
	minClose    = 0.92
)

// TestSVGMatchesPNG draws each game's late board with its panel both
// ways, the SVG rasterised by Chromium at the PNG's size, and compares
// them. With TESSERA_COMPARE_DIR set it writes both pictures there.
func TestSVGMatchesPNG(t *testing.T) {
	r := svg.New()
	for _, g := range engine.Games() {
		t.Run(g.ID, func(t *testing.T) {
			st := late(t, g)
			sc, p := st.Board(), panelOf(g, st)
			data, err := render.Board(sc, p)
			if err != nil {
				t.Fatal(err)
			}
			want, err := png.Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			doc, err := r.Board(sc, p)
			if err != nil {
				t.Fatal(err)
			}
			b := want.Bounds()
			got := chrome.Rasterize(t, goFonts, doc, b.Dx(), b.Dy())
			if dir := os.Getenv("TESSERA_COMPARE_DIR"); dir != "" {
				save(t, filepath.Join(dir, g.ID+"-png.png"), want)
				save(t, filepath.Join(dir, g.ID+"-svg.png"), got)
			}
			mean, close := compare(want, got)
			t.Logf("%s: mean difference %.2f a channel, %.1f%% of pixels within ±%d", g.ID, mean, 100*close, closeDiff)
			if mean > maxMeanDiff || close < minClose {
				t.Errorf("%s: the SVG differs from the PNG: mean %.2f (at most %.1f), %.1f%% of pixels close (at least %.0f%%)", g.ID, mean, maxMeanDiff, 100*close, 100*minClose)
			}
		})
	}
}

// compare returns the mean absolute difference of a and b's channels
// (red, green, blue; both opaque) and the share of pixels whose every
// channel is within closeDiff.
func compare(a, b image.Image) (mean, close float64) {
	pa, pb := rgba(a), rgba(b)
	var sum, near, n int
	for i := 0; i+3 < len(pa.Pix) && i+3 < len(pb.Pix); i += 4 {
		d0, d1, d2 := abs(int(pa.Pix[i])-int(pb.Pix[i])), abs(int(pa.Pix[i+1])-int(pb.Pix[i+1])), abs(int(pa.Pix[i+2])-int(pb.Pix[i+2]))
		sum += d0 + d1 + d2
		if max(d0, d1, d2) <= closeDiff {
			near++
		}
		n++
	}
	return float64(sum) / float64(3*n), float64(near) / float64(n)
}

// rgba is img as an RGBA picture from (0, 0).
func rgba(img image.Image) *image.RGBA {
	out := image.NewRGBA(image.Rect(0, 0, img.Bounds().Dx(), img.Bounds().Dy()))
	draw.Draw(out, out.Bounds(), img, img.Bounds().Min, draw.Src)
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func save(t *testing.T, path string, img image.Image) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
