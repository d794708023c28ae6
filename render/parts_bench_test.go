package render

import (
	"bytes"
	"fmt"
	"image"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/klauspost/compress/flate"

	"tessera/engine"
	"tessera/engine/elemental"
)

// processCPU is the CPU time (user and system) this process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkLateBoardParts times, part by part, the board of a late
// Elemental move drawn as the first of its game in the process (as
// service's BenchmarkMovePipelineCPU draws it): 20 games dealt and
// played as that benchmark plays them (57 moves in), the board drawn on
// the kind's start, and written as BoardOn writes it. An op is one board;
// each part's CPU is reported per board (ms). Beside what the encoder
// does ("truecolour": the bands compressed until the file reaches the
// limit, in the order the last board's sizes give), "least-truecolour"
// is what learning that the file is too large would cost with each
// band's size known in advance: its largest bands compressed, and no
// more than reach the limit. It is the least any encoder that decides as
// Encode decides (by the truecolour file's size) can spend on it, since
// a band's compressed size is known only by compressing it.
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
		c0 := processCPU()
		f()
		*d += processCPU() - c0
	}
	var pix []uint8
	next := 0
	for b.Loop() {
		bd := boards[next%len(boards)]
		next++
		b.StopTimer()
		forgetRecent()
		t, boardH, h := boardLayout(bd.sc, bd.p)
		img := imageFor(h)
		sizes := trueBandSizes(b, bd.sc, bd.p) // drawn and compressed on the side
		b.StartTimer()

		timed(&parts.draw, func() { drawBoardOn(img, bd.base, bd.sc, bd.p, t, boardH) })
		var keys []bandKey
		timed(&parts.keys, func() { keys = rgbBandKeys(img) })
		timed(&parts.truecolour, func() {
			var buf bytes.Buffer
			if err := encodeRGBUnder(&buf, img, MaxPictureBytes+bandSlack, keys); err != errTooLarge {
				b.Fatalf("a late board's truecolour file is not too large: %v", err)
			}
		})
		timed(&parts.least, func() { compressLargestBands(b, img, sizes, MaxPictureBytes+bandSlack) })
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

// imageFor is a board's picture h rows high, from the pool as BoardOn
// takes it.
func imageFor(h int) *image.RGBA {
	if old := imagePool.get(); old != nil && cap(old.Pix) >= 4*Width*h {
		return &image.RGBA{Pix: old.Pix[:4*Width*h], Stride: 4 * Width, Rect: image.Rect(0, 0, Width, h)}
	}
	return image.NewRGBA(image.Rect(0, 0, Width, h))
}

// trueBandSizes is the compressed size of each truecolour band of the
// board (sc, p), as encodeRows compresses it.
func trueBandSizes(b *testing.B, sc engine.Scene, p Panel) []int {
	img, _ := BoardImage(sc, p)
	rgba := img.(*image.RGBA)
	nb := (rgba.Bounds().Dy() + bandRows - 1) / bandRows
	sizes := make([]int, nb)
	for i := range sizes {
		sizes[i] = len(compressBand(b, rgba, i))
	}
	return sizes
}

// compressLargestBands compresses img's truecolour bands largest first
// (by sizes) until they and the file's overhead reach limit.
func compressLargestBands(b *testing.B, img *image.RGBA, sizes []int, limit int) {
	order := make([]int, len(sizes))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int { return sizes[y] - sizes[x] })
	total := pngOverhead(nil)
	for _, i := range order {
		total += len(compressBand(b, img, i))
		if total >= limit {
			return
		}
	}
	b.Fatal("the bands do not reach the limit")
}

// compressBand is truecolour band i of img compressed as encodeRows
// compresses it.
func compressBand(b *testing.B, img *image.RGBA, i int) []byte {
	height := img.Bounds().Dy()
	stride := 1 + 3*img.Bounds().Dx()
	y0, y1 := i*bandRows, min((i+1)*bandRows, height)
	data := make([]byte, (y1-y0)*stride)
	for y := y0; y < y1; y++ {
		rgbRow(img, y, data[(y-y0)*stride:(y-y0+1)*stride])
	}
	var out bytes.Buffer
	fw := flatePool.get()
	var err error
	if fw == nil {
		fw, err = flate.NewWriter(&out, flate.BestSpeed)
	} else {
		fw.Reset(&out)
	}
	if err != nil {
		b.Fatal(err)
	}
	defer flatePool.put(fw)
	fw.Write(data)
	if y1 == height {
		err = fw.Close()
	} else {
		err = fw.Flush()
	}
	if err != nil {
		b.Fatal(err)
	}
	return out.Bytes()
}
