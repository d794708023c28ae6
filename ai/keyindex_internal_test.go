package ai

import (
	"testing"

	"tessera/engine"
)

// TestKeyIndexIsAMap: keyIndex answers as a map would, through its growth
// from empty to thousands of keys, for keys that differ only in their top
// bits, only in their low bits (a rotation's two bits, as Closure's keys
// do), or at random, and for key 0; absent keys are absent.
func TestKeyIndexIsAMap(t *testing.T) {
	r := engine.NewRand(1)
	// A slice, not a map: the families draw from one source in a fixed
	// order, so every run tests the same keys.
	families := []struct {
		name string
		key  func(i int) uint64
	}{
		{"high bits", func(i int) uint64 { return uint64(i) << 40 }},
		{"low bits", func(i int) uint64 { return uint64(i) }},
		{"cell and edges", func(i int) uint64 { // Elemental: a cell, then four letters
			return uint64(i%64)<<32 | uint64("RGBY"[i/64%4])<<24 | uint64("RGBY"[i/256%4])<<16 | uint64(i/1024)
		}},
		{"random", func(int) uint64 { return r.Uint64() }},
	}
	for _, f := range families {
		name, key := f.name, f.key
		var x keyIndex
		want := map[uint64]int{}
		for i := 0; i < 5000; i++ {
			k := key(i)
			if _, ok := want[k]; ok {
				continue
			}
			if _, ok := x.get(k); ok {
				t.Fatalf("%s: key %#x found before it was put", name, k)
			}
			x.put(k, len(want))
			want[k] = len(want)
			probe := key(r.IntN(i + 1))
			got, ok := x.get(probe)
			if w, wok := want[probe]; ok != wok || got != w {
				t.Fatalf("%s, %d keys: get(%#x) = %d, %v; the map says %d, %v", name, len(want), probe, got, ok, w, wok)
			}
		}
		for k, w := range want {
			if got, ok := x.get(k); !ok || got != w {
				t.Fatalf("%s: get(%#x) = %d, %v at the end; want %d", name, k, got, ok, w)
			}
		}
		if x.n != len(want) || 2*x.n > len(x.keys) {
			t.Fatalf("%s: %d keys in %d slots; want %d keys, at most half full", name, x.n, len(x.keys), len(want))
		}
	}
	var zero keyIndex
	if _, ok := zero.get(0); ok {
		t.Fatal("an empty index holds key 0")
	}
	zero.put(0, 7)
	if i, ok := zero.get(0); !ok || i != 7 {
		t.Fatalf("key 0: get = %d, %v; want 7, true", i, ok)
	}
}
