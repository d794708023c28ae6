package render

import (
	"hash/adler32"
	"math/rand/v2"
	"testing"
)

// TestAdlerSum: adlerSum is hash/adler32's checksum, on lengths around
// its word and block sizes, of random, all-255 and all-zero bytes.
func TestAdlerSum(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	lengths := []int{0, 1, 7, 8, 9, 15, 16, 17, 127, 128, 129, 255, 256, 5551, 5552, 5553, 65536}
	for range 20 {
		lengths = append(lengths, r.IntN(150_000))
	}
	// Past a block, where the sums are reduced: the largest bytes only
	// (a band of rows is 150 KB; these check the sums cannot overflow).
	long := []int{adlerBlock - 1, adlerBlock, adlerBlock + 9, 3*adlerBlock + 5}
	for _, n := range long {
		p := make([]byte, n)
		for i := range p {
			p[i] = 255
		}
		if got, want := adlerSum(p), adler32.Checksum(p); got != want {
			t.Fatalf("%d bytes of 255: adlerSum %08x, adler32 %08x", n, got, want)
		}
	}
	for _, n := range lengths {
		for _, fill := range []string{"random", "255", "zero"} {
			p := make([]byte, n)
			for i := range p {
				switch fill {
				case "random":
					p[i] = byte(r.Uint32())
				case "255":
					p[i] = 255
				}
			}
			if got, want := adlerSum(p), adler32.Checksum(p); got != want {
				t.Fatalf("%d bytes (%s): adlerSum %08x, adler32 %08x", n, fill, got, want)
			}
			// In two pieces, the first's sum carried on.
			k := n / 3
			if got, want := adlerUpdate(adlerSum(p[:k]), p[k:]), adler32.Checksum(p); got != want {
				t.Fatalf("%d bytes (%s) in two: adlerUpdate %08x, adler32 %08x", n, fill, got, want)
			}
		}
	}
}

func BenchmarkAdler(b *testing.B) {
	p := make([]byte, 146_000)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range p {
		if r.IntN(4) == 0 {
			p[i] = byte(r.Uint32())
		}
	}
	b.Run("stdlib", func(b *testing.B) {
		b.SetBytes(int64(len(p)))
		for b.Loop() {
			adler32.Checksum(p)
		}
	})
	b.Run("words", func(b *testing.B) {
		b.SetBytes(int64(len(p)))
		for b.Loop() {
			adlerSum(p)
		}
	})
}
