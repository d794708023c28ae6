package engine

import "math/rand/v2"

// Rand is the seeded random source of a game. Its state is a plain value,
// part of the position: copying a State copies it, so a game replayed from
// its seed and moves draws exactly the same tiles.
type Rand struct{ pcg rand.PCG }

// NewRand seeds a source.
func NewRand(seed uint64) Rand {
	return Rand{pcg: *rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)}
}

// IntN returns a uniform number in [0, n).
func (r *Rand) IntN(n int) int { return rand.New(&r.pcg).IntN(n) }

// Shuffle shuffles n elements with swap.
func (r *Rand) Shuffle(n int, swap func(i, j int)) { rand.New(&r.pcg).Shuffle(n, swap) }

// Uint64 returns 64 random bits.
func (r *Rand) Uint64() uint64 { return r.pcg.Uint64() }
