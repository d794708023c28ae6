package closure

import (
	"strconv"

	"tessera/engine"
)

const (
	sceneSide = 720.0 // long side of a board scene
	margin    = 34.0  // room for the coordinates
	labelSize = 26.0  // about 26 px: capitals 9 px high on a phone
	maxCell   = 150.0
)

var (
	emptyFill   = engine.Hex("#e6dfcf")
	emptyStroke = engine.Hex("#c9c0ad")
)

// drawTile draws a face: four coloured quadrants, its black arms, and an
// optional label (the turn number) on a white disc at the centre.
func drawTile(sc *engine.Scene, x, y, size float64, f Face, label string) {
	h := size / 2
	origin := [4][2]float64{{x, y}, {x + h, y}, {x + h, y + h}, {x, y + h}} // NW NE SE SW
	for q := 0; q < 4; q++ {
		// The outline in the same colour hides the seam between equal quadrants.
		sc.Fill(engine.Rect(origin[q][0], origin[q][1], h, h), colourRGB[f.Col[q]], colourRGB[f.Col[q]], 1)
	}
	cx, cy := x+h, y+h
	ends := [4]engine.Point{{X: cx, Y: y}, {X: x + size, Y: cy}, {X: cx, Y: y + size}, {X: x, Y: cy}} // N E S W
	w := max(4, size*0.09)
	for d := 0; d < 4; d++ {
		if f.Arm[d] {
			sc.Stroke(engine.Line(engine.Point{X: cx, Y: cy}, ends[d]), engine.Black, w)
		}
	}
	if f.Arm[0] || f.Arm[1] || f.Arm[2] || f.Arm[3] {
		sc.Fill(engine.Circle(cx, cy, w/2), engine.Black, engine.Color{}, 0)
	}
	sc.Stroke(engine.Rect(x, y, size, size), engine.Ink, max(1.5, size*0.02))
	ts := max(labelSize, size*0.24)
	r := max(0.55*ts, 0.3*ts*float64(len(label))+0.1*ts)
	// On a tile too small for a turn number readable on a phone, none
	// rather than one nobody can read.
	if label != "" && 2*r <= 0.9*size {
		sc.Fill(engine.Circle(cx, cy, r), engine.Color{R: 255, G: 255, B: 255, A: 215}, engine.Ink, 1)
		sc.Text(label, cx, cy, ts, engine.Ink, engine.Center, true)
	}
}

// crop is the part of the frame the picture shows: the laid tiles plus one
// ring of empty cells (m13 and its ring on an empty table).
func (st *State) crop() (c0, r0, c1, r1 int) {
	c0, r0, c1, r1 = 12, 12, 12, 12
	if st.Laid > 0 {
		c0, r0, c1, r1 = board.W, board.H, -1, -1
		for i := 0; i < board.Len(); i++ {
			if st.Cells[i].Tile != 0 {
				c, r := board.XY(i)
				c0, r0, c1, r1 = min(c0, c), min(r0, r), max(c1, c), max(r1, r)
			}
		}
	}
	return max(0, c0-1), max(0, r0-1), min(board.W-1, c1+1), min(board.H-1, r1+1)
}

// Board draws the laid tiles with their turn numbers, the empty ring around
// them, the coordinates of the shown rows and columns, and the last move.
func (st *State) Board() engine.Scene {
	c0, r0, c1, r1 := st.crop()
	return st.board(c0, r0, c1, r1)
}

// BoardFramed is Board in the frame of a later position (engine.Framer):
// the part both positions show, so that a replay keeps one framing.
func (st *State) BoardFramed(later engine.State) engine.Scene {
	c0, r0, c1, r1 := st.crop()
	if l, ok := later.(*State); ok {
		lc0, lr0, lc1, lr1 := l.crop()
		c0, r0, c1, r1 = min(c0, lc0), min(r0, lr0), max(c1, lc1), max(r1, lr1)
	}
	return st.board(c0, r0, c1, r1)
}

// board draws the position with columns c0 to c1 and rows r0 to r1 shown.
func (st *State) board(c0, r0, c1, r1 int) engine.Scene {
	cols, rows := c1-c0+1, r1-r0+1
	cell := min(maxCell, (sceneSide-2*margin)/float64(max(cols, rows)))
	sc := engine.Scene{W: 2*margin + float64(cols)*cell, H: 2*margin + float64(rows)*cell, Background: engine.Paper}
	origin := func(c, r int) (float64, float64) {
		return margin + float64(c-c0)*cell, margin + float64(r1-r)*cell
	}
	for r := r0; r <= r1; r++ {
		for c := c0; c <= c1; c++ {
			x, y := origin(c, r)
			i := board.Index(c, r)
			if t := st.Cells[i]; t.Tile != 0 {
				drawTile(&sc, x, y, cell, t.face(), strconv.Itoa(int(t.Turn)))
			} else {
				sc.Fill(engine.Rect(x+1, y+1, cell-2, cell-2), emptyFill, emptyStroke, 1.5)
			}
		}
	}
	for c := c0; c <= c1; c++ {
		x, _ := origin(c, r0)
		l := string(rune('a' + c))
		sc.Text(l, x+cell/2, margin/2, labelSize, engine.Ink, engine.Center, true)
		sc.Text(l, x+cell/2, sc.H-margin/2, labelSize, engine.Ink, engine.Center, true)
	}
	for r := r0; r <= r1; r++ {
		_, y := origin(c0, r)
		n := strconv.Itoa(r + 1)
		sc.Text(n, margin/2, y+cell/2, labelSize, engine.Ink, engine.Center, true)
		sc.Text(n, sc.W-margin/2, y+cell/2, labelSize, engine.Ink, engine.Center, true)
	}
	if st.Last >= 0 {
		c, r := board.XY(st.Last)
		x, y := origin(c, r)
		sc.Stroke(engine.Rect(x+2, y+2, cell-4, cell-4), engine.Highlight, max(4, cell*0.06))
	}
	return sc
}

// HandScene draws the seat's tiles large, at rotation 0, with their numbers.
func (st *State) HandScene(s engine.Seat) engine.Scene {
	const size, gap = 150.0, 36.0
	hand := st.Hand(s).([]int)
	n := len(hand)
	w := gap + float64(max(n, 4))*(size+gap)
	sc := engine.Scene{W: w, H: size + 2*gap + 100, Background: engine.Paper}
	if n == 0 {
		sc.Text("no tiles", w/2, gap+size/2, 28, engine.Ink, engine.Center, false)
	}
	for i, t := range hand {
		x := gap + float64(i)*(size+gap)
		drawTile(&sc, x, gap, size, tiles[t], "")
		sc.Text(strconv.Itoa(t), x+size/2, gap+size+28, 30, engine.Ink, engine.Center, true)
	}
	sc.Text("Shown at rotation 0:", w/2, sc.H-56, 26, engine.Ink, engine.Center, false)
	sc.Text("add 90, 180 or 270 to turn a tile clockwise", w/2, sc.H-24, 26, engine.Ink, engine.Center, false)
	return sc
}
