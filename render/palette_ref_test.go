package render

import (
	"fmt"
	"image"
	"image/color"
	"slices"
	"testing"

	"tessera/engine"
)

// The palette's first implementation (a Go map per run, every box measured
// again at every cut, every entry scanned for every colour), kept as the
// reference the faster one must agree with, tie for tie.

func refPalette(img *image.RGBA, n int) color.Palette {
	counts := refHistogram(img)
	all := make([]colorCount, 0, len(counts))
	for c, k := range counts {
		all = append(all, colorCount{c: c, n: k})
	}
	// Most frequent first; equal counts by colour, so the palette does not
	// depend on map order.
	slices.SortFunc(all, func(a, b colorCount) int {
		if a.n != b.n {
			return b.n - a.n
		}
		return int(a.c) - int(b.c)
	})
	pal := make(color.Palette, 0, n)
	if len(all) <= n {
		for _, x := range all {
			pal = append(pal, rgb(x.c))
		}
		return pal
	}
	exact := min(exactShare*n/256, n-1)
	for _, x := range all[:exact] {
		pal = append(pal, rgb(x.c))
	}
	for _, box := range refMedianCut(all[exact:], n-exact) {
		pal = append(pal, box)
	}
	return pal
}

func refHistogram(img *image.RGBA) map[uint32]int {
	b := img.Bounds()
	counts := make(map[uint32]int, 4096)
	// A board is mostly runs of one colour: a run is counted with one
	// map update instead of one per pixel.
	run, last := 0, uint32(0)
	for y := 0; y < b.Dy(); y++ {
		row := img.Pix[y*img.Stride : y*img.Stride+4*b.Dx()]
		for i := 0; i < len(row); i += 4 {
			c := uint32(row[i])<<16 | uint32(row[i+1])<<8 | uint32(row[i+2])
			if run > 0 && c == last {
				run++
				continue
			}
			if run > 0 {
				counts[last] += run
			}
			last, run = c, 1
		}
	}
	if run > 0 {
		counts[last] += run
	}
	return counts
}

// medianCut splits the colours into at most k boxes, each time cutting the
// box with the widest channel range at its weighted median, and returns
// each box's weighted mean.
func refMedianCut(cs []colorCount, k int) []color.Color {
	boxes := [][]colorCount{cs}
	for len(boxes) < k {
		bi, bch, bw := -1, 0, 0
		for i, box := range boxes {
			if len(box) < 2 {
				continue
			}
			for ch := 0; ch < 3; ch++ {
				lo, hi := 255, 0
				for _, x := range box {
					v := channel(x.c, ch)
					lo, hi = min(lo, v), max(hi, v)
				}
				if hi-lo > bw {
					bi, bch, bw = i, ch, hi-lo
				}
			}
		}
		if bi < 0 {
			break
		}
		box := boxes[bi]
		slices.SortFunc(box, func(a, b colorCount) int {
			if d := channel(a.c, bch) - channel(b.c, bch); d != 0 {
				return d
			}
			return int(a.c) - int(b.c)
		})
		total := 0
		for _, x := range box {
			total += x.n
		}
		cut, acc := 1, 0
		for i, x := range box[:len(box)-1] {
			acc += x.n
			cut = i + 1
			if 2*acc >= total {
				break
			}
		}
		boxes[bi] = box[:cut]
		boxes = append(boxes, box[cut:])
	}
	out := make([]color.Color, 0, len(boxes))
	for _, box := range boxes {
		var r, g, b, w int
		for _, x := range box {
			r += channel(x.c, 0) * x.n
			g += channel(x.c, 1) * x.n
			b += channel(x.c, 2) * x.n
			w += x.n
		}
		out = append(out, color.RGBA{uint8((r + w/2) / w), uint8((g + w/2) / w), uint8((b + w/2) / w), 255})
	}
	return out
}

// Quantize maps every pixel of img to the nearest colour of pal (squared
// distance; each distinct colour is looked up once).
func refQuantize(img *image.RGBA, pal color.Palette) *image.Paletted {
	b := img.Bounds()
	out := image.NewPaletted(b, pal)
	near := make(map[uint32]uint8, 4096)
	last, lastI, have := uint32(0), uint8(0), false // a run of one colour is looked up once
	for y := 0; y < b.Dy(); y++ {
		row := img.Pix[y*img.Stride : y*img.Stride+4*b.Dx()]
		orow := out.Pix[y*out.Stride:]
		for x := 0; x < b.Dx(); x++ {
			c := uint32(row[4*x])<<16 | uint32(row[4*x+1])<<8 | uint32(row[4*x+2])
			if have && c == last {
				orow[x] = lastI
				continue
			}
			i, ok := near[c]
			if !ok {
				i = refNearest(pal, c)
				near[c] = i
			}
			orow[x] = i
			last, lastI, have = c, i, true
		}
	}
	return out
}

func refNearest(pal color.Palette, c uint32) uint8 {
	r, g, b := channel(c, 0), channel(c, 1), channel(c, 2)
	best, bd := 0, 1<<30
	for i, p := range pal {
		q := p.(color.RGBA)
		dr, dg, db := r-int(q.R), g-int(q.G), b-int(q.B)
		if d := dr*dr + dg*dg + db*db; d < bd {
			best, bd = i, d
		}
	}
	return uint8(best)
}

// TestPaletteSameAsReference: Palette, Quantize, quantizeOwn and histogram
// give what the first implementation gave (the same palette in the same
// order, every pixel the same index), on a board of every game at several
// stages, on the replay's two pictures stacked, and with palettes of
// random colours (many ties of distance).
func TestPaletteSameAsReference(t *testing.T) {
	all := positions(t)
	names := make([]string, 0, len(all))
	for name := range all {
		names = append(names, name)
	}
	slices.Sort(names)
	r := engine.NewRand(50)
	checked := 0
	for k, name := range names {
		if testing.Short() && k%3 != 0 {
			continue
		}
		st := all[name]
		img, _ := boardImage(st.Board(), NewPanel(name, st.View(engine.NoSeat), []string{"Ana", "Bo", "Cy"}), false)
		for _, n := range []int{256, 32, 255} {
			want, got := refPalette(img, n), Palette(img, n)
			if !slices.Equal(want, got) {
				t.Fatalf("%s: Palette(%d) differs from the reference's", name, n)
			}
			samePixels(t, fmt.Sprintf("%s: Quantize(own %d)", name, n), Quantize(img, got), refQuantize(img, want))
			pix := make([]uint8, len(img.Pix)/4)
			if own := quantizeOwn(img, n, pix, nil, false); !slices.Equal(own, want) || !slices.Equal(pix, refQuantize(img, want).Pix) {
				t.Fatalf("%s: quantizeOwn(%d) differs from the reference's", name, n)
			}
		}
		// A palette of random colours, some repeated, some coarse (ties).
		pal := randomPalette(&r, 5, 64, 17)
		samePixels(t, name+": Quantize(random palette)", Quantize(img, pal), refQuantize(img, pal))
		h, want := histogram(img), refHistogram(img)
		if len(h) != len(want) {
			t.Fatalf("%s: %d colours counted, want %d", name, len(h), len(want))
		}
		for c, n := range want {
			if h[c] != n {
				t.Fatalf("%s: colour %06x counted %d times, want %d", name, c, h[c], n)
			}
		}
		checked++
	}
	if checked < 25 {
		t.Fatalf("only %d boards checked", checked)
	}
}

// randomPalette is a palette of 1 to 256 random opaque colours: every
// third on a coarse grid of levels steps of step (so that entries tie),
// and every repeat-th given twice.
func randomPalette(r *engine.Rand, levels, step, repeat int) color.Palette {
	pal := color.Palette{}
	for i := 0; i < 1+r.IntN(256); i++ {
		c := color.RGBA{uint8(r.IntN(256)), uint8(r.IntN(256)), uint8(r.IntN(256)), 255}
		if i%3 == 0 {
			c = color.RGBA{uint8(r.IntN(levels) * step), uint8(r.IntN(levels) * step), uint8(r.IntN(levels) * step), 255}
		}
		pal = append(pal, c)
		if i%repeat == 0 {
			pal = append(pal, c)
		}
	}
	return pal[:min(len(pal), 256)]
}

func samePixels(t *testing.T, what string, got, want *image.Paletted) {
	t.Helper()
	if got.Bounds() != want.Bounds() || !slices.Equal(got.Palette, want.Palette) || !slices.Equal(got.Pix, want.Pix) {
		t.Fatalf("%s differs from the reference", what)
	}
}

// TestSelectFirst: selectFirst sets apart the k first of a sorted list,
// for every k, on lists with and without runs of equal counts.
func TestSelectFirst(t *testing.T) {
	cmp := func(a, b colorCount) int {
		if a.n != b.n {
			return b.n - a.n
		}
		return int(a.c) - int(b.c)
	}
	r := engine.NewRand(3)
	for _, size := range []int{0, 1, 5, 17, 100, 1000} {
		for _, counts := range []int{3, 1 << 20} {
			a := make([]colorCount, size)
			for i := range a {
				a[i] = colorCount{c: uint32(i * 7919 % 65536), n: r.IntN(counts)}
			}
			sorted := slices.Clone(a)
			slices.SortFunc(sorted, cmp)
			for k := 0; k <= size; k += 1 + size/50 {
				b := slices.Clone(a)
				selectFirst(b, k, cmp)
				slices.SortFunc(b[:k], cmp)
				if !slices.Equal(b[:k], sorted[:k]) {
					t.Fatalf("size %d, counts < %d, k %d: the first k differ", size, counts, k)
				}
			}
		}
	}
}
