package grid

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Hex is a hexagon of pointy-top hexagonal cells with Side cells on each
// side, in horizontal rows lettered a.. from the top, cells numbered from 1
// at the left end of each row (side 7: rows a-m with 7, 8, ... 13, ... 7).
//
// Axial coordinates (q, r) have the centre cell at (0, 0), r growing
// downwards (one per row) and q growing to the right along a row.
type Hex struct {
	Side  int
	index map[[2]int]int
	axial [][2]int
}

// NewHex builds a hexagon of side n.
func NewHex(n int) *Hex {
	h := &Hex{Side: n, index: map[[2]int]int{}}
	for r := -(n - 1); r <= n-1; r++ {
		for q := max(-(n - 1), -(n-1)-r); q <= min(n-1, n-1-r); q++ {
			h.index[[2]int{q, r}] = len(h.axial)
			h.axial = append(h.axial, [2]int{q, r})
		}
	}
	return h
}

// Len is the number of cells (127 for side 7).
func (h *Hex) Len() int { return len(h.axial) }

// Rows is the number of rows.
func (h *Hex) Rows() int { return 2*h.Side - 1 }

// RowLen is the number of cells in row r (0-based from the top).
func (h *Hex) RowLen(r int) int {
	d := r - (h.Side - 1)
	if d < 0 {
		d = -d
	}
	return 2*h.Side - 1 - d
}

// Axial returns the axial coordinates of cell i.
func (h *Hex) Axial(i int) (q, r int) { return h.axial[i][0], h.axial[i][1] }

// At returns the cell at axial (q, r), or -1 outside the hexagon.
func (h *Hex) At(q, r int) int {
	if i, ok := h.index[[2]int{q, r}]; ok {
		return i
	}
	return -1
}

// HexDirs are the six axial steps, clockwise from east: E, SE, SW, W, NW, NE.
var HexDirs = [6][2]int{{1, 0}, {0, 1}, {-1, 1}, {-1, 0}, {0, -1}, {1, -1}}

// HexDist is the distance between two axial positions.
func HexDist(q1, r1, q2, r2 int) int {
	dq, dr := q1-q2, r1-r2
	return (abs(dq) + abs(dr) + abs(dq+dr)) / 2
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Adj visits the neighbours of cell i inside the hexagon.
func (h *Hex) Adj(i int, visit func(j int)) {
	q, r := h.Axial(i)
	for _, d := range HexDirs {
		if j := h.At(q+d[0], r+d[1]); j >= 0 {
			visit(j)
		}
	}
}

// OnEdge reports whether cell i is on the outer ring of the hexagon.
func (h *Hex) OnEdge(i int) bool {
	q, r := h.Axial(i)
	return HexDist(q, r, 0, 0) == h.Side-1
}

// rowStartQ is the q of the first cell of row r (axial r).
func (h *Hex) rowStartQ(r int) int { return max(-(h.Side - 1), -(h.Side-1)-r) }

// Name is the notation of cell i ("g7").
func (h *Hex) Name(i int) string {
	q, r := h.Axial(i)
	return letter(r+h.Side-1) + strconv.Itoa(q-h.rowStartQ(r)+1)
}

// Range describes the notation ("rows a-m, cells numbered from 1 at the
// left of each row").
func (h *Hex) Range() string {
	return fmt.Sprintf("rows a-%s from the top, cells numbered from 1 at the left of each row", letter(h.Rows()-1))
}

// Parse reads a cell name ("g7"), with a message a player can act on.
func (h *Hex) Parse(s string) (int, error) {
	row, n, ok := splitCell(s)
	s = strings.ToLower(strings.TrimSpace(s))
	if !ok {
		return -1, fmt.Errorf("%q is not a cell (write a row letter and a number, like %s)", s, h.Name(h.Len()/2))
	}
	if row >= h.Rows() {
		return -1, fmt.Errorf("%s is off the board (rows a-%s)", s, letter(h.Rows()-1))
	}
	if n < 1 || n > h.RowLen(row) {
		return -1, fmt.Errorf("%s is off the board (row %s has cells %s1-%s%d)", s, letter(row), letter(row), letter(row), h.RowLen(row))
	}
	r := row - (h.Side - 1)
	return h.At(h.rowStartQ(r)+n-1, r), nil
}

// Center is the pixel centre of axial (q, r) for cells of circumradius
// size, with the centre cell at (0, 0).
func HexCenter(q, r int, size float64) (x, y float64) {
	return size * math.Sqrt(3) * (float64(q) + float64(r)/2), size * 1.5 * float64(r)
}

// HexCorners are the six corners of a pointy-top cell centred at (x, y).
func HexCorners(x, y, size float64) [6][2]float64 {
	var c [6][2]float64
	for k := 0; k < 6; k++ {
		a := math.Pi/180*60*float64(k) - math.Pi/6
		c[k] = [2]float64{x + size*math.Cos(a), y + size*math.Sin(a)}
	}
	return c
}

// HexRing lists the axial positions at distance radius from the centre, in
// clockwise order starting at the top-left corner (0, -radius) and going
// east along the top side first. Corners are at the indices that are
// multiples of radius; side k (0 top, 1 upper right, 2 lower right,
// 3 bottom, 4 lower left, 5 upper left) runs from index k*radius to
// (k+1)*radius, its far corner excluded. Radius 0 is the centre alone; a
// negative radius gives nothing.
func HexRing(radius int) [][2]int {
	if radius < 0 {
		return nil
	}
	if radius == 0 {
		return [][2]int{{0, 0}}
	}
	out := make([][2]int, 0, 6*radius)
	q, r := 0, -radius
	for _, d := range HexDirs {
		for k := 0; k < radius; k++ {
			out = append(out, [2]int{q, r})
			q, r = q+d[0], r+d[1]
		}
	}
	return out
}

// Ring lists the cells of the hexagon at distance radius from the centre,
// in the order of HexRing (Ring(Side-1) is the outer ring of cells).
// Positions outside the hexagon are left out.
func (h *Hex) Ring(radius int) []int {
	var out []int
	for _, p := range HexRing(radius) {
		if i := h.At(p[0], p[1]); i >= 0 {
			out = append(out, i)
		}
	}
	return out
}
