package mail

import (
	"bytes"
	"encoding/base64"
	"io"
	"mime"
	"mime/quotedprintable"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/transform"
)

// charsetReader decodes from any charset the WHATWG encoding index knows
// (ISO-8859-x, windows-125x, Shift_JIS, GB18030, KOI8-R, ...), for
// mime.WordDecoder and the bodies.
func charsetReader(charset string, input io.Reader) (io.Reader, error) {
	switch strings.ToLower(charset) {
	case "", "utf-8", "utf8", "us-ascii", "ascii":
		return input, nil
	}
	enc, err := htmlindex.Get(charset)
	if err != nil {
		return nil, err
	}
	return transform.NewReader(input, enc.NewDecoder()), nil
}

var wordDecoder = &mime.WordDecoder{CharsetReader: charsetReader}

// decodeHeader decodes RFC 2047 words; a header that does not decode is
// kept as it came (cleaned to valid UTF-8).
func decodeHeader(s string) string {
	d, err := wordDecoder.DecodeHeader(s)
	if err != nil {
		d = s
	}
	return strings.ToValidUTF8(d, "\uFFFD")
}

// decodeBody undoes the transfer encoding, then the charset, of at most
// limit bytes of body; the result is valid UTF-8.
func decodeBody(body []byte, transferEncoding, charset string, limit int) string {
	var r io.Reader = bytes.NewReader(body)
	switch strings.ToLower(strings.TrimSpace(transferEncoding)) {
	case "quoted-printable":
		r = quotedprintable.NewReader(r)
	case "base64":
		r = base64.NewDecoder(base64.StdEncoding, &base64Clean{r: r})
	}
	if cr, err := charsetReader(charset, r); err == nil {
		r = cr
	}
	b, _ := io.ReadAll(io.LimitReader(r, int64(limit))) // a broken tail is dropped
	if !utf8.Valid(b) {
		b = bytes.ToValidUTF8(b, []byte("\uFFFD"))
	}
	return string(b)
}

// base64Clean drops what is not base64's alphabet (line ends, spaces),
// as mail readers do, so that a body wrapped oddly still decodes.
type base64Clean struct{ r io.Reader }

func (c *base64Clean) Read(p []byte) (int, error) {
	for {
		n, err := c.r.Read(p)
		j := 0
		for _, b := range p[:n] {
			if 'A' <= b && b <= 'Z' || 'a' <= b && b <= 'z' || '0' <= b && b <= '9' || b == '+' || b == '/' || b == '=' {
				p[j] = b
				j++
			}
		}
		if j > 0 || err != nil {
			return j, err
		}
	}
}
