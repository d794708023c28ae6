package tilingking

import "tessera/engine"

// TilingKing has no hidden information and no chance (every hand is
// public, nothing is drawn), so it implements FastPlayer and Ender but not
// Determinizer.
var (
	_ engine.FastPlayer = (*State)(nil)
	_ engine.Ender      = (*State)(nil)
	_ engine.Sampler    = (*State)(nil)
)

// sync rebuilds the masks and counts from the exported fields.
func (st *State) sync() {
	st.cov, st.terr, st.count = [4]mask{}, [4]mask{}, [4][maxKinds]int8{}
	for i := 0; i < st.b.n; i++ {
		if s := st.Cover[i]; s >= 0 {
			st.cov[s].set(i)
		}
		if s := st.Terr[i]; s >= 0 {
			st.terr[s].set(i)
		}
	}
	for s, h := range st.Hands {
		for _, p := range h {
			if k := st.b.kindOf(p); k >= 0 {
				st.count[s][k]++
			}
		}
	}
}

// closed is the set of cells seat s may not cover: neutral tiles, pieces,
// and the other players' territory.
func (st *State) closed(s engine.Seat) mask {
	m := st.b.neutral
	for t := 0; t < st.N; t++ {
		m = m.or(st.cov[t])
		if engine.Seat(t) != s {
			m = m.or(st.terr[t])
		}
	}
	return m
}

// held is the set of piece kinds seat s has left, as bits.
func (st *State) held(s engine.Seat) uint16 {
	var h uint16
	for k, n := range st.count[s][:len(st.b.kindName)] {
		if n > 0 {
			h |= 1 << k
		}
	}
	return h
}

// hasPlacement reports whether seat s can lay a piece.
func (st *State) hasPlacement(s engine.Seat) bool {
	b := st.b
	held := st.held(s)
	if held == 0 {
		return false
	}
	free := b.cellsMask.andNot(st.closed(s))
	if held&b.single != 0 { // a one-cell piece fits on any free cell
		return !free.empty()
	}
	free = b.toEmb(free)
	for k := 0; held != 0; k, held = k+1, held>>1 {
		if held&1 == 0 {
			continue
		}
		for p := b.patternStart[k]; p < b.patternStart[k+1]; p++ {
			if !b.patterns[p].anchors(free).empty() {
				return true
			}
		}
	}
	return false
}

// tries is how many placements PlayRandom draws from all those of the
// pieces in hand before it counts the legal ones instead. Early in a game
// most draws are legal, and a draw is cheaper than a count; late, few are.
const tries = 8

// PlayRandom plays a uniformly random legal move for the seat to move:
// one of its distinct placements, or swap when the pie rule offers it,
// each as likely as choosing from Legal(). It first draws from the
// placements of the pieces in hand (each distinct placement is listed
// once, plus swap) and keeps the first legal one; after tries misses it
// counts the legal placements (drawCounted) and takes one of them at
// random. Both are uniform over the legal moves, so their mixture is too.
func (st *State) PlayRandom(r *engine.Rand) {
	if st.Done {
		return
	}
	kind, pl := st.draw(r)
	st.step(nil, kind, pl)
}

// draw is PlayRandom's choice: a placement, swap, or (only when the seat
// to move has no legal move, which advance never leaves) pass.
func (st *State) draw(r *engine.Rand) (Kind, *placement) { return st.drawWith(r, tries) }

// drawWith is draw with n rejection tries before the counting (tests try
// each way alone).
func (st *State) drawWith(r *engine.Rand, n int) (Kind, *placement) {
	b := st.b
	s := st.Turn
	bl := st.closed(s)
	swap := st.canSwap()
	var held uint16
	var kinds [maxKinds]uint8
	var upto [maxKinds]int // placements of the held kinds up to and including kinds[j]
	nk, total := 0, 0
	for k, left := range st.count[s][:len(b.kindName)] {
		if left > 0 {
			held |= 1 << k
			total += b.kindStart[k+1] - b.kindStart[k]
			kinds[nk], upto[nk] = uint8(k), total
			nk++
		}
	}
	choices := total
	if swap {
		choices++
	}
	if choices == 0 { // no piece left: cannot happen after advance, but never stall
		return Pass, nil
	}
	for t := 0; t < n; t++ {
		i := r.IntN(choices)
		if i == total {
			return Swap, nil
		}
		j := 0
		for upto[j] <= i {
			j++
		}
		k := kinds[j]
		id := b.kindStart[k+1] - (upto[j] - i)
		if pl := b.all[id]; !pl.m.meets(bl) {
			return Place, pl
		}
	}
	kind, pl, _ := st.drawCounted(r, bl, held, swap)
	return kind, pl
}

// RandomMove draws a move uniformly from the distinct legal moves, as
// PlayRandom would play it, and counts them, without listing them
// (engine.Sampler): a search expands its nodes from it instead of Legal's
// thousand placements early in a game.
func (st *State) RandomMove(r *engine.Rand) (engine.Move, int, bool) {
	if st.Done {
		return nil, 0, false
	}
	s := st.Turn
	kind, pl, n := st.drawCounted(r, st.closed(s), st.held(s), st.canSwap())
	switch {
	case n == 0: // no legal move: advance never leaves a seat so
		return nil, 0, false
	case kind == Swap:
		return Move{Kind: Swap}, n, true
	}
	return Move{Kind: Place, Piece: pl.piece, Cells: pl.cells, text: pl.text, pl: pl}, n, true
}

// drawCounted finds, for each orientation of each held piece, where it
// fits, and draws one of those placements (or swap) uniformly; n is how
// many there are to draw from.
func (st *State) drawCounted(r *engine.Rand, bl mask, held uint16, swap bool) (kind Kind, pl *placement, n int) {
	b := st.b
	free := b.toEmb(b.cellsMask.andNot(bl))
	var fits [maxPatterns]mask
	var upto [maxPatterns]int // legal placements up to and including pattern p
	legal := 0
	for k := 0; k < len(b.kindName); k++ {
		if held>>k&1 == 0 {
			for p := b.patternStart[k]; p < b.patternStart[k+1]; p++ {
				upto[p] = legal
			}
			continue
		}
		for p := b.patternStart[k]; p < b.patternStart[k+1]; p++ {
			fits[p] = b.patterns[p].anchors(free)
			legal += fits[p].count()
			upto[p] = legal
		}
	}
	choices := legal
	if swap {
		choices++
	}
	if choices == 0 {
		return Pass, nil, 0
	}
	i := r.IntN(choices)
	if i == legal {
		return Swap, nil, choices
	}
	p := 0
	for upto[p] <= i {
		p++
	}
	anchor := fits[p].nth(i - (upto[p] - fits[p].count()))
	return Place, b.all[b.patterns[p].ids[anchor]], choices
}

// Play applies a move from Legal or Parse of this position like Apply,
// without the outcome's words and deltas.
func (st *State) Play(mv engine.Move) error {
	m, ok := mv.(Move)
	if !ok {
		return engine.Illegalf("not a TilingKing move")
	}
	if st.Done {
		return engine.Illegalf("the game is over")
	}
	switch m.Kind {
	case Pass, PassAll:
	case Swap:
		if !st.canSwap() {
			return engine.Illegalf("swap is not allowed now")
		}
	case Place:
		pl := st.placementOf(m)
		if pl == nil {
			return engine.Illegalf("%s is not a placement on this board", m.String())
		}
		if st.count[st.Turn][pl.kind] == 0 {
			return engine.Illegalf("%s: you have no %s left", pl.text, pl.piece)
		}
		if pl.m.meets(st.closed(st.Turn)) {
			return engine.Illegalf("%s is not free", pl.text)
		}
		m.pl = pl
	default:
		return engine.Illegalf("not a TilingKing move")
	}
	st.step(nil, m.Kind, m.pl)
	return nil
}

// placementOf is the placement a Move names on this board, or nil. A Move
// from Legal or Parse carries it; one built by hand is looked up by its
// cells and must write them as the notation does.
func (st *State) placementOf(m Move) *placement {
	b := st.b
	if pl := m.pl; pl != nil && pl.id < len(b.all) && b.all[pl.id] == pl {
		return pl
	}
	var cm mask
	for _, c := range m.Cells {
		if c < 0 || c >= b.n {
			return nil
		}
		cm.set(c)
	}
	if pl := b.byMask[cm]; pl != nil && pl.text == m.text && pl.piece == m.Piece {
		return pl
	}
	return nil
}

// EndReason says why a finished game ended, for statistics: "resignation"
// (all players but one resigned), "all passed" (everyone still playing
// passed since the last piece, and at least one of them by choice: pass or
// pass all), "no moves" (everyone still playing passed because they could
// not place). It is "" while the game goes on.
func (st *State) EndReason() string {
	switch {
	case !st.Done:
		return ""
	case st.Active() <= 1:
		return "resignation"
	}
	for s := 0; s < st.N; s++ {
		if !st.Resigned[s] && st.chose&(1<<s) != 0 {
			return "all passed"
		}
	}
	return "no moves"
}
