package ai

import "math/bits"

// keyIndex is a node's children by their moves' keys (engine.KeyLister):
// an open-addressing table with linear probing, a power-of-two number of
// slots and at most half of them full. A keyed search looks up every
// legal move's key at every node it passes, most of them absent (a node
// has tried few of its moves), and Go's map spent a sixth of hard's
// Elemental move on it (docs/benchmarks.md); here a miss is a multiply and
// a probe or two, and a node that tried few moves holds a small table.
type keyIndex struct {
	keys  []uint64
	at    []int32 // the child's index + 1; 0 marks an empty slot
	n     int
	shift uint // 64 less log2(len(keys)): a key's slot is the hash's top bits
}

// get is the index of the child whose move has key k.
func (x *keyIndex) get(k uint64) (int, bool) {
	if x.n == 0 {
		return 0, false
	}
	mask := uint64(len(x.keys) - 1)
	for s := x.slot(k); ; s = (s + 1) & mask {
		switch {
		case x.at[s] == 0:
			return 0, false
		case x.keys[s] == k:
			return int(x.at[s]) - 1, true
		}
	}
}

// put records that the child at index i has key k (a key not yet in x).
func (x *keyIndex) put(k uint64, i int) {
	if 2*(x.n+1) > len(x.keys) {
		x.grow()
	}
	mask := uint64(len(x.keys) - 1)
	s := x.slot(k)
	for x.at[s] != 0 {
		s = (s + 1) & mask
	}
	x.keys[s], x.at[s] = k, int32(i+1)
	x.n++
}

func (x *keyIndex) grow() {
	keys, at := x.keys, x.at
	size := max(8, 2*len(keys))
	x.keys, x.at, x.n = make([]uint64, size), make([]int32, size), 0
	x.shift = uint(64 - bits.TrailingZeros(uint(size)))
	for s, a := range at {
		if a != 0 {
			x.put(keys[s], int(a)-1)
		}
	}
}

// slot is k's first slot: Fibonacci hashing, whose top bits mix all of
// k's (a key's low bits are often a rotation or a constant).
func (x *keyIndex) slot(k uint64) uint64 {
	return k * 0x9e3779b97f4a7c15 >> x.shift
}
