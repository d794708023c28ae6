package render

import (
	"encoding/binary"
	"image"
	"image/color"
	"math"

	"github.com/golang/freetype/raster"
	"golang.org/x/image/math/fixed"
)

// canvas draws filled and stroked paths onto an RGBA picture exactly as a
// gg.Context with an identity matrix does (same paths, same rasteriser,
// same arithmetic, so the same bytes; TestCanvasMatchesGG compares them
// for every game), but paints faster. gg paints every span through
// freetype's RGBAPainter, which blends pixel by pixel with three divisions
// each, even inside a shape where the opaque colour simply replaces what
// was there; that was about 40% of drawing a board. The canvas writes
// fully covered spans of an opaque colour as plain copies (see paint) and
// blends only the anti-aliased edges, with RGBAPainter's own formula.
//
// The path building below mirrors gg v1.3.0's (context.go, path.go,
// bezier.go, MIT licence): the fill path and the stroke path are built
// side by side, curves the way gg flattens them.
type canvas struct {
	im         *image.RGBA
	r          *raster.Rasterizer
	fillPath   raster.Path
	strokePath raster.Path
	start      point
	current    point
	hasCurrent bool
	lineWidth  float64
	paint      painter
	flat       [][]point // scratch for the stroke's flattened path
	w, h       int       // the rasteriser's bounds
	uncached   bool      // rasterise every shape (the tests' reference)
}

type point struct{ X, Y float64 }

func (p point) fixed() fixed.Point26_6 {
	return fixed.Point26_6{X: fixed.Int26_6(p.X * 64), Y: fixed.Int26_6(p.Y * 64)}
}

// rasterizers are kept: each holds buffers that grow to the largest path.
var rasterizers = newKeep(8, func() *raster.Rasterizer { return nil })

func newCanvas(im *image.RGBA) *canvas {
	w, h := im.Bounds().Dx(), im.Bounds().Dy()
	if w > 120 {
		// See spanRows. (The rasteriser splits curves more finely past
		// 120 px either way: a narrow canvas keeps its own height.)
		h = (h + spanRows - 1) / spanRows * spanRows
	}
	r := rasterizers.get()
	if r == nil {
		r = raster.NewRasterizer(w, h)
	} else {
		r.SetBounds(w, h)
	}
	c := &canvas{im: im, r: r, lineWidth: 1, w: w, h: h}
	c.paint.im = im
	return c
}

// release gives the rasteriser back; the canvas is not used after.
func (c *canvas) release() {
	rasterizers.put(c.r)
	c.r = nil
}

func (c *canvas) Width() int  { return c.im.Bounds().Dx() }
func (c *canvas) Height() int { return c.im.Bounds().Dy() }

// SetColor sets the colour of the next fill or stroke.
func (c *canvas) SetColor(col color.Color) { c.paint.setColor(col) }

func (c *canvas) SetLineWidth(w float64) { c.lineWidth = w }

// Clear sets every pixel to col.
func (c *canvas) Clear(col color.Color) {
	r, g, b, a := col.RGBA()
	fillRow(c.im.Pix, [4]byte{byte(r >> 8), byte(g >> 8), byte(b >> 8), byte(a >> 8)})
}

func (c *canvas) MoveTo(x, y float64) {
	if c.hasCurrent {
		c.fillPath.Add1(c.start.fixed())
	}
	p := point{x, y}
	c.strokePath.Start(p.fixed())
	c.fillPath.Start(p.fixed())
	c.start, c.current, c.hasCurrent = p, p, true
}

func (c *canvas) LineTo(x, y float64) {
	if !c.hasCurrent {
		c.MoveTo(x, y)
		return
	}
	p := point{x, y}
	c.strokePath.Add1(p.fixed())
	c.fillPath.Add1(p.fixed())
	c.current = p
}

func (c *canvas) QuadraticTo(x1, y1, x2, y2 float64) {
	if !c.hasCurrent {
		c.MoveTo(x1, y1)
	}
	p1, p2 := point{x1, y1}, point{x2, y2}
	c.strokePath.Add2(p1.fixed(), p2.fixed())
	c.fillPath.Add2(p1.fixed(), p2.fixed())
	c.current = p2
}

// CubicTo adds a cubic curve as short lines (freetype has no cubics).
func (c *canvas) CubicTo(x1, y1, x2, y2, x3, y3 float64) {
	if !c.hasCurrent {
		c.MoveTo(x1, y1)
	}
	x0, y0 := c.current.X, c.current.Y
	pts := cubicBezier(nil, x0, y0, x1, y1, x2, y2, x3, y3)
	previous := c.current.fixed()
	for _, p := range pts[1:] {
		f := p.fixed()
		if f == previous {
			continue
		}
		previous = f
		c.strokePath.Add1(f)
		c.fillPath.Add1(f)
		c.current = p
	}
}

func (c *canvas) ClosePath() {
	if c.hasCurrent {
		c.strokePath.Add1(c.start.fixed())
		c.fillPath.Add1(c.start.fixed())
		c.current = c.start
	}
}

func (c *canvas) NewSubPath() {
	if c.hasCurrent {
		c.fillPath.Add1(c.start.fixed())
	}
	c.hasCurrent = false
}

func (c *canvas) ClearPath() {
	c.strokePath.Clear()
	c.fillPath.Clear()
	c.hasCurrent = false
}

func (c *canvas) DrawRectangle(x, y, w, h float64) {
	c.NewSubPath()
	c.MoveTo(x, y)
	c.LineTo(x+w, y)
	c.LineTo(x+w, y+h)
	c.LineTo(x, y+h)
	c.ClosePath()
}

func (c *canvas) DrawRoundedRectangle(x, y, w, h, r float64) {
	x0, x1, x2, x3 := x, x+r, x+w-r, x+w
	y0, y1, y2, y3 := y, y+r, y+h-r, y+h
	c.NewSubPath()
	c.MoveTo(x1, y0)
	c.LineTo(x2, y0)
	c.drawArc(x2, y1, r, radians(270), radians(360))
	c.LineTo(x3, y2)
	c.drawArc(x2, y2, r, radians(0), radians(90))
	c.LineTo(x1, y3)
	c.drawArc(x1, y2, r, radians(90), radians(180))
	c.LineTo(x0, y1)
	c.drawArc(x1, y1, r, radians(180), radians(270))
	c.ClosePath()
}

func radians(deg float64) float64 { return deg * math.Pi / 180 }

func (c *canvas) drawArc(x, y, r, angle1, angle2 float64) {
	const n = 16
	for i := 0; i < n; i++ {
		p1 := float64(i+0) / n
		p2 := float64(i+1) / n
		a1 := angle1 + (angle2-angle1)*p1
		a2 := angle1 + (angle2-angle1)*p2
		x0 := x + r*math.Cos(a1)
		y0 := y + r*math.Sin(a1)
		x1 := x + r*math.Cos((a1+a2)/2)
		y1 := y + r*math.Sin((a1+a2)/2)
		x2 := x + r*math.Cos(a2)
		y2 := y + r*math.Sin(a2)
		cx := 2*x1 - x0/2 - x2/2
		cy := 2*y1 - y0/2 - y2/2
		if i == 0 {
			if c.hasCurrent {
				c.LineTo(x0, y0)
			} else {
				c.MoveTo(x0, y0)
			}
		}
		c.QuadraticTo(cx, cy, x2, y2)
	}
}

func (c *canvas) DrawCircle(x, y, r float64) {
	c.NewSubPath()
	c.drawArc(x, y, r, 0, 2*math.Pi)
	c.ClosePath()
}

func (c *canvas) DrawRegularPolygon(n int, x, y, r, rotation float64) {
	angle := 2 * math.Pi / float64(n)
	rotation -= math.Pi / 2
	if n%2 == 0 {
		rotation += angle / 2
	}
	c.NewSubPath()
	for i := 0; i < n; i++ {
		a := rotation + angle*float64(i)
		c.LineTo(x+r*math.Cos(a), y+r*math.Sin(a))
	}
	c.ClosePath()
}

// FillPreserve fills the path (open subpaths closed) with non-zero winding.
func (c *canvas) FillPreserve() {
	path := c.fillPath
	if c.hasCurrent {
		path = make(raster.Path, len(c.fillPath), len(c.fillPath)+4)
		copy(path, c.fillPath)
		path.Add1(c.start.fixed())
	}
	c.r.UseNonZeroWinding = true
	c.r.Clear()
	if c.uncached {
		c.r.AddPath(path)
		c.r.Rasterize(&c.paint)
		return
	}
	k := shapeKey{kind: shapeFill, w: c.w, h: c.h}
	sum := shapeHash(k, path)
	if s := cachedShape(sum, k, path); s != nil {
		c.paint.paintSpans(s.spans)
		return
	}
	c.r.AddPath(path)
	c.rasterize(sum, k, path)
}

func (c *canvas) Fill() {
	c.FillPreserve()
	c.ClearPath()
}

// StrokePreserve strokes the path with round caps and joins, after
// flattening it and dropping points closer than 1/8 px as gg does.
func (c *canvas) StrokePreserve() {
	k := shapeKey{kind: shapeStroke, lineWidth: fixed.Int26_6(c.lineWidth * 64), w: c.w, h: c.h}
	var sum uint64
	if !c.uncached {
		sum = shapeHash(k, c.strokePath)
		if s := cachedShape(sum, k, c.strokePath); s != nil {
			c.paint.paintSpans(s.spans)
			return
		}
	}
	c.flat = flattenPath(c.flat[:0], c.strokePath)
	path := rasterPath(c.flat)
	c.r.UseNonZeroWinding = true
	c.r.Clear()
	c.r.AddStroke(path, k.lineWidth, raster.RoundCapper, raster.RoundJoiner)
	if c.uncached {
		c.r.Rasterize(&c.paint)
		return
	}
	c.rasterize(sum, k, c.strokePath)
}

func (c *canvas) Stroke() {
	c.StrokePreserve()
	c.ClearPath()
}

func unfix(x fixed.Int26_6) float64 {
	const shift, mask = 6, 1<<6 - 1
	if x >= 0 {
		return float64(x>>shift) + float64(x&mask)/64
	}
	x = -x
	if x >= 0 {
		return -(float64(x>>shift) + float64(x&mask)/64)
	}
	return 0
}

func flattenPath(result [][]point, p raster.Path) [][]point {
	var path []point
	var cx, cy float64
	for i := 0; i < len(p); {
		switch p[i] {
		case 0:
			if len(path) > 0 {
				result = append(result, path)
				path = nil
			}
			x, y := unfix(p[i+1]), unfix(p[i+2])
			path = append(path, point{x, y})
			cx, cy = x, y
			i += 4
		case 1:
			x, y := unfix(p[i+1]), unfix(p[i+2])
			path = append(path, point{x, y})
			cx, cy = x, y
			i += 4
		case 2:
			x1, y1 := unfix(p[i+1]), unfix(p[i+2])
			x2, y2 := unfix(p[i+3]), unfix(p[i+4])
			path = quadraticBezier(path, cx, cy, x1, y1, x2, y2)
			cx, cy = x2, y2
			i += 6
		case 3:
			x1, y1 := unfix(p[i+1]), unfix(p[i+2])
			x2, y2 := unfix(p[i+3]), unfix(p[i+4])
			x3, y3 := unfix(p[i+5]), unfix(p[i+6])
			path = cubicBezier(path, cx, cy, x1, y1, x2, y2, x3, y3)
			cx, cy = x3, y3
			i += 8
		default:
			panic("bad path")
		}
	}
	if len(path) > 0 {
		result = append(result, path)
	}
	return result
}

func rasterPath(paths [][]point) raster.Path {
	var result raster.Path
	for _, path := range paths {
		var previous fixed.Point26_6
		for i, pt := range path {
			f := pt.fixed()
			if i == 0 {
				result.Start(f)
			} else {
				dx, dy := f.X-previous.X, f.Y-previous.Y
				if dx < 0 {
					dx = -dx
				}
				if dy < 0 {
					dy = -dy
				}
				if dx+dy > 8 {
					result.Add1(f)
				}
			}
			previous = f
		}
	}
	return result
}

func quadraticBezier(dst []point, x0, y0, x1, y1, x2, y2 float64) []point {
	l := math.Hypot(x1-x0, y1-y0) + math.Hypot(x2-x1, y2-y1)
	n := max(int(l+0.5), 4)
	d := float64(n) - 1
	for i := 0; i < n; i++ {
		t := float64(i) / d
		u := 1 - t
		a, b, c := u*u, 2*u*t, t*t
		dst = append(dst, point{a*x0 + b*x1 + c*x2, a*y0 + b*y1 + c*y2})
	}
	return dst
}

func cubicBezier(dst []point, x0, y0, x1, y1, x2, y2, x3, y3 float64) []point {
	l := math.Hypot(x1-x0, y1-y0) + math.Hypot(x2-x1, y2-y1) + math.Hypot(x3-x2, y3-y2)
	n := max(int(l+0.5), 4)
	d := float64(n) - 1
	for i := 0; i < n; i++ {
		t := float64(i) / d
		u := 1 - t
		a, b, c, e := u*u*u, 3*u*u*t, 3*u*t*t, t*t*t
		dst = append(dst, point{a*x0 + b*x1 + c*x2 + e*x3, a*y0 + b*y1 + c*y2 + e*y3})
	}
	return dst
}

// painter paints spans in one colour over an RGBA picture, giving the
// bytes freetype's RGBAPainter (draw.Over) gives. Where a span is fully
// covered and the colour opaque, that formula reduces to the colour's own
// bytes: a = (m - ca*ma/m)*0x101 = 0, so each channel is c*m/m >> 8 = c>>8.
type painter struct {
	im             *image.RGBA
	clip           *tiles // when set, only its dirty tiles above clipTop are painted
	clipTop        int
	cr, cg, cb, ca uint32
	solid          [4]byte // the colour's bytes, when it is opaque
	opaque         bool
}

func (p *painter) setColor(c color.Color) {
	p.cr, p.cg, p.cb, p.ca = c.RGBA()
	p.opaque = p.ca == 0xffff
	p.solid = [4]byte{byte(p.cr >> 8), byte(p.cg >> 8), byte(p.cb >> 8), byte(p.ca >> 8)}
}

func (p *painter) Paint(ss []raster.Span, done bool) {
	for _, s := range ss {
		if !p.paintOne(s.Y, s.X0, s.X1, s.Alpha) {
			return
		}
	}
}

// paintOne paints one span of the rasteriser's; false when it lies below
// the picture, and so does every span after it.
func (p *painter) paintOne(y, x0, x1 int, alpha uint32) bool {
	b := p.im.Bounds()
	if y < b.Min.Y {
		return true
	}
	if y >= b.Max.Y {
		return false
	}
	x0, x1 = max(x0, b.Min.X), min(x1, b.Max.X)
	if x0 >= x1 {
		return true
	}
	if p.clip == nil {
		p.span(y, x0, x1, alpha)
		return true
	}
	if y >= p.clipTop {
		return true
	}
	row := p.clip.dirty[(y/tileSize)*p.clip.cols:]
	for x := x0; x < x1; {
		end := min(x1, (x/tileSize+1)*tileSize)
		if row[x/tileSize] {
			p.span(y, x, end, alpha)
		}
		x = end
	}
	return true
}

// span paints pixels [x0, x1) of row y with coverage ma.
func (p *painter) span(y, x0, x1 int, ma uint32) {
	const m = 1<<16 - 1
	im := p.im
	i0 := (y-im.Rect.Min.Y)*im.Stride + (x0-im.Rect.Min.X)*4
	i1 := i0 + (x1-x0)*4
	if ma == m && p.opaque {
		fillRow(im.Pix[i0:i1], p.solid)
		return
	}
	a := (m - (p.ca * ma / m)) * 0x101
	cr, cg, cb, ca := p.cr*ma, p.cg*ma, p.cb*ma, p.ca*ma
	pix := im.Pix[i0:i1:i1]
	for i := 0; i+3 < len(pix); i += 4 {
		px := pix[i : i+4 : i+4]
		px[0] = uint8((uint32(px[0])*a + cr) / m >> 8)
		px[1] = uint8((uint32(px[1])*a + cg) / m >> 8)
		px[2] = uint8((uint32(px[2])*a + cb) / m >> 8)
		px[3] = uint8((uint32(px[3])*a + ca) / m >> 8)
	}
}

// fillRow sets every 4-byte pixel of pix to c: pixel by pixel in a short
// span (most of a shape's rows), else doubling the copied part.
func fillRow(pix []byte, c [4]byte) {
	if len(pix) < 4 {
		return
	}
	if len(pix) <= 128 {
		v := binary.LittleEndian.Uint32(c[:])
		for i := 0; i+3 < len(pix); i += 4 {
			binary.LittleEndian.PutUint32(pix[i:], v)
		}
		return
	}
	copy(pix, c[:])
	for n := 4; n < len(pix); n *= 2 {
		copy(pix[n:], pix[:n])
	}
}
