package mail_test

import (
	"encoding/base64"
	"io"
	"strings"
)

// base64Reader decodes a base64 body whose lines end in CRLF.
func base64Reader(r io.Reader) io.Reader {
	b, _ := io.ReadAll(r)
	s := strings.NewReplacer("\r", "", "\n", "").Replace(string(b))
	d, _ := base64.StdEncoding.DecodeString(s)
	return strings.NewReader(string(d))
}
