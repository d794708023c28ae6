package svg_test

import (
	"testing"

	"tessera/engine"
	"tessera/svg"
)

// BenchmarkBoard draws each game's late board with its panel, as a page
// (or its scrubbing) asks for it; bytes/op is the picture's size.
func BenchmarkBoard(b *testing.B) {
	r := svg.New()
	for _, g := range engine.Games() {
		st := late(b, g)
		sc, p := st.Board(), panelOf(g, st)
		b.Run(g.ID, func(b *testing.B) {
			b.ReportAllocs()
			var n int
			for b.Loop() {
				doc, err := r.Board(sc, p)
				if err != nil {
					b.Fatal(err)
				}
				n = len(doc)
			}
			b.ReportMetric(float64(n), "svg-bytes")
		})
	}
}

// BenchmarkBoardOnly is the board alone, as the game page inlines it.
func BenchmarkBoardOnly(b *testing.B) {
	r := svg.New()
	for _, g := range engine.Games() {
		sc := late(b, g).Board()
		b.Run(g.ID, func(b *testing.B) {
			b.ReportAllocs()
			var n int
			for b.Loop() {
				doc, err := r.BoardOnly(sc)
				if err != nil {
					b.Fatal(err)
				}
				n = len(doc)
			}
			b.ReportMetric(float64(n), "svg-bytes")
		})
	}
}
