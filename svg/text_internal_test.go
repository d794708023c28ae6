package svg

import (
	"testing"

	"github.com/golang/freetype/truetype"
	ximage "golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
)

// TestAdvancesAreTheGoFonts: the widths the panel's layout measures with
// are the Go fonts' own (those render embeds), to a thousandth of an em,
// for every character the table holds, so that a panel wraps and
// shortens its lines as render's does.
func TestAdvancesAreTheGoFonts(t *testing.T) {
	for b, ttf := range [][]byte{goregular.TTF, gobold.TTF} {
		ft, err := truetype.Parse(ttf)
		if err != nil {
			t.Fatal(err)
		}
		face := truetype.NewFace(ft, &truetype.Options{Size: 1000, DPI: 72, Hinting: ximage.HintingNone})
		want := func(r rune) uint16 {
			a, ok := face.GlyphAdvance(r)
			if !ok {
				t.Fatalf("the font has no %q", r)
			}
			return uint16((a + 32) / 64)
		}
		for r := rune(' '); r <= '~'; r++ {
			if got := advances[b][r-' ']; got != want(r) {
				t.Errorf("bold %v, %q: %d, the font says %d", b == 1, r, got, want(r))
			}
		}
		for r, a := range otherAdvances {
			if a[b] != want(r) {
				t.Errorf("bold %v, %q: %d, the font says %d", b == 1, r, a[b], want(r))
			}
		}
	}
}
