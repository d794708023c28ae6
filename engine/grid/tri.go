package grid

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Tri is a hexagon of side Side (in triangle edges) cut into equilateral
// triangles: 6*Side*Side cells in 2*Side horizontal rows lettered a.. from
// the top, cells numbered from 1 at the left end of each row (side 4: rows
// a-h with 9, 11, 13, 15, 15, 13, 11, 9 triangles).
//
// Geometry: the corners of the triangles are the points of a hex lattice
// in axial coordinates (q, r), r growing downwards, the hexagon's centre at
// (0, 0); a corner is at x = q + r/2, y = r*sqrt(3)/2 edges. A triangle's
// Coord is the sum of its three corners: a downward-pointing triangle
// (corners (q,r), (q+1,r), (q,r+1)) is (3q+1, 3r+1), an upward-pointing
// one (corners (q+1,r), (q,r+1), (q+1,r+1)) is (3q+2, 3r+2). Coord/3 is
// the triangle's centroid, so rotations and reflections act on Coords as
// on axial coordinates (TriLattice).
type Tri struct {
	Side     int
	coords   []Coord
	index    map[Coord]int
	rowStart []int // first cell of each row, plus Len at the end
	sides    [][]int
	touch    [][]int
	edge     []bool
}

// TriDown reports whether the triangle with this Coord points down.
func TriDown(c Coord) bool { return ((c[0]%3)+3)%3 == 1 }

// TriVertices are the axial coordinates of a triangle's three corners.
func TriVertices(c Coord) [3]Coord {
	if TriDown(c) {
		q, r := floorDiv(c[0], 3), floorDiv(c[1], 3)
		return [3]Coord{{q, r}, {q + 1, r}, {q, r + 1}}
	}
	q, r := floorDiv(c[0]-2, 3), floorDiv(c[1]-2, 3)
	return [3]Coord{{q + 1, r}, {q + 1, r + 1}, {q, r + 1}}
}

// NewTri builds a hexagon of triangles of side n (1 to 13).
func NewTri(n int) *Tri {
	t := &Tri{Side: n, index: map[Coord]int{}}
	type cell struct {
		c        Coord
		row, pos int
	}
	var cells []cell
	inside := func(v Coord) bool { return HexDist(v[0], v[1], 0, 0) <= n }
	for r := -n; r < n; r++ {
		for q := -2 * n; q <= 2*n; q++ {
			for _, c := range []Coord{{3*q + 1, 3*r + 1}, {3*q + 2, 3*r + 2}} {
				ok := true
				for _, v := range TriVertices(c) {
					ok = ok && inside(v)
				}
				if ok {
					// Row: the top corner row; position: centroid x times 6.
					cells = append(cells, cell{c, r + n, 2*c[0] + c[1]})
				}
			}
		}
	}
	sort.Slice(cells, func(i, j int) bool {
		if cells[i].row != cells[j].row {
			return cells[i].row < cells[j].row
		}
		return cells[i].pos < cells[j].pos
	})
	for i, c := range cells {
		for len(t.rowStart) <= c.row {
			t.rowStart = append(t.rowStart, i)
		}
		t.coords = append(t.coords, c.c)
		t.index[c.c] = i
	}
	t.rowStart = append(t.rowStart, len(cells))
	// Neighbours through shared corners.
	byVertex := map[Coord][]int{}
	for i, c := range t.coords {
		for _, v := range TriVertices(c) {
			byVertex[v] = append(byVertex[v], i)
		}
	}
	t.sides = make([][]int, len(cells))
	t.touch = make([][]int, len(cells))
	t.edge = make([]bool, len(cells))
	for i, c := range t.coords {
		shared := map[int]int{}
		for _, v := range TriVertices(c) {
			if HexDist(v[0], v[1], 0, 0) == n {
				t.edge[i] = true
			}
			for _, j := range byVertex[v] {
				if j != i {
					shared[j]++
				}
			}
		}
		for j, k := range shared {
			t.touch[i] = append(t.touch[i], j)
			if k == 2 {
				t.sides[i] = append(t.sides[i], j)
			}
		}
		sort.Ints(t.touch[i])
		sort.Ints(t.sides[i])
	}
	return t
}

// Len is the number of triangles (6*Side*Side).
func (t *Tri) Len() int { return len(t.coords) }

// Rows is the number of rows (2*Side).
func (t *Tri) Rows() int { return 2 * t.Side }

// RowLen is the number of triangles in row r (0-based from the top).
func (t *Tri) RowLen(r int) int { return t.rowStart[r+1] - t.rowStart[r] }

// RowCol returns the row (0-based from the top) and the position in the
// row (0-based from the left) of cell i.
func (t *Tri) RowCol(i int) (row, col int) {
	row = sort.Search(t.Rows(), func(r int) bool { return t.rowStart[r+1] > i })
	return row, i - t.rowStart[row]
}

// Index is the cell at row r, position c (0-based), or -1 off the board.
func (t *Tri) Index(r, c int) int {
	if r < 0 || r >= t.Rows() || c < 0 || c >= t.RowLen(r) {
		return -1
	}
	return t.rowStart[r] + c
}

// Coord is the lattice coordinate of cell i (see Tri).
func (t *Tri) Coord(i int) Coord { return t.coords[i] }

// At is the cell with lattice coordinate c, or -1 off the board.
func (t *Tri) At(c Coord) int {
	if i, ok := t.index[c]; ok {
		return i
	}
	return -1
}

// Up reports whether cell i points up.
func (t *Tri) Up(i int) bool { return !TriDown(t.coords[i]) }

// Name is the notation of cell i ("d7").
func (t *Tri) Name(i int) string {
	r, c := t.RowCol(i)
	return letter(r) + strconv.Itoa(c+1)
}

// Range describes the notation.
func (t *Tri) Range() string {
	return fmt.Sprintf("rows a-%s from the top, cells numbered from 1 at the left of each row", letter(t.Rows()-1))
}

// Parse reads a cell name ("d7"), with a message a player can act on.
func (t *Tri) Parse(s string) (int, error) {
	row, n, ok := splitCell(s)
	s = strings.ToLower(strings.TrimSpace(s))
	if !ok {
		return -1, fmt.Errorf("%q is not a cell (write a row letter and a number, like %s)", s, t.Name(t.Index(t.Side, t.Side)))
	}
	if row >= t.Rows() {
		return -1, fmt.Errorf("%s is off the board (rows a-%s)", s, letter(t.Rows()-1))
	}
	if n < 1 || n > t.RowLen(row) {
		return -1, fmt.Errorf("%s is off the board (row %s has cells %s1-%s%d)", s, letter(row), letter(row), letter(row), t.RowLen(row))
	}
	return t.Index(row, n-1), nil
}

// Sides visits the (up to 3) cells sharing a full side with cell i.
func (t *Tri) Sides(i int, visit func(j int)) {
	for _, j := range t.sides[i] {
		visit(j)
	}
}

// Touch visits the (up to 12) cells sharing a side or a corner with i.
func (t *Tri) Touch(i int, visit func(j int)) {
	for _, j := range t.touch[i] {
		visit(j)
	}
}

// OnEdge reports whether cell i touches the hexagon's outer boundary, by a
// side or only at a corner.
func (t *Tri) OnEdge(i int) bool { return t.edge[i] }

// TriPoint is the pixel position of the lattice corner (q, r) for
// triangles of the given edge length, the hexagon's centre at (0, 0).
func TriPoint(v Coord, size float64) (x, y float64) {
	return size * (float64(v[0]) + float64(v[1])/2), size * float64(v[1]) * math.Sqrt(3) / 2
}

// TriCorners are the pixel corners of the triangle c (edge length size).
func TriCorners(c Coord, size float64) [3][2]float64 {
	var out [3][2]float64
	for k, v := range TriVertices(c) {
		out[k][0], out[k][1] = TriPoint(v, size)
	}
	return out
}

// TriCenter is the pixel centroid of the triangle c.
func TriCenter(c Coord, size float64) (x, y float64) {
	return size * (float64(c[0]) + float64(c[1])/2) / 3, size * float64(c[1]) * math.Sqrt(3) / 6
}
