package render

import "testing"

// TestGenerations: values are kept until the current generation would
// pass its limit; then it becomes the old one, whose values are still
// found (and move back into the current one), and the generation before
// it is dropped. kept counts without moving anything.
func TestGenerations(t *testing.T) {
	c := newGenerations(10, func(v int) int { return v })
	k := func(i int) bandKey { return bandKey{h: uint64(i)} }
	c.put(k(1), 4)
	c.put(k(2), 4)
	c.put(k(1), 9) // k(1) is in the current generation: kept as it was
	if got := c.get(k(1)); got != 4 {
		t.Fatalf("k1 = %d, want the first value 4", got)
	}
	c.put(k(3), 4) // 4+4+4 > 10: 1 and 2 go to the old generation
	if n := c.kept([]bandKey{k(1), k(2), k(3), k(4)}); n != 3 {
		t.Fatalf("kept %d of 1-3, want 3", n)
	}
	if got := c.get(k(2)); got != 4 { // found in the old one, moved back: current 3, 2
		t.Fatalf("k2 = %d, want 4", got)
	}
	c.put(k(4), 4) // 8+4 > 10: current (3, 2) becomes old, the old (1) is dropped
	if got := c.get(k(1)); got != 0 {
		t.Fatalf("k1 = %d after two generations, want it dropped", got)
	}
	for _, i := range []int{2, 3, 4} {
		if got := c.get(k(i)); got != 4 {
			t.Fatalf("k%d = %d, want 4", i, got)
		}
	}
	c.forget()
	if n := c.kept([]bandKey{k(2), k(3), k(4)}); n != 0 {
		t.Fatalf("kept %d after forget", n)
	}
}
