package render

import (
	"image"
	"image/color"
	"slices"
)

// A board's flat colours (cells, stones, ground, panel, text) cover almost
// every pixel; the few thousand other colours are anti-aliased edges,
// blends of two flat colours. A palette that keeps the frequent colours
// exactly and spends the remaining entries on the blends (median cut) is
// indistinguishable on a screen and several times smaller to store. It is
// used where size matters more than the last bit of an edge: a picture
// that would exceed Discord-friendly sizes (MaxPictureBytes) and the
// animated replays.

// exactShare is how many palette entries go to the most frequent colours
// unchanged; the rest approximate the others.
const exactShare = 192

type colorCount struct {
	c uint32 // 0xRRGGBB
	n int
}

// Palette returns at most n colours for img (opaque RGBA): every colour of
// the picture when it has at most n, else its most frequent colours exactly
// and median-cut means of the others.
func Palette(img *image.RGBA, n int) color.Palette {
	counts := histogram(img)
	all := make([]colorCount, 0, len(counts))
	for c, k := range counts {
		all = append(all, colorCount{c, k})
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
	for _, box := range medianCut(all[exact:], n-exact) {
		pal = append(pal, box)
	}
	return pal
}

func histogram(img *image.RGBA) map[uint32]int {
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

func rgb(c uint32) color.RGBA { return color.RGBA{uint8(c >> 16), uint8(c >> 8), uint8(c), 255} }

func channel(c uint32, ch int) int { return int(c>>(16-8*ch)) & 0xff }

// medianCut splits the colours into at most k boxes, each time cutting the
// box with the widest channel range at its weighted median, and returns
// each box's weighted mean.
func medianCut(cs []colorCount, k int) []color.Color {
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
func Quantize(img *image.RGBA, pal color.Palette) *image.Paletted {
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
				i = nearest(pal, c)
				near[c] = i
			}
			orow[x] = i
			last, lastI, have = c, i, true
		}
	}
	return out
}

func nearest(pal color.Palette, c uint32) uint8 {
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
