package grid

import (
	"sort"
	"strconv"
	"strings"
)

// Coord is a cell of a polyform in lattice coordinates: (column, row) on
// square grids (rows growing upwards), axial (q, r) on hex grids, and on
// triangle grids the sum of the axial coordinates of the triangle's three
// corners (see Tri).
type Coord [2]int

// Lattice describes a grid's symmetries, so that polyforms (pieces made of
// cells) can be compared under rotation, reflection and translation.
type Lattice struct {
	Name   string
	Steps  int               // rotations in a full turn (4 square, 6 hex and tri)
	Rot    func(Coord) Coord // one rotation step about the origin
	Flip   func(Coord) Coord // a reflection
	Period int               // translations move each coordinate by multiples of Period
	// Sides visits the cells sharing a full side with c.
	Sides func(c Coord, visit func(Coord))
}

// SquareLattice: quarter turns and a mirror.
var SquareLattice = Lattice{
	Name:   "square",
	Steps:  4,
	Rot:    func(c Coord) Coord { return Coord{-c[1], c[0]} },
	Flip:   func(c Coord) Coord { return Coord{-c[0], c[1]} },
	Period: 1,
	Sides: func(c Coord, visit func(Coord)) {
		visit(Coord{c[0] + 1, c[1]})
		visit(Coord{c[0], c[1] + 1})
		visit(Coord{c[0] - 1, c[1]})
		visit(Coord{c[0], c[1] - 1})
	},
}

// HexLattice: axial coordinates, sixth turns and a mirror.
var HexLattice = Lattice{
	Name:   "hex",
	Steps:  6,
	Rot:    func(c Coord) Coord { return Coord{-c[1], c[0] + c[1]} },
	Flip:   func(c Coord) Coord { return Coord{c[1], c[0]} },
	Period: 1,
	Sides: func(c Coord, visit func(Coord)) {
		for _, d := range HexDirs {
			visit(Coord{c[0] + d[0], c[1] + d[1]})
		}
	},
}

// TriLattice: triangles named by the sum of their corners' axial
// coordinates (see Tri); the same turns and mirror as hex, translations by
// whole lattice steps (3 in these sums).
var TriLattice = Lattice{
	Name:   "tri",
	Steps:  6,
	Rot:    HexLattice.Rot,
	Flip:   HexLattice.Flip,
	Period: 3,
	Sides: func(c Coord, visit func(Coord)) {
		if TriDown(c) {
			visit(Coord{c[0] + 1, c[1] + 1})
			visit(Coord{c[0] + 1, c[1] - 2})
			visit(Coord{c[0] - 2, c[1] + 1})
		} else {
			visit(Coord{c[0] - 1, c[1] - 1})
			visit(Coord{c[0] - 1, c[1] + 2})
			visit(Coord{c[0] + 2, c[1] - 1})
		}
	},
}

// Shape is a polyform translated to a standard position, its cells sorted.
type Shape []Coord

func floorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func lessCoord(a, b Coord) bool {
	if a[1] != b[1] {
		return a[1] < b[1]
	}
	return a[0] < b[0]
}

// Normalize translates the cells so that the smallest coordinates fall in
// [0, Period) and sorts them.
func (l Lattice) Normalize(cells []Coord) Shape {
	if len(cells) == 0 {
		return Shape{}
	}
	mq, mr := cells[0][0], cells[0][1]
	for _, c := range cells {
		mq, mr = min(mq, c[0]), min(mr, c[1])
	}
	dq, dr := floorDiv(mq, l.Period)*l.Period, floorDiv(mr, l.Period)*l.Period
	out := make(Shape, len(cells))
	for i, c := range cells {
		out[i] = Coord{c[0] - dq, c[1] - dr}
	}
	sort.Slice(out, func(i, j int) bool { return lessCoord(out[i], out[j]) })
	return out
}

// Key is a string naming the shape exactly (same cells, same position).
func (s Shape) Key() string {
	var b strings.Builder
	for i, c := range s {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(c[0]))
		b.WriteByte(',')
		b.WriteString(strconv.Itoa(c[1]))
	}
	return b.String()
}

// Orientations lists the distinct normalized images of the cells under the
// lattice's rotations and reflections, in a stable order (by Key).
func (l Lattice) Orientations(cells []Coord) []Shape {
	seen := map[string]bool{}
	var out []Shape
	cur := append([]Coord(nil), cells...)
	for f := 0; f < 2; f++ {
		for k := 0; k < l.Steps; k++ {
			s := l.Normalize(cur)
			if key := s.Key(); !seen[key] {
				seen[key] = true
				out = append(out, s)
			}
			for i := range cur {
				cur[i] = l.Rot(cur[i])
			}
		}
		for i := range cur {
			cur[i] = l.Flip(cur[i])
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key() < out[j].Key() })
	return out
}

// Canonical is the first of the orientations: two polyforms have the same
// canonical shape exactly when one can be turned, flipped and moved onto
// the other.
func (l Lattice) Canonical(cells []Coord) Shape { return l.Orientations(cells)[0] }

// Connected reports whether the cells form one piece joined by full sides.
func (l Lattice) Connected(cells []Coord) bool {
	if len(cells) == 0 {
		return false
	}
	in := map[Coord]bool{}
	for _, c := range cells {
		in[c] = true
	}
	seen := map[Coord]bool{cells[0]: true}
	stack := []Coord{cells[0]}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		l.Sides(c, func(d Coord) {
			if in[d] && !seen[d] {
				seen[d] = true
				stack = append(stack, d)
			}
		})
	}
	return len(seen) == len(in)
}

// Free lists the free polyforms of n cells (distinct under rotation,
// reflection and translation), canonical, sorted by Key: 1, 1, 2, 5, 12
// on squares, 1, 1, 3, 7 on hexes, 1, 1, 1, 3, 4 on triangles.
func (l Lattice) Free(n int) []Shape {
	if n <= 0 {
		return nil
	}
	start := Coord{0, 0}
	if l.Period == 3 {
		start = Coord{1, 1}
	}
	level := map[string]Shape{"": l.Canonical([]Coord{start})}
	for size := 1; size < n; size++ {
		next := map[string]Shape{}
		for _, s := range level {
			in := map[Coord]bool{}
			for _, c := range s {
				in[c] = true
			}
			for _, c := range s {
				l.Sides(c, func(d Coord) {
					if in[d] {
						return
					}
					grown := append(append([]Coord(nil), s...), d)
					cs := l.Canonical(grown)
					next[cs.Key()] = cs
				})
			}
		}
		level = next
	}
	out := make([]Shape, 0, len(level))
	for _, s := range level {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key() < out[j].Key() })
	return out
}
