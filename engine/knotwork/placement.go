package knotwork

import "tessera/engine"

// Placement is where a move goes on Board()'s picture (engine.Placer):
// the cell's centre, the tile by its type's letter as HandScene writes it
// ("C"), with a star for a neutral tile as the notation writes it ("C*"),
// and its marked edges as placed ("NE"). A puzzle's undo is not placed.
func (st *State) Placement(m engine.Move) (engine.Placement, bool) {
	mv, ok := m.(Move)
	if !ok || mv.Undo || mv.Mask == 0 || mv.Mask > 15 || mv.Cell < 0 || mv.Cell >= board.Len() {
		return engine.Placement{}, false
	}
	x, y := cellOrigin(mv.Cell)
	piece := KindOf[mv.Mask].Letter()
	if mv.Neutral {
		piece += "*"
	}
	return engine.Placement{Piece: piece, At: []engine.Point{{X: x + cellSize/2, Y: y + cellSize/2}}, Variant: Edges(mv.Mask)}, true
}
