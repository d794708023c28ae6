package grid

import "testing"

func TestHexBoard(t *testing.T) {
	h := NewHex(7)
	if h.Len() != 127 || h.Rows() != 13 {
		t.Fatalf("side 7: %d cells, %d rows; want 127, 13", h.Len(), h.Rows())
	}
	for _, c := range []struct {
		name string
		q, r int
	}{{"a1", 0, -6}, {"a7", 6, -6}, {"g1", -6, 0}, {"g7", 0, 0}, {"g13", 6, 0}, {"m1", -6, 6}, {"m7", 0, 6}} {
		i, err := h.Parse(c.name)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if q, r := h.Axial(i); q != c.q || r != c.r || h.Name(i) != c.name {
			t.Fatalf("%s: axial (%d,%d) name %s, want (%d,%d)", c.name, q, r, h.Name(i), c.q, c.r)
		}
	}
	for _, bad := range []string{"a8", "n1", "g0", "g14", "7g", "", "g"} {
		if _, err := h.Parse(bad); err == nil {
			t.Fatalf("%q parsed", bad)
		}
	}
}

func TestHexRing(t *testing.T) {
	if got := HexRing(0); len(got) != 1 || got[0] != [2]int{0, 0} {
		t.Fatalf("ring 0: %v", got)
	}
	if HexRing(-1) != nil {
		t.Fatal("negative radius gives positions")
	}
	for radius := 1; radius <= 9; radius++ {
		ring := HexRing(radius)
		if len(ring) != 6*radius {
			t.Fatalf("radius %d: %d positions, want %d", radius, len(ring), 6*radius)
		}
		seen := map[[2]int]bool{}
		for k, p := range ring {
			if HexDist(p[0], p[1], 0, 0) != radius {
				t.Fatalf("radius %d: %v at distance %d", radius, p, HexDist(p[0], p[1], 0, 0))
			}
			if seen[p] {
				t.Fatalf("radius %d: %v twice", radius, p)
			}
			seen[p] = true
			// Consecutive positions (cyclically) are neighbours.
			n := ring[(k+1)%len(ring)]
			if HexDist(p[0], p[1], n[0], n[1]) != 1 {
				t.Fatalf("radius %d: %v and %v are not neighbours", radius, p, n)
			}
		}
		// The corners, clockwise from the top-left one.
		corners := [6][2]int{{0, -radius}, {radius, -radius}, {radius, 0}, {0, radius}, {-radius, radius}, {-radius, 0}}
		for k, c := range corners {
			if ring[k*radius] != c {
				t.Fatalf("radius %d: corner %d is %v, want %v", radius, k, ring[k*radius], c)
			}
		}
	}
	// Going east along the top side first means clockwise on screen
	// (y grows downwards): the second position is right of the first.
	r := HexRing(3)
	x0, _ := HexCenter(r[0][0], r[0][1], 1)
	x1, _ := HexCenter(r[1][0], r[1][1], 1)
	if x1 <= x0 {
		t.Fatalf("ring does not start eastwards: %v then %v", r[0], r[1])
	}
}

func TestHexRingCells(t *testing.T) {
	h := NewHex(7)
	outer := h.Ring(6)
	if len(outer) != 36 {
		t.Fatalf("outer ring: %d cells, want 36", len(outer))
	}
	if h.Name(outer[0]) != "a1" || h.Name(outer[6]) != "a7" || h.Name(outer[12]) != "g13" {
		t.Fatalf("outer ring starts %s, %s, %s; want a1, a7, g13", h.Name(outer[0]), h.Name(outer[6]), h.Name(outer[12]))
	}
	for _, i := range outer {
		if !h.OnEdge(i) {
			t.Fatalf("%s on the outer ring is not on the edge", h.Name(i))
		}
	}
	if got := h.Ring(7); len(got) != 0 {
		t.Fatalf("ring outside the hexagon: %v", got)
	}
	total := 0
	for k := 0; k < 7; k++ {
		total += len(h.Ring(k))
	}
	if total != h.Len() {
		t.Fatalf("rings 0-6 hold %d cells, want %d", total, h.Len())
	}
}
