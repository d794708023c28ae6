package elemental

import (
	"strconv"

	"tessera/engine"
)

// Placement is where a move goes on Board()'s picture (engine.Placer):
// the cell's centre, the tile from the hand by its code (as HandScene
// writes it under the tile) and the quarter turns clockwise from the
// hand's picture to the tile as placed ("90°"); a tile the same all
// round has no turn to say.
func (st *State) Placement(m engine.Move) (engine.Placement, bool) {
	mv, ok := m.(Move)
	if !ok || st.Done || mv.Cell < 0 || mv.Cell >= board.Len() {
		return engine.Placement{}, false
	}
	x, y := cellOrigin(mv.Cell)
	p := engine.Placement{At: []engine.Point{{X: x + cellSize/2, Y: y + cellSize/2}}}
	for _, t := range st.Hands[st.ToMove()] {
		for k := 0; k < 4; k++ {
			if t.Rotate(k) != mv.Edges {
				continue
			}
			p.Piece = t.String()
			if t.Rotate(1) != t {
				p.Variant = strconv.Itoa(90*k) + "°"
			}
			return p, true
		}
	}
	return engine.Placement{}, false // not a tile of the hand: not a legal move
}
