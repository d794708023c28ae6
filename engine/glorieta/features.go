package glorieta

import "tessera/engine"

// Features numbers what a seat can hold (engine.Featurer): its own stone,
// dark side up, on cell c is feature c; a pink stone on c, which is a
// member of both seats, is feature nCells+c.
func (st *State) Features() int { return 2 * nCells }

// MoveFeatures appends the features m gives the seat to move: the cells
// of its stones, or the pink of its flip.
func (st *State) MoveFeatures(mv engine.Move, dst []int) []int {
	m, ok := mv.(Move)
	if !ok {
		return dst
	}
	if m.Flip {
		return append(dst, nCells+m.A)
	}
	dst = append(dst, m.A)
	if m.B >= 0 {
		dst = append(dst, m.B)
	}
	return dst
}

// HeldFeatures appends the features seat s holds: its dark stones and
// every pink stone.
func (st *State) HeldFeatures(s engine.Seat, dst []int) []int {
	own := uint8(s) + 1
	for c := range nCells {
		switch {
		case st.Pink[c]:
			dst = append(dst, nCells+c)
		case st.Stones[c] == own:
			dst = append(dst, c)
		}
	}
	return dst
}
