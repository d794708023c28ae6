package engine

import "math"

// Color is an sRGB colour with alpha. A zero Color means "none".
type Color struct{ R, G, B, A uint8 }

// RGB returns an opaque colour.
func RGB(r, g, b uint8) Color { return Color{r, g, b, 255} }

// Hex parses "#rrggbb"; it panics on bad input (for constants).
func Hex(s string) Color {
	if len(s) != 7 || s[0] != '#' {
		panic("engine.Hex: " + s)
	}
	v := func(i int) uint8 {
		h := func(c byte) uint8 {
			switch {
			case c >= '0' && c <= '9':
				return c - '0'
			case c >= 'a' && c <= 'f':
				return c - 'a' + 10
			case c >= 'A' && c <= 'F':
				return c - 'A' + 10
			}
			panic("engine.Hex: " + s)
		}
		return h(s[i])<<4 | h(s[i+1])
	}
	return RGB(v(1), v(3), v(5))
}

// None reports whether the colour is absent.
func (c Color) None() bool { return c.A == 0 }

// A palette readable on phones and by most colour-blind players; games use
// it so that the pictures look like one family.
var (
	White  = RGB(255, 255, 255)
	Black  = RGB(20, 20, 20)
	Paper  = Hex("#f4efe3")
	Grey   = Hex("#9a9a9a")
	Ink    = Hex("#2b2b2b")
	Red    = Hex("#d83a2e")
	Blue   = Hex("#2f6fd6")
	Green  = Hex("#2e9e4f")
	Yellow = Hex("#f2c418")
	Orange = Hex("#f08a24")
	Pink   = Hex("#f29bc1")
	Purple = Hex("#8a4fbf")
	Teal   = Hex("#1fa6a0")
	// Highlight outlines the last move.
	Highlight = Hex("#ff2fb4")
)

// Point is a position in a scene's units.
type Point struct{ X, Y float64 }

// Op is one path instruction.
type Op uint8

// Path instructions.
const (
	MoveTo Op = iota
	LineTo
	QuadTo  // one control point, then the end point
	CubicTo // two control points, then the end point
	Close
)

// Path is a vector outline: a list of instructions and their points.
type Path struct {
	Ops []Op
	Pts []Point
}

// MoveTo starts a new subpath.
func (p *Path) MoveTo(x, y float64) *Path {
	p.Ops = append(p.Ops, MoveTo)
	p.Pts = append(p.Pts, Point{x, y})
	return p
}

// LineTo draws a straight segment.
func (p *Path) LineTo(x, y float64) *Path {
	p.Ops = append(p.Ops, LineTo)
	p.Pts = append(p.Pts, Point{x, y})
	return p
}

// QuadTo draws a quadratic Bézier segment.
func (p *Path) QuadTo(cx, cy, x, y float64) *Path {
	p.Ops = append(p.Ops, QuadTo)
	p.Pts = append(p.Pts, Point{cx, cy}, Point{x, y})
	return p
}

// CubicTo draws a cubic Bézier segment.
func (p *Path) CubicTo(c1x, c1y, c2x, c2y, x, y float64) *Path {
	p.Ops = append(p.Ops, CubicTo)
	p.Pts = append(p.Pts, Point{c1x, c1y}, Point{c2x, c2y}, Point{x, y})
	return p
}

// Close closes the current subpath.
func (p *Path) Close() *Path {
	p.Ops = append(p.Ops, Close)
	return p
}

// Polygon returns a closed path through the points.
func Polygon(pts ...Point) *Path {
	p := &Path{}
	for i, q := range pts {
		if i == 0 {
			p.MoveTo(q.X, q.Y)
		} else {
			p.LineTo(q.X, q.Y)
		}
	}
	return p.Close()
}

// Rect returns a closed rectangle.
func Rect(x, y, w, h float64) *Path {
	return Polygon(Point{x, y}, Point{x + w, y}, Point{x + w, y + h}, Point{x, y + h})
}

// Line returns an open polyline.
func Line(pts ...Point) *Path {
	p := &Path{}
	for i, q := range pts {
		if i == 0 {
			p.MoveTo(q.X, q.Y)
		} else {
			p.LineTo(q.X, q.Y)
		}
	}
	return p
}

// Circle returns a closed circle made of four cubic arcs.
func Circle(cx, cy, r float64) *Path {
	k := 0.5522847498 * r
	p := &Path{}
	p.MoveTo(cx+r, cy)
	p.CubicTo(cx+r, cy+k, cx+k, cy+r, cx, cy+r)
	p.CubicTo(cx-k, cy+r, cx-r, cy+k, cx-r, cy)
	p.CubicTo(cx-r, cy-k, cx-k, cy-r, cx, cy-r)
	p.CubicTo(cx+k, cy-r, cx+r, cy-k, cx+r, cy)
	return p.Close()
}

// Arc returns an open circular arc from angle a0 to a1 (radians, y down,
// clockwise on screen for a1 > a0), made of cubic pieces.
func Arc(cx, cy, r, a0, a1 float64) *Path {
	p := &Path{}
	n := int(math.Ceil(math.Abs(a1-a0) / (math.Pi / 2)))
	if n < 1 {
		n = 1
	}
	step := (a1 - a0) / float64(n)
	k := 4.0 / 3.0 * math.Tan(step/4) * r
	p.MoveTo(cx+r*math.Cos(a0), cy+r*math.Sin(a0))
	for i := 0; i < n; i++ {
		t0, t1 := a0+float64(i)*step, a0+float64(i+1)*step
		x0, y0 := cx+r*math.Cos(t0), cy+r*math.Sin(t0)
		x1, y1 := cx+r*math.Cos(t1), cy+r*math.Sin(t1)
		p.CubicTo(x0-k*math.Sin(t0), y0+k*math.Cos(t0), x1+k*math.Sin(t1), y1-k*math.Cos(t1), x1, y1)
	}
	return p
}

// Align places text relative to its anchor point.
type Align uint8

// Text alignments (horizontal; text is always centred vertically).
const (
	Center Align = iota
	Left
	Right
)

// Item is one thing to draw: a path (filled and/or stroked) or a text.
type Item struct {
	Path   *Path
	Fill   Color
	Stroke Color
	Width  float64 // stroke width, scene units

	Text  string
	At    Point
	Size  float64 // text height, scene units
	Color Color   // text colour
	Align Align
	Bold  bool
}

// Scene is a picture described in the game's own units (y grows down).
// The renderer scales it to fit the image: a board scene is fitted into a
// square of about 720 px (so a scene about 720 units on its long side is
// drawn at 1 px per unit; text of Size 20 is then 20 px high, readable on
// a phone). Hand scenes are fitted into a strip about 720 px wide.
type Scene struct {
	W, H       float64
	Background Color
	Items      []Item
}

// Fill adds a filled path with an optional outline.
func (s *Scene) Fill(p *Path, fill, stroke Color, width float64) {
	s.Items = append(s.Items, Item{Path: p, Fill: fill, Stroke: stroke, Width: width})
}

// Stroke adds an outlined path.
func (s *Scene) Stroke(p *Path, stroke Color, width float64) {
	s.Items = append(s.Items, Item{Path: p, Stroke: stroke, Width: width})
}

// Text adds a label.
func (s *Scene) Text(text string, x, y, size float64, c Color, align Align, bold bool) {
	s.Items = append(s.Items, Item{Text: text, At: Point{x, y}, Size: size, Color: c, Align: align, Bold: bold})
}
