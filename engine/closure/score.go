package closure

import (
	"fmt"
	"sort"

	"tessera/engine"
	"tessera/engine/grid"
)

// Quadrant nodes: cell*4 + quadrant.
const nodes = 625 * 4

// view is the table with one extra tile (face f on cell nc, nc < 0: none)
// taken as laid, so that a placement can be scored without changing the
// position.
type view struct {
	st *State
	nc int
	f  Face
}

func (v view) has(cell int) bool {
	return cell >= 0 && (cell == v.nc || v.st.Cells[cell].Tile != 0)
}

func (v view) face(cell int) Face {
	if cell == v.nc {
		return v.f
	}
	return v.st.Cells[cell].face()
}

// lineNext visits the tiles whose arms meet an arm of the tile on cell.
func (v view) lineNext(cell int, visit func(int)) {
	f := v.face(cell)
	for d := grid.N; d <= grid.W; d++ {
		if !f.Arm[d] {
			continue
		}
		if j := board.Step(cell, d); v.has(j) && v.face(j).Arm[d.Opp()] {
			visit(j)
		}
	}
}

// areaNext visits the quadrants connected to quadrant node i: the
// neighbours in its own tile not cut off by an arm, and the quadrants
// facing it across its two edges (always connected). With sameColour it
// ignores arms and joins only quadrants of one colour.
func (v view) areaNext(sameColour bool) grid.Neighbors {
	return func(i int, visit func(int)) {
		cell, q := i/4, i%4
		f := v.face(cell)
		// Inside the tile: arm q lies between q and q+1, arm q-1 between q-1 and q.
		if sameColour || !f.Arm[q] {
			if r := (q + 1) % 4; !sameColour || f.Col[r] == f.Col[q] {
				visit(cell*4 + r)
			}
		}
		if p := (q + 3) % 4; sameColour || !f.Arm[p] {
			if !sameColour || f.Col[p] == f.Col[q] {
				visit(cell*4 + p)
			}
		}
		// Across edge q, quadrant q faces the neighbour's q+3; across edge
		// q-1 it faces the neighbour's q+1.
		for _, e := range [2][2]int{{q, (q + 3) % 4}, {(q + 3) % 4, (q + 1) % 4}} {
			j := board.Step(cell, grid.Dir(e[0]))
			if !v.has(j) {
				continue
			}
			if !sameColour || v.face(j).Col[e[1]] == f.Col[q] {
				visit(j*4 + e[1])
			}
		}
	}
}

// openQuadrant reports whether quadrant node i lies on an edge facing an
// empty cell or the frame's edge.
func (v view) openQuadrant(i int) bool {
	cell, q := i/4, i%4
	return !v.has(board.Step(cell, grid.Dir(q))) || !v.has(board.Step(cell, grid.Dir((q+3)%4)))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// score is what placing face f on cell scores during play: the line the
// tile joins, then each area it encloses (with the colour bonus).
func (st *State) score(mover engine.Seat, cell int, f Face) []engine.Delta {
	v := view{st: st, nc: cell, f: f}
	var out []engine.Delta
	joined := false
	v.lineNext(cell, func(int) { joined = true })
	if joined {
		seen := grid.Flood(board.Len(), []int{cell}, v.lineNext, v.has)
		n := 0
		for _, s := range seen {
			if s {
				n++
			}
		}
		if n >= 3 {
			out = append(out, engine.Delta{Seat: mover, Points: n, Reason: fmt.Sprintf("line through %d tiles", n)})
		}
	}
	done := make([]bool, 4)
	for q := 0; q < 4; q++ {
		if done[q] {
			continue
		}
		area := grid.Flood(nodes, []int{cell*4 + q}, v.areaNext(false), func(i int) bool { return v.has(i / 4) })
		size, closed, colour := 0, true, f.Col[q]
		for i, in := range area {
			if !in {
				continue
			}
			size++
			if i/4 == cell {
				done[i%4] = true
			}
			if v.openQuadrant(i) {
				closed = false
			}
			if c := v.face(i / 4).Col[i%4]; c != colour {
				colour = 0
			}
		}
		if !closed {
			continue
		}
		out = append(out, engine.Delta{Seat: mover, Points: 2 * size, Reason: "enclosed " + plural(size, "quadrant", "quadrants")})
		if colour != 0 {
			if o := st.Owner(colour); o != engine.NoSeat {
				out = append(out, engine.Delta{Seat: o, Points: 2 * size, Reason: fmt.Sprintf("enclosed %s area of %s", colourNames[colour], plural(size, "quadrant", "quadrants"))})
			}
		}
	}
	return out
}

// Area is a single-colour area of the final scoring.
type Area struct {
	Colour byte
	Size   int
}

// Areas lists the single-colour areas on the table (quadrants of one
// colour joined through shared sides, arms ignored), largest first, then
// by colour and position.
func (st *State) Areas() []Area {
	v := view{st: st, nc: -1}
	label, count := grid.Components(nodes, func(i int) bool { return v.has(i / 4) }, v.areaNext(true))
	out := make([]Area, count)
	for i, l := range label {
		if l >= 0 {
			out[l].Colour = v.face(i / 4).Col[i%4]
			out[l].Size++
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Size > out[j].Size })
	return out
}

var ordinals = []string{"", "largest", "2nd largest", "3rd largest"}

func ordinal(k int) string {
	if k < len(ordinals) {
		return ordinals[k]
	}
	return fmt.Sprintf("%dth largest", k)
}

// finalScores: the largest single-colour areas (as many as seats, plus
// every area tied with the last qualifying size) give their colour's owner
// 1 per quadrant; each tile left in a hand gives every other seat 2.
func (st *State) finalScores() []engine.Delta {
	var out []engine.Delta
	areas := st.Areas()
	if len(areas) > 0 {
		cut := areas[min(st.N, len(areas))-1].Size
		for i, a := range areas {
			if a.Size < cut {
				break
			}
			rank := 1
			for rank <= i && areas[rank-1].Size > a.Size {
				rank++
			}
			tied := ""
			if (i > 0 && areas[i-1].Size == a.Size) || (i+1 < len(areas) && areas[i+1].Size == a.Size) {
				tied = " (tied)"
			}
			if o := st.Owner(a.Colour); o != engine.NoSeat {
				out = append(out, engine.Delta{Seat: o, Points: a.Size, Reason: fmt.Sprintf("%s %s area %d%s", ordinal(rank), colourNames[a.Colour], a.Size, tied)})
			}
		}
	}
	for s := 0; s < st.N; s++ {
		n := len(st.Hands[s])
		if n == 0 {
			continue
		}
		for o := 0; o < st.N; o++ {
			if o != s {
				out = append(out, engine.Delta{Seat: engine.Seat(o), Points: 2 * n, Reason: fmt.Sprintf("%s left in %s's hand", plural(n, "tile", "tiles"), st.label(engine.Seat(s)))})
			}
		}
	}
	return out
}
