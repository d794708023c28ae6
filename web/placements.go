package web

import (
	"math"
	"net/http"
	"slices"
	"strings"

	"tessera"
	"tessera/service"
)

// placements are a player's moves placed on the board, as the page's
// script reads them: each move once, its cells as indexes into one table
// of points, its piece, turn and gain as indexes into theirs. Glorieta's
// second turn has 8,001 pairs of stones: written as one element per move
// with its cells' coordinates spelled out it was 800 KB; this way a
// fraction of it, and gzip takes most of the rest.
type placements struct {
	Points   [][2]float64 `json:"p"` // the cells, in the board's own units (the SVG's viewBox)
	Pieces   []string     `json:"k"`
	Variants []string     `json:"v"`
	Gains    []string     `json:"g"`
	// Moves are [text, piece, variant, gain, [cells tapped in order]].
	Moves [][]any `json:"m"`
}

// placementsOf is the compact list of the placed moves among legal; its
// pieces in the order of hand (the hand's picture and words).
func placementsOf(legal []service.WebLegal, hand []string) placements {
	p := placements{Points: [][2]float64{}, Pieces: []string{}, Variants: []string{}, Gains: []string{}, Moves: [][]any{}}
	for _, l := range legal {
		if l.Placed && !slices.Contains(p.Pieces, l.Piece) {
			p.Pieces = append(p.Pieces, l.Piece)
		}
	}
	p.Pieces = pieceOrder(hand, p.Pieces)
	points := map[[2]float64]int{}
	index := func(table *[]string, v string) int {
		if i := slices.Index(*table, v); i >= 0 {
			return i
		}
		*table = append(*table, v)
		return len(*table) - 1
	}
	gains := map[string]int{}
	for _, l := range legal {
		if !l.Placed {
			continue
		}
		cells := make([]int, len(l.At))
		for i, pt := range l.At {
			// A tenth of a unit: the boards are hundreds of units wide.
			xy := [2]float64{math.Round(pt.X*10) / 10, math.Round(pt.Y*10) / 10}
			n, ok := points[xy]
			if !ok {
				n = len(p.Points)
				points[xy] = n
				p.Points = append(p.Points, xy)
			}
			cells[i] = n
		}
		g, ok := gains[l.Gain]
		if !ok {
			g = len(p.Gains)
			gains[l.Gain] = g
			p.Gains = append(p.Gains, l.Gain)
		}
		p.Moves = append(p.Moves, []any{l.Text, index(&p.Pieces, l.Piece), index(&p.Variants, l.Variant), g, cells})
	}
	return p
}

// placementsPart answers ?part=placements: the player's placed moves as
// JSON (compact, and gzipped by Handler), for a page whose list was too
// long to hold inline (gamePage.Lazy). A spectator, or a player whose
// turn it is not, gets an empty list.
func (s *Server) placementsPart(w http.ResponseWriter, r *http.Request, g *tessera.Game, moves int) {
	who, ok := s.viewer(w, r, g)
	if !ok {
		return
	}
	var v service.GameView
	if who.user != "" && (moves < 0 || moves == len(g.Moves)) {
		var err error
		if v, err = s.svc.GameView(r.Context(), g, -1, who.user); err != nil {
			s.serviceError(w, r, err)
			return
		}
	}
	writeJSON(w, http.StatusOK, placementsOf(v.Legal, v.Pieces))
}

// unplaced are the legal moves not placed on the board (a pass, undo).
func unplaced(legal []service.WebLegal) []service.WebLegal {
	var out []service.WebLegal
	for _, l := range legal {
		if !l.Placed {
			out = append(out, l)
		}
	}
	return out
}

// pieceOrder lists the pieces the placements name in the hand's order
// (the order the hand's picture and its words show them), each once; a
// variant of a piece (Knotwork's "E*") follows its own.
func pieceOrder(hand, placed []string) []string {
	rank := func(p string) int {
		if i := slices.Index(hand, strings.TrimRight(p, "*")); i >= 0 {
			return i
		}
		return len(hand)
	}
	out := slices.Clone(placed)
	slices.SortStableFunc(out, func(a, b string) int { return rank(a) - rank(b) })
	return out
}
