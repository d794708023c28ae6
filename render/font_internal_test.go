package render

import (
	"runtime"
	"testing"

	"github.com/golang/freetype/truetype"
	"golang.org/x/image/font"
)

// TestCapHeightWithoutAFace: the capital height read from the glyph's
// outline is the one a face of size 1000 reports (a face with a one-glyph
// cache, so the test itself stays small), for both fonts, and reading it
// allocates under a megabyte, where the face at size 1000 with its
// default cache took about 850 MB a font (issue #50).
func TestCapHeightWithoutAFace(t *testing.T) {
	loadFonts()
	for _, f := range []struct {
		name string
		ft   *truetype.Font
		got  float64
	}{{"regular", regular, regularCap}, {"bold", bold, boldCap}} {
		face := truetype.NewFace(f.ft, &truetype.Options{Size: 1000, DPI: 72, Hinting: font.HintingNone, GlyphCacheEntries: 1})
		b, _, ok := face.GlyphBounds('H')
		if !ok {
			t.Fatalf("%s: no H", f.name)
		}
		if want := float64(b.Max.Y-b.Min.Y) / 64 / 1000; f.got != want || want < 0.6 || want > 0.8 {
			t.Fatalf("%s: cap height %v, want %v (about 0.7)", f.name, f.got, want)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		capHeight(f.ft)
		runtime.ReadMemStats(&after)
		if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
			t.Fatalf("%s: measuring the cap height allocated %d bytes", f.name, n)
		}
	}
}
