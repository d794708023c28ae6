package web

// Compression: the pages are text (HTML, the board's SVG inline, JSON,
// the style sheet and the script) that gzip makes four to ten times
// smaller, which is most of a phone's wait on a slow network. The
// standard library's gzip, at its fastest level: the pages are made per
// request, and level 1 already takes most of what gzip can.

import (
	"compress/gzip"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// minGzip is the smallest answer worth compressing: below it gzip's own
// header and a packet's size make no difference.
const minGzip = 512

// compressible reports whether a Content-Type is text that gzip shrinks.
func compressible(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false
	}
	switch mt {
	case "text/html", "text/css", "text/plain", "text/javascript", "application/javascript",
		"application/json", "image/svg+xml":
		return true
	}
	return false
}

var gzipWriters = sync.Pool{New: func() any {
	w, _ := gzip.NewWriterLevel(io.Discard, gzip.BestSpeed)
	return w
}}

// gzipped compresses the answers of next that are text, for a client
// that accepts gzip. A live stream (text/event-stream) is never
// compressed: each event must leave at once.
func gzipped(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Vary", "Accept-Encoding")
		if r.Method == http.MethodHead || !acceptsGzip(r.Header.Get("Accept-Encoding")) {
			next.ServeHTTP(w, r)
			return
		}
		gw := &gzipWriter{ResponseWriter: w}
		defer gw.close()
		next.ServeHTTP(gw, r)
	})
}

// acceptsGzip reads an Accept-Encoding header: gzip (or *) without q=0.
func acceptsGzip(header string) bool {
	for part := range strings.SplitSeq(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		name = strings.ToLower(strings.TrimSpace(name))
		if name != "gzip" && name != "*" {
			continue
		}
		k, v, ok := strings.Cut(strings.TrimSpace(params), "=")
		if !ok || strings.TrimSpace(strings.ToLower(k)) != "q" {
			return true
		}
		q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		return err == nil && q > 0
	}
	return false
}

// gzipWriter decides at the answer's first byte (or its header) whether
// to compress it: a text type, a body not already encoded, a status with
// a body.
type gzipWriter struct {
	http.ResponseWriter
	decided bool
	gz      *gzip.Writer // nil: passed through
	code    int
	small   []byte // the first bytes, until there are minGzip of them
}

func (g *gzipWriter) WriteHeader(code int) {
	if g.decided || g.code != 0 {
		if g.decided && g.gz == nil {
			g.ResponseWriter.WriteHeader(code)
		}
		return
	}
	if code >= 100 && code < 200 {
		g.ResponseWriter.WriteHeader(code)
		return
	}
	g.code = code
	h := g.Header()
	if code == http.StatusNoContent || code == http.StatusNotModified || code == http.StatusPartialContent ||
		h.Get("Content-Encoding") != "" || h.Get("Content-Range") != "" || !compressible(h.Get("Content-Type")) {
		g.passThrough()
	}
}

// passThrough sends the header as it is and every byte after it as given.
func (g *gzipWriter) passThrough() {
	g.decided = true
	if g.code == 0 {
		g.code = http.StatusOK
	}
	g.ResponseWriter.WriteHeader(g.code)
	if len(g.small) > 0 {
		g.ResponseWriter.Write(g.small)
		g.small = nil
	}
}

// startGzip sends the header of a compressed answer.
func (g *gzipWriter) startGzip() {
	g.decided = true
	h := g.Header()
	h.Set("Content-Encoding", "gzip")
	h.Del("Content-Length")
	h.Del("Accept-Ranges") // byte ranges of the plain file no longer apply
	g.ResponseWriter.WriteHeader(g.code)
	g.gz = gzipWriters.Get().(*gzip.Writer)
	g.gz.Reset(g.ResponseWriter)
	if len(g.small) > 0 {
		g.gz.Write(g.small)
		g.small = nil
	}
}

func (g *gzipWriter) Write(b []byte) (int, error) {
	if !g.decided {
		if g.code == 0 {
			if g.Header().Get("Content-Type") == "" {
				g.Header().Set("Content-Type", http.DetectContentType(b))
			}
			g.WriteHeader(http.StatusOK)
		}
		if !g.decided {
			g.small = append(g.small, b...)
			if len(g.small) < minGzip {
				return len(b), nil
			}
			g.startGzip()
			return len(b), nil
		}
	}
	if g.gz != nil {
		return g.gz.Write(b)
	}
	return g.ResponseWriter.Write(b)
}

// Flush sends what is written so far (http.ResponseController calls it).
func (g *gzipWriter) Flush() {
	if !g.decided {
		if g.code == 0 {
			g.code = http.StatusOK
		}
		if compressible(g.Header().Get("Content-Type")) && g.Header().Get("Content-Encoding") == "" {
			g.startGzip()
		} else {
			g.passThrough()
		}
	}
	if g.gz != nil {
		g.gz.Flush()
	}
	if f, ok := g.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection (deadlines).
func (g *gzipWriter) Unwrap() http.ResponseWriter { return g.ResponseWriter }

// close ends the answer: a short one goes out plain (with its length), a
// long one ends its gzip stream.
func (g *gzipWriter) close() {
	if !g.decided {
		if g.code == 0 && len(g.small) == 0 {
			return // nothing written: net/http answers 200 with no body
		}
		g.passThrough()
	}
	if g.gz != nil {
		g.gz.Close()
		g.gz.Reset(io.Discard)
		gzipWriters.Put(g.gz)
		g.gz = nil
	}
}
