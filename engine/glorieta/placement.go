package glorieta

import "tessera/engine"

// Placement is where a move goes on Board()'s picture (engine.Placer):
// the centres of its cells, a pair in board order (the notation takes
// them in either). Stones come from the hand without a choice, so no
// piece is named; a flip is made on the stone it turns, with the variant
// "flip".
func (st *State) Placement(m engine.Move) (engine.Placement, bool) {
	mv, ok := m.(Move)
	if !ok || mv.A < 0 || mv.A >= nCells || mv.B >= nCells {
		return engine.Placement{}, false
	}
	_, _, ox, oy := sceneSize()
	centre := func(c int) engine.Point {
		x, y := worldXY(worldOf[c], ox, oy)
		return engine.Point{X: x, Y: y}
	}
	p := engine.Placement{At: []engine.Point{centre(mv.A)}}
	switch {
	case mv.Flip:
		p.Variant = "flip"
	case mv.B >= 0:
		a, b := min(mv.A, mv.B), max(mv.A, mv.B)
		p.At = []engine.Point{centre(a), centre(b)}
	}
	return p, true
}
