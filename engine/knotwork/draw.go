package knotwork

import (
	"fmt"
	"math"
	"strconv"

	"tessera/engine"
	"tessera/engine/grid"
)

const (
	cellSize = 72.0
	margin   = 40.0
	strandW  = 7.0  // strand fill width at cellSize
	outlineW = 13.0 // strand outline width at cellSize
)

// knotColors outline (fill) the closed knots, in order; none is orange or
// blue, the owners' colours.
var knotColors = []engine.Color{engine.Green, engine.Purple, engine.Red, engine.Teal, engine.Yellow, engine.Pink, engine.Hex("#6b4f2a"), engine.Black}

var ownerColors = [3]engine.Color{engine.Orange, engine.Blue, engine.White}

// cellOrigin is the top-left corner of a cell (row 9 on top).
func cellOrigin(cell int) (x, y float64) {
	c, r := board.XY(cell)
	return margin + float64(c)*cellSize, margin + float64(board.H-1-r)*cellSize
}

// Screen geometry of an edge: its midpoint in a unit tile, the inward
// normal, and the unit vector towards the port with k=0 (N-left, E-top,
// S-right, W-bottom). y grows downwards.
var (
	edgeMid  = [4]engine.Point{{X: 0.5, Y: 0}, {X: 1, Y: 0.5}, {X: 0.5, Y: 1}, {X: 0, Y: 0.5}}
	edgeIn   = [4]engine.Point{{X: 0, Y: 1}, {X: -1, Y: 0}, {X: 0, Y: -1}, {X: 1, Y: 0}}
	edgeSide = [4]engine.Point{{X: -1, Y: 0}, {X: 0, Y: -1}, {X: 1, Y: 0}, {X: 0, Y: 1}}
)

// portDir is the direction a strand leaves the mark of port p into the
// tile: inwards and towards the port's side of the midpoint, at 45°, so
// that the two strands of a mark cross there diagonally.
func portDir(p int) engine.Point {
	d, k := p/2, p%2
	s := 1.0
	if k == 1 {
		s = -1
	}
	return engine.Point{X: (edgeIn[d].X + s*edgeSide[d].X) / math.Sqrt2, Y: (edgeIn[d].Y + s*edgeSide[d].Y) / math.Sqrt2}
}

// segment is one strand piece inside a tile, a cubic Bézier from the mark
// of port a to the mark of port b.
type segment struct {
	pts   [4]engine.Point
	a, b  int
	color engine.Color
}

func makeSegment(x, y, size float64, a, b int) segment {
	da, db := a/2, b/2
	var l float64
	switch {
	case da == db: // end-cap: a teardrop
		l = 0.9
	case (da+2)%4 == db: // opposite edges
		l = 0.5
	default:
		// Adjacent edges: the inner arc runs straight along the corner's
		// diagonal, the outer one swings through the tile.
		pa, pb := edgeMid[da], edgeMid[db]
		ch := engine.Point{X: pb.X - pa.X, Y: pb.Y - pa.Y}
		dir := portDir(a)
		if dir.X*ch.X+dir.Y*ch.Y > 0.6 {
			l = 0.24
		} else {
			l = 0.62
		}
	}
	pa, pb := edgeMid[da], edgeMid[db]
	ua, ub := portDir(a), portDir(b)
	pt := func(u, v float64) engine.Point { return engine.Point{X: x + u*size, Y: y + v*size} }
	return segment{a: a, b: b, pts: [4]engine.Point{
		pt(pa.X, pa.Y),
		pt(pa.X+l*ua.X, pa.Y+l*ua.Y),
		pt(pb.X+l*ub.X, pb.Y+l*ub.Y),
		pt(pb.X, pb.Y),
	}}
}

func cubic(p [4]engine.Point) *engine.Path {
	pa := &engine.Path{}
	pa.MoveTo(p[0].X, p[0].Y)
	pa.CubicTo(p[1].X, p[1].Y, p[2].X, p[2].Y, p[3].X, p[3].Y)
	return pa
}

func lerp(a, b engine.Point, t float64) engine.Point {
	return engine.Point{X: a.X + (b.X-a.X)*t, Y: a.Y + (b.Y-a.Y)*t}
}

// head is the part of the curve from its start to parameter t (de
// Casteljau).
func head(p [4]engine.Point, t float64) [4]engine.Point {
	p01, p12, p23 := lerp(p[0], p[1], t), lerp(p[1], p[2], t), lerp(p[2], p[3], t)
	a, b := lerp(p01, p12, t), lerp(p12, p23, t)
	return [4]engine.Point{p[0], p01, a, lerp(a, b, t)}
}

func reverse(p [4]engine.Point) [4]engine.Point { return [4]engine.Point{p[3], p[2], p[1], p[0]} }

// drawStrands draws the segments as a Celtic knot: every strand outlined,
// then, at every mark, the strand through the k=0 ports (N-left, E-top,
// S-right, W-bottom, and the neighbour's ports they meet) drawn again on
// top. Along any strand the k of its ports alternates, so the crossings go
// over and under in turn.
func drawStrands(sc *engine.Scene, segs []segment, scale float64) {
	for _, s := range segs {
		sc.Stroke(cubic(s.pts), engine.Ink, outlineW*scale)
	}
	for _, s := range segs {
		sc.Stroke(cubic(s.pts), s.color, strandW*scale)
	}
	// The outline of an over piece is shorter than its fill, so that its
	// butt end leaves no mark across the strand it belongs to.
	type piece struct {
		line, fill [4]engine.Point
		color      engine.Color
	}
	var overs []piece
	for _, s := range segs {
		if s.a%2 == 0 {
			overs = append(overs, piece{head(s.pts, 0.24), head(s.pts, 0.34), s.color})
		}
		if s.b%2 == 0 {
			r := reverse(s.pts)
			overs = append(overs, piece{head(r, 0.24), head(r, 0.34), s.color})
		}
	}
	for _, s := range overs {
		sc.Stroke(cubic(s.line), engine.Ink, outlineW*scale)
	}
	for _, s := range overs {
		sc.Stroke(cubic(s.fill), s.color, strandW*scale)
	}
}

// tileSegments are the strand pieces of a tile with mask drawn at x, y.
func tileSegments(x, y, size float64, mask uint8) []segment {
	var out []segment
	for _, p := range Joins[mask] {
		s := makeSegment(x, y, size, p[0], p[1])
		s.color = engine.White
		out = append(out, s)
	}
	return out
}

func tileBack(sc *engine.Scene, x, y, size float64, owner int8) {
	sc.Fill(engine.Rect(x+1, y+1, size-2, size-2), ownerColors[owner], engine.Ink, 1.5)
}

// Board draws the 9x9 frame with its coordinates, the part of it where
// the 5x5 window can still lie, the tiles in their owners' colours, the
// strands as a Celtic knot, each closed knot in its own colour, the last
// tile, and below the board each knot's scores.
func (st *State) Board() engine.Scene {
	knots := st.Knots()
	w := 2*margin + float64(board.W)*cellSize
	h := w
	if len(knots) > 0 {
		h += 16 + 38*float64(len(knots))
	}
	banner, bannerColor := "", engine.Ink
	if st.Puzzle != NoPuzzle {
		banner, bannerColor = st.puzzleBanner()
	}
	if banner != "" {
		h += 56
	}
	sc := engine.Scene{W: w, H: h, Background: engine.Paper}

	// Where the window can still be: the claimed region grown to 5x5.
	reg := st.region()
	c0, c1 := reg.c1-(Window-1), reg.c0+(Window-1)
	r0, r1 := reg.r1-(Window-1), reg.r0+(Window-1)
	for i := 0; i < board.Len(); i++ {
		x, y := cellOrigin(i)
		c, r := board.XY(i)
		fill := engine.Hex("#e6dfcf")
		if c < c0 || c > c1 || r < r0 || r > r1 {
			fill = engine.Hex("#cfc8b8") // outside every possible window
		}
		sc.Fill(engine.Rect(x, y, cellSize, cellSize), fill, engine.Hex("#bdb4a0"), 1)
	}
	for c := 0; c < board.W; c++ {
		x := margin + (float64(c)+0.5)*cellSize
		l := string(rune('a' + c))
		sc.Text(l, x, margin/2, 26, engine.Ink, engine.Center, true)
		sc.Text(l, x, margin+float64(board.H)*cellSize+margin/2, 26, engine.Ink, engine.Center, true)
	}
	for r := 0; r < board.H; r++ {
		y := margin + (float64(board.H-1-r)+0.5)*cellSize
		n := strconv.Itoa(r + 1)
		sc.Text(n, margin/2, y, 26, engine.Ink, engine.Center, true)
		sc.Text(n, w-margin/2, y, 26, engine.Ink, engine.Center, true)
	}

	// Tiles, then strands over all of them.
	comp, closed := st.Strands()
	knotOf := map[int]int{}
	for n, k := 0, 0; n < len(closed); n++ {
		if closed[n] {
			knotOf[n] = k
			k++
		}
	}
	var segs []segment
	for i := 0; i < board.Len(); i++ {
		if st.Mask[i] == 0 {
			continue
		}
		x, y := cellOrigin(i)
		tileBack(&sc, x, y, cellSize, st.Owner[i])
		for _, s := range tileSegments(x, y, cellSize, st.Mask[i]) {
			if k, ok := knotOf[comp[i*8+s.a]]; ok {
				s.color = knotColors[k%len(knotColors)]
			}
			segs = append(segs, s)
		}
	}
	drawStrands(&sc, segs, 1)
	// Open marks: a small ring where the next tile must connect.
	for i := 0; i < board.Len(); i++ {
		for d := grid.N; d <= grid.W && st.Mask[i] != 0; d++ {
			j := board.Step(i, d)
			if st.Mask[i]&(1<<d) != 0 && (j < 0 || st.Mask[j] == 0) {
				x, y := cellOrigin(i)
				p := edgeMid[d]
				sc.Fill(engine.Circle(x+p.X*cellSize, y+p.Y*cellSize, 5), engine.Highlight, engine.Ink, 1.5)
			}
		}
	}
	if st.Last >= 0 {
		x, y := cellOrigin(st.Last)
		sc.Stroke(engine.Rect(x+3, y+3, cellSize-6, cellSize-6), engine.Highlight, 4)
	}
	// The window frame.
	fx, fy := margin+float64(max(c0, 0))*cellSize, margin+float64(board.H-1-min(r1, board.H-1))*cellSize
	fw, fh := float64(min(c1, board.W-1)-max(c0, 0)+1)*cellSize, float64(min(r1, board.H-1)-max(r0, 0)+1)*cellSize
	frame, frameW := engine.Ink, 4.0
	if st.Puzzle != NoPuzzle && st.Done && len(st.Win) == 1 {
		frame, frameW = engine.Green, 8 // solved: the square it fills, celebrated
	}
	sc.Stroke(engine.Rect(fx, fy, fw, fh), frame, frameW)

	// Knot scores.
	for k, kn := range knots {
		y := w + 8 + 38*float64(k) + 19
		col := knotColors[k%len(knotColors)]
		sc.Fill(engine.Rect(margin, y-10, 44, 20), col, engine.Ink, 2)
		text := fmt.Sprintf("Knot %d (%d tiles): Orange %d, Blue %d", k+1, len(kn.Cells), kn.Score[0], kn.Score[1])
		if st.Puzzle != NoPuzzle {
			text = fmt.Sprintf("Knot %d: %d tiles", k+1, len(kn.Cells))
		}
		sc.Text(text, margin+56, y, 26, engine.Ink, engine.Left, false)
	}
	if banner != "" {
		sc.Fill(engine.Rect(margin, h-52, w-2*margin, 44), bannerColor, engine.Ink, 2)
		sc.Text(banner, w/2, h-30, 26, engine.White, engine.Center, true)
	}
	return sc
}

// showMask is the orientation a type is pictured in, in hands.
var showMask = [kinds]uint8{
	EndCap:   1 << grid.S,
	Straight: 1<<grid.N | 1<<grid.S,
	Corner:   1<<grid.E | 1<<grid.S,
	Branch:   1<<grid.E | 1<<grid.S | 1<<grid.W,
	Crossing: 15,
}

// HandScene draws the seat's own tiles left, one of each type with its
// count, and below them the neutral tiles left (open to both players).
func (st *State) HandScene(s engine.Seat) engine.Scene {
	const size, gap = 110.0, 36.0
	w := gap + 4*(size+gap)
	sc := engine.Scene{W: w, H: 2*(size+70) + 20, Background: engine.Paper}
	row := func(owner int, y float64, title string) {
		sc.Text(title, gap, y+14, 22, engine.Ink, engine.Left, true)
		y += 34
		i := 0
		for k := EndCap; k < kinds; k++ {
			n := st.Supply[owner][k]
			if n == 0 {
				continue
			}
			x := gap + float64(i)*(size+gap)
			tileBack(&sc, x, y, size, int8(owner))
			drawStrands(&sc, tileSegments(x, y, size, showMask[k]), size/cellSize)
			sc.Text(fmt.Sprintf("%s ×%d", k.Letter(), n), x+size/2, y+size+18, 22, engine.Ink, engine.Center, true)
			i++
		}
		if i == 0 {
			sc.Text("none left", gap, y+size/2, 22, engine.Ink, engine.Left, false)
		}
	}
	if st.Puzzle != NoPuzzle {
		sc.H = size + 90
		row(0, 6, "Your tiles")
		return sc
	}
	row(int(s), 6, seatNames[s]+": your tiles")
	row(Neutral, size+76, "Neutral tiles (add * to play one)")
	return sc
}
