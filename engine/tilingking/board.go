package tilingking

import (
	"math"
	"math/bits"
	"sort"
	"sync"

	"tessera/engine"
	"tessera/engine/grid"
)

// Board kinds (the option board=...).
const (
	Square9  = "square9"
	Square11 = "square11"
	Hex      = "hex"
	Tri      = "tri"
)

// Kinds lists the board kinds in the order the help shows them.
var Kinds = []string{Square9, Square11, Hex, Tri}

// mask is a set of cells (every board has at most 128 cells).
type mask [2]uint64

func (m *mask) set(i int)         { m[i>>6] |= 1 << (i & 63) }
func (m mask) has(i int) bool     { return m[i>>6]&(1<<(i&63)) != 0 }
func (m mask) meets(o mask) bool  { return m[0]&o[0] != 0 || m[1]&o[1] != 0 }
func (m mask) count() int         { return bits.OnesCount64(m[0]) + bits.OnesCount64(m[1]) }
func (m mask) or(o mask) mask     { return mask{m[0] | o[0], m[1] | o[1]} }
func (m mask) and(o mask) mask    { return mask{m[0] & o[0], m[1] & o[1]} }
func (m mask) andNot(o mask) mask { return mask{m[0] &^ o[0], m[1] &^ o[1]} }
func (m mask) empty() bool        { return m[0]|m[1] == 0 }

// first is the lowest cell in a non-empty mask.
func (m mask) first() int {
	if m[0] != 0 {
		return bits.TrailingZeros64(m[0])
	}
	return 64 + bits.TrailingZeros64(m[1])
}
func maskOf(cells []int) (m mask) {
	for _, c := range cells {
		m.set(c)
	}
	return m
}

// pieceDef is one piece of a set: its name, how many each player has, and
// its cells in lattice coordinates.
type pieceDef struct {
	Name  string
	Count int
	Cells []grid.Coord
	Words string // what it looks like
}

// The sets. Square: the set (32 cells). Hex and tri: this
// project's, see docs/rules/tilingking.md.
var squareSet = []pieceDef{
	{"M1", 2, []grid.Coord{{0, 0}}, "monomino"},
	{"D2", 2, []grid.Coord{{0, 0}, {1, 0}}, "domino"},
	{"I3", 1, []grid.Coord{{0, 0}, {1, 0}, {2, 0}}, "straight tromino"},
	{"L3", 1, []grid.Coord{{0, 0}, {1, 0}, {0, 1}}, "bent tromino"},
	{"I4", 1, []grid.Coord{{0, 0}, {1, 0}, {2, 0}, {3, 0}}, "I tetromino"},
	{"O4", 1, []grid.Coord{{0, 0}, {1, 0}, {0, 1}, {1, 1}}, "O tetromino (square)"},
	{"T4", 1, []grid.Coord{{0, 0}, {1, 0}, {2, 0}, {1, 1}}, "T tetromino"},
	{"L4", 1, []grid.Coord{{0, 0}, {0, 1}, {0, 2}, {1, 0}}, "L tetromino"},
	{"S4", 1, []grid.Coord{{0, 0}, {1, 0}, {1, 1}, {2, 1}}, "S tetromino"},
}

// Hex set (axial coordinates): 35 cells.
var hexSet = []pieceDef{
	{"M1", 2, []grid.Coord{{0, 0}}, "one hex"},
	{"D2", 2, []grid.Coord{{0, 0}, {1, 0}}, "two hexes"},
	{"I3", 1, []grid.Coord{{0, 0}, {1, 0}, {2, 0}}, "three in a line"},
	{"L3", 1, []grid.Coord{{0, 0}, {1, 0}, {1, 1}}, "three, bent"},
	{"T3", 1, []grid.Coord{{0, 0}, {1, 0}, {0, 1}}, "three in a triangle"},
	{"I4", 1, []grid.Coord{{0, 0}, {1, 0}, {2, 0}, {3, 0}}, "four in a line (bar)"},
	{"L4", 1, []grid.Coord{{0, 0}, {1, 0}, {2, 0}, {3, -1}}, "three in a line, the fourth bent off one end"},
	{"O4", 1, []grid.Coord{{0, 0}, {1, 0}, {0, 1}, {1, 1}}, "four in a rhombus (bee)"},
	{"S4", 1, []grid.Coord{{0, 0}, {1, 0}, {1, 1}, {2, 1}}, "S-shaped (worm)"},
	{"Y4", 1, []grid.Coord{{0, 0}, {1, 0}, {-1, 1}, {0, -1}}, "a centre and three arms (propeller)"},
}

// Tri set (grid.Tri coordinates): 36 cells.
var triSet = []pieceDef{
	{"M1", 2, []grid.Coord{{1, 1}}, "one triangle"},
	{"D2", 2, []grid.Coord{{1, 1}, {2, 2}}, "two triangles (diamond)"},
	{"I3", 2, []grid.Coord{{1, 1}, {2, 2}, {4, 1}}, "three in a strip"},
	{"I4", 2, []grid.Coord{{1, 1}, {2, 2}, {4, 1}, {5, 2}}, "four in a strip (parallelogram)"},
	{"C4", 2, []grid.Coord{{2, -1}, {1, 1}, {2, 2}, {4, 1}}, "four, bent (chevron)"},
	{"T4", 2, []grid.Coord{{1, 1}, {4, 1}, {1, 4}, {2, 2}}, "four in a big triangle"},
}

// placement is one way to lay one piece on one board.
type placement struct {
	piece string
	cells []int // sorted in notation order
	m     mask
	text  string
	// For playouts (see index.go): its number in board.all, its piece's
	// number in the set, and the cells its cells touch.
	id    int
	kind  int
	touch mask
}

// board is everything fixed about a board kind, built once.
type board struct {
	kind    string
	n       int
	lattice grid.Lattice
	coord   []grid.Coord
	at      map[grid.Coord]int
	name    func(int) string
	parse   func(string) (int, error)
	rangeTx string
	side    [][]int
	touch   [][]int
	edge    []bool
	neutral mask
	free    int // cells that are not neutral
	set     []pieceDef
	cells   int               // cells in one player's set
	shapes  map[string]string // canonical key -> piece name
	places  map[string][]*placement
	byMask  map[mask]*placement
	order   []int // cell -> rank in notation order
	index         // flat tables for playouts, index.go
	// drawing
	poly    [][]engine.Point // cell outlines, scene units
	across  [][]int          // neighbour across each polygon edge, -1 outside
	center  []engine.Point
	w, h    float64
	labels  []label // coordinates around the board
	inLabel bool    // write cell names inside the cells
}

type label struct {
	text string
	at   engine.Point
}

var (
	boardMu    sync.Mutex
	boardCache = map[string]*board{}
)

// getBoard returns the board of a kind, building it on first use.
func getBoard(kind string) *board {
	boardMu.Lock()
	defer boardMu.Unlock()
	if b, ok := boardCache[kind]; ok {
		return b
	}
	b := buildBoard(kind)
	boardCache[kind] = b
	return b
}

func buildBoard(kind string) *board {
	b := &board{kind: kind, at: map[grid.Coord]int{}}
	var neutral []int
	switch kind {
	case Square9, Square11:
		w := 9
		names := []string{"c3", "c7", "g3", "g7", "e5"}
		if kind == Square11 {
			w = 11
			names = []string{"c3", "c9", "i3", "i9", "f6"}
		}
		g := grid.Square{W: w, H: w}
		b.n, b.lattice, b.set = g.Len(), grid.SquareLattice, squareSet
		b.name, b.parse, b.rangeTx = g.Name, g.Parse, g.Range()
		for i := 0; i < g.Len(); i++ {
			c, r := g.XY(i)
			b.coord = append(b.coord, grid.Coord{c, r})
			b.edge = append(b.edge, g.OnEdge(i))
			b.side = append(b.side, collect(i, g.Orth))
			b.touch = append(b.touch, collect(i, g.King))
		}
		for _, s := range names {
			i, _ := g.Parse(s)
			neutral = append(neutral, i)
		}
	case Hex:
		g := grid.NewHex(6)
		b.n, b.lattice, b.set = g.Len(), grid.HexLattice, hexSet
		b.name, b.parse, b.rangeTx = g.Name, g.Parse, g.Range()
		b.inLabel = true
		for i := 0; i < g.Len(); i++ {
			q, r := g.Axial(i)
			b.coord = append(b.coord, grid.Coord{q, r})
			b.edge = append(b.edge, g.OnEdge(i))
			b.side = append(b.side, collect(i, g.Adj))
			b.touch = append(b.touch, collect(i, g.Adj))
		}
		// The centre and the six cells three steps from it towards the
		// corners.
		neutral = append(neutral, g.At(0, 0))
		for _, d := range grid.HexDirs {
			neutral = append(neutral, g.At(3*d[0], 3*d[1]))
		}
	case Tri:
		g := grid.NewTri(4)
		b.n, b.lattice, b.set = g.Len(), grid.TriLattice, triSet
		b.name, b.parse, b.rangeTx = g.Name, g.Parse, g.Range()
		b.inLabel = true
		for i := 0; i < g.Len(); i++ {
			b.coord = append(b.coord, g.Coord(i))
			b.edge = append(b.edge, g.OnEdge(i))
			b.side = append(b.side, collect(i, g.Sides))
			b.touch = append(b.touch, collect(i, g.Touch))
		}
		// The orbit under the six turns of the triangle with corners
		// (1,1), (2,1), (1,2): six triangles about 2.3 edges from the
		// centre, on the lines to the middles of the hexagon's sides.
		c := grid.Coord{4, 4}
		for k := 0; k < 6; k++ {
			neutral = append(neutral, g.At(c))
			c = grid.TriLattice.Rot(c)
		}
	default:
		panic("tilingking: unknown board " + kind)
	}
	for i, c := range b.coord {
		b.at[c] = i
	}
	for _, i := range neutral {
		b.neutral.set(i)
	}
	b.free = b.n - b.neutral.count()
	b.order = make([]int, b.n)
	idx := make([]int, b.n)
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(x, y int) bool {
		lx, nx := splitName(b.name(idx[x]))
		ly, ny := splitName(b.name(idx[y]))
		if lx != ly {
			return lx < ly
		}
		return nx < ny
	})
	for rank, i := range idx {
		b.order[i] = rank
	}
	b.buildPlacements()
	b.buildIndex()
	b.buildGeometry()
	return b
}

func splitName(s string) (byte, int) {
	n := 0
	for _, c := range s[1:] {
		n = n*10 + int(c-'0')
	}
	return s[0], n
}

func collect(i int, nb func(int, func(int))) []int {
	var out []int
	nb(i, func(j int) { out = append(out, j) })
	return out
}

// sortCells puts cells in notation order (row/column letter, then number).
func (b *board) sortCells(cells []int) {
	sort.Slice(cells, func(x, y int) bool { return b.order[cells[x]] < b.order[cells[y]] })
}

func (b *board) text(cells []int) string {
	s := ""
	for k, c := range cells {
		if k > 0 {
			s += " "
		}
		s += b.name(c)
	}
	return s
}

// buildPlacements lists every placement of every piece of the set that
// covers no neutral tile.
func (b *board) buildPlacements() {
	b.shapes = map[string]string{}
	b.places = map[string][]*placement{}
	b.byMask = map[mask]*placement{}
	for _, p := range b.set {
		b.cells += p.Count * len(p.Cells)
		b.shapes[b.lattice.Canonical(p.Cells).Key()] = p.Name
		for _, o := range b.lattice.Orientations(p.Cells) {
			for anchor := 0; anchor < b.n; anchor++ {
				a := b.coord[anchor]
				dq, dr := a[0]-o[0][0], a[1]-o[0][1]
				if dq%b.lattice.Period != 0 || dr%b.lattice.Period != 0 {
					continue
				}
				cells := make([]int, 0, len(o))
				ok := true
				for _, c := range o {
					i, in := b.at[grid.Coord{c[0] + dq, c[1] + dr}]
					if !in || b.neutral.has(i) {
						ok = false
						break
					}
					cells = append(cells, i)
				}
				if !ok {
					continue
				}
				m := maskOf(cells)
				if _, dup := b.byMask[m]; dup {
					continue
				}
				b.sortCells(cells)
				pl := &placement{piece: p.Name, cells: cells, m: m, text: b.text(cells)}
				b.byMask[m] = pl
				b.places[p.Name] = append(b.places[p.Name], pl)
			}
		}
		ps := b.places[p.Name]
		sort.Slice(ps, func(x, y int) bool {
			cx, cy := ps[x].cells, ps[y].cells
			for k := range cx {
				if cx[k] != cy[k] {
					return b.order[cx[k]] < b.order[cy[k]]
				}
			}
			return false
		})
	}
}

// shapeName names the piece with these cells' shape, or "".
func (b *board) shapeName(cells []int) string {
	cs := make([]grid.Coord, len(cells))
	for k, c := range cells {
		cs[k] = b.coord[c]
	}
	return b.shapes[b.lattice.Canonical(cs).Key()]
}

func (b *board) def(name string) pieceDef {
	for _, p := range b.set {
		if p.Name == name {
			return p
		}
	}
	return pieceDef{}
}

// latticePoly is the outline of a lattice cell at unit size, y down.
func latticePoly(l grid.Lattice, c grid.Coord, unit float64) []engine.Point {
	switch l.Name {
	case "square":
		x, y := float64(c[0])*unit, -float64(c[1]+1)*unit
		return []engine.Point{{X: x, Y: y}, {X: x + unit, Y: y}, {X: x + unit, Y: y + unit}, {X: x, Y: y + unit}}
	case "hex":
		x, y := grid.HexCenter(c[0], c[1], unit)
		var out []engine.Point
		for _, p := range grid.HexCorners(x, y, unit) {
			out = append(out, engine.Point{X: p[0], Y: p[1]})
		}
		return out
	default:
		var out []engine.Point
		for _, p := range grid.TriCorners(c, unit) {
			out = append(out, engine.Point{X: p[0], Y: p[1]})
		}
		return out
	}
}

func centroid(pts []engine.Point) engine.Point {
	var c engine.Point
	for _, p := range pts {
		c.X += p.X / float64(len(pts))
		c.Y += p.Y / float64(len(pts))
	}
	return c
}

// buildGeometry lays the board out in scene units (about 720 across).
func (b *board) buildGeometry() {
	unit := map[string]float64{Square9: 64, Square11: 56, Hex: 34, Tri: 82}[b.kind]
	margin := 40.0
	raw := make([][]engine.Point, b.n)
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for i := 0; i < b.n; i++ {
		raw[i] = latticePoly(b.lattice, b.coord[i], unit)
		for _, p := range raw[i] {
			minX, minY = math.Min(minX, p.X), math.Min(minY, p.Y)
			maxX, maxY = math.Max(maxX, p.X), math.Max(maxY, p.Y)
		}
	}
	b.w, b.h = maxX-minX+2*margin, maxY-minY+2*margin
	b.poly = make([][]engine.Point, b.n)
	b.center = make([]engine.Point, b.n)
	type edgeKey [2]int64
	key := func(p, q engine.Point) edgeKey {
		return edgeKey{int64(math.Round((p.X + q.X) * 4)), int64(math.Round((p.Y + q.Y) * 4))}
	}
	owner := map[edgeKey][]int{}
	for i := 0; i < b.n; i++ {
		for _, p := range raw[i] {
			b.poly[i] = append(b.poly[i], engine.Point{X: p.X - minX + margin, Y: p.Y - minY + margin})
		}
		b.center[i] = centroid(b.poly[i])
		for k := range b.poly[i] {
			p, q := b.poly[i][k], b.poly[i][(k+1)%len(b.poly[i])]
			owner[key(p, q)] = append(owner[key(p, q)], i)
		}
	}
	b.across = make([][]int, b.n)
	for i := 0; i < b.n; i++ {
		for k := range b.poly[i] {
			p, q := b.poly[i][k], b.poly[i][(k+1)%len(b.poly[i])]
			j := -1
			for _, o := range owner[key(p, q)] {
				if o != i {
					j = o
				}
			}
			b.across[i] = append(b.across[i], j)
		}
	}
	// Coordinates.
	switch b.kind {
	case Square9, Square11:
		w := int(math.Sqrt(float64(b.n)))
		for c := 0; c < w; c++ {
			x := b.center[c].X
			l := string(rune('a' + c))
			b.labels = append(b.labels, label{l, engine.Point{X: x, Y: margin / 2}}, label{l, engine.Point{X: x, Y: b.h - margin/2}})
		}
		for r := 0; r < w; r++ {
			y := b.center[r*w].Y
			n := itoa(r + 1)
			b.labels = append(b.labels, label{n, engine.Point{X: margin / 2, Y: y}}, label{n, engine.Point{X: b.w - margin/2, Y: y}})
		}
	default:
		// Row letters left and right of each row.
		rows := map[byte][2]int{}
		var letters []byte
		for i := 0; i < b.n; i++ {
			l := b.name(i)[0]
			r, ok := rows[l]
			if !ok {
				letters = append(letters, l)
				r = [2]int{i, i}
			}
			r[1] = i
			rows[l] = r
		}
		for _, l := range letters {
			first, last := rows[l][0], rows[l][1]
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, p := range b.poly[first] {
				lo = math.Min(lo, p.X)
			}
			for _, p := range b.poly[last] {
				hi = math.Max(hi, p.X)
			}
			y := (b.rowY(first) + b.rowY(last)) / 2
			b.labels = append(b.labels, label{string(l), engine.Point{X: lo - 18, Y: y}}, label{string(l), engine.Point{X: hi + 18, Y: y}})
		}
	}
}

// rowY is the vertical middle of a cell's row.
func (b *board) rowY(i int) float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range b.poly[i] {
		lo, hi = math.Min(lo, p.Y), math.Max(hi, p.Y)
	}
	return (lo + hi) / 2
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
