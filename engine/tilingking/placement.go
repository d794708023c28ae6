package tilingking

import "tessera/engine"

// Placement is where a move goes on Board()'s picture (engine.Placer):
// the centres of the cells the piece covers, in notation order, and the
// piece by its name as HandScene writes it ("L4"); the cells say its
// orientation. A pass, a pass-all or a swap is not placed.
func (st *State) Placement(m engine.Move) (engine.Placement, bool) {
	mv, ok := m.(Move)
	if !ok || mv.Kind != Place || len(mv.Cells) == 0 {
		return engine.Placement{}, false
	}
	p := engine.Placement{Piece: mv.Piece}
	for _, c := range mv.Cells {
		if c < 0 || c >= st.b.n {
			return engine.Placement{}, false
		}
		p.At = append(p.At, st.b.center[c])
	}
	return p, true
}
