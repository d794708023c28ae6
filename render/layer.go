package render

import (
	"encoding/binary"
	"hash/maphash"
	"image"
	"math"
	"slices"
	"sync"
	"unicode/utf8"

	"tessera/engine"
)

// The static layer: most of a board is the same from one move to the
// next and from one game to the next of the same kind (the background,
// the grid, the labels, the borders, the empty cells). BoardOn draws the
// board of a base position (the game's start) once per scene size and
// keeps it; a board is then that picture with only the tiles that differ
// from it drawn again.
//
// The result is the same picture, byte for byte, as drawing the whole
// scene (TestBoardOnMatchesBoard). A pixel's value depends only on the
// items that cover it, in their order, painted over the background. The
// base's items and the scene's are matched in order (matched items are
// equal, and keep their order); a pixel that no unmatched item of either
// can touch is covered by the same items in both, so it is the base's.
// The other pixels, in tiles of tileSize, are set to the background and
// every item of the scene that reaches them is painted again there,
// clipped to those tiles.

const tileSize = 16

// maxLayers bounds the kept base pictures (each about 2 MB): one per game
// kind and options that change the empty board (Elemental's borders).
const maxLayers = 12

// maxDirtyPercent is the share of tiles to paint again above which the
// whole scene is drawn instead.
const maxDirtyPercent = 30

type layer struct {
	key    uint64
	w, top int      // the picture's width and the rows kept (the board, down to the panel)
	items  []uint64 // the base scene's item hashes
	boxes  []image.Rectangle
	pix    []byte // rows [0, top) of the base's picture
	// A recent board's (see recent.go; under its lock but sorted):
	sorted  []uint64 // items, sorted
	lay     layout
	users   int  // drawings reading pix
	dropped bool // no longer kept: pix is reused once users is 0
}

var layers struct {
	sync.Mutex
	list []*layer // most recently used last
}

var seed = maphash.MakeSeed()

// hashItem names an item by everything that draws it.
func hashItem(h *maphash.Hash, it engine.Item) uint64 {
	h.Reset()
	var b [8]byte
	f := func(x float64) {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(x))
		h.Write(b[:])
	}
	if it.Path != nil {
		h.WriteByte(1)
		h.Write(opsBytes(it.Path.Ops))
		for _, p := range it.Path.Pts {
			f(p.X)
			f(p.Y)
		}
	}
	h.Write([]byte{it.Fill.R, it.Fill.G, it.Fill.B, it.Fill.A, it.Stroke.R, it.Stroke.G, it.Stroke.B, it.Stroke.A})
	f(it.Width)
	h.WriteString(it.Text)
	h.WriteByte(0)
	f(it.At.X)
	f(it.At.Y)
	f(it.Size)
	h.Write([]byte{it.Color.R, it.Color.G, it.Color.B, it.Color.A, byte(it.Align)})
	if it.Bold {
		h.WriteByte(1)
	}
	return h.Sum64()
}

func opsBytes(ops []engine.Op) []byte {
	b := make([]byte, len(ops))
	for i, o := range ops {
		b[i] = byte(o)
	}
	return b
}

// itemBox is a rectangle of pixels the item cannot paint outside of
// (generously: anti-aliasing, round joins and caps, glyph overhangs).
func itemBox(it engine.Item, t Transform) image.Rectangle {
	r := image.Rectangle{}
	if it.Path != nil && len(it.Path.Pts) > 0 {
		// A curve stays within its control points' hull.
		x0, y0 := math.Inf(1), math.Inf(1)
		x1, y1 := math.Inf(-1), math.Inf(-1)
		for _, p := range it.Path.Pts {
			x, y := t.Apply(p)
			x0, y0, x1, y1 = math.Min(x0, x), math.Min(y0, y), math.Max(x1, x), math.Max(y1, y)
		}
		m := 2.0
		if !it.Stroke.None() && it.Width > 0 {
			m += math.Max(1, it.Width*t.Scale) / 2
		}
		r = rectOf(x0-m, y0-m, x1+m, y1+m)
	}
	if it.Text != "" {
		px := it.Size * t.Scale
		if px >= 6 {
			x, y := t.Apply(it.At)
			// drawText puts the text's left at x - ax*w (w its advance) and
			// its baseline at y + 0.35*height (height about 1.2 sizes);
			// glyphs reach less than a size above the baseline and a third
			// below it, and advance less than a size each. Bounds well past
			// those are taken, without asking the font.
			bound := float64(utf8.RuneCountInString(it.Text)) * px * 1.25
			ax := 0.5
			switch it.Align {
			case engine.Left:
				ax = 0
			case engine.Right:
				ax = 1
			}
			r = r.Union(rectOf(x-ax*bound-px/2-4, y-1.5*px-4, x+(1-ax)*bound+px/2+4, y+px+4))
		}
	}
	return r
}

func rectOf(x0, y0, x1, y1 float64) image.Rectangle {
	return image.Rect(int(math.Floor(x0)), int(math.Floor(y0)), int(math.Ceil(x1)), int(math.Ceil(y1)))
}

// tiles is a mask of tileSize squares over the kept rows.
type tiles struct {
	cols, rows int
	dirty      []bool
	n          int
}

func newTiles(w, h int) *tiles {
	c, r := (w+tileSize-1)/tileSize, (h+tileSize-1)/tileSize
	return &tiles{cols: c, rows: r, dirty: make([]bool, c*r)}
}

// span is the tiles a rectangle reaches, clipped to the mask.
func (m *tiles) span(r image.Rectangle) (c0, r0, c1, r1 int) {
	c0, r0 = max(0, floorDiv(r.Min.X, tileSize)), max(0, floorDiv(r.Min.Y, tileSize))
	c1, r1 = min(m.cols, floorDiv(r.Max.X-1, tileSize)+1), min(m.rows, floorDiv(r.Max.Y-1, tileSize)+1)
	return
}

func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

func (m *tiles) mark(r image.Rectangle) {
	if r.Empty() {
		return
	}
	c0, r0, c1, r1 := m.span(r)
	for y := r0; y < r1; y++ {
		for x := c0; x < c1; x++ {
			if !m.dirty[y*m.cols+x] {
				m.dirty[y*m.cols+x] = true
				m.n++
			}
		}
	}
}

func (m *tiles) touches(r image.Rectangle) bool {
	if r.Empty() {
		return false
	}
	c0, r0, c1, r1 := m.span(r)
	for y := r0; y < r1; y++ {
		for x := c0; x < c1; x++ {
			if m.dirty[y*m.cols+x] {
				return true
			}
		}
	}
	return false
}

// runs calls f with each row of tiles' runs of dirty tiles, as pixel
// rectangles within the first top rows.
func (m *tiles) runs(top int, f func(image.Rectangle)) {
	for y := 0; y < m.rows; y++ {
		for x := 0; x < m.cols; {
			if !m.dirty[y*m.cols+x] {
				x++
				continue
			}
			x0 := x
			for x < m.cols && m.dirty[y*m.cols+x] {
				x++
			}
			f(image.Rect(x0*tileSize, y*tileSize, min(x*tileSize, Width), min((y+1)*tileSize, top)))
		}
	}
}

// match pairs the scene's items with the base's in order: each item of
// the scene takes the first equal item of the base after the last one
// taken. Any common subsequence keeps the picture exact; this one is found
// in one pass and, for boards that add and change items in place, leaves
// only those unmatched.
func match(base, cur []uint64) (baseUsed, curUsed []bool) {
	at := map[uint64][]int{}
	for i, h := range base {
		at[h] = append(at[h], i)
	}
	baseUsed, curUsed = make([]bool, len(base)), make([]bool, len(cur))
	last := -1
	for i, h := range cur {
		list := at[h]
		for len(list) > 0 && list[0] <= last {
			list = list[1:]
		}
		if len(list) == 0 {
			at[h] = list
			continue
		}
		// Taking an item far ahead would give up every base item before
		// it; take it only when it is near.
		if list[0]-last > 64 {
			continue
		}
		last = list[0]
		at[h] = list[1:]
		baseUsed[last], curUsed[i] = true, true
	}
	return
}

// layerFor returns the kept base picture for a scene of this size drawn
// with this transform, drawing it first if needed.
func layerFor(pn pen, base engine.Scene, t Transform, top int) *layer {
	var h maphash.Hash
	h.SetSeed(seed)
	items := make([]uint64, len(base.Items))
	for i, it := range base.Items {
		items[i] = hashItem(&h, it)
	}
	h.Reset()
	var b [8]byte
	for _, x := range []float64{base.W, base.H, t.Scale, t.DX, t.DY, float64(top)} {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(x))
		h.Write(b[:])
	}
	h.Write([]byte{base.Background.R, base.Background.G, base.Background.B, base.Background.A})
	for _, x := range items {
		binary.LittleEndian.PutUint64(b[:], x)
		h.Write(b[:])
	}
	key := h.Sum64()
	layers.Lock()
	for i, l := range layers.list {
		if l.key == key {
			layers.list = append(append(layers.list[:i:i], layers.list[i+1:]...), l)
			layers.Unlock()
			return l
		}
	}
	layers.Unlock()
	img := image.NewRGBA(image.Rect(0, 0, Width, top))
	dc := newCanvas(img)
	dc.Clear(rgba(background(base)))
	drawScene(dc, pn, base, t, nil)
	dc.release()
	l := &layer{key: key, w: Width, top: top, items: items, pix: img.Pix}
	l.boxes = make([]image.Rectangle, len(base.Items))
	for i, it := range base.Items {
		l.boxes[i] = itemBox(it, t)
	}
	layers.Lock()
	if len(layers.list) >= maxLayers {
		layers.list = layers.list[1:]
	}
	layers.list = append(layers.list, l)
	layers.Unlock()
	return l
}

func background(sc engine.Scene) engine.Color {
	if sc.Background.None() {
		return engine.Paper
	}
	return sc.Background
}

// sceneItems is what drawOnLayer needs of a scene: its items' hashes and
// boxes.
func sceneItems(sc engine.Scene, t Transform) (hashes []uint64, boxes []image.Rectangle) {
	var h maphash.Hash
	h.SetSeed(seed)
	hashes = make([]uint64, len(sc.Items))
	boxes = make([]image.Rectangle, len(sc.Items))
	for i, it := range sc.Items {
		hashes[i] = hashItem(&h, it)
		boxes[i] = itemBox(it, t)
	}
	return hashes, boxes
}

// drawOnLayer draws sc into the board's rows of img (the first top rows)
// from the base's kept picture, painting again only the tiles that differ.
// It reports false, having drawn nothing, when most tiles differ: the
// whole scene is then quicker to draw.
func drawOnLayer(img *image.RGBA, dc *canvas, pn pen, base, sc engine.Scene, t Transform, top int) bool {
	cur, boxes := sceneItems(sc, t)
	return drawOnLayers(img, dc, pn, base, sc, t, top, cur, boxes)
}

// drawOnLayers is drawOnLayer given the scene's items' hashes and boxes:
// it draws on whichever kept picture leaves the fewest tiles to paint
// again, the base's or one of the recent boards' of the same layout (see
// recent).
func drawOnLayers(img *image.RGBA, dc *canvas, pn pen, base, sc engine.Scene, t Transform, top int, cur []uint64, boxes []image.Rectangle) bool {
	if top <= 0 || top > img.Bounds().Dy() {
		return false
	}
	held := takeRecent(layout{t: t, top: top, bg: background(sc)})
	defer giveRecent(held)
	// Of the recent boards, the one with the most items in common is
	// weighed against the base (a move's picture beside its game's
	// previous board has all but a few); planning each would cost more.
	var cands []*layer
	if len(held) > 0 {
		sorted := slices.Clone(cur)
		slices.Sort(sorted)
		best, most := held[0], -1
		for _, l := range held {
			if n := common(l.sorted, sorted); n > most {
				best, most = l, n
			}
		}
		cands = append(cands, best)
	}
	if background(base) == background(sc) {
		cands = append(cands, layerFor(pen{fc: pn.fc}, base, t, top))
	}
	if len(cands) == 0 {
		return false
	}
	var l *layer
	var m *tiles
	for _, c := range cands {
		if cm := plan(c, cur, boxes, top); m == nil || cm.n < m.n {
			l, m = c, cm
		}
	}
	// Measured (docs/scaling.md, A courier that keeps up): early in a game the layer
	// saves a quarter (Elemental) to two thirds (Glorieta) of the drawing;
	// past about a third of the tiles, painting clipped costs about what it
	// saves, and more past a half.
	if m.n*100 > len(m.dirty)*maxDirtyPercent {
		return false
	}
	if len(held) > 0 && l == cands[0] { // a recent board (l.users is takeRecent's, under its lock)
		recentUsed.Add(1)
	}
	copy(img.Pix, l.pix)
	bg := rgba(background(sc))
	m.runs(top, func(r image.Rectangle) {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			i := y*img.Stride + 4*r.Min.X
			fillRow(img.Pix[i:i+4*r.Dx()], [4]byte{bg.R, bg.G, bg.B, bg.A})
		}
	})
	dc.paint.clip = m
	dc.paint.clipTop = top
	var rects []image.Rectangle
	m.runs(top, func(r image.Rectangle) { rects = append(rects, r) })
	var near []image.Rectangle
	drawScene(dc, pen{fc: pn.fc}, sc, t, func(i int) ([]image.Rectangle, bool) {
		if !m.touches(boxes[i]) {
			return nil, false
		}
		near = near[:0]
		if sc.Items[i].Text != "" {
			for _, r := range rects {
				if r.Overlaps(boxes[i]) {
					near = append(near, r)
				}
			}
		}
		return near, true
	})
	dc.paint.clip = nil
	return true
}

// common is how many items two sorted lists of hashes have in common
// (as multisets).
func common(a, b []uint64) int {
	n := 0
	for len(a) > 0 && len(b) > 0 {
		switch {
		case a[0] < b[0]:
			a = a[1:]
		case a[0] > b[0]:
			b = b[1:]
		default:
			n++
			a, b = a[1:], b[1:]
		}
	}
	return n
}

// plan is the mask of the tiles to paint again to make, from l's picture,
// the picture of the items cur (their boxes in boxes): the tiles that an
// item of either, not matched in the other, may reach.
func plan(l *layer, cur []uint64, boxes []image.Rectangle, top int) *tiles {
	baseUsed, curUsed := match(l.items, cur)
	m := newTiles(Width, top)
	for i, used := range baseUsed {
		if !used {
			m.mark(l.boxes[i])
		}
	}
	for i, used := range curUsed {
		if !used {
			m.mark(boxes[i])
		}
	}
	return m
}

// BoardOn is Board for a position of a game whose base position (its
// start) is base: the same picture, drawn from the base's kept picture.
func BoardOn(base, sc engine.Scene, p Panel) ([]byte, error) {
	t, boardH, h := boardLayout(sc, p)
	img := pooledImage(h)
	defer imagePool.put(img)
	drawBoardOn(img, base, sc, p, t, boardH)
	return encodeBoard(img)
}

// drawBoardOn draws like drawBoard, from the base's layer when it helps.
func drawBoardOn(img *image.RGBA, base, sc engine.Scene, p Panel, t Transform, boardH float64) {
	loadFonts()
	fc := facePool.get()
	defer facePool.put(fc)
	dc := newCanvas(img)
	defer dc.release()
	// The panel covers every row from its top down, whatever the board
	// drew there: the layer keeps the rows above it.
	top := int(boardH - pad/2)
	pn := pen{fc: fc}
	cur, boxes := sceneItems(sc, t)
	if drawOnLayers(img, dc, pn, base, sc, t, top, cur, boxes) {
		// The rows under the panel, as Clear would leave them.
		bg := rgba(background(sc))
		fillRow(img.Pix[top*img.Stride:], [4]byte{bg.R, bg.G, bg.B, bg.A})
	} else {
		dc.Clear(rgba(background(sc)))
		drawScene(dc, pn, sc, t, nil)
	}
	if top > 0 && top <= img.Bounds().Dy() {
		// The board's rows, before the panel covers the last of them: the
		// next move's picture of this game is drawn on them.
		keepRecent(img, layout{t: t, top: top, bg: background(sc)}, cur, boxes)
	}
	drawPanel(dc, pn, p, boardH)
}
