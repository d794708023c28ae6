package render

import (
	"cmp"
	"encoding/binary"
	"image"
	"image/color"
	"slices"
)

// A board's flat colours (cells, stones, ground, panel, text) cover almost
// every pixel; the few thousand other colours are anti-aliased edges,
// blends of two flat colours. A palette that keeps the frequent colours
// exactly and spends the remaining entries on the blends (median cut) is
// indistinguishable on a screen and several times smaller to store. It is
// used where size matters more than the last bit of an edge: board
// pictures with more than 256 colours (see encodeBoard), other pictures
// that would exceed Discord-friendly sizes (MaxPictureBytes) and the
// animated replays.
//
// The work is counting colours and finding each one's nearest palette
// entry; both were most of a board's encoding (11 of 30 ms a move, issue
// #50) with a Go map per run of pixels and a scan of all 256 entries per
// colour. The colours are now counted in a table of their own (see
// colourTable) and the nearest entry is searched in order of red (see
// nearestFinder), with the same results, tie for tie
// (TestPaletteSameAsReference).

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
	t := tables.get()
	defer tables.put(t)
	t.count(img, nil, false)
	pal, _ := t.palette(n)
	return pal
}

// Quantize maps every pixel of img to the nearest colour of pal (squared
// distance, the first of equals; each distinct colour is looked up once).
func Quantize(img *image.RGBA, pal color.Palette) *image.Paletted {
	t := tables.get()
	defer tables.put(t)
	t.count(img, nil, false)
	t.nearest(pal, 0)
	out := image.NewPaletted(img.Bounds(), pal)
	t.mapPixels(img, out.Pix, out.Stride)
	return out
}

// quantizeOwn is Quantize(img, Palette(img, n)), counting the colours once,
// into pix (a paletted picture's pixels, stride img's width), and returns
// the palette; nil, having written nothing, when a pixel of img is not
// fully opaque. keys, when not nil, name img's bands of bandRows rows by
// their bytes (see rgbBandKeys): a band counted before is not counted
// again (see coloursKept); the bands counted are kept when keep is set
// or a quarter of them were found kept (a picture like the last ones).
func quantizeOwn(img *image.RGBA, n int, pix []uint8, keys []bandKey, keep bool) color.Palette {
	t := tables.get()
	defer tables.put(t)
	if !t.count(img, keys, keep) {
		return nil
	}
	pal, exact := t.palette(n)
	t.nearest(pal, exact)
	t.mapPixels(img, pix, img.Bounds().Dx())
	return pal
}

// histogram is the number of pixels of each colour (0xRRGGBB).
func histogram(img *image.RGBA) map[uint32]int {
	t := tables.get()
	defer tables.put(t)
	t.count(img, nil, false)
	out := make(map[uint32]int, t.n)
	for _, e := range t.entries {
		if e.key != 0 {
			out[rgbOf(e.key-1)] = int(e.n)
		}
	}
	return out
}

// colourTable counts an opaque picture's colours by open addressing on
// the colour, and then holds each colour's palette index.
//
// The picture is counted in bands of bandRows rows (see bandColours),
// each band's colours and runs numbered on their own; the table adds up
// the bands' counts and notes, for each band, the table's number of each
// of its colours. A band's count depends only on its rows, so a band
// counted for a picture before (the same game's previous board, where
// most rows did not change) is taken as it was (see coloursKept): the
// table's counts, and so the palette, are the same as counting every
// pixel (TestColourBandsSameBytes).
type colourTable struct {
	entries []tableEntry
	n       int
	shift   uint // 32 - log2(len(entries))
	all     []colorCount
	boxes   [][]colorCount // the median cut's boxes of the last palette
	bands   []*bandColours // the picture's bands, in order
	gids    []int32        // each band's colours' numbers in the table, band after band
	gidAt   []int          // where each band's numbers start in gids
	spare   []*bandColours // bands counted afresh, reused (copied when kept)
	lut     []uint8
	index   []uint8 // each colour's palette index, by its id, once quantized
}

type tableEntry struct {
	key   uint32 // the colour + 1; 0 is empty
	n     int32  // pixels (a picture has under 2^31)
	id    int32  // the colour's number, in order of first sight
	band  int32  // 1 + the last band counted afresh that has it
	lid   int32  // its number in that band
	i     uint8  // palette index, once quantized
	found bool   // i is set
}

// bandColours is a band of rows counted: its colours (pixels' words, as
// rgbOf reads them) in order of first sight, each one's pixels, and the
// band's runs of one colour, in order, each by its colour's number in
// cols. Once kept it is never changed.
type bandColours struct {
	cols []uint32
	n    []int32
	runs []colourRun
}

var tables = newKeep(4, func() *colourTable { return new(colourTable) })

func (t *colourTable) reset(size int) {
	bits := uint(12)
	for 1<<bits < size {
		bits++
	}
	if cap(t.entries) >= 1<<bits {
		t.entries = t.entries[:1<<bits]
		clear(t.entries)
	} else {
		t.entries = make([]tableEntry, 1<<bits)
	}
	t.n, t.shift = 0, 32-bits
}

// slot is where pixel p is, or goes.
func (t *colourTable) slot(p uint32) *tableEntry {
	k := p + 1
	mask := uint32(len(t.entries) - 1)
	for i := (k * 0x9E3779B1) >> t.shift; ; i = (i + 1) & mask {
		e := &t.entries[i]
		if e.key == k || e.key == 0 {
			return e
		}
	}
}

// entry is pixel p's entry, made if new.
func (t *colourTable) entry(p uint32) *tableEntry {
	e := t.slot(p)
	if e.key == 0 {
		if 2*(t.n+1) > len(t.entries) {
			t.grow()
			e = t.slot(p)
		}
		e.key, e.id = p+1, int32(t.n)
		t.n++
	}
	return e
}

// colourRun is a run of n pixels of the colour numbered id.
type colourRun struct{ id, n uint32 }

func (t *colourTable) grow() {
	old := t.entries
	t.entries = nil
	t.reset(2 * len(old))
	for _, e := range old {
		if e.key != 0 {
			*t.slot(e.key - 1) = e
			t.n++
		}
	}
}

// count counts img's colours (red, green, blue) band by band, and notes
// each band's runs of one colour, which mapPixels reads back; a band
// whose key (keys not nil) names a band counted before is taken from
// coloursKept, and the bands counted afresh are kept there when keep is
// set or a quarter of the bands were found. It reports whether every
// pixel is fully opaque (a band is kept only when it is).
func (t *colourTable) count(img *image.RGBA, keys []bandKey, keep bool) bool {
	// As large as the last picture counted needed: a board's few
	// thousand colours would make a table of 1<<12 grow again each time.
	t.reset(max(1<<12, 2*t.n))
	t.bands, t.gids, t.gidAt = t.bands[:0], t.gids[:0], t.gidAt[:0]
	h := img.Bounds().Dy()
	found := 0
	for b, y0 := 0, 0; y0 < h; b, y0 = b+1, y0+bandRows {
		y1 := min(y0+bandRows, h)
		t.gidAt = append(t.gidAt, len(t.gids))
		var bc *bandColours
		if keys != nil {
			bc = coloursKept.get(keys[b])
		}
		if bc != nil {
			found++
			for l, c := range bc.cols {
				e := t.entry(c)
				e.n += bc.n[l]
				t.gids = append(t.gids, e.id)
			}
		} else {
			for len(t.spare) <= b { // bands found kept have none
				t.spare = append(t.spare, new(bandColours))
			}
			bc = t.spare[b]
			if !t.countBand(img, y0, y1, int32(b+1), bc) {
				return false
			}
		}
		t.bands = append(t.bands, bc)
	}
	if keys != nil && (keep || 4*found >= len(keys)) {
		t.keepCounted(keys)
	}
	return true
}

// keepCounted keeps the bands count counted afresh (in the table's spare
// bands) in coloursKept, copied into three slices for them all.
func (t *colourTable) keepCounted(keys []bandKey) {
	fresh, runs, cols := 0, 0, 0
	for b, bc := range t.bands {
		if b < len(t.spare) && bc == t.spare[b] {
			fresh++
			runs += len(bc.runs)
			cols += len(bc.cols)
		}
	}
	if fresh == 0 {
		return
	}
	kept := make([]bandColours, 0, fresh)
	allRuns := make([]colourRun, 0, runs)
	allCols := make([]uint32, 0, cols)
	allN := make([]int32, 0, cols)
	for b, bc := range t.bands {
		if b >= len(t.spare) || bc != t.spare[b] {
			continue
		}
		r0, c0 := len(allRuns), len(allCols)
		allRuns = append(allRuns, bc.runs...)
		allCols = append(allCols, bc.cols...)
		allN = append(allN, bc.n...)
		kept = append(kept, bandColours{cols: allCols[c0:len(allCols):len(allCols)], n: allN[c0:len(allN):len(allN)], runs: allRuns[r0:len(allRuns):len(allRuns)]})
		coloursKept.put(keys[b], &kept[len(kept)-1])
	}
}

// countBand counts rows y0 to y1 of img into the table and into bc (as
// band number tag-1), and reports whether every pixel is fully opaque.
// A board is mostly runs of one colour: a run is counted once.
func (t *colourTable) countBand(img *image.RGBA, y0, y1 int, tag int32, bc *bandColours) bool {
	const alphas = 0xff000000ff000000
	bc.cols, bc.n = bc.cols[:0], bc.n[:0]
	runs := bc.runs[:0]
	add := func(p, n uint32) {
		e := t.entry(p)
		e.n += int32(n)
		if e.band != tag {
			e.band, e.lid = tag, int32(len(bc.cols))
			bc.cols = append(bc.cols, p)
			bc.n = append(bc.n, 0)
			t.gids = append(t.gids, e.id)
		}
		bc.n[e.lid] += int32(n)
		runs = append(runs, colourRun{uint32(e.lid), n})
	}
	w := 4 * img.Bounds().Dx()
	run, last := uint32(0), uint32(0)
	all := uint64(alphas)
	for y := y0; y < y1; y++ {
		row := img.Pix[y*img.Stride : y*img.Stride+w]
		for i := 0; i+3 < len(row); {
			q := binary.LittleEndian.Uint32(row[i:])
			all &= uint64(q) | uint64(q)<<32
			p := q & 0xffffff
			if run > 0 && p == last {
				// Four, then two pixels at a time while they are the
				// run's colour.
				pair := uint64(p) | uint64(p)<<32
				i += 4
				run++
				for i+15 < len(row) {
					v, u := binary.LittleEndian.Uint64(row[i:]), binary.LittleEndian.Uint64(row[i+8:])
					if ((v^pair)|(u^pair))&0x00ffffff00ffffff != 0 {
						break
					}
					all &= v & u
					i += 16
					run += 4
				}
				for i+7 < len(row) {
					v := binary.LittleEndian.Uint64(row[i:])
					if v&0x00ffffff00ffffff != pair {
						break
					}
					all &= v
					i += 8
					run += 2
				}
				continue
			}
			if run > 0 {
				add(last, run)
			}
			last, run = p, 1
			i += 4
		}
	}
	if run > 0 {
		add(last, run)
	}
	bc.runs = runs
	return all&alphas == alphas
}

// palette is Palette of the counted picture; exact is how many of its
// first entries are colours of the picture, each its own nearest entry.
func (t *colourTable) palette(n int) (pal color.Palette, exact int) {
	all := t.all[:0]
	for _, e := range t.entries {
		if e.key != 0 {
			all = append(all, colorCount{c: rgbOf(e.key - 1), n: int(e.n)})
		}
	}
	t.all = all
	// Most frequent first; equal counts by colour, so the palette does not
	// depend on the table's order. Only the entries kept exactly need
	// their order: median cut sorts the others itself (and its result does
	// not depend on their order), so they are only set apart.
	byCount := func(a, b colorCount) int {
		if a.n != b.n {
			return b.n - a.n
		}
		return int(a.c) - int(b.c)
	}
	if len(all) > n {
		selectFirst(all, min(exactShare*n/256, n-1), byCount)
		slices.SortFunc(all[:min(exactShare*n/256, n-1)], byCount)
	} else {
		slices.SortFunc(all, byCount)
	}
	pal = make(color.Palette, 0, n)
	t.boxes = nil
	if len(all) <= n {
		for _, x := range all {
			pal = append(pal, rgb(x.c))
		}
		return pal, len(pal)
	}
	exact = min(exactShare*n/256, n-1)
	for _, x := range all[:exact] {
		pal = append(pal, rgb(x.c))
	}
	means, boxes := medianCut(all[exact:], n-exact)
	pal = append(pal, means...)
	t.boxes = boxes
	return pal, exact
}

// selectFirst reorders a so that its first k elements are the k first of
// a sorted by cmp (a total order), in some order (quickselect, the pivot
// the median of three).
func selectFirst(a []colorCount, k int, cmp func(a, b colorCount) int) {
	lo, hi := 0, len(a) // the k-th is within a[lo:hi]
	for hi-lo > 16 {
		mid := lo + (hi-lo)/2
		// The median of three to a[lo], as the pivot.
		if cmp(a[mid], a[lo]) < 0 {
			a[mid], a[lo] = a[lo], a[mid]
		}
		if cmp(a[hi-1], a[lo]) < 0 {
			a[hi-1], a[lo] = a[lo], a[hi-1]
		}
		if cmp(a[hi-1], a[mid]) < 0 {
			a[hi-1], a[mid] = a[mid], a[hi-1]
		}
		a[lo], a[mid] = a[mid], a[lo]
		p := a[lo]
		// Lomuto: a[lo+1:j] before the pivot, a[j:i] after it.
		j := lo + 1
		for i := lo + 1; i < hi; i++ {
			if cmp(a[i], p) < 0 {
				a[i], a[j] = a[j], a[i]
				j++
			}
		}
		a[lo], a[j-1] = a[j-1], a[lo] // the pivot at its place, j-1
		switch {
		case j-1 == k || j-1 == k-1:
			return
		case j-1 > k:
			hi = j - 1
		default:
			lo = j
		}
	}
	slices.SortFunc(a[lo:hi], cmp)
}

// nearest sets each counted colour's index to its nearest entry of pal,
// whose first exact entries are distinct colours of the picture: such a
// colour's nearest entry is itself (at distance 0, and no entry before it
// is the same colour). With exact above 0, pal is the table's own palette
// (see palette): each other colour is in one of its median cut's boxes,
// whose mean is the entry exact+j for the j-th box, and the search for
// its nearest entry starts from that mean (see nearestFrom).
func (t *colourTable) nearest(pal color.Palette, exact int) {
	for i, c := range pal[:exact] {
		q := c.(color.RGBA)
		e := t.slot(uint32(q.R) | uint32(q.G)<<8 | uint32(q.B)<<16)
		e.i, e.found = uint8(i), true
	}
	f := newNearestFinder(pal)
	if exact > 0 && len(t.boxes) == len(pal)-exact {
		for j, box := range t.boxes {
			for _, x := range box {
				e := t.slot(x.c>>16&0xff | x.c&0xff00 | x.c&0xff<<16)
				if e.key != 0 && !e.found {
					e.i, e.found = f.nearestFrom(x.c, exact+j), true
				}
			}
		}
	}
	if cap(t.index) < t.n {
		t.index = make([]uint8, t.n)
	}
	t.index = t.index[:t.n]
	for i := range t.entries {
		if e := &t.entries[i]; e.key != 0 {
			if !e.found {
				e.i = f.nearest(rgbOf(e.key - 1))
			}
			t.index[e.id] = e.i
		}
	}
}

// mapPixels writes each pixel's palette index into pix (rows stride
// apart), from the runs count noted, band after band. When the rows are
// contiguous (stride is img's width), a run is written as words of eight
// bytes, the last of them overlapping, and a short run as one word whose
// bytes past the run the next runs write over; only a run within eight
// bytes of pix's end is written byte by byte.
func (t *colourTable) mapPixels(img *image.RGBA, pix []uint8, stride int) {
	w := img.Bounds().Dx()
	pos, x, y := 0, 0, 0
	for b, bc := range t.bands {
		gids := t.gids[t.gidAt[b]:]
		if cap(t.lut) < len(bc.cols) {
			t.lut = make([]uint8, len(bc.cols))
		}
		lut := t.lut[:len(bc.cols)]
		for l := range lut {
			lut[l] = t.index[gids[l]]
		}
		if stride == w {
			for _, r := range bc.runs {
				v, n := lut[r.id], int(r.n)
				if pos+max(n, 8) > len(pix) {
					for i := pos; i < pos+n; i++ {
						pix[i] = v
					}
				} else {
					word := uint64(v) * 0x0101010101010101
					binary.LittleEndian.PutUint64(pix[pos:], word)
					for i := 8; i < n; i += 8 {
						binary.LittleEndian.PutUint64(pix[pos+min(i, n-8):], word)
					}
				}
				pos += n
			}
			continue
		}
		for _, r := range bc.runs {
			v := lut[r.id]
			for n := int(r.n); n > 0; {
				m := min(n, w-x)
				row := pix[y*stride+x : y*stride+x+m]
				for i := range row {
					row[i] = v
				}
				n -= m
				if x += m; x == w {
					x, y = 0, y+1
				}
			}
		}
	}
}

// rgbOf is 0xRRGGBB of a pixel's bytes read as a little-endian word.
func rgbOf(p uint32) uint32 { return p&0xff<<16 | p&0xff00 | p>>16&0xff }

func rgb(c uint32) color.RGBA { return color.RGBA{uint8(c >> 16), uint8(c >> 8), uint8(c), 255} }

func channel(c uint32, ch int) int { return int(c>>(16-8*ch)) & 0xff }

// medianCut splits the colours into at most k boxes, each time cutting the
// box with the widest channel range at its weighted median, and returns
// each box's weighted mean. (Each box's ranges are measured once, when it
// is made; a box is split without sorting it: see medianSplit.)
// The boxes' colours (pieces of cs) are returned too, in the same order.
func medianCut(cs []colorCount, k int) ([]color.Color, [][]colorCount) {
	type box struct {
		cs     []colorCount
		lo, hi [3]int
	}
	measure := func(cs []colorCount) box {
		b := box{cs: cs, lo: [3]int{255, 255, 255}}
		for _, x := range cs {
			for ch := 0; ch < 3; ch++ {
				v := channel(x.c, ch)
				b.lo[ch], b.hi[ch] = min(b.lo[ch], v), max(b.hi[ch], v)
			}
		}
		return b
	}
	boxes := []box{measure(cs)}
	for len(boxes) < k {
		bi, bch, bw := -1, 0, 0
		for i, b := range boxes {
			if len(b.cs) < 2 {
				continue
			}
			for ch := 0; ch < 3; ch++ {
				if b.hi[ch]-b.lo[ch] > bw {
					bi, bch, bw = i, ch, b.hi[ch]-b.lo[ch]
				}
			}
		}
		if bi < 0 {
			break
		}
		cs := boxes[bi].cs
		cut := medianSplit(cs, bch)
		boxes[bi] = measure(cs[:cut])
		boxes = append(boxes, measure(cs[cut:]))
	}
	out := make([]color.Color, 0, len(boxes))
	parts := make([][]colorCount, 0, len(boxes))
	for _, b := range boxes {
		parts = append(parts, b.cs)
		var r, g, bl, w int
		for _, x := range b.cs {
			r += channel(x.c, 0) * x.n
			g += channel(x.c, 1) * x.n
			bl += channel(x.c, 2) * x.n
			w += x.n
		}
		out = append(out, color.RGBA{uint8((r + w/2) / w), uint8((g + w/2) / w), uint8((bl + w/2) / w), 255})
	}
	return out, parts
}

// medianSplit reorders cs (distinct colours, at least two) so that its
// first cut entries are the first cut of cs sorted by channel ch, then by
// colour, and returns cut: the place where that sorted order is cut at
// its weighted median (one past the first entry whose running weight
// reaches half the total, but never the whole box). It is what sorting
// the box and walking it gave, found in linear time: the weights are
// summed by the channel's 256 values, and only the entries of the value
// where the median falls are sorted. Which entries go to each side is
// all medianCut reads of the order (a box's ranges and mean, and its
// later cuts, do not depend on it), so the palette is the same.
func medianSplit(cs []colorCount, ch int) int {
	var w [256]int
	total := 0
	shift := uint(16 - 8*ch)
	for _, x := range cs {
		w[x.c>>shift&0xff] += x.n
		total += x.n
	}
	v, acc := 0, 0
	for ; v < 255 && 2*(acc+w[v]) < total; v++ {
		acc += w[v]
	}
	// Three ways: below v, v, above v.
	lo, i, hi := 0, 0, len(cs)
	for i < hi {
		switch c := int(cs[i].c >> shift & 0xff); {
		case c < v:
			cs[lo], cs[i] = cs[i], cs[lo]
			lo++
			i++
		case c > v:
			hi--
			cs[i], cs[hi] = cs[hi], cs[i]
		default:
			i++
		}
	}
	mid := cs[lo:hi]
	slices.SortFunc(mid, func(a, b colorCount) int { return cmp.Compare(a.c, b.c) })
	cut := len(cs) - 1
	for j, x := range mid {
		acc += x.n
		if 2*acc >= total {
			cut = min(cut, lo+j+1)
			break
		}
	}
	return cut
}

// nearestFinder finds a colour's nearest palette entry (squared distance,
// the first of equals, as a scan of the whole palette would) by looking
// at the entries in order of their sum of red, green and blue, outwards
// from the colour's sum, and stopping each way where the sums alone rule
// the rest out: (dr+dg+db)^2 <= 3(dr^2+dg^2+db^2), so an entry whose sum
// differs by ds with ds^2 > 3*best is farther than the best found. (A
// board's colours are mostly greys and beiges, close in each channel
// alone: ordered by red, twice as many entries were looked at.)
type nearestFinder struct {
	e   []finderEntry // by sum, ascending
	pal color.Palette
}

type finderEntry struct{ s, r, g, b, i int32 }

func newNearestFinder(pal color.Palette) *nearestFinder {
	f := &nearestFinder{e: make([]finderEntry, len(pal)), pal: pal}
	for i, c := range pal {
		q := c.(color.RGBA)
		f.e[i] = finderEntry{int32(q.R) + int32(q.G) + int32(q.B), int32(q.R), int32(q.G), int32(q.B), int32(i)}
	}
	slices.SortStableFunc(f.e, func(a, b finderEntry) int { return int(a.s - b.s) })
	return f
}

func (f *nearestFinder) nearest(c uint32) uint8 { return f.search(c, 0, 1<<30) }

// nearestFrom is nearest, the search starting from the entry guess: every
// entry at most as far as it is looked at, as before, but fewer are
// (the sums alone rule out more of them), and an entry as near as the
// guess is taken only when it comes first in the palette.
func (f *nearestFinder) nearestFrom(c uint32, guess int) uint8 {
	q := f.pal[guess].(color.RGBA)
	dr, dg, db := channel(c, 0)-int(q.R), channel(c, 1)-int(q.G), channel(c, 2)-int(q.B)
	return f.search(c, guess, dr*dr+dg*dg+db*db)
}

// search is the nearest entry to c, given the entry best at distance bd.
func (f *nearestFinder) search(c uint32, best, bd int) uint8 {
	r, g, b := int32(channel(c, 0)), int32(channel(c, 1)), int32(channel(c, 2))
	sum := r + g + b
	bestI, bestD := int32(best), bd
	try := func(x *finderEntry) {
		dr, dg, db := r-x.r, g-x.g, b-x.b
		if d := int(dr*dr + dg*dg + db*db); d < bestD || d == bestD && x.i < bestI {
			bestI, bestD = x.i, d
		}
	}
	mid, _ := slices.BinarySearchFunc(f.e, sum, func(x finderEntry, s int32) int { return int(x.s - s) })
	lo, hi := mid-1, mid
	for lo >= 0 || hi < len(f.e) {
		if hi < len(f.e) {
			if ds := int(f.e[hi].s - sum); ds*ds > 3*bestD {
				hi = len(f.e)
			} else {
				try(&f.e[hi])
				hi++
			}
		}
		if lo >= 0 {
			if ds := int(sum - f.e[lo].s); ds*ds > 3*bestD {
				lo = -1
			} else {
				try(&f.e[lo])
				lo--
			}
		}
	}
	return uint8(bestI)
}

// nearest is the nearest colour of pal to c (squared distance, the first
// of equals), by scanning pal.
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
