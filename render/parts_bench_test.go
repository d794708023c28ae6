package render

import (
	"bytes"
	"fmt"
	"io"
	"testing"
	"time"

	"tessera/engine"
	"tessera/engine/elemental"
	"tessera/internal/cputime"
)

// BenchmarkLateBoardParts times, part by part, the board of a late
// Elemental move drawn as the first of its game in the process (as
// service's BenchmarkMovePipelineCPU draws it): 20 games dealt and
// played as that benchmark plays them (57 moves in), the board drawn on
// the kind's start, and written as BoardOn writes it. An op is one board;
// each part's CPU is reported per board (ms). Beside what the encoder
// does ("truecolour": the bands compressed until the file reaches the
// limit, largest first as the last board's sizes give), "least-truecolour"
// is the same encoder given this board's own band sizes as that order:
// its largest bands compressed, and no more than reach the limit. It is
// about the least any encoder that decides as Encode decides (by the
// truecolour file's size) can spend on it, since a band's compressed
// size is known only by compressing it.
func BenchmarkLateBoardParts(b *testing.B) {
	type late struct {
		base, sc engine.Scene
		p        Panel
	}
	var boards []late
	for seed := uint64(1); seed <= 20; seed++ {
		setup := engine.Setup{Game: elemental.ID, Players: 2, Seed: seed, Options: map[string]string{"borders": "RBGY"}}
		st, err := engine.New(setup)
		if err != nil {
			b.Fatal(err)
		}
		start := st.Board()
		for i := 0; i < 57; i++ {
			l := st.Legal()
			if _, err := st.Apply(l[(i*31)%len(l)]); err != nil {
				b.Fatal(err)
			}
		}
		boards = append(boards, late{start, st.Board(), NewPanel(fmt.Sprintf("elemental · game #%d", seed), st.View(engine.NoSeat), []string{"Ana", "Bo"})})
	}
	var parts struct{ draw, keys, truecolour, least, palette, file time.Duration }
	timed := func(d *time.Duration, f func()) {
		c0 := cputime.Used()
		f()
		*d += cputime.Used() - c0
	}
	var pix []uint8
	next := 0
	for b.Loop() {
		bd := boards[next%len(boards)]
		next++
		b.StopTimer()
		forgetRecent()
		t, boardH, h := boardLayout(bd.sc, bd.p)
		img := pooledImage(h)
		b.StartTimer()

		timed(&parts.draw, func() { drawBoardOn(img, bd.base, bd.sc, bd.p, t, boardH) })
		var keys []bandKey
		timed(&parts.keys, func() { keys = rgbBandKeys(img) })
		truecolour := func() {
			var buf bytes.Buffer
			if err := encodeRGBUnder(&buf, img, MaxPictureBytes+bandSlack, keys); err != errTooLarge {
				b.Fatalf("a late board's truecolour file is not too large: %v", err)
			}
		}
		timed(&parts.truecolour, truecolour)

		// This board's band sizes, from its whole file (untimed), as the
		// order the encoder compresses in; nothing kept or remembered.
		b.StopTimer()
		bandsKept.forget()
		if err := encodeRGBUnder(io.Discard, img, 0, keys); err != nil {
			b.Fatal(err)
		}
		sizes := make([]int, len(keys))
		for i, k := range keys {
			sizes[i] = len(bandsKept.get(k).data)
		}
		bandsKept.forget()
		bandSizes.forget()
		bandPrior.Lock()
		bandPrior.m[priorKey{Width, h, 3 * Width, bandRows}] = sizes
		bandPrior.Unlock()
		b.StartTimer()
		timed(&parts.least, truecolour)

		if cap(pix) < len(img.Pix)/4 {
			pix = make([]uint8, len(img.Pix)/4)
		}
		pix = pix[:len(img.Pix)/4]
		var pal []byte
		timed(&parts.palette, func() {
			for _, c := range quantizeOwn(img, 256, pix, keys, false) {
				r, g, bl, _ := c.RGBA()
				pal = append(pal, byte(r>>8), byte(g>>8), byte(bl>>8))
			}
		})
		timed(&parts.file, func() {
			var buf bytes.Buffer
			if err := encodePalettedPix(&buf, Width, h, pix, Width, pal); err != nil {
				b.Fatal(err)
			}
		})
		imagePool.put(img)
	}
	per := func(d time.Duration) float64 { return float64(d) / float64(b.N) / 1e6 }
	b.ReportMetric(per(parts.draw), "draw-ms")
	b.ReportMetric(per(parts.keys), "keys-ms")
	b.ReportMetric(per(parts.truecolour), "truecolour-ms")
	b.ReportMetric(per(parts.least), "least-truecolour-ms")
	b.ReportMetric(per(parts.palette), "palette-ms")
	b.ReportMetric(per(parts.file), "paletted-file-ms")
}
