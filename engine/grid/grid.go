// Package grid is the shared geometry of Tessera's boards: square and hex
// grids (triangle grids in tri.go), their cell notation, neighbours, and
// flood fills over any graph of cells. Cells are numbered 0..Len()-1.
package grid

import (
	"fmt"
	"strconv"
	"strings"
)

// Neighbors calls visit for each neighbour of cell i.
type Neighbors func(i int, visit func(j int))

// Flood returns the cells reachable from starts through cells for which
// pass is true (starts are included only if pass is true for them).
func Flood(n int, starts []int, next Neighbors, pass func(i int) bool) []bool {
	seen := make([]bool, n)
	stack := make([]int, 0, 16)
	for _, s := range starts {
		if s >= 0 && s < n && !seen[s] && pass(s) {
			seen[s] = true
			stack = append(stack, s)
		}
	}
	visit := func(j int) { // one closure for the whole fill, not one per cell
		if !seen[j] && pass(j) {
			seen[j] = true
			stack = append(stack, j)
		}
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		next(i, visit)
	}
	return seen
}

// Components labels the connected components of the cells for which in is
// true: label[i] is the component number (0..count-1), or -1.
func Components(n int, in func(i int) bool, next Neighbors) (label []int, count int) {
	label = make([]int, n)
	for i := range label {
		label[i] = -1
	}
	stack := make([]int, 0, 16)
	visit := func(j int) {
		if label[j] < 0 && in(j) {
			label[j] = count
			stack = append(stack, j)
		}
	}
	for s := 0; s < n; s++ {
		if label[s] >= 0 || !in(s) {
			continue
		}
		label[s] = count
		stack = append(stack[:0], s)
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			next(i, visit)
		}
		count++
	}
	return label, count
}

// splitCell reads a cell name: letters then digits ("d5", "AA12" is not
// supported: rows and columns are single letters a-z).
func splitCell(s string) (letter int, number int, ok bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if len(s) < 2 || s[0] < 'a' || s[0] > 'z' {
		return 0, 0, false
	}
	n, err := strconv.Atoi(s[1:])
	if err != nil || s[1] == '+' || s[1] == '-' {
		return 0, 0, false
	}
	return int(s[0] - 'a'), n, true
}

func letter(i int) string { return string(rune('a' + i)) }

// Dir is a side of a square cell.
type Dir int

// Square directions, clockwise from north. North is towards higher rows.
const (
	N Dir = iota
	E
	S
	W
)

// Opp is the opposite side.
func (d Dir) Opp() Dir { return (d + 2) % 4 }

func (d Dir) String() string { return [...]string{"N", "E", "S", "W"}[d] }

// Square is a W x H grid: columns a.. west to east, rows 1.. south to
// north. Cell index = row*W + col (row 0 is row "1").
type Square struct{ W, H int }

// Len is the number of cells.
func (g Square) Len() int { return g.W * g.H }

// Index of column c, row r (0-based), or -1 when off the board.
func (g Square) Index(c, r int) int {
	if c < 0 || r < 0 || c >= g.W || r >= g.H {
		return -1
	}
	return r*g.W + c
}

// XY is the column and row (0-based) of cell i.
func (g Square) XY(i int) (c, r int) { return i % g.W, i / g.W }

// Name is the notation of cell i ("d5").
func (g Square) Name(i int) string {
	c, r := g.XY(i)
	return letter(c) + strconv.Itoa(r+1)
}

// Range is the board's span in notation ("a1-h8").
func (g Square) Range() string { return "a1-" + g.Name(g.Len()-1) }

// Parse reads a cell name. Its error says what is wrong in words a player
// can act on.
func (g Square) Parse(s string) (int, error) {
	c, n, ok := splitCell(s)
	if !ok {
		return -1, fmt.Errorf("%q is not a cell (write a column letter and a row number, like %s)", strings.TrimSpace(s), g.Name(g.Index(g.W/2, g.H/2)))
	}
	i := g.Index(c, n-1)
	if i < 0 {
		return -1, fmt.Errorf("%s is off the board (%s)", strings.ToLower(strings.TrimSpace(s)), g.Range())
	}
	return i, nil
}

// Step is the neighbour of i on side d, or -1 off the board.
func (g Square) Step(i int, d Dir) int {
	c, r := g.XY(i)
	switch d {
	case N:
		r++
	case E:
		c++
	case S:
		r--
	case W:
		c--
	}
	return g.Index(c, r)
}

// Orth visits the orthogonal neighbours.
func (g Square) Orth(i int, visit func(j int)) {
	for d := N; d <= W; d++ {
		if j := g.Step(i, d); j >= 0 {
			visit(j)
		}
	}
}

// King visits the eight neighbours (sides and corners).
func (g Square) King(i int, visit func(j int)) {
	c, r := g.XY(i)
	for dr := -1; dr <= 1; dr++ {
		for dc := -1; dc <= 1; dc++ {
			if j := g.Index(c+dc, r+dr); (dr != 0 || dc != 0) && j >= 0 {
				visit(j)
			}
		}
	}
}

// OnEdge reports whether cell i touches the board's outer boundary.
func (g Square) OnEdge(i int) bool {
	c, r := g.XY(i)
	return c == 0 || r == 0 || c == g.W-1 || r == g.H-1
}
