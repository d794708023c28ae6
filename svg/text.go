package svg

import "tessera/picture"

// The panel wraps and shortens its lines by their width, as render/ does
// with the Go fonts it embeds. This package draws no glyph and imports no
// font library: it measures with the fonts' advance widths, copied here
// (in thousandths of an em; the Go fonts have Helvetica's metrics, so a
// browser's Arial or Liberation Sans sets the same words in the same
// room) and names the Go fonts first in font-family.

// advances are Go Regular's and Go Bold's advance widths of the printable
// ASCII characters (space to tilde), in thousandths of an em.
var advances = [2][95]uint16{
	{278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 584, 584, 316, 584, 316, 278, 556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 306, 306, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 399, 496, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 247, 253, 500, 268, 833, 556, 556, 556, 556, 333, 500, 283, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584},
	{278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 558, 584, 278, 584, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611, 975, 722, 722, 722, 722, 667, 611, 778, 722, 453, 556, 722, 611, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333, 584, 556, 333, 556, 611, 556, 611, 556, 333, 611, 611, 289, 288, 556, 298, 889, 611, 611, 611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584},
}

// otherAdvances are the few other characters the panels use; any other
// character is taken as wide as a capital (667), which errs on the wide
// side for most scripts.
var otherAdvances = map[rune][2]uint16{
	'…': {1000, 1000}, '–': {500, 556}, '—': {1000, 1000}, '·': {267, 277},
	'°': {400, 400}, '×': {584, 584}, '’': {222, 278}, '“': {417, 500}, '”': {417, 500},
}

// fontFamily names the Go fonts first, then fonts with their metrics.
const fontFamily = "Go,Arial,Helvetica,'Liberation Sans',sans-serif"

// textWidth is s's advance in pixels at size px.
func textWidth(s string, px float64, bold bool) float64 {
	b := 0
	if bold {
		b = 1
	}
	n := 0
	for _, r := range s {
		switch a, ok := otherAdvances[r]; {
		case r >= ' ' && r <= '~':
			n += int(advances[b][r-' '])
		case ok:
			n += int(a[b])
		default:
			n += 667
		}
	}
	return float64(n) * px / 1000
}

// fitWidth shortens s with an ellipsis until it is at most w pixels wide
// (picture.Fit, as render's fitWidth).
func fitWidth(s string, px float64, bold bool, w float64) string {
	return picture.Fit(func(t string) float64 { return textWidth(t, px, bold) }, s, w)
}

// wrap breaks s into lines at most w pixels wide at spaces (picture.Wrap,
// as render's wrap).
func wrap(s string, px float64, bold bool, w float64) []string {
	return picture.Wrap(func(t string) float64 { return textWidth(t, px, bold) }, s, w)
}
