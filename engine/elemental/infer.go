package elemental

import (
	"math"
	"slices"

	"tessera/engine"
)

// Inferred is a Determinizer whose copies read the last move as evidence
// of the hand of the seat that made it (engine.Inferrer). That seat held
// two tiles, laid one and drew one: the drawn tile is any of the unseen
// ones, but the kept one is likelier the less it could have scored on the
// board the move was made on. Each unseen tile's weight is worked out
// once here, from the board and the move, which every seat sees.
func (st *State) Inferred(viewer engine.Seat, sharpness float64) engine.Determinizer {
	if st.Done || st.Last < 0 || st.N < 2 || sharpness <= 0 {
		return st
	}
	mover := engine.Seat((int(st.Turn) + st.N - 1) % st.N) // the seat that laid the last tile
	if mover == viewer || len(st.Hands[mover]) == 0 {
		return st
	}
	// The board the move was made on: this one without its last tile.
	before := State{Borders: st.Borders, Cells: st.Cells, Filled: st.Filled, Placed: st.Placed - 1}
	before.Filled[st.Last], before.Cells[st.Last] = false, Tile{}
	c, m, b := before.score(st.Last, st.Cells[st.Last])
	played := c*(c+1)/2 - m + b
	var open []int
	for i := range before.Cells {
		if before.canPlace(i) {
			open = append(open, i)
		}
	}
	weight := map[Tile]float64{}
	for _, t := range st.unseen(viewer) {
		if _, ok := weight[t]; ok {
			continue
		}
		best := math.MinInt
		for _, o := range orientations(t) {
			for _, cell := range open {
				c, m, b := before.score(cell, o)
				best = max(best, c*(c+1)/2-m+b)
			}
		}
		weight[t] = math.Exp(-sharpness * float64(max(0, best-played)))
	}
	return &inferred{st: st, mover: mover, weight: weight}
}

// inferred is State.Inferred's Determinizer.
type inferred struct {
	st     *State
	mover  engine.Seat // the seat whose kept tile the evidence is about
	weight map[Tile]float64
}

// Determinize draws like State.Determinize, except that the first tile of
// the last mover's hand, its kept one, is drawn from the unseen tiles in
// proportion to their weights; the rest are shuffled as before.
func (in *inferred) Determinize(viewer engine.Seat, r *engine.Rand) engine.State {
	c := in.st.Clone().(*State)
	pool := c.unseen(viewer)
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	total := 0.0
	for _, t := range pool {
		total += in.weight[t]
	}
	if total > 0 { // the kept tile, by weight, to the front of the pool
		x := r.Float64() * total
		k := len(pool) - 1
		for i, t := range pool {
			if x -= in.weight[t]; x < 0 {
				k = i
				break
			}
		}
		pool[0], pool[k] = pool[k], pool[0]
	}
	// Deal the last mover first, so that its kept tile is the pool's first.
	k := copy(c.Hands[in.mover], pool)
	for s, h := range c.Hands {
		if engine.Seat(s) != viewer && engine.Seat(s) != in.mover {
			k += copy(h, pool[k:])
		}
	}
	copy(c.Bag, pool[k:])
	c.front.build(c)
	return c
}

// unseen is what viewer cannot see of the tiles: the bag and the other
// hands, in code order (so that the draws do not depend on where each
// hidden tile really is).
func (st *State) unseen(viewer engine.Seat) []Tile {
	pool := make([]Tile, 0, len(st.Bag)+st.N*handSize)
	pool = append(pool, st.Bag...)
	for s, h := range st.Hands {
		if engine.Seat(s) != viewer {
			pool = append(pool, h...)
		}
	}
	slices.SortFunc(pool, func(a, b Tile) int { return tileCode(a) - tileCode(b) })
	return pool
}
