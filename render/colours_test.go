package render

import (
	"bytes"
	"fmt"
	"image"
	"slices"
	"testing"

	"tessera/engine"
)

// TestColourBandsSameBytes: quantizeOwn with the bands of rows counted
// for earlier pictures kept (coloursKept) gives the first
// implementation's palette and indexes (refPalette, refQuantize), pixel
// for pixel, on the boards of a game of every game played move after
// move (where most bands are found kept), on a picture with a few rows
// changed, and on one whose width is not a multiple of eight (the last
// runs written byte by byte); Palette and Quantize, which keep nothing,
// give the same. With -short, fewer moves.
func TestColourBandsSameBytes(t *testing.T) {
	moves := 12
	if testing.Short() {
		moves = 3
	}
	coloursKept.forget()
	found := 0
	check := func(name string, img *image.RGBA) {
		t.Helper()
		keys := rgbBandKeys(img)
		kept := 0
		for _, k := range keys {
			if coloursKept.get(k) != nil {
				kept++
			}
		}
		found += kept
		want := refPalette(img, 256)
		wantPix := refQuantize(img, want).Pix
		pix := make([]uint8, len(img.Pix)/4)
		for i := range pix {
			pix[i] = byte(i * 13) // noise: a pixel left unwritten shows
		}
		if got := quantizeOwn(img, 256, pix, keys, true); !slices.Equal(got, want) {
			t.Fatalf("%s (%d of %d bands kept): the palette differs from the reference's", name, kept, len(keys))
		}
		if i := slices.Compare(pix, wantPix); i != 0 {
			for j := range pix {
				if pix[j] != wantPix[j] {
					t.Fatalf("%s (%d of %d bands kept): pixel %d is %d, want %d", name, kept, len(keys), j, pix[j], wantPix[j])
				}
			}
		}
		if !slices.Equal(Palette(img, 256), want) {
			t.Fatalf("%s: Palette differs from the reference's", name)
		}
		if !slices.Equal(Quantize(img, want).Pix, wantPix) {
			t.Fatalf("%s: Quantize differs from the reference's", name)
		}
	}
	setups := []engine.Setup{
		{Game: "tilingking", Players: 3, Seed: 7, Options: map[string]string{"board": "hex"}},
		{Game: "tilingking", Players: 3, Seed: 7, Options: map[string]string{"board": "tri"}},
	}
	for _, g := range engine.Games() {
		if g.ID != "tilingking" {
			setups = append(setups, engine.Setup{Game: g.ID, Players: max(2, g.MinPlayers), Seed: 7})
		}
	}
	var last *image.RGBA
	for _, setup := range setups {
		st, err := engine.New(setup)
		if err != nil {
			t.Fatal(err)
		}
		r := engine.NewRand(setup.Seed)
		for move := 0; move <= moves && !st.Over(); move++ {
			name := fmt.Sprintf("%s %v move %d", setup.Game, setup.Options, move)
			img, _ := boardImage(st.Board(), NewPanel(name, st.View(engine.NoSeat), []string{"Ana", "Bo", "Cy"}[:setup.Players]), false)
			check(name, img)
			last = img
			l := st.Legal()
			if _, err := st.Apply(l[r.IntN(len(l))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	// A few rows changed: the other bands are found kept.
	img := image.NewRGBA(last.Bounds())
	copy(img.Pix, last.Pix)
	for x := 100; x < 300; x++ {
		img.Pix[200*img.Stride+4*x] ^= 0x55
	}
	check("the last board, a row changed", img)
	// 757 pixels wide: rows that do not end on a word.
	odd := image.NewRGBA(image.Rect(0, 0, 757, 150))
	for y := 0; y < 150; y++ {
		copy(odd.Pix[y*odd.Stride:(y+1)*odd.Stride], last.Pix[y*last.Stride:])
	}
	check("757 wide", odd)
	check("757 wide, again", odd)
	if found < 2*len(setups) {
		t.Fatalf("only %d bands found kept", found)
	}
	t.Logf("%d bands found kept", found)
}

// TestLazyAdlerSameBytes: bands compressed for a file given up at the
// limit, their Adler-32 left unknown, give the same PNG when a file that
// is written finds them: the sum is made then from the rows filtered
// again.
func TestLazyAdlerSameBytes(t *testing.T) {
	img := benchImage(t)
	keys := rgbBandKeys(img)
	encode := truecolourUnder(img, keys)
	bandsKept.forget()
	fresh, err := encode(0)
	if err != nil {
		t.Fatal(err)
	}
	// The first file given up notes its bands' sizes; the second, of the
	// same shape, is then likely to be given up and leaves the sums.
	for range 2 {
		bandsKept.forget()
		bandSizes.forget() // else the sizes alone give the file up
		if _, err := encode(len(fresh) / 2); err != errTooLarge {
			t.Fatalf("limit %d on a file of %d: %v", len(fresh)/2, len(fresh), err)
		}
	}
	unknown := 0
	for _, k := range keys {
		if b := bandsKept.get(k); b != nil {
			if _, ok := b.adler(); !ok {
				unknown++
			}
		}
	}
	if unknown == 0 {
		t.Fatal("no band kept without its sum")
	}
	got, err := encode(0)
	if err != nil || !bytes.Equal(got, fresh) {
		t.Fatalf("written from %d bands kept without their sums: %v, or the bytes differ", unknown, err)
	}
	for _, k := range keys {
		if b := bandsKept.get(k); b != nil {
			if _, ok := b.adler(); !ok {
				t.Fatal("a band written still without its sum")
			}
		}
	}
}

// TestNearestFinder: the search by sums finds what a scan of the whole
// palette finds (the first of equals), from no guess and from any guess,
// on random palettes with repeated and coarse colours (many ties).
func TestNearestFinder(t *testing.T) {
	r := engine.NewRand(9)
	for round := 0; round < 200; round++ {
		pal := randomPalette(&r, 4, 85, 11)
		f := newNearestFinder(pal)
		for k := 0; k < 200; k++ {
			c := uint32(r.IntN(1 << 24))
			if k%4 == 0 {
				c = uint32(r.IntN(6)*51)<<16 | uint32(r.IntN(6)*51)<<8 | uint32(r.IntN(6)*51)
			}
			want := nearest(pal, c)
			if got := f.nearest(c); got != want {
				t.Fatalf("round %d: colour %06x: entry %d, want %d", round, c, got, want)
			}
			if got := f.nearestFrom(c, r.IntN(len(pal))); got != want {
				t.Fatalf("round %d: colour %06x from a guess: entry %d, want %d", round, c, got, want)
			}
		}
	}
}

// TestColourBandsFoundFirst: a table that has counted nothing yet
// counts a picture whose first bands are found kept and whose last are
// not (its spare bands are made for those), as the reference counts it.
func TestColourBandsFoundFirst(t *testing.T) {
	img := benchImage(t)
	keys := rgbBandKeys(img)
	coloursKept.forget()
	pix := make([]uint8, len(img.Pix)/4)
	quantizeOwn(img, 256, pix, keys, true) // every band kept
	// The picture with its last rows changed: the first bands are found.
	img2 := image.NewRGBA(img.Bounds())
	copy(img2.Pix, img.Pix)
	last := img2.Bounds().Dy() - 1
	for x := 0; x < 300; x++ {
		img2.Pix[last*img2.Stride+4*x] ^= 0x33
	}
	tb := new(colourTable)
	if !tb.count(img2, rgbBandKeys(img2), true) {
		t.Fatal("an opaque picture counted as not opaque")
	}
	want := refHistogram(img2)
	got := map[uint32]int{}
	for _, e := range tb.entries {
		if e.key != 0 {
			got[rgbOf(e.key-1)] = int(e.n)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d colours counted, want %d", len(got), len(want))
	}
	for c, n := range want {
		if got[c] != n {
			t.Fatalf("colour %06x counted %d times, want %d", c, got[c], n)
		}
	}
	wantPal := refPalette(img2, 256)
	if got := quantizeOwn(img2, 256, pix, rgbBandKeys(img2), true); !slices.Equal(got, wantPal) || !slices.Equal(pix, refQuantize(img2, wantPal).Pix) {
		t.Fatal("quantizeOwn differs from the reference's")
	}
}
