package engine

import (
	"math/rand/v2"
	"testing"
)

// Stored games replay from their seed, so Rand must draw exactly what
// math/rand/v2 over the same PCG draws.
func TestRandMatchesMathRand(t *testing.T) {
	for seed := uint64(0); seed < 50; seed++ {
		ours := NewRand(seed)
		theirs := NewRand(seed)
		std := rand.New(&theirs.pcg)
		for i := 0; i < 2000; i++ {
			n := 1 + (i*7919)%1000
			if i%97 == 0 {
				n = 1 << (i % 40)
			}
			if i%13 == 0 {
				n = 1<<62 + 12345
			}
			if a, b := ours.IntN(n), std.IntN(n); a != b {
				t.Fatalf("seed %d draw %d IntN(%d): %d, math/rand/v2 %d", seed, i, n, a, b)
			}
		}
		a := make([]int, 60)
		b := make([]int, 60)
		for i := range a {
			a[i], b[i] = i, i
		}
		ours.Shuffle(len(a), func(i, j int) { a[i], a[j] = a[j], a[i] })
		std.Shuffle(len(b), func(i, j int) { b[i], b[j] = b[j], b[i] })
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("seed %d: shuffles differ at %d", seed, i)
			}
		}
	}
}

func TestRandIntNAllocatesNothing(t *testing.T) {
	r := NewRand(1)
	if n := testing.AllocsPerRun(100, func() { r.IntN(37) }); n != 0 {
		t.Fatalf("IntN allocates %v times", n)
	}
}
