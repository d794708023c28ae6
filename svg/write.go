package svg

import (
	"bytes"
	"encoding/xml"
	"math"
	"strconv"

	"tessera/engine"
)

// The output is a standalone <svg> element meant to be inlined in a web
// page, whose Content-Security-Policy forbids inline styles (style-src
// 'self'): so no <style> element and no style attribute, only
// presentation attributes, which the policy does not govern. A page may
// also inline several pictures, where class names and ids would collide.
// Shared attributes are therefore factored out by grouping: a run of
// consecutive elements with the same fill, stroke and font attributes is
// written as one <g> carrying them (a board's cells, its labels), which
// shrinks a late board by about half.

// element is one <path> or <text> to write: shared are its attributes
// that a run of its neighbours may share, own those it keeps.
type element struct {
	tag    string // "path" or "text"
	shared string
	own    []byte // a text's own attributes, a path's data
	text   string // a text's content, unescaped
	// A path's merging (see merge): whether it is opaque, only stroked,
	// stroked in its fill's colour, and the boxes its fill and its paint
	// stay in.
	opaque, strokeOnly, oneColour bool
	inner, outer                  [4]float64 // x0, y0, x1, y1
}

// writer builds the document.
type writer struct {
	b        bytes.Buffer
	decimals int // digits after the point for coordinates
	pending  []element
	font     font // the font the texts inherit (see fontGroup)
	styles   map[style]string
}

// style is a path's paint, the key of its shared attributes.
type style struct {
	fill, stroke engine.Color
	width        float64
}

// font is a text's font attributes.
type font struct {
	size  float64 // 0: none set (the browser's default)
	align engine.Align
	bold  bool
}

// fontGroup opens a <g> whose font attributes are those most of the
// texts use, so that only the others write theirs: labels are most of a
// board's elements. The group sets no paint, so paths in it are drawn as
// they would be outside. endFontGroup closes it.
func (w *writer) fontGroup(fonts []font) {
	count := map[font]int{}
	best := font{}
	for _, f := range fonts {
		count[f]++
		if count[f] > count[best] || count[f] == count[best] && f.size > best.size {
			best = f
		}
	}
	if count[best] < 2 {
		return
	}
	w.flush()
	w.b.WriteString("<g" + w.fontAttrs(best, font{align: engine.Left}) + ">")
	w.font = best
}

func (w *writer) endFontGroup() {
	w.flush()
	if w.font != (font{}) {
		w.b.WriteString("</g>")
		w.font = font{}
	}
}

// fontAttrs are the attributes of f that differ from what is inherited.
func (w *writer) fontAttrs(f, inherited font) string {
	var s string
	if f.size != inherited.size {
		s += ` font-size="` + w.fmtNum(f.size) + `"`
	}
	if f.align != inherited.align {
		s += ` text-anchor="` + [...]string{engine.Center: "middle", engine.Left: "start", engine.Right: "end"}[f.align] + `"`
	}
	if f.bold != inherited.bold {
		s += ` font-weight="` + map[bool]string{true: "bold", false: "normal"}[f.bold] + `"`
	}
	return s
}

// num writes a number with at most w.decimals digits after the point.
func (w *writer) num(b []byte, v float64) []byte {
	p := math.Pow(10, float64(w.decimals))
	v = math.Round(v*p) / p
	if v == 0 {
		v = 0 // no "-0"
	}
	return strconv.AppendFloat(b, v, 'f', -1, 64)
}

// fmtNum is num as a string.
func (w *writer) fmtNum(v float64) string { return string(w.num(nil, v)) }

// color is a colour in its shortest hex form.
func color(c engine.Color) string {
	const hex = "0123456789abcdef"
	if c.R>>4 == c.R&15 && c.G>>4 == c.G&15 && c.B>>4 == c.B&15 {
		return string([]byte{'#', hex[c.R&15], hex[c.G&15], hex[c.B&15]})
	}
	return string([]byte{'#', hex[c.R>>4], hex[c.R&15], hex[c.G>>4], hex[c.G&15], hex[c.B>>4], hex[c.B&15]})
}

// paint is a fill or stroke's attributes: the colour, and its opacity
// when not opaque.
func paint(name string, c engine.Color) string {
	if c.None() {
		return " " + name + `="none"`
	}
	s := " " + name + `="` + color(c) + `"`
	if c.A != 255 {
		s += " " + name + `-opacity="` + strconv.FormatFloat(math.Round(float64(c.A)/255*1000)/1000, 'f', -1, 64) + `"`
	}
	return s
}

// pathData writes a path's instructions as SVG path data, short: each
// point is rounded to w.decimals once, on a grid (so relative steps add
// up exactly, with no drift), and each segment written absolute or
// relative, whichever is shorter, with h/v for straight lines along an
// axis and no repeated command letters.
func (w *writer) pathData(b []byte, p *engine.Path) []byte {
	scale := math.Pow(10, float64(w.decimals))
	pw := pathWriter{b: b, decimals: w.decimals}
	var cur, start [2]int64
	k := 0
	next := func() ([2]int64, bool) {
		if k >= len(p.Pts) { // a malformed path: stop rather than panic
			return [2]int64{}, false
		}
		q := p.Pts[k]
		k++
		return [2]int64{int64(math.Round(q.X * scale)), int64(math.Round(q.Y * scale))}, true
	}
	if cx, cy, r, ok := circle(p); ok {
		// Two half-circle arcs, clockwise as engine.Circle's curves go.
		x0, y0, d := int64(math.Round((cx+r)*scale)), int64(math.Round(cy*scale)), int64(math.Round(r*scale))
		pw.command('M')
		pw.num(x0)
		pw.num(y0)
		for _, dx := range []int64{-2 * d, 2 * d} {
			pw.command('a')
			pw.num(d)
			pw.num(d)
			pw.b = append(pw.b, " 0 0 1"...)
			pw.dot = false
			pw.num(dx)
			pw.num(0)
		}
		pw.command('Z')
		return pw.b
	}
	for i, op := range p.Ops {
		var buf [3][2]int64
		pts := buf[:opPoints(op)]
		for i := range pts {
			q, ok := next()
			if !ok {
				return pw.b
			}
			pts[i] = q
		}
		switch op {
		case engine.MoveTo:
			pw.segment('M', cur, pts, false)
			start = pts[0]
		case engine.LineTo:
			switch to := pts[0]; {
			case to == start && i+1 < len(p.Ops) && p.Ops[i+1] == engine.Close:
				continue // the close draws it
			case to[1] == cur[1]:
				pw.segment('H', cur, pts, true)
			case to[0] == cur[0]:
				pw.segment('V', cur, pts, true)
			default:
				pw.segment('L', cur, pts, false)
			}
		case engine.QuadTo:
			pw.segment('Q', cur, pts, false)
		case engine.CubicTo:
			pw.segment('C', cur, pts, false)
		case engine.Close:
			pw.command('Z')
			buf[0] = start
			pts = buf[:1]
		}
		if len(pts) > 0 {
			cur = pts[len(pts)-1]
		}
	}
	return pw.b
}

// opPoints is how many points an instruction takes.
func opPoints(op engine.Op) int {
	switch op {
	case engine.MoveTo, engine.LineTo:
		return 1
	case engine.QuadTo:
		return 2
	case engine.CubicTo:
		return 3
	}
	return 0
}

// circle recognises engine.Circle's path and returns its centre and
// radius: an arc is a quarter of the size of the curves that make it.
func circle(p *engine.Path) (cx, cy, r float64, ok bool) {
	if len(p.Ops) != 6 || len(p.Pts) != 13 || p.Ops[0] != engine.MoveTo || p.Ops[5] != engine.Close {
		return 0, 0, 0, false
	}
	cx, cy, r = (p.Pts[0].X+p.Pts[6].X)/2, p.Pts[0].Y, (p.Pts[0].X-p.Pts[6].X)/2
	if r <= 0 {
		return 0, 0, 0, false
	}
	want := engine.Circle(cx, cy, r)
	for i, op := range want.Ops {
		if p.Ops[i] != op {
			return 0, 0, 0, false
		}
	}
	for i, q := range want.Pts {
		if math.Abs(q.X-p.Pts[i].X) > 1e-6*r || math.Abs(q.Y-p.Pts[i].Y) > 1e-6*r {
			return 0, 0, 0, false
		}
	}
	return cx, cy, r, true
}

// pathWriter writes path data on a grid of 10^-decimals units.
type pathWriter struct {
	b        []byte
	decimals int
	last     byte // the last command letter written
	number   bool // the last thing written is a number...
	dot      bool // ...with a decimal point
	// scratch holds a segment's two forms while segment compares them.
	scratch *[2][]byte
}

// segment writes a command (upper case) and its points, absolute or
// relative to from, whichever is shorter; axis is set for H and V, which
// take one coordinate.
func (pw *pathWriter) segment(cmd byte, from [2]int64, pts [][2]int64, axis bool) {
	if pw.scratch == nil {
		pw.scratch = new([2][]byte)
	}
	abs, rel := *pw, *pw
	abs.b, rel.b = pw.scratch[0][:0], pw.scratch[1][:0]
	abs.command(cmd)
	rel.command(cmd + 'a' - 'A')
	for _, q := range pts {
		switch {
		case axis && cmd == 'H':
			abs.num(q[0])
			rel.num(q[0] - from[0])
		case axis && cmd == 'V':
			abs.num(q[1])
			rel.num(q[1] - from[1])
		default:
			abs.num(q[0])
			abs.num(q[1])
			rel.num(q[0] - from[0])
			rel.num(q[1] - from[1])
		}
	}
	pw.scratch[0], pw.scratch[1] = abs.b, rel.b
	best := abs
	if len(rel.b) < len(abs.b) {
		best = rel
	}
	pw.b = append(pw.b, best.b...)
	pw.last, pw.number, pw.dot = best.last, best.number, best.dot
}

// command writes a command letter, unless it repeats the last one (a
// moveto's repeat would mean a lineto).
func (pw *pathWriter) command(c byte) {
	if c == pw.last && c != 'M' && c != 'm' && c != 'Z' {
		return
	}
	pw.b = append(pw.b, c)
	pw.last, pw.number = c, false
}

// num writes n/10^decimals with as few characters as path syntax allows:
// no trailing zeros, no leading zero before the point, and a separator
// only where the number would otherwise run into the last.
func (pw *pathWriter) num(n int64) {
	neg := n < 0
	if neg {
		n = -n
	}
	var buf [24]byte
	digits := strconv.AppendInt(buf[:0], n, 10)
	var out [26]byte
	s := out[:0]
	if neg && n != 0 {
		s = append(s, '-')
	}
	dot := false
	if d := pw.decimals; d > 0 {
		for len(digits) <= d { // at least one digit before the point
			digits = append([]byte{'0'}, digits...)
		}
		whole, frac := digits[:len(digits)-d], bytes.TrimRight(digits[len(digits)-d:], "0")
		if !(len(whole) == 1 && whole[0] == '0' && len(frac) > 0) {
			s = append(s, whole...)
		}
		if len(frac) > 0 {
			s = append(append(s, '.'), frac...)
			dot = true
		}
	} else {
		s = append(s, digits...)
	}
	if pw.number && s[0] != '-' && !(s[0] == '.' && pw.dot) {
		pw.b = append(pw.b, ' ')
	}
	pw.b = append(pw.b, s...)
	pw.number, pw.dot = true, dot
}

// path queues a filled and/or stroked path; width is the stroke's width
// in the units the path is written in.
func (w *writer) path(p *engine.Path, fill, stroke engine.Color, width float64) {
	stroked := !stroke.None() && width > 0
	if !stroked {
		width, stroke = 0, engine.Color{}
	}
	k := style{fill, stroke, width}
	shared, ok := w.styles[k]
	if !ok {
		shared = paint("fill", fill)
		if stroked {
			shared += paint("stroke", stroke)
			if width != 1 { // SVG's default
				shared += ` stroke-width="` + w.fmtNum(width) + `"`
			}
		}
		if w.styles == nil {
			w.styles = map[style]string{}
		}
		w.styles[k] = shared
	}
	e := element{tag: "path", shared: shared, own: w.pathData(make([]byte, 0, 16+8*len(p.Pts)), p),
		opaque:     (fill.None() || fill.A == 255) && (!stroked || stroke.A == 255),
		strokeOnly: fill.None(),
		oneColour:  !stroked || fill == stroke,
		inner:      [4]float64{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)},
	}
	// A curve stays within its control points' hull; a stroke, half its
	// width (and a round join or cap) outside.
	for _, q := range p.Pts {
		e.inner = [4]float64{min(e.inner[0], q.X), min(e.inner[1], q.Y), max(e.inner[2], q.X), max(e.inner[3], q.Y)}
	}
	e.outer = [4]float64{e.inner[0] - width/2, e.inner[1] - width/2, e.inner[2] + width/2, e.inner[3] + width/2}
	w.pending = append(w.pending, e)
}

// merge joins a run of paths of the same style into as few <path>
// elements as draw the same picture. Opaque strokes alone always join:
// their union is what strokes drawn one by one cover. An opaque filled
// path joins the paths before it when its fill cannot cover what they
// painted (drawn apart, a later fill hides an earlier outline; joined,
// every outline is on top), so its fill's box must miss their outlines'
// boxes, or only their fills' boxes when the outline is in the fill's
// colour; missing their fills also keeps the subpaths' windings apart.
func merge(run []element) []element {
	var out []element
	var inner, outer [][4]float64
	for _, e := range run {
		if n := len(out); n > 0 && e.tag == "path" && out[n-1].tag == "path" && e.opaque && out[n-1].opaque &&
			(e.strokeOnly || e.oneColour && apart(e.inner, inner) || apart(e.inner, outer)) {
			out[n-1].own = append(out[n-1].own, e.own...)
			inner, outer = append(inner, e.inner), append(outer, e.outer)
			continue
		}
		out = append(out, e) // its own bytes are its alone: the next may join them
		inner, outer = append(inner[:0], e.inner), append(outer[:0], e.outer)
	}
	return out
}

// apart reports whether box b overlaps none of boxes (touching is apart).
func apart(b [4]float64, boxes [][4]float64) bool {
	for _, o := range boxes {
		if b[0] < o[2] && o[0] < b[2] && b[1] < o[3] && o[1] < b[3] {
			return false
		}
	}
	return true
}

// text queues a label centred vertically on y, as render draws it: the
// baseline 0.35 of the size below (the Go fonts' line is one size high).
func (w *writer) text(s string, x, y, size float64, c engine.Color, align engine.Align, bold bool) {
	if s == "" {
		return
	}
	inherited := w.font
	if inherited == (font{}) {
		inherited = font{align: engine.Left}
	}
	shared := paint("fill", c) + w.fontAttrs(font{size, align, bold}, inherited)
	own := w.num(append(w.num([]byte(` x="`), x), `" y="`...), y+0.35*size)
	w.pending = append(w.pending, element{tag: "text", shared: shared, own: append(own, '"'), text: s})
}

// fitText is text held to the width the Go fonts give it (textLength):
// a browser without them sets it in its own sans-serif, which may be
// wider (DejaVu Sans, a tenth), and a long line of the panel would then
// run off the picture.
func (w *writer) fitText(s string, x, y, size float64, c engine.Color, align engine.Align, bold bool) {
	w.text(s, x, y, size, c, align, bold)
	if s == "" {
		return
	}
	e := &w.pending[len(w.pending)-1]
	e.own = append(w.num(append(e.own, ` textLength="`...), textWidth(s, size, bold)), `" lengthAdjust="spacingAndGlyphs"`...)
}

// flush writes the queued elements, a run of two or more with the same
// shared attributes inside one <g>.
func (w *writer) flush() {
	for i := 0; i < len(w.pending); {
		j := i + 1
		for j < len(w.pending) && w.pending[j].shared == w.pending[i].shared {
			j++
		}
		if run := merge(w.pending[i:j]); len(run) == 1 {
			w.element(run[0], true)
		} else {
			w.b.WriteString("<g" + w.pending[i].shared + ">")
			for _, e := range run {
				w.element(e, false)
			}
			w.b.WriteString("</g>")
		}
		i = j
	}
	w.pending = w.pending[:0]
}

func (w *writer) element(e element, withShared bool) {
	w.b.WriteString("<" + e.tag)
	if withShared {
		w.b.WriteString(e.shared)
	}
	if e.tag == "path" {
		w.b.WriteString(` d="`)
		w.b.Write(e.own)
		w.b.WriteString(`"/>`)
		return
	}
	w.b.Write(e.own)
	w.b.WriteByte('>')
	xml.EscapeText(&w.b, []byte(e.text))
	w.b.WriteString("</" + e.tag + ">")
}

// open starts the document: an <svg> of width x height pixels showing
// the viewBox (x0, y0, vw, vh); extra is more attributes, already
// escaped.
func (w *writer) open(width, height, vw, vh float64, extra string) {
	w.b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg"` + extra + ` width="` + w.fmtNum(width) + `" height="` + w.fmtNum(height) +
		`" viewBox="0 0 ` + w.fmtNum(vw) + " " + w.fmtNum(vh) + `" font-family="` + fontFamily + `" stroke-linecap="round" stroke-linejoin="round">`)
}

// title writes an accessible name for the picture.
func (w *writer) title(s string) {
	if s == "" {
		return
	}
	w.b.WriteString("<title>")
	xml.EscapeText(&w.b, []byte(s))
	w.b.WriteString("</title>")
}

// close ends the document and returns it.
func (w *writer) close() []byte {
	w.flush()
	w.b.WriteString("</svg>")
	return bytes.Clone(w.b.Bytes())
}
