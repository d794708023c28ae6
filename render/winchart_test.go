package render

import (
	"bytes"
	"image/png"
	"testing"

	"tessera/engine"
	"tessera/picture"
)

// TestWinChart: a chart of two seats over a few moves (and of none, and
// of a game with no move) decodes as a PNG of the chart's size, and a
// seat's own colour is the colour of its line where it runs.
func TestWinChart(t *testing.T) {
	red := engine.Color{R: 200, G: 30, B: 30, A: 255}
	for name, c := range map[string]picture.WinChart{
		"two seats": {Title: "Closure · game #3 · chance of winning", Marks: []int{2, 5},
			Seats: []picture.ChartSeat{{Name: "ana", Color: red, Chance: []float64{0.5, 0.5, 0.5, 0.5, 0.5, 0.5}}, {Name: "bo", Chance: []float64{0.5, 0.6, 0.2, 0.3, 0.1, 0}}}},
		"no seat":  {Title: "empty"},
		"no moves": {Title: "start only", Seats: []picture.ChartSeat{{Name: "ana", Chance: []float64{1}}}},
	} {
		data, err := WinChartPNG(c)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b := img.Bounds(); b.Dx() != winW || b.Dy() != winH {
			t.Fatalf("%s: %v", name, b)
		}
		if name == "two seats" {
			// ana's flat line at 50%, three fifths of the way along.
			x, y := winLeft+(winW-winLeft-winRight)*6/10, winTop+(winH-winTop-winBottom)/2
			r, g, b, _ := img.At(x, y).RGBA()
			if r>>8 < 150 || g>>8 > 80 || b>>8 > 80 {
				t.Fatalf("at (%d, %d) the colour is %d,%d,%d, not ana's red", x, y, r>>8, g>>8, b>>8)
			}
		}
	}
}
