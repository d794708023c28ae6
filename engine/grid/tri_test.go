package grid

import (
	"math"
	"testing"
)

func TestTriShape(t *testing.T) {
	tr := NewTri(4)
	if tr.Len() != 96 || tr.Rows() != 8 {
		t.Fatalf("side 4: %d cells in %d rows, want 96 in 8", tr.Len(), tr.Rows())
	}
	want := []int{9, 11, 13, 15, 15, 13, 11, 9}
	for r, n := range want {
		if tr.RowLen(r) != n {
			t.Errorf("row %d has %d cells, want %d", r, tr.RowLen(r), n)
		}
	}
	// Row a starts and ends with an upward triangle (its base on row b's
	// top line); row h starts and ends with a downward one.
	if !tr.Up(0) || !tr.Up(8) || tr.Up(1) || tr.Up(tr.Len()-1) {
		t.Errorf("orientation of the row ends is wrong")
	}
	for i := 0; i < tr.Len(); i++ {
		j, err := tr.Parse(tr.Name(i))
		if err != nil || j != i {
			t.Fatalf("cell %d %s parses as %d, %v", i, tr.Name(i), j, err)
		}
		if r, c := tr.RowCol(i); tr.Index(r, c) != i {
			t.Fatalf("RowCol/Index disagree on %d", i)
		}
		if tr.At(tr.Coord(i)) != i {
			t.Fatalf("At/Coord disagree on %d", i)
		}
	}
	for _, bad := range []string{"i1", "a10", "a0", "zz", "", "h10"} {
		if _, err := tr.Parse(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	if tr.Name(0) != "a1" || tr.Name(tr.Len()-1) != "h9" {
		t.Errorf("names %s..%s", tr.Name(0), tr.Name(tr.Len()-1))
	}
}

// TestTriNeighbours: an inner triangle has 3 side and 12 corner
// neighbours; neighbours are symmetric; side neighbours share an edge in
// pixels; the boundary cells are those with a corner on the outline.
func TestTriNeighbours(t *testing.T) {
	tr := NewTri(4)
	edge := 0
	for i := 0; i < tr.Len(); i++ {
		var sides, touch []int
		tr.Sides(i, func(j int) { sides = append(sides, j) })
		tr.Touch(i, func(j int) { touch = append(touch, j) })
		if !tr.OnEdge(i) && (len(sides) != 3 || len(touch) != 12) {
			t.Errorf("inner %s: %d sides, %d touching", tr.Name(i), len(sides), len(touch))
		}
		if tr.OnEdge(i) {
			edge++
		}
		for _, j := range sides {
			back := false
			tr.Sides(j, func(k int) { back = back || k == i })
			if !back {
				t.Errorf("side neighbours not symmetric: %s %s", tr.Name(i), tr.Name(j))
			}
			a, b := TriCorners(tr.Coord(i), 10), TriCorners(tr.Coord(j), 10)
			shared := 0
			for _, p := range a {
				for _, q := range b {
					if math.Hypot(p[0]-q[0], p[1]-q[1]) < 1e-9 {
						shared++
					}
				}
			}
			if shared != 2 {
				t.Errorf("%s and %s share %d corners", tr.Name(i), tr.Name(j), shared)
			}
		}
	}
	// Boundary: 24 triangles with a side on the outline, plus the 6*3
	// triangles that touch it at a corner only (3 around each of the 18
	// boundary corners that are not hexagon corners... counted directly):
	// the inner hexagon of side 3 has 54 triangles and none touches, but
	// 96-54 = 42 lie in the outer ring, all touching the outline.
	if edge != 42 {
		t.Errorf("%d cells on the edge, want 42", edge)
	}
	// a1 (up) has sides: its neighbour a2 and b2 below? a1's base is on
	// row b's top line, so its side neighbours are a2 and b2.
	var s []string
	tr.Sides(0, func(j int) { s = append(s, tr.Name(j)) })
	if len(s) != 2 || s[0] != "a2" || s[1] != "b2" {
		t.Errorf("a1 side neighbours %v, want [a2 b2]", s)
	}
	x, y := TriCenter(Coord{1, 1}, 3)
	if math.Abs(x-1.5) > 1e-9 || math.Abs(y-math.Sqrt(3)/2) > 1e-9 {
		t.Errorf("centroid of (1,1) at size 3: %v %v", x, y)
	}
}
