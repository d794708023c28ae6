package chrome_test

import (
	"image/color"
	"testing"

	"tessera/internal/chrome"
)

func TestMain(m *testing.M) { chrome.Main(m) }

// TestRasterize: a red square on white comes back red where it is and
// white elsewhere, at the size asked for, pixel for pixel (no scaling, no
// colour profile).
func TestRasterize(t *testing.T) {
	doc := []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30" viewBox="0 0 40 30"><path fill="#d83a2e" d="M10 10h20v10H10Z"/></svg>`)
	img := chrome.Rasterize(t, "", doc, 40, 30)
	for _, tc := range []struct {
		x, y int
		want color.NRGBA
	}{
		{20, 15, color.NRGBA{0xd8, 0x3a, 0x2e, 255}}, // inside the square
		{5, 5, color.NRGBA{255, 255, 255, 255}},      // outside it: the page
		{35, 25, color.NRGBA{255, 255, 255, 255}},
	} {
		if got := color.NRGBAModel.Convert(img.At(tc.x, tc.y)).(color.NRGBA); got != tc.want {
			t.Errorf("pixel (%d, %d) = %v, want %v", tc.x, tc.y, got, tc.want)
		}
	}
}

// TestTabsShareOneBrowser: two tabs of one test binary work side by side.
func TestTabsShareOneBrowser(t *testing.T) {
	for i := 0; i < 2; i++ {
		img := chrome.Rasterize(t, "", []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><path d="M0 0h4v4H0Z"/></svg>`), 4, 4)
		if r, _, _, _ := img.At(2, 2).RGBA(); r != 0 {
			t.Fatalf("tab %d: the black square is not black", i)
		}
	}
}
