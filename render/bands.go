package render

import (
	"encoding/binary"
	"hash/maphash"
	"image"
	"sync/atomic"
)

// bandRows is the height of a band of rows compressed on its own (see
// encodeRows). Shorter bands are found again more often after a move,
// but each costs its own Huffman tables and cannot match into the band
// before: 64 rows make a late board's file about 1% larger than one
// stream would.
const bandRows = 64

// band is a band of rows compressed: its deflate blocks, the Adler-32 of
// its filtered rows and their length. The sum is set once (1<<32 | the
// sum; 0 while unknown): a band compressed for a file likely to be given
// up leaves it for the file that is written, if any (see encodeRows).
type band struct {
	data []byte
	sum  atomic.Uint64
	n    int
}

// adler is the band's Adler-32, if known.
func (b *band) adler() (uint32, bool) {
	s := b.sum.Load()
	return uint32(s), s != 0
}

func (b *band) setAdler(sum uint32) { b.sum.Store(1<<32 | uint64(sum)) }

// bandKey names a band by every byte its compressed blocks depend on.
type bandKey struct {
	h     uint64
	n     int
	flags uint8
}

// bandKeyOf is the key of a band of a PNG of colour type ct, rowBytes a
// row, whose rows are filtered from src; first and last say whether it is
// the picture's first band (whose first row has no row above) and its
// last (which ends the stream).
func bandKeyOf(ct byte, rowBytes int, first, last bool, src []byte) bandKey {
	var h maphash.Hash
	h.SetSeed(bandsKept.seed)
	var b [9]byte
	b[0] = ct
	binary.LittleEndian.PutUint64(b[1:], uint64(rowBytes))
	h.Write(b[:])
	h.Write(src)
	k := bandKey{h: h.Sum64(), n: len(src), flags: ct}
	if first {
		k.flags |= 1 << 6
	}
	if last {
		k.flags |= 1 << 7
	}
	return k
}

// maxBandBytes bounds the compressed bands kept: two generations of at
// most this many bytes (a late board's bands are about 250 KB, its
// truecolour and its paletted ones).
const maxBandBytes = 4 << 20

// bandCache keeps compressed bands in two generations (see
// generations), with the seed their names are hashed with.
type bandCache struct {
	*generations[*band]
	seed maphash.Seed
}

var bandsKept = &bandCache{generations: newGenerations(maxBandBytes, func(b *band) int { return len(b.data) }), seed: maphash.MakeSeed()}

// rgbBandKeys names img's bands of bandRows rows as encodeRGB's bands
// are named (see encodeRows): each by every byte its filtered rows are
// made of, its own rows and the row above. It returns nil when img's
// rows are not contiguous (its bands are then neither kept nor found).
func rgbBandKeys(img *image.RGBA) []bandKey {
	b := img.Bounds()
	width, height := b.Dx(), b.Dy()
	if img.Stride != 4*width || width == 0 || height == 0 {
		return nil
	}
	nb := (height + bandRows - 1) / bandRows
	keys := make([]bandKey, nb)
	for i := range keys {
		y0, y1 := i*bandRows, min((i+1)*bandRows, height)
		keys[i] = bandKeyOf(2, 3*width, y0 == 0, i == nb-1, img.Pix[max(0, y0-1)*img.Stride:y1*img.Stride])
	}
	return keys
}

// maxBandSizes bounds the band sizes remembered (see bandSizes): two
// generations of at most this many bands (a board has 16 to 18), so the
// sizes of the last 8,000 to 16,000 boards; 21 MB of heap when both are
// full (measured).
const maxBandSizes = 1 << 17

// bandSizes remembers the compressed size of every truecolour band
// compressed against a limit, long after bandsKept has dropped its bytes:
// players move days apart, and between two moves of a game a server
// draws the boards of many others. The size of a late board's truecolour
// file, which only decides that it is written with a palette, is then
// known from its unchanged bands without compressing them (see
// encodeRows). A band's size depends only on its bytes, which its name
// covers, so the decision is the one compressing would make.
var bandSizes = newGenerations(maxBandSizes, func(int32) int { return 1 })

// maxKeptRuns bounds the counted bands kept (see coloursKept): two
// generations of at most this many runs (8 bytes each); a late board has
// about 90,000.
const maxKeptRuns = 400_000

// coloursKept keeps bands of rows counted for a palette (see
// colourTable), named as their truecolour bands are (rgbBandKeys), in
// two generations as bandsKept keeps compressed bands. A board drawn
// with a palette is most often its game's previous board with one tile,
// the last move's marks and the panel changed: its other bands are
// counted already.
var coloursKept = newGenerations(maxKeptRuns, func(b *bandColours) int { return len(b.runs) })
