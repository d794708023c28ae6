package tilingking

import (
	"math"

	"tessera/engine"
)

var (
	emptyFill   = engine.Hex("#e6dfcf")
	emptyStroke = engine.Hex("#c9c0ad")
	labelInk    = engine.Hex("#8a8170")
)

// tint mixes a colour with the paper (k = share of the colour).
func tint(c engine.Color, k float64) engine.Color {
	mix := func(a, b uint8) uint8 { return uint8(math.Round(float64(a)*k + float64(b)*(1-k))) }
	return engine.RGB(mix(c.R, engine.Paper.R), mix(c.G, engine.Paper.G), mix(c.B, engine.Paper.B))
}

// shade darkens a colour.
func shade(c engine.Color, k float64) engine.Color {
	return engine.RGB(uint8(float64(c.R)*k), uint8(float64(c.G)*k), uint8(float64(c.B)*k))
}

// outline strokes the edges of a set of cells that do not face another
// cell of the set.
func outline(sc *engine.Scene, poly [][]engine.Point, across [][]int, cells []int, in func(int) bool, c engine.Color, w float64) {
	for _, i := range cells {
		pts := poly[i]
		for k := range pts {
			if j := across[i][k]; j >= 0 && in(j) {
				continue
			}
			sc.Stroke(engine.Line(pts[k], pts[(k+1)%len(pts)]), c, w)
		}
	}
}

// Board draws the board: cells, coordinates, neutral tiles, territory
// shaded in the owner's colour, pieces in their colour with outlines, and
// the last piece outlined.
func (st *State) Board() engine.Scene {
	b := st.b
	sc := engine.Scene{W: b.w, H: b.h, Background: engine.Paper}
	// Cell names at about 25 px in a picture 760 px wide: capitals 9 px
	// high on a phone. The triangles' three-letter names need the least
	// size that does that, or neighbours' names would touch.
	textSize := 26.0
	if b.kind == Tri {
		textSize = 25.0
	}
	for i := 0; i < b.n; i++ {
		fill, stroke := emptyFill, emptyStroke
		switch {
		case b.neutral.has(i):
			fill, stroke = engine.Black, engine.Black
		case st.Cover[i] >= 0:
			fill, stroke = seatColors[st.Cover[i]], shade(seatColors[st.Cover[i]], 0.75)
		case st.Terr[i] >= 0:
			fill, stroke = tint(seatColors[st.Terr[i]], 0.35), tint(seatColors[st.Terr[i]], 0.6)
		}
		sc.Fill(engine.Polygon(b.poly[i]...), fill, stroke, 1.2)
	}
	// Territory borders, so that a shaded region reads as one.
	for s := 0; s < st.N; s++ {
		var cells []int
		for i := 0; i < b.n; i++ {
			if int(st.Terr[i]) == s {
				cells = append(cells, i)
			}
		}
		seat := int8(s)
		outline(&sc, b.poly, b.across, cells, func(j int) bool { return st.Terr[j] == seat }, seatColors[s], 3)
	}
	for _, p := range st.Pieces {
		in := map[int]bool{}
		for _, c := range p.Cells {
			in[c] = true
		}
		outline(&sc, b.poly, b.across, p.Cells, func(j int) bool { return in[j] }, engine.Ink, 3)
	}
	if b.inLabel {
		for i := 0; i < b.n; i++ {
			if st.Cover[i] < 0 && !b.neutral.has(i) {
				at := b.center[i]
				if b.kind == Tri {
					at.Y += towardsBase(b.poly[i])
				}
				sc.Text(b.name(i), at.X, at.Y, textSize, labelInk, engine.Center, false)
			}
		}
	}
	for _, l := range b.labels {
		sc.Text(l.text, l.at.X, l.at.Y, 26, engine.Ink, engine.Center, true)
	}
	if len(st.Last) > 0 && st.Cover[st.Last[0]] >= 0 {
		in := map[int]bool{}
		for _, c := range st.Last {
			in[c] = true
		}
		outline(&sc, b.poly, b.across, st.Last, func(j int) bool { return in[j] }, engine.Highlight, 6)
	}
	return sc
}

// HandScene draws the seat's pieces left, small, each with its name and
// how many are left.
func (st *State) HandScene(s engine.Seat) engine.Scene {
	b := st.b
	unit := map[string]float64{Square9: 24, Square11: 24, Hex: 14, Tri: 32}[b.kind]
	const box, rowH, perRow, gap = 136.0, 150.0, 5, 8.0
	kinds := distinct(st.Hands[s])
	rows := (len(kinds) + perRow - 1) / perRow
	sc := engine.Scene{W: perRow*box + 2*gap, H: float64(max(rows, 1))*rowH + 2*gap, Background: engine.Paper}
	if len(kinds) == 0 {
		sc.Text("no pieces left", sc.W/2, sc.H/2, 28, engine.Ink, engine.Center, false)
		return sc
	}
	for k, name := range kinds {
		n := 0
		for _, p := range st.Hands[s] {
			if p == name {
				n++
			}
		}
		x0 := gap + float64(k%perRow)*box
		y0 := gap + float64(k/perRow)*rowH
		shape := b.lattice.Canonical(b.def(name).Cells)
		var polys [][]engine.Point
		minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		for _, c := range shape {
			p := latticePoly(b.lattice, c, unit)
			polys = append(polys, p)
			for _, q := range p {
				minX, minY = math.Min(minX, q.X), math.Min(minY, q.Y)
				maxX, maxY = math.Max(maxX, q.X), math.Max(maxY, q.Y)
			}
		}
		dx := x0 + box/2 - (minX+maxX)/2
		dy := y0 + 52 - (minY+maxY)/2
		for _, p := range polys {
			moved := make([]engine.Point, len(p))
			for j, q := range p {
				moved[j] = engine.Point{X: q.X + dx, Y: q.Y + dy}
			}
			sc.Fill(engine.Polygon(moved...), seatColors[s], engine.Ink, 2)
		}
		label := name
		if n > 1 {
			label += " ×" + itoa(n)
		}
		sc.Text(label, x0+box/2, y0+122, 26, engine.Ink, engine.Center, true)
	}
	return sc
}

// towardsBase moves a triangle's name 3 units from its centre towards its
// base, down in a triangle pointing up and up in one pointing down: the
// names of two neighbours, one of each, then stand clear of each other.
func towardsBase(tri []engine.Point) float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	sum := 0.0
	for _, p := range tri {
		lo, hi = math.Min(lo, p.Y), math.Max(hi, p.Y)
		sum += p.Y
	}
	if sum/float64(len(tri)) > (lo+hi)/2 { // two corners below: the base
		return 3
	}
	return -3
}
