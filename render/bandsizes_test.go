package render

import (
	"bytes"
	"image"
	"testing"
)

// TestBandSizesDecide: a truecolour file whose bands' sizes are
// remembered (bandSizes), their bytes no longer kept, is given up or
// written exactly as it is when everything is compressed afresh, at
// limits on either side of its size and at it; and a file given up by
// its remembered sizes compresses nothing.
func TestBandSizesDecide(t *testing.T) {
	img := benchImage(t)
	keys := rgbBandKeys(img)
	encode := truecolourUnder(img, keys)
	forgetAll := func() {
		bandsKept.forget()
		bandSizes.forget()
		bandPrior.Lock()
		clear(bandPrior.m)
		bandPrior.Unlock()
	}
	forgetAll()
	fresh, err := encode(0)
	if err != nil {
		t.Fatal(err)
	}
	size := len(fresh)
	for _, limit := range []int{size / 2, size - 1, size, size + 1, 2 * size} {
		forgetAll()
		want, wantErr := encode(limit)
		// Every band's size remembered (a file written with a limit
		// notes them all), none of their bytes.
		forgetAll()
		if _, err := encode(10 * size); err != nil {
			t.Fatal(err)
		}
		bandsKept.forget()
		got, gotErr := encode(limit)
		if gotErr != wantErr || !bytes.Equal(got, want) {
			t.Fatalf("limit %d on a file of %d: %v and %d bytes with the sizes remembered, %v and %d afresh", limit, size, gotErr, len(got), wantErr, len(want))
		}
		if wantErr == errTooLarge && bandsKept.kept(keys) != 0 {
			t.Fatalf("limit %d: %d bands compressed for a file its remembered sizes give up", limit, bandsKept.kept(keys))
		}
	}
}

// truecolourUnder writes img's truecolour file, its bands named by keys,
// under a limit (see encodeRGBUnder).
func truecolourUnder(img *image.RGBA, keys []bandKey) func(limit int) ([]byte, error) {
	return func(limit int) ([]byte, error) {
		var buf bytes.Buffer
		err := encodeRGBUnder(&buf, img, limit, keys)
		return buf.Bytes(), err
	}
}
