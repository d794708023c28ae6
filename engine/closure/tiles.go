package closure

import (
	"sort"
	"strings"
)

// Quadrants of a tile, clockwise from the north-west corner. Quadrant q
// lies on edges q and q-1 (NW on N and W); arm d (N, E, S, W, numbered as
// grid.Dir) lies between quadrants d and d+1.
const (
	NW = iota
	NE
	SE
	SW
)

// Face is a tile as it lies: the colours of its quadrants NW, NE, SE, SW
// and its arms N, E, S, W.
type Face struct {
	Col [4]byte
	Arm [4]bool
}

// Rotate turns the face clockwise by k quarter turns.
func (f Face) Rotate(k int) Face {
	var r Face
	for i := 0; i < 4; i++ {
		r.Col[(i+k)%4] = f.Col[i]
		r.Arm[(i+k)%4] = f.Arm[i]
	}
	return r
}

// Colours is the colouring clockwise from NW ("BBRR").
func (f Face) Colours() string { return string(f.Col[:]) }

// Arms lists the arms ("NE" for north and east, "-" for none).
func (f Face) Arms() string {
	s := ""
	for d := 0; d < 4; d++ {
		if f.Arm[d] {
			s += "NESW"[d : d+1]
		}
	}
	if s == "" {
		return "-"
	}
	return s
}

// colourCount is the number of distinct colours.
func (f Face) colourCount() int {
	n := 0
	for i, c := range f.Col {
		if strings.IndexByte(string(f.Col[:i]), c) < 0 {
			n++
		}
	}
	return n
}

// NumTiles is the size of the set.
const NumTiles = 48

// tiles[k] is tile k (1..48) in its canonical orientation; faces[k][r] is
// it turned r quarter turns; rots[k] lists the quarter turns that give
// distinct faces (a symmetric tile has fewer than four).
var (
	tiles [NumTiles + 1]Face
	faces [NumTiles + 1][4]Face
	rots  [NumTiles + 1][]int
	// canon[k][r] is the smallest quarter turn giving the same face as r.
	canon [NumTiles + 1][4]int
)

// Colourings returns the 24 canonical colourings in alphabetical order.
func Colourings() []string {
	seen := map[string]bool{}
	var out []string
	cs := "BGR"
	for a := 0; a < 3; a++ {
		for b := 0; b < 3; b++ {
			for c := 0; c < 3; c++ {
				for d := 0; d < 3; d++ {
					f := Face{Col: [4]byte{cs[a], cs[b], cs[c], cs[d]}}
					best := f.Colours()
					for k := 1; k < 4; k++ {
						if s := f.Rotate(k).Colours(); s < best {
							best = s
						}
					}
					if !seen[best] {
						seen[best] = true
						out = append(out, best)
					}
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

func init() {
	for k, col := range Colourings() {
		var f Face
		copy(f.Col[:], col)
		g := f
		for d := 0; d < 4; d++ {
			f.Arm[d] = f.Col[d] != f.Col[(d+1)%4]
			g.Arm[d] = !f.Arm[d]
		}
		tiles[k+1], tiles[k+25] = f, g
	}
	for t := 1; t <= NumTiles; t++ {
		for r := 0; r < 4; r++ {
			faces[t][r] = tiles[t].Rotate(r)
		}
		for r := 0; r < 4; r++ {
			for q := 0; q <= r; q++ {
				if faces[t][q] == faces[t][r] {
					canon[t][r] = q
					break
				}
			}
			if canon[t][r] == r {
				rots[t] = append(rots[t], r)
			}
		}
	}
	initFast()
}

// TileFace is tile t (1..48) in its canonical orientation.
func TileFace(t int) Face { return tiles[t] }
