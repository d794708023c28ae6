package elemental

import (
	"strconv"

	"tessera/engine"
	"tessera/engine/grid"
)

const (
	cellSize = 80.0
	margin   = 44.0 // room for the coordinates and the border bands
	band     = 12.0
	// labelSize is the coordinates' size: at 26 units, about 26 px in a
	// picture 760 px wide, their capitals are 9 px high on a phone.
	labelSize = 26.0
)

// cellOrigin is the top-left corner of a cell in scene units (row 8 on top).
func cellOrigin(cell int) (x, y float64) {
	c, r := board.XY(cell)
	return margin + float64(c)*cellSize, margin + float64(board.H-1-r)*cellSize
}

// drawTile draws a tile as four triangles meeting at its centre.
func drawTile(sc *engine.Scene, x, y, size float64, t Tile, letters bool) {
	cx, cy := x+size/2, y+size/2
	corners := [5]engine.Point{{X: x, Y: y}, {X: x + size, Y: y}, {X: x + size, Y: y + size}, {X: x, Y: y + size}, {X: x, Y: y}}
	for d := 0; d < 4; d++ {
		// Edge d runs from corner d to corner d+1 (N: top-left to top-right, ...).
		sc.Fill(engine.Polygon(engine.Point{X: cx, Y: cy}, corners[d], corners[d+1]), colourRGB[t[d]], engine.Color{}, 0)
	}
	diagonals := (&engine.Path{}).MoveTo(x, y).LineTo(x+size, y+size).MoveTo(x+size, y).LineTo(x, y+size)
	sc.Stroke(diagonals, engine.Ink, 1.2)
	if letters {
		off := size * 0.3
		pos := [4]engine.Point{{X: cx, Y: cy - off}, {X: cx + off, Y: cy}, {X: cx, Y: cy + off}, {X: cx - off, Y: cy}}
		for d := 0; d < 4; d++ {
			ink := engine.White
			if t[d] == 'Y' {
				ink = engine.Ink
			}
			sc.Text(string(t[d]), pos[d].X, pos[d].Y, size*0.33, ink, engine.Center, true)
		}
	}
	sc.Stroke(engine.Rect(x, y, size, size), engine.Ink, 2)
}

// Board draws the 8x8 board, its coloured borders, coordinates on all four
// sides, the tiles and the last move.
func (st *State) Board() engine.Scene {
	w := 2*margin + float64(board.W)*cellSize
	sc := engine.Scene{W: w, H: w, Background: engine.Paper}
	in := margin - band
	side := float64(board.W)*cellSize + 2*band
	// Border bands: north, east, south, west.
	sc.Fill(engine.Rect(in, in, side, band), colourRGB[st.Borders[grid.N]], engine.Color{}, 0)
	sc.Fill(engine.Rect(in+side-band, in, band, side), colourRGB[st.Borders[grid.E]], engine.Color{}, 0)
	sc.Fill(engine.Rect(in, in+side-band, side, band), colourRGB[st.Borders[grid.S]], engine.Color{}, 0)
	sc.Fill(engine.Rect(in, in, band, side), colourRGB[st.Borders[grid.W]], engine.Color{}, 0)
	for i := 0; i < board.Len(); i++ {
		x, y := cellOrigin(i)
		if st.Filled[i] {
			drawTile(&sc, x, y, cellSize, st.Cells[i], true)
		} else {
			sc.Fill(engine.Rect(x, y, cellSize, cellSize), engine.Hex("#e6dfcf"), engine.Hex("#c9c0ad"), 1)
		}
	}
	for c := 0; c < board.W; c++ {
		x := margin + (float64(c)+0.5)*cellSize
		l := string(rune('a' + c))
		sc.Text(l, x, (margin-band)/2, labelSize, engine.Ink, engine.Center, true)
		sc.Text(l, x, w-(margin-band)/2, labelSize, engine.Ink, engine.Center, true)
	}
	for r := 0; r < board.H; r++ {
		y := margin + (float64(board.H-1-r)+0.5)*cellSize
		n := strconv.Itoa(r + 1)
		sc.Text(n, (margin-band)/2, y, labelSize, engine.Ink, engine.Center, true)
		sc.Text(n, w-(margin-band)/2, y, labelSize, engine.Ink, engine.Center, true)
	}
	if st.Last >= 0 {
		x, y := cellOrigin(st.Last)
		sc.Stroke(engine.Rect(x+2, y+2, cellSize-4, cellSize-4), engine.Highlight, 6)
	}
	return sc
}

// HandScene draws the seat's tiles large, with their codes.
func (st *State) HandScene(s engine.Seat) engine.Scene {
	const size, gap = 160.0, 40.0
	n := len(st.Hands[s])
	w := gap + float64(max(n, 1))*(size+gap)
	sc := engine.Scene{W: w, H: size + 2*gap + 36, Background: engine.Paper}
	if n == 0 {
		sc.Text("no tiles", w/2, sc.H/2, 28, engine.Ink, engine.Center, false)
	}
	for i, t := range st.Hands[s] {
		x := gap + float64(i)*(size+gap)
		drawTile(&sc, x, gap, size, t, true)
		sc.Text(t.String(), x+size/2, gap+size+30, 32, engine.Ink, engine.Center, true)
	}
	return sc
}
