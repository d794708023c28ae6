package closure

import (
	"strconv"

	"tessera/engine"
)

// Placement is where a move goes on Board()'s picture (engine.Placer):
// the cell's centre in the picture's frame (the laid tiles and their
// ring), the tile by its number (as HandScene writes it under the tile)
// and the quarter turns clockwise from the hand's picture ("90°"; "0°"
// for none). A discard or a pass is not placed.
func (st *State) Placement(m engine.Move) (engine.Placement, bool) {
	mv, ok := m.(Move)
	if !ok || mv.Kind != Place || mv.Cell < 0 || mv.Cell >= board.Len() {
		return engine.Placement{}, false
	}
	// The frame and the cell's size as board draws them.
	c0, r0, c1, r1 := st.crop()
	cell := min(maxCell, (sceneSide-2*margin)/float64(max(c1-c0+1, r1-r0+1)))
	c, r := board.XY(mv.Cell)
	if c < c0 || c > c1 || r < r0 || r > r1 {
		return engine.Placement{}, false // outside the picture: not next to the layout
	}
	at := engine.Point{X: margin + (float64(c-c0)+0.5)*cell, Y: margin + (float64(r1-r)+0.5)*cell}
	return engine.Placement{Piece: strconv.Itoa(mv.Tile), At: []engine.Point{at}, Variant: strconv.Itoa(90*(mv.Rot&3)) + "°"}, true
}
