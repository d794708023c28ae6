package web

import (
	"bytes"
	"compress/gzip"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestPackedPage: a kept page, cut at its placeholders and deflated once,
// is read by compress/gzip as the page with the answer's values filled
// in, wherever the placeholders are (at either end, side by side,
// repeated), whatever the values' length (past a stored block's 65,535
// bytes too); a spectator's page is one piece whatever its text says.
func TestPackedPage(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"<div>", "board", csrfMarker, keyMarker, " ", "\n", "éà", "<svg viewBox=\"0 0 9 9\">"}
	pages := []string{"", csrfMarker, keyMarker + csrfMarker, "a" + keyMarker, csrfMarker + "z"}
	for range 12 {
		var b strings.Builder
		for range rng.IntN(1500) {
			b.WriteString(words[rng.IntN(len(words))])
		}
		pages = append(pages, b.String())
	}
	for i, page := range pages {
		f := fills{csrf: "CSRF-" + strings.Repeat("c", i), key: "key" + strings.Repeat("k", i%3)}
		if i == 7 {
			f.key = strings.Repeat("x", 70000)
		}
		want := strings.ReplaceAll(strings.ReplaceAll(page, csrfMarker, f.csrf), keyMarker, f.key)
		for _, personal := range []bool{true, false} {
			if !personal {
				want = page
			}
			p, err := pack([]byte(page), personal, true)
			if err != nil {
				t.Fatal(err)
			}
			if got := string(p.text(f)); got != want {
				t.Fatalf("page %d (personal %v): the text differs", i, personal)
			}
			zr, err := gzip.NewReader(bytes.NewReader(p.gzip(f)))
			if err != nil {
				t.Fatalf("page %d: %v", i, err)
			}
			got, err := io.ReadAll(zr)
			if err != nil || string(got) != want {
				t.Fatalf("page %d (personal %v): gunzipped %d bytes (%v), want %d", i, personal, len(got), err, len(want))
			}
		}
	}
}
