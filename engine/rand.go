package engine

import (
	"math/bits"
	"math/rand/v2"
)

// Rand is the seeded random source of a game. Its state is a plain value,
// part of the position: copying a State copies it, so a game replayed from
// its seed and moves draws exactly the same tiles.
type Rand struct{ pcg rand.PCG }

// NewRand seeds a source.
func NewRand(seed uint64) Rand {
	return Rand{pcg: *rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)}
}

// IntN returns a uniform number in [0, n). It draws exactly what
// math/rand/v2's Rand.IntN over the same PCG draws (stored games replay
// with it), but without allocating a rand.Rand per call, which matters in
// the AI's playouts.
func (r *Rand) IntN(n int) int {
	if n <= 0 {
		panic("engine: invalid argument to IntN")
	}
	return int(r.uint64n(uint64(n)))
}

// uint64n is math/rand/v2's unbiased reduction (Lemire), on 64-bit words.
func (r *Rand) uint64n(n uint64) uint64 {
	if n&(n-1) == 0 { // a power of two: mask
		return r.pcg.Uint64() & (n - 1)
	}
	hi, lo := bits.Mul64(r.pcg.Uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(r.pcg.Uint64(), n)
		}
	}
	return hi
}

// Shuffle shuffles n elements with swap (Fisher-Yates, the same draws as
// math/rand/v2's Shuffle).
func (r *Rand) Shuffle(n int, swap func(i, j int)) {
	for i := n - 1; i > 0; i-- {
		swap(i, int(r.uint64n(uint64(i+1))))
	}
}

// Uint64 returns 64 random bits.
func (r *Rand) Uint64() uint64 { return r.pcg.Uint64() }

// Float64 returns a uniform number in [0, 1).
func (r *Rand) Float64() float64 { return float64(r.pcg.Uint64()<<11>>11) / (1 << 53) }

// OnTop returns the bag with the listed pieces moved to its top, in the
// order listed (first listed drawn first); the other pieces keep their
// order. It is how Setup.Deck fixes the draw for tests and tools. A piece
// listed twice or not in the bag is refused; name writes a piece.
func OnTop[T comparable](bag, listed []T, name func(T) string) ([]T, error) {
	have := make(map[T]int, len(bag))
	for _, p := range bag {
		have[p]++
	}
	take := make(map[T]int, len(listed))
	out := make([]T, 0, len(bag))
	for _, p := range listed {
		if take[p] == have[p] {
			return nil, Illegalf("deck: %s is listed more often than the set has it", name(p))
		}
		take[p]++
		out = append(out, p)
	}
	for _, p := range bag { // a listed piece leaves the bag where it first stands
		if take[p] > 0 {
			take[p]--
			continue
		}
		out = append(out, p)
	}
	return out, nil
}
