package web

// A kept page is compressed once, when it is made, not at every answer.
// Under 50 requests at once, gzip was most of the CPU an answer took
// (about two thirds of a player's page, profiled in
// BenchmarkConcurrentPages), and a player's page could not be kept
// compressed since each answer fills in its own CSRF token and form key.
//
// So a page is cut at its placeholders, and each piece between them is
// deflated once, flushed to a byte boundary (flate's Flush: a sync
// marker, no final block). An answer is the gzip header, the pieces,
// each placeholder's value as a stored block (deflate's uncompressed
// block: a byte 0, the length and its complement, the bytes), a final
// empty stored block and the gzip trailer (the CRC-32 and length of what
// it decompresses to). Any inflater reads it as one stream; the tests
// read it with compress/gzip and Chromium.

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/crc32"
	"io"
	"net/http"
	"strconv"
	"sync"
)

// packedPage is a page kept in the page cache: its text (a player's with
// placeholders) and the same cut at the placeholders and deflated.
type packedPage struct {
	plain []byte
	parts []packedPart
	crc   uint32 // the whole page's CRC-32 when it has no placeholder
}

// packedPart is the text up to a placeholder (or the end), deflated, and
// which placeholder follows it (fillNone after the last).
type packedPart struct {
	text, deflated []byte
	fill           int
}

const (
	fillNone = iota
	fillCSRF
	fillKey
)

// pack cuts a page at its placeholders (only a player's page has them:
// a spectator's is one piece, whatever its text says) and deflates the
// pieces, unless it is kept only to be put in pages (compress false: the
// board's SVG).
func pack(page []byte, personal, compress bool) (*packedPage, error) {
	p := &packedPage{plain: page}
	rest := page
	for {
		cut, fill, n := len(rest), fillNone, 0
		if personal {
			if i := bytes.Index(rest, []byte(csrfMarker)); i >= 0 {
				cut, fill, n = i, fillCSRF, len(csrfMarker)
			}
			if i := bytes.Index(rest[:cut], []byte(keyMarker)); i >= 0 {
				cut, fill, n = i, fillKey, len(keyMarker)
			}
		}
		part := packedPart{text: rest[:cut], fill: fill}
		if len(part.text) > 0 && compress {
			var buf bytes.Buffer
			fw := deflaters.Get().(*flate.Writer)
			fw.Reset(&buf)
			fw.Write(part.text)
			err := fw.Flush()
			deflaters.Put(fw)
			if err != nil {
				return nil, err
			}
			part.deflated = buf.Bytes()
		}
		p.parts = append(p.parts, part)
		if fill == fillNone {
			break
		}
		rest = rest[cut+n:]
	}
	if len(p.parts) == 1 {
		p.crc = crc32.ChecksumIEEE(page)
	}
	return p, nil
}

// fills are an answer's values of the placeholders.
type fills struct{ csrf, key string }

func (f fills) of(fill int) string {
	switch fill {
	case fillCSRF:
		return f.csrf
	case fillKey:
		return f.key
	}
	return ""
}

// text is the page with its placeholders filled in.
func (p *packedPage) text(f fills) []byte {
	if len(p.parts) == 1 {
		return p.plain
	}
	out := make([]byte, 0, len(p.plain)+64)
	for _, part := range p.parts {
		out = append(out, part.text...)
		out = append(out, f.of(part.fill)...)
	}
	return out
}

// gzip is the page with its placeholders filled in, as one gzip stream.
func (p *packedPage) gzip(f fills) []byte {
	size := 10 + 5 + 8
	for _, part := range p.parts {
		size += len(part.deflated) + 5 + len(f.of(part.fill))
	}
	out := make([]byte, 0, size)
	// The header: magic, deflate, no flags, no time, no extra flags, OS unknown.
	out = append(out, 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255)
	crc, n := p.crc, 0
	for _, part := range p.parts {
		out = append(out, part.deflated...)
		v := f.of(part.fill)
		if len(p.parts) > 1 {
			crc = crc32.Update(crc, crc32.IEEETable, part.text)
			crc = crc32.Update(crc, crc32.IEEETable, []byte(v))
		}
		n += len(part.text) + len(v)
		for len(v) > 0 { // a stored block holds at most 65,535 bytes
			m := min(len(v), 0xffff)
			out = append(out, 0, byte(m), byte(m>>8), ^byte(m), ^byte(m>>8))
			out = append(out, v[:m]...)
			v = v[m:]
		}
	}
	out = append(out, 1, 0, 0, 0xff, 0xff) // the final block: stored, empty
	out = binary.LittleEndian.AppendUint32(out, crc)
	return binary.LittleEndian.AppendUint32(out, uint32(n))
}

// write answers with the page, gzipped when the client takes it.
func (p *packedPage) write(w http.ResponseWriter, r *http.Request, code int, f fills) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	var body []byte
	if r.Method != http.MethodHead && acceptsGzip(r.Header.Get("Accept-Encoding")) && len(p.plain) >= minGzip {
		body = p.gzip(f)
		h.Set("Content-Encoding", "gzip") // the gzipped handler passes it as it is
	} else {
		body = p.text(f)
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(code)
	w.Write(body)
}

var deflaters = sync.Pool{New: func() any {
	w, _ := flate.NewWriter(io.Discard, flate.BestSpeed)
	return w
}}
