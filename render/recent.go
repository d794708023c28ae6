package render

import (
	"encoding/binary"
	"hash/maphash"
	"image"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"tessera/engine"
)

// The recent boards: a move changes a tile or two of its game's board,
// so the best layer for a move's picture is the picture of the move
// before. BoardOn keeps the board's rows of the last maxRecent boards it
// drew, each with its items (as the base's layer keeps them), and draws
// the next board on whichever kept picture of the same layout leaves the
// fewest tiles to paint again: the base's, or a recent board's, most
// often the same game's previous move.
//
// A kept picture is found by what it shows, not by a game's id: it is
// used only through its items, matched with the new scene's as the base's
// are (see drawOnLayer), so any kept picture gives the same bytes as a
// full redraw, and nothing needs to be forgotten when a game is undone,
// aborted or ends (TestRecentSameBytes plays every game move by move).

// maxRecent bounds the recent boards kept: each is about 2.5 MB (a board's
// rows), so at most 20 MB, and a process interleaving the moves of more
// than maxRecent games draws them on their start's layer as before.
const maxRecent = 8

// layout is what a layer's pixels depend on besides its items.
type layout struct {
	t   Transform
	top int // the rows kept
	bg  engine.Color
}

var recent struct {
	sync.Mutex
	list []*layer // most recently kept last
}

// recentUsed counts the boards drawn on a recent board (the tests').
var recentUsed atomic.Int64

// recentPix keeps the rows of dropped recent boards for the next.
var recentPix = newKeep(2, func() []byte { return nil })

// takeRecent returns the recent boards of this layout, most recent first,
// each marked in use until giveRecent.
func takeRecent(lay layout) []*layer {
	recent.Lock()
	defer recent.Unlock()
	var out []*layer
	for i := len(recent.list) - 1; i >= 0; i-- {
		if l := recent.list[i]; l.lay == lay {
			l.users++
			out = append(out, l)
		}
	}
	return out
}

// giveRecent ends the use of layers takeRecent returned (and of any other
// layer, which it leaves alone).
func giveRecent(ls []*layer) {
	recent.Lock()
	defer recent.Unlock()
	for _, l := range ls {
		if l.users == 0 {
			continue // a base's layer
		}
		if l.users--; l.users == 0 && l.dropped {
			recentPix.put(l.pix)
		}
	}
}

// keepRecent keeps the first lay.top rows of img, the picture of the
// items whose hashes and boxes are given, as a recent board.
func keepRecent(img *image.RGBA, lay layout, items []uint64, boxes []image.Rectangle) {
	key := layerKey(lay, items)
	n := lay.top * img.Stride
	recent.Lock()
	for i, l := range recent.list {
		if l.key == key && l.lay == lay {
			// The same board again: it becomes the most recent.
			recent.list = append(append(recent.list[:i:i], recent.list[i+1:]...), l)
			recent.Unlock()
			return
		}
	}
	recent.Unlock()
	pix := recentPix.get()
	if cap(pix) < n {
		pix = make([]byte, n)
	}
	pix = pix[:n]
	copy(pix, img.Pix[:n])
	l := &layer{key: key, lay: lay, w: Width, top: lay.top, items: items, boxes: boxes, pix: pix, sorted: slices.Clone(items)}
	slices.Sort(l.sorted)
	recent.Lock()
	defer recent.Unlock()
	if len(recent.list) >= maxRecent {
		old := recent.list[0]
		recent.list = recent.list[1:]
		if old.users == 0 {
			recentPix.put(old.pix)
		} else {
			old.dropped = true // given back by the last user
		}
	}
	recent.list = append(recent.list, l)
}

// forgetRecent drops every recent board and every kept band of rows,
// and the sizes remembered (benchmarks of a first picture).
func forgetRecent() {
	bandsKept.forget()
	bandSizes.forget()
	coloursKept.forget()
	recent.Lock()
	defer recent.Unlock()
	for _, l := range recent.list {
		if l.users == 0 {
			recentPix.put(l.pix)
		} else {
			l.dropped = true
		}
	}
	recent.list = nil
}

// layerKey names a layer by its layout and items.
func layerKey(lay layout, items []uint64) uint64 {
	var h maphash.Hash
	h.SetSeed(seed)
	var b [8]byte
	for _, x := range []float64{lay.t.Scale, lay.t.DX, lay.t.DY, float64(lay.top)} {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(x))
		h.Write(b[:])
	}
	h.Write([]byte{lay.bg.R, lay.bg.G, lay.bg.B, lay.bg.A})
	for _, x := range items {
		binary.LittleEndian.PutUint64(b[:], x)
		h.Write(b[:])
	}
	return h.Sum64()
}
