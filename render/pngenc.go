package render

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"io"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/klauspost/compress/flate"
)

// encodeRGB writes an opaque RGBA image as an 8-bit truecolour PNG. Three
// choices make it several times faster than image/png on a board, with
// files as small:
//   - every row uses the "Up" filter, where image/png tries all five
//     filters on every row (boards are mostly flat colour, which "Up"
//     compresses about as well);
//   - the rows are compressed in bands of bandRows, on every core at
//     once, each band on its own, and the bands joined into one zlib
//     stream (each ends on a sync flush, as pigz does); a band is kept, and
//     the next picture with the same rows takes it as it is (see
//     encodeRows);
//   - the compressor is klauspost/compress's deflate, whose fastest level
//     took 2.4-2.8 ms on a late Elemental board's 2.2 MB of filtered rows
//     where compress/flate's BestSpeed took 6.0-6.4 ms, for a file 1% larger.
//
// The output is a standard PNG; tests decode it with image/png and compare
// every pixel.
func encodeRGB(w io.Writer, img *image.RGBA) error {
	return encodeRGBUnder(w, img, 0, rgbBandKeys(img))
}

// errTooLarge is encodeRGBUnder's answer for a picture whose file would
// reach its limit.
var errTooLarge = errors.New("render: the truecolour file reaches the limit")

// errNotOpaque is the answer of encodeRGBUnder and encodeOwnPalette for a
// picture with a pixel not fully opaque, which they cannot write (Encode
// then writes it with image/png). They learn it from the pixels they read
// anyway, rather than reading the picture once more first.
var errNotOpaque = errors.New("render: a pixel is not opaque")

// encodeRGBUnder is encodeRGB that gives up, returning errTooLarge, as soon
// as the file is sure to reach limit bytes (0: no limit): a board whose
// truecolour file is too large is written with a palette instead, and the
// rest of its rows need not be compressed to learn it. It returns
// errNotOpaque, having written nothing, when a row it filters has a pixel
// not fully opaque (a row whose band it found kept was opaque: a band is
// kept by every byte of its rows, alpha included, and only once written).
// keys are img's bands' names (rgbBandKeys), nil when its bands are
// neither kept nor found.
func encodeRGBUnder(w io.Writer, img *image.RGBA, limit int, keys []bandKey) error {
	b := img.Bounds()
	width := b.Dx()
	return encodeRows(w, width, b.Dy(), 3*width, 2, nil, limit, bandRows, keys, func(y int, row []byte) bool { return rgbRow(img, y, row) })
}

// rgbRow writes row y of img, filtered, as encodeRGB writes it: the
// filter byte, then 3 bytes a pixel. It reports whether every pixel of
// the row is fully opaque.
func rgbRow(img *image.RGBA, y int, row []byte) bool {
	width := img.Bounds().Dx()
	src := img.Pix[y*img.Stride : y*img.Stride+4*width]
	row[0] = 2 // Up: each byte minus the one above
	if y == 0 {
		ok := true
		for x := 0; x < width; x++ {
			row[1+3*x], row[2+3*x], row[3+3*x] = src[4*x], src[4*x+1], src[4*x+2]
			ok = ok && src[4*x+3] == 255
		}
		return ok
	}
	return upFilter(row[1:1+3*width], src, img.Pix[(y-1)*img.Stride:(y-1)*img.Stride+4*width])
}

// upFilter writes the "Up" filter of one row of RGBA pixels (src, and up
// the row above) as RGB bytes into dst (3 bytes a pixel): each byte minus
// the one above, modulo 256. Two pixels' eight bytes are subtracted at
// once (lane by lane, no borrow crossing a byte: Hacker's Delight 2-18),
// and their six colour bytes written as a word whose last two bytes the
// next pixels overwrite; the last pixels are written byte by byte, so
// that nothing past dst is touched. It reports whether every pixel of src
// is fully opaque (the words' alpha bytes ANDed together on the way).
func upFilter(dst, src, up []byte) bool {
	const hi = 0x8080808080808080
	const alphas = 0xff000000ff000000
	n := len(src) / 4
	src, up, dst = src[:4*n], up[:4*n], dst[:3*n]
	x := 0
	all := uint64(alphas)
	for ; x+2 < n; x += 2 {
		a := binary.LittleEndian.Uint64(src[4*x : 4*x+8])
		c := binary.LittleEndian.Uint64(up[4*x : 4*x+8])
		all &= a
		d := ((a | hi) - (c &^ hi)) ^ ((a ^ ^c) & hi)
		binary.LittleEndian.PutUint64(dst[3*x:3*x+8], d&0xffffff|d>>8&0xffffff000000)
	}
	ok := all&alphas == alphas
	for ; x < n; x++ {
		dst[3*x] = src[4*x] - up[4*x]
		dst[3*x+1] = src[4*x+1] - up[4*x+1]
		dst[3*x+2] = src[4*x+2] - up[4*x+2]
		ok = ok && src[4*x+3] == 255
	}
	return ok
}

// encodePaletted writes a paletted image of at most 256 opaque colours
// as an 8-bit indexed PNG, its rows unfiltered (as image/png writes a
// paletted image) and compressed like encodeRGB's.
func encodePaletted(w io.Writer, img *image.Paletted) error {
	b := img.Bounds()
	width := b.Dx()
	plte := make([]byte, 0, 3*len(img.Palette))
	for _, c := range img.Palette {
		r, g, bl, _ := c.RGBA()
		plte = append(plte, byte(r>>8), byte(g>>8), byte(bl>>8))
	}
	return encodePalettedPix(w, width, b.Dy(), img.Pix, img.Stride, plte)
}

// encodePalettedPix is encodePaletted of the pixels pix (rows stride
// apart), with plte the palette's RGB bytes.
func encodePalettedPix(w io.Writer, width, height int, pix []uint8, stride int, plte []byte) error {
	// One piece per core, none kept: the palette's order changes with its
	// counts from one move to the next, so a paletted band was seldom
	// found again, and bands of 64 rows made the file up to 8% larger.
	n := min(runtime.GOMAXPROCS(0), 4, height)
	return encodeRows(w, width, height, width, 3, plte, 0, (height+n-1)/max(n, 1), nil, func(y int, row []byte) bool {
		row[0] = 0 // None
		copy(row[1:], pix[y*stride:y*stride+width])
		return true
	})
}

// encodeRows writes a PNG of 8-bit samples: IHDR (colour type ct), PLTE
// when plte is not nil, one IDAT and IEND. filter writes row y (its
// filter byte, then rowBytes bytes), and reports false to stop with
// errNotOpaque; keys name the bands by every byte their rows are
// filtered from (see rgbBandKeys), or are nil (no band is kept).
//
// The rows are compressed in bands of rows rows, each by a compressor of
// its own (no match reaches into the band before), ending on a sync
// flush, as pigz joins its pieces, the last band on the final block; the
// bands are compressed on as many cores as there are, at once, and
// joined into one zlib stream. A band depends only on its own rows, so
// it is kept (see bandCache) and the next picture with the same rows,
// most often the same game's next move, where one tile and the panel
// changed, takes it as it is. The bytes do not depend on the number of
// cores nor on what was kept (TestBandsSameBytes). (A paletted picture
// is written in one band per core, kept nowhere: see encodePalettedPix.)
//
// With limit above 0 it returns errTooLarge, having written nothing, as
// soon as the bands compressed or found make the file at least limit
// bytes: the file is never smaller than its bands.
func encodeRows(w io.Writer, width, height, rowBytes int, ct byte, plte []byte, limit, rows int, keys []bandKey, filter func(y int, row []byte) bool) error {
	stride := 1 + rowBytes
	if rows <= 0 || width == 0 {
		return errors.New("render: an empty picture")
	}
	nb := (height + rows - 1) / rows
	if nb == 0 {
		return errors.New("render: an empty picture")
	}
	bands := make([]*band, nb)
	if keys != nil && len(keys) != nb {
		return errors.New("render: band keys for another picture")
	}
	var total atomic.Int64 // compressed bytes of the bands so far, and of those whose size is remembered
	var todo []int
	// sized: the size each band to compress had when it was compressed
	// for an earlier picture (see bandSizes), 0 when unknown. Such a band
	// is counted in total at once and compressed last, only when the file
	// is written: its bytes are the same (a band is named by its rows).
	var sized []int32
	if limit > 0 && keys != nil {
		sized = make([]int32, nb)
	}
	for i := range bands {
		if keys == nil {
			todo = append(todo, i)
			continue
		}
		bands[i] = bandsKept.get(keys[i])
		if bands[i] != nil {
			total.Add(int64(len(bands[i].data)))
			continue
		}
		todo = append(todo, i)
		if sized != nil {
			sized[i] = bandSizes.get(keys[i])
			total.Add(int64(sized[i]))
		}
	}
	over := func() bool { return limit > 0 && int(total.Load())+pngOverhead(plte) >= limit }
	if over() {
		return errTooLarge
	}
	// lazy: the file is likely to be given up, as the last picture of
	// its shape was (its bands known then reached the limit); the bands'
	// Adler-32 is then left until the file is written (most often never).
	lazy := false
	if limit > 0 {
		// Largest first, as the last picture of this shape had them: a
		// file that reaches the limit reaches it after fewer bands. The
		// bands of a remembered size go last: they add nothing to learn.
		pk := priorKey{width, height, rowBytes, rows}
		lazy = bandPrior.order(pk, todo)+pngOverhead(plte) >= limit
		if sized != nil {
			slices.SortStableFunc(todo, func(a, b int) int { return cmp.Compare(min(sized[a], 1), min(sized[b], 1)) })
		}
		defer func() { bandPrior.note(pk, bands) }()
	}

	var next atomic.Int64
	var failed atomic.Bool
	errs := make([]error, min(runtime.GOMAXPROCS(0), 4, len(todo)))
	var wg sync.WaitGroup
	for k := range errs {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			fw := flatePool.get()
			scratch := rawPool.get()
			defer rawPool.put(scratch)
			for !failed.Load() {
				j := int(next.Add(1)) - 1
				if j >= len(todo) {
					break
				}
				i := todo[j]
				y0, y1 := i*rows, min((i+1)*rows, height)
				scratch.Reset()
				scratch.Grow((y1 - y0) * stride)
				data := scratch.Bytes()[:(y1-y0)*stride]
				ok := true
				for y := y0; y < y1 && ok; y++ {
					ok = filter(y, data[(y-y0)*stride:(y-y0+1)*stride])
				}
				if !ok {
					errs[k] = errNotOpaque
					failed.Store(true)
					break
				}
				var out bytes.Buffer
				out.Grow(len(data) / 8)
				var err error
				if fw == nil {
					fw, err = flate.NewWriter(&out, flate.BestSpeed)
				} else {
					fw.Reset(&out)
				}
				if err == nil {
					_, err = fw.Write(data)
				}
				if err == nil {
					if i == nb-1 {
						err = fw.Close() // the final block
					} else {
						err = fw.Flush() // byte-aligned, not final: the next band follows
					}
				}
				if err != nil {
					errs[k] = err
					failed.Store(true)
					break
				}
				b := &band{data: out.Bytes(), n: len(data)}
				if !lazy {
					b.setAdler(adlerSum(data))
				}
				bands[i] = b
				if keys != nil {
					bandsKept.put(keys[i], b)
					if limit > 0 {
						bandSizes.put(keys[i], int32(len(b.data)))
					}
				}
				if sized == nil || sized[i] == 0 {
					total.Add(int64(len(b.data)))
				}
				if over() {
					errs[k] = errTooLarge
					failed.Store(true)
					break
				}
			}
			if fw != nil {
				flatePool.put(fw)
			}
		}(k)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	var sum uint32
	parts := make([][]byte, len(bands))
	var scratch *bytes.Buffer
	for i, b := range bands {
		parts[i] = b.data
		s, ok := b.adler()
		if !ok {
			// Compressed for a file given up before: its rows filtered
			// again (the same bytes: a band is found by its source rows).
			if scratch == nil {
				scratch = rawPool.get()
				defer rawPool.put(scratch)
			}
			y0, y1 := i*rows, min((i+1)*rows, height)
			scratch.Reset()
			scratch.Grow((y1 - y0) * stride)
			data := scratch.Bytes()[:(y1-y0)*stride]
			for y := y0; y < y1; y++ {
				filter(y, data[(y-y0)*stride:(y-y0+1)*stride])
			}
			s = adlerSum(data)
			b.setAdler(s)
		}
		if i == 0 {
			sum = s
		} else {
			sum = adler32Combine(sum, s, b.n)
		}
	}
	return writePNG(w, width, height, ct, plte, parts, sum)
}

// bandPrior keeps, for each shape of picture, the compressed size of each
// band of the last picture of that shape written with a limit, so that
// the next one compresses its bands largest first. Which bands are
// compressed before the limit is reached, and so the time given up on a
// file too large, is all it changes: a file is written, or given up, by
// the sum of its bands, whatever their order (and written in the order
// of its rows).
var bandPrior = &priors{m: map[priorKey][]int{}}

type priorKey struct{ width, height, rowBytes, rows int }

type priors struct {
	sync.Mutex
	m map[priorKey][]int
}

// order sorts todo (band numbers) by the last sizes of k, largest first,
// and returns the sum of those sizes (0 when none is known).
func (p *priors) order(k priorKey, todo []int) int {
	p.Lock()
	sizes := slices.Clone(p.m[k])
	p.Unlock()
	if len(sizes) == 0 {
		return 0
	}
	total := 0
	for _, n := range sizes {
		total += n
	}
	size := func(i int) int {
		if i < len(sizes) {
			return sizes[i]
		}
		return 0
	}
	slices.SortStableFunc(todo, func(a, b int) int { return size(b) - size(a) })
	return total
}

// note keeps the sizes of the bands known (compressed or found).
func (p *priors) note(k priorKey, bands []*band) {
	p.Lock()
	defer p.Unlock()
	sizes := p.m[k]
	if len(sizes) != len(bands) {
		if len(p.m) >= 64 {
			clear(p.m)
		}
		sizes = make([]int, len(bands))
		p.m[k] = sizes
	}
	for i, b := range bands {
		if b != nil {
			sizes[i] = len(b.data)
		}
	}
}

// writePNG writes a PNG of 8-bit samples: IHDR (colour type ct), PLTE
// when plte is not nil, one IDAT of the zlib header, the deflate blocks
// parts and the rows' Adler-32, and IEND.
func writePNG(w io.Writer, width, height int, ct byte, plte []byte, parts [][]byte, sum uint32) error {
	out := &chunkWriter{w: w}
	out.write([]byte("\x89PNG\r\n\x1a\n"))
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(width))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(height))
	ihdr[8], ihdr[9] = 8, ct // 8 bits per sample
	out.chunk("IHDR", ihdr[:])
	if plte != nil {
		out.chunk("PLTE", plte)
	}
	// The pieces written one by one (no copy of the whole).
	var tail [4]byte
	binary.BigEndian.PutUint32(tail[:], sum)
	idat := make([][]byte, 0, len(parts)+2)
	idat = append(idat, []byte{0x78, 0x01})
	idat = append(idat, parts...)
	out.chunk("IDAT", append(idat, tail[:])...)
	out.chunk("IEND")
	return out.err
}

// encodeStream writes img as encodeRGB wrote it before the bands: its
// rows compressed in one stream per core (at most 4), each ending on a
// sync flush, the last on the final block. Encode decides by its size
// whether a board near MaxPictureBytes is too large, so that the bands
// change no board's picture (see tooLarge).
func encodeStream(w io.Writer, img *image.RGBA) error {
	b := img.Bounds()
	width, height := b.Dx(), b.Dy()
	stride := 1 + 3*width
	n := min(runtime.GOMAXPROCS(0), 4, height)
	rowsPer := (height + n - 1) / n
	parts := make([]bytes.Buffer, n)
	sums := make([]uint32, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			y0, y1 := i*rowsPer, min((i+1)*rowsPer, height)
			fw, err := flate.NewWriter(&parts[i], flate.BestSpeed)
			if err != nil {
				errs[i] = err
				return
			}
			sum := uint32(1)
			row := make([]byte, stride)
			for y := y0; y < y1 && err == nil; y++ {
				rgbRow(img, y, row)
				sum = adlerUpdate(sum, row)
				_, err = fw.Write(row)
			}
			if err == nil && i == n-1 {
				err = fw.Close()
			} else if err == nil {
				err = fw.Flush()
			}
			sums[i], errs[i] = sum, err
		}(i)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	sum := sums[0]
	out := make([][]byte, n)
	for i := range parts {
		out[i] = parts[i].Bytes()
		if i > 0 {
			y0, y1 := i*rowsPer, min((i+1)*rowsPer, height)
			sum = adler32Combine(sum, sums[i], (y1-y0)*stride)
		}
	}
	return writePNG(w, width, height, 2, nil, out, sum)
}

// countWriter counts what is written to it.
type countWriter struct{ n int }

func (c *countWriter) Write(p []byte) (int, error) {
	c.n += len(p)
	return len(p), nil
}

// pngOverhead is a PNG's bytes besides its compressed rows: the
// signature, IHDR, PLTE, the IDAT's header, zlib's header and checksum,
// and IEND.
func pngOverhead(plte []byte) int {
	n := 8 + (12 + 13) + (12 + 2 + 4) + 12
	if plte != nil {
		n += 12 + len(plte)
	}
	return n
}

// chunkWriter writes PNG chunks, keeping the first error.
type chunkWriter struct {
	w   io.Writer
	err error
}

func (c *chunkWriter) write(b []byte) {
	if c.err == nil {
		_, c.err = c.w.Write(b)
	}
}

// chunk writes one chunk whose data is the pieces joined.
func (c *chunkWriter) chunk(typ string, pieces ...[]byte) {
	n := 0
	for _, p := range pieces {
		n += len(p)
	}
	var head [8]byte
	binary.BigEndian.PutUint32(head[:4], uint32(n))
	copy(head[4:], typ)
	c.write(head[:])
	crc := crc32.NewIEEE()
	crc.Write(head[4:])
	for _, p := range pieces {
		c.write(p)
		crc.Write(p)
	}
	var sum [4]byte
	binary.BigEndian.PutUint32(sum[:], crc.Sum32())
	c.write(sum[:])
}

var rawPool = newKeep(4, func() *bytes.Buffer { return new(bytes.Buffer) })

// flatePool keeps compressors: each holds about 1 MB of tables.
var flatePool = newKeep(8, func() *flate.Writer { return nil })

// adler32Combine is the Adler-32 of two pieces joined, from their sums and
// the second's length (zlib's adler32_combine).
func adler32Combine(a1, a2 uint32, len2 int) uint32 {
	const base = 65521
	rem := uint32(len2 % base)
	sum1 := a1 & 0xffff
	sum2 := (rem * sum1) % base
	sum1 += (a2 & 0xffff) + base - 1
	sum2 += (a1 >> 16) + (a2 >> 16) + base - rem
	if sum1 >= base {
		sum1 -= base
	}
	if sum1 >= base {
		sum1 -= base
	}
	if sum2 >= base<<1 {
		sum2 -= base << 1
	}
	if sum2 >= base {
		sum2 -= base
	}
	return sum1 | sum2<<16
}
