package glorieta

import (
	"fmt"
	"math"
	"strconv"

	"tessera/engine"
	"tessera/engine/grid"
)

// The picture follows the original diagrams: hexagonal cells on a blue
// ground, the yellow and black ring, stones filling their cells, pink
// stones pink.
const (
	cellR  = 24.0 // circumradius of a cell, scene units
	labelQ = 8    // row letters sit at distance 8 from the centre
)

var (
	ground     = engine.Hex("#7ea6de")
	emptyFill  = engine.White
	cellLine   = engine.Hex("#5b6b80")
	yellowFill = engine.Yellow
	blackFill  = engine.Hex("#161616")
	pinkFill   = engine.Pink
	loopLine   = engine.Hex("#e0102a")
)

// sceneSize is the scene's size and the position of the centre cell.
func sceneSize() (w, h, ox, oy float64) {
	// Row letters at distance 8 on row g: x = ±8·√3·R; leave room for them.
	half := float64(labelQ)*math.Sqrt(3)*cellR + 22
	w = 2 * half
	h = 2 * (7*1.5*cellR + cellR + 10)
	return w, h, w / 2, h / 2
}

func worldXY(w int, ox, oy float64) (float64, float64) {
	q, r := world.Axial(w)
	x, y := grid.HexCenter(q, r, cellR)
	return ox + x, oy + y
}

func hexPath(x, y, size float64) *engine.Path {
	c := grid.HexCorners(x, y, size)
	var pts []engine.Point
	for _, p := range c {
		pts = append(pts, engine.Point{X: p[0], Y: p[1]})
	}
	return engine.Polygon(pts...)
}

// stoneColours are the fill and the number colour of a board cell.
func (st *State) stoneColours(c int) (fill, ink engine.Color) {
	switch {
	case st.Pink[c]:
		return pinkFill, engine.Hex("#9c3d68")
	case st.Stones[c] == yellowStone:
		return yellowFill, engine.Hex("#8a6a00")
	case st.Stones[c] == blackStone:
		return blackFill, engine.Hex("#8a8a8a")
	}
	return emptyFill, engine.Hex("#9aa3ad")
}

// Board draws the ring, the cells with their numbers, the row letters at
// both ends of each row, the last turn's cells and the winning loop.
func (st *State) Board() engine.Scene {
	w, h, ox, oy := sceneSize()
	sc := engine.Scene{W: w, H: h, Background: ground}
	for s := Yellow; s <= Black; s++ {
		fill := [2]engine.Color{yellowFill, blackFill}[s]
		for _, wc := range ringOf[s] {
			x, y := worldXY(wc, ox, oy)
			sc.Fill(hexPath(x, y, cellR), fill, cellLine, 1.2)
		}
	}
	for c := 0; c < nCells; c++ {
		x, y := worldXY(worldOf[c], ox, oy)
		fill, ink := st.stoneColours(c)
		sc.Fill(hexPath(x, y, cellR), fill, cellLine, 1.2)
		_, r := board.Axial(c)
		sc.Text(strconv.Itoa(c-rowFirst(r)+1), x, y, 25, ink, engine.Center, false)
	}
	for r := -6; r <= 6; r++ {
		first, last := rowFirst(r), rowFirst(r)+board.RowLen(r+6)-1
		letter := string(rune('a' + r + 6))
		for _, c := range []int{first, last} {
			q, _ := board.Axial(c)
			step := -2
			if c == last {
				step = 2
			}
			x, y := grid.HexCenter(q+step, r, cellR)
			sc.Text(letter, ox+x, oy+y, 26, engine.Ink, engine.Center, true)
		}
	}
	if st.handful() != Handful {
		// The variant is part of the position a player must know: say it
		// in the free top-left corner of the ground.
		sc.Text(fmt.Sprintf("handful %d", st.handful()), 14, 26, 26, engine.Ink, engine.Left, true)
	}
	if loop := st.loop(); st.Done && len(loop) > 0 {
		drawLoop(&sc, loop, ox, oy)
	} else {
		for _, c := range st.Last {
			if c >= 0 {
				x, y := worldXY(worldOf[c], ox, oy)
				sc.Stroke(hexPath(x, y, cellR-4), engine.Highlight, 4)
			}
		}
	}
	return sc
}

// rowFirst is the board index of the first cell of axial row r.
func rowFirst(r int) int {
	i := 0
	for k := -6; k < r; k++ {
		i += board.RowLen(k + 6)
	}
	return i
}

// drawLoop outlines the winning loop: every edge between a loop cell and
// a cell outside the loop, inside and out.
func drawLoop(sc *engine.Scene, loop []int, ox, oy float64) {
	in := make([]bool, world.Len())
	for _, wc := range loop {
		in[wc] = true
	}
	p := &engine.Path{}
	for _, wc := range loop {
		x, y := worldXY(wc, ox, oy)
		corners := grid.HexCorners(x, y, cellR)
		q, r := world.Axial(wc)
		for k, d := range grid.HexDirs {
			// Edge k (corner k to k+1) faces direction HexDirs[k].
			if n := world.At(q+d[0], r+d[1]); n >= 0 && in[n] {
				continue
			}
			a, b := corners[k], corners[(k+1)%6]
			p.MoveTo(a[0], a[1]).LineTo(b[0], b[1])
		}
	}
	sc.Stroke(p, engine.White, 9)
	sc.Stroke(p, loopLine, 5)
}

// HandScene shows the seat's stones in hand and whether it has flipped
// during this handful.
func (st *State) HandScene(s engine.Seat) engine.Scene {
	const size, gap = 40.0, 16.0
	// As wide as six places whatever the handful, so the line of text
	// below always fits; smaller handfuls are centred.
	w := 2*gap + Handful*(2*size*math.Sqrt(3)/2+gap)
	x0 := float64(Handful-st.handful()) * (size*math.Sqrt(3) + gap) / 2
	sc := engine.Scene{W: w, H: 2*size + 3*gap + 30, Background: engine.Paper}
	fill := [2]engine.Color{yellowFill, blackFill}[s]
	n := st.Hands[s]
	for i := 0; i < st.handful(); i++ {
		x := x0 + gap + size*math.Sqrt(3)/2 + float64(i)*(size*math.Sqrt(3)+gap)
		y := gap + size
		if i < n {
			sc.Fill(hexPath(x, y, size), fill, cellLine, 2)
		} else {
			sc.Stroke(hexPath(x, y, size), engine.Grey, 2)
		}
	}
	text := fmt.Sprintf("%s: %d in hand · %s", colourName(s), n, st.info(s))
	sc.Text(text, w/2, 2*size+2*gap+15, 19, engine.Ink, engine.Center, false)
	return sc
}
