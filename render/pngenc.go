package render

import (
	"bufio"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"image"
	"io"
)

// encodeRGB writes an opaque RGBA image as an 8-bit truecolour PNG with
// the "Up" filter on every row. image/png tries all five filters on every
// row, which costs more than drawing the board; the boards are mostly flat
// colour, which "Up" compresses about as well (measured in
// docs/benchmarks.md). The output is a standard PNG: tests decode it with
// image/png.
func encodeRGB(w io.Writer, img *image.RGBA) error {
	b := img.Bounds()
	width, height := b.Dx(), b.Dy()
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString("\x89PNG\r\n\x1a\n")
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(width))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(height))
	ihdr[8], ihdr[9] = 8, 2 // 8 bits, truecolour
	writeChunk(bw, "IHDR", ihdr[:])

	cw := &chunkWriter{w: bw}
	zw, err := zlib.NewWriterLevel(cw, zlib.BestSpeed)
	if err != nil {
		return err
	}
	row := make([]byte, 1+3*width)
	prev := make([]byte, 3*width)
	cur := make([]byte, 3*width)
	for y := 0; y < height; y++ {
		src := img.Pix[y*img.Stride : y*img.Stride+4*width]
		for x := 0; x < width; x++ {
			cur[3*x], cur[3*x+1], cur[3*x+2] = src[4*x], src[4*x+1], src[4*x+2]
		}
		row[0] = 2 // Up
		for i := range cur {
			row[1+i] = cur[i] - prev[i]
		}
		if _, err := zw.Write(row); err != nil {
			return err
		}
		prev, cur = cur, prev
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if err := cw.flush(); err != nil {
		return err
	}
	writeChunk(bw, "IEND", nil)
	return bw.Flush()
}

func writeChunk(w *bufio.Writer, typ string, data []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	w.Write(n[:])
	w.WriteString(typ)
	w.Write(data)
	crc := crc32.NewIEEE()
	crc.Write([]byte(typ))
	crc.Write(data)
	binary.BigEndian.PutUint32(n[:], crc.Sum32())
	w.Write(n[:])
}

// chunkWriter cuts the compressed stream into IDAT chunks.
type chunkWriter struct {
	w   *bufio.Writer
	buf []byte
}

func (c *chunkWriter) Write(p []byte) (int, error) {
	c.buf = append(c.buf, p...)
	for len(c.buf) >= 32<<10 {
		writeChunk(c.w, "IDAT", c.buf[:32<<10])
		c.buf = c.buf[32<<10:]
	}
	return len(p), nil
}

func (c *chunkWriter) flush() error {
	if len(c.buf) > 0 {
		writeChunk(c.w, "IDAT", c.buf)
		c.buf = nil
	}
	return nil
}
