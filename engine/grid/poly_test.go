package grid

import "testing"

// TestFreePolyforms counts the free polyforms of each size, the known
// sequences: polyominoes 1, 1, 2, 5, 12; polyhexes 1, 1, 3, 7, 22;
// polyiamonds 1, 1, 1, 3, 4, 12.
func TestFreePolyforms(t *testing.T) {
	for _, tc := range []struct {
		l    Lattice
		want []int
	}{
		{SquareLattice, []int{1, 1, 2, 5, 12}},
		{HexLattice, []int{1, 1, 3, 7, 22}},
		{TriLattice, []int{1, 1, 1, 3, 4, 12}},
	} {
		for n, want := range tc.want {
			if got := len(tc.l.Free(n + 1)); got != want {
				t.Errorf("%s: %d free polyforms of %d cells, want %d", tc.l.Name, got, n+1, want)
			}
		}
	}
}

// TestOrientations: the L tetromino has 8 orientations, the T 4, the O 1;
// the straight triamond 6 (3 directions, each pointing two ways), the
// triangle tetriamond 2 (point up or down).
func TestOrientations(t *testing.T) {
	for _, tc := range []struct {
		l     Lattice
		cells []Coord
		want  int
	}{
		{SquareLattice, []Coord{{0, 0}, {0, 1}, {0, 2}, {1, 0}}, 8},
		{SquareLattice, []Coord{{0, 0}, {1, 0}, {2, 0}, {1, 1}}, 4},
		{SquareLattice, []Coord{{0, 0}, {1, 0}, {0, 1}, {1, 1}}, 1},
		{HexLattice, []Coord{{0, 0}, {1, 0}, {-1, 1}, {0, -1}}, 2},
		{HexLattice, []Coord{{0, 0}, {1, 0}}, 3},
		{TriLattice, []Coord{{1, 1}}, 2},
		{TriLattice, []Coord{{1, 1}, {2, 2}, {4, 1}}, 6},
		{TriLattice, []Coord{{1, 1}, {4, 1}, {1, 4}, {2, 2}}, 2},
	} {
		if got := len(tc.l.Orientations(tc.cells)); got != tc.want {
			t.Errorf("%s %v: %d orientations, want %d", tc.l.Name, tc.cells, got, tc.want)
		}
	}
}

// TestCanonicalInvariant: a turned, flipped and moved copy has the same
// canonical shape; a different shape does not.
func TestCanonicalInvariant(t *testing.T) {
	l := SquareLattice
	a := []Coord{{0, 0}, {1, 0}, {1, 1}, {2, 1}} // S
	b := []Coord{{5, 5}, {5, 6}, {4, 6}, {4, 7}} // S turned and flipped, moved
	c := []Coord{{0, 0}, {1, 0}, {2, 0}, {2, 1}} // L
	if l.Canonical(a).Key() != l.Canonical(b).Key() {
		t.Errorf("S shapes differ: %v %v", l.Canonical(a), l.Canonical(b))
	}
	if l.Canonical(a).Key() == l.Canonical(c).Key() {
		t.Errorf("S and L agree")
	}
	tl := TriLattice
	d := []Coord{{1, 1}, {2, 2}}
	e := []Coord{{4, 1}, {5, -1}} // down (4,1) and the up triangle over its top side
	if !tl.Connected(e) || tl.Canonical(d).Key() != tl.Canonical(e).Key() {
		t.Errorf("diamonds differ")
	}
	if tl.Connected([]Coord{{1, 1}, {4, 1}}) {
		t.Errorf("two down triangles sharing a corner are not side-connected")
	}
}
