package elemental

import (
	"math"

	"tessera/engine"
)

// This file is engine.Inferrer: what a seat's play tells of the tile it
// kept. A seat holds two tiles, lays one and draws another, so the tile it
// keeps is one it chose not to lay. A player who likes points keeps the
// tile that scored less, and a tile kept over several turns was passed
// over each time. Determinize deals every unseen tile alike; Infer weighs
// the kept one by how well it explains the seat's moves.
//
// The model is a chain over the tile kept after each of the seat's turns
// (k). At a turn the seat held {k before, the tile drawn since} and laid p,
// so either it laid the tile it had kept (k before = p, and the drawn tile
// is kept now) or it laid the drawn one (k before = k now). Every unseen
// tile is as likely to be drawn, so
//
//	after(k) ∝ (before(p) + before(k)) · P(p laid as it was | hand {p, k}),
//
// and with each legal move of the hand made with a probability proportional
// to exp(sharpness × its points), P(...) ∝ 1 / (Z(p) + Z(k)), where Z(t) is
// the sum of exp(sharpness × (points − the laid move's points)) over
// every placement of t on the board as it was. That is the forward pass
// of a hidden Markov model over the seat's turns; the last one's weights
// are the kept tile's. The tile the seat drew since its last turn tells
// nothing, and stays dealt at random.

// laidLog is who laid which cell, in the order of play: the n-th tile laid
// (n < Placed) went to cell[n], laid by seat[n]. Every seat saw it happen.
// A position built by hand from the exported fields has no log that agrees
// with its board; Infer then deals as Determinize does.
type laidLog struct {
	cell [64]int8
	seat [64]int8
}

func (l *laidLog) add(n, cell int, seat engine.Seat) {
	if n >= 0 && n < len(l.cell) {
		l.cell[n], l.seat[n] = int8(cell), int8(seat)
	}
}

// logged reports whether the log agrees with the board: Placed distinct
// filled cells, each laid by a seat of the table.
func (st *State) logged() bool {
	if st.Placed < 0 || st.Placed > board.Len() {
		return false
	}
	var seen [64]bool
	for n := 0; n < st.Placed; n++ {
		c, s := int(st.laid.cell[n]), int(st.laid.seat[n])
		if c < 0 || c >= board.Len() || seen[c] || !st.Filled[c] || s < 0 || s >= st.N {
			return false
		}
		seen[c] = true
	}
	return true
}

// maxInferred bounds the seats Infer weighs (the game seats at most 4).
const maxInferred = 8

// inferred is Infer's Determinizer: the position, the viewer, and for each
// other seat whose kept tile was weighed, its weights by tile code.
type inferred struct {
	st     *State
	viewer engine.Seat
	kept   [maxInferred]*[256]float64
	weighs bool // some seat's kept tile was weighed
}

// Infer (engine.Inferrer) weighs the tile each other seat kept by its
// moves, as the comment at the top of this file says. A seat is weighed
// when it holds a full hand (so it held two tiles at each of its turns;
// hands only shrink once the bag is empty) and has laid a tile.
func (st *State) Infer(viewer engine.Seat, sharpness float64) engine.Determinizer {
	d := &inferred{st: st.Clone().(*State), viewer: viewer}
	if !(sharpness > 0) || math.IsInf(sharpness, 0) || st.N > maxInferred || int(viewer) < 0 || int(viewer) >= st.N || !st.logged() {
		return d
	}
	for s := 0; s < st.N; s++ {
		if engine.Seat(s) != viewer && len(st.Hands[s]) == handSize {
			d.kept[s] = st.keptWeights(engine.Seat(s), viewer, sharpness)
			d.weighs = d.weighs || d.kept[s] != nil
		}
	}
	return d
}

// Determinize deals like State.Determinize, except that each weighed
// seat's first tile is drawn by its weights before the rest are shuffled.
func (d *inferred) Determinize(viewer engine.Seat, r *engine.Rand) engine.State {
	if viewer != d.viewer || !d.weighs {
		return d.st.Determinize(viewer, r)
	}
	return d.st.deal(viewer, r, &d.kept)
}

// deal is Determinize with, for each seat s with kept[s] (kept may be
// nil), the first tile of its hand drawn from the unseen tiles with the
// weights kept[s] by code.
func (st *State) deal(viewer engine.Seat, r *engine.Rand, kept *[maxInferred]*[256]float64) *State {
	c := st.Clone().(*State)
	pool := make([]Tile, 0, len(c.Bag)+c.N*handSize)
	pool = append(pool, c.Bag...)
	for s, h := range c.Hands {
		if engine.Seat(s) != viewer {
			pool = append(pool, h...)
		}
	}
	sortByCode(pool)
	var first [maxInferred]Tile
	var has [maxInferred]bool
	if kept != nil {
		for s, h := range c.Hands {
			if s >= maxInferred || kept[s] == nil || engine.Seat(s) == viewer || len(h) == 0 || len(pool) == 0 {
				continue
			}
			i := pick(pool, kept[s], r)
			first[s], has[s] = pool[i], true
			pool[i] = pool[len(pool)-1]
			pool = pool[:len(pool)-1]
		}
	}
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	k := 0
	for s, h := range c.Hands {
		if engine.Seat(s) == viewer {
			continue
		}
		j := 0
		if s < maxInferred && has[s] {
			h[0], j = first[s], 1
		}
		k += copy(h[j:], pool[k:])
	}
	copy(c.Bag, pool[k:])
	// Built from the board, so that the copy's future draws do not depend
	// on the order in which the receiver's frontier grew.
	c.front.build(c)
	return c
}

// pick draws an index of pool with probability proportional to the
// weight of its tile's code (uniformly when the weights are all 0).
func pick(pool []Tile, w *[256]float64, r *engine.Rand) int {
	total := 0.0
	for _, t := range pool {
		total += w[tileCode(t)]
	}
	if !(total > 0) {
		return r.IntN(len(pool))
	}
	u := r.Float64() * total
	for i, t := range pool {
		u -= w[tileCode(t)]
		if u < 0 {
			return i
		}
	}
	return len(pool) - 1
}

// keptWeights is the forward pass of the comment at the top of this file
// for seat o, from what viewer sees: the board, the log, viewer's hand.
// It returns nil when o has laid nothing (every unseen tile alike).
func (st *State) keptWeights(o, viewer engine.Seat, sharpness float64) *[256]float64 {
	// seen: the codes viewer sees now (the board, its hand); a tile o laid
	// at turn n could be kept only before n.
	var seen [256]bool
	var laidAt [256]int
	for i := range laidAt {
		laidAt[i] = -1
	}
	for n := 0; n < st.Placed; n++ {
		code := tileCode(st.Cells[st.laid.cell[n]].Canonical())
		seen[code] = true
		if engine.Seat(st.laid.seat[n]) == o {
			laidAt[code] = n
		}
	}
	for _, t := range st.Hands[viewer] {
		seen[tileCode(t.Canonical())] = true
	}
	// possible reports whether o may hold the tile after the n-th tile is
	// laid: it is unseen now, or o lays it later.
	possible := func(code, n int) bool { return !seen[code] || laidAt[code] > n }

	var expDiff [64]float64 // exp(sharpness·d) for d in [-32, 32)
	for i := range expDiff {
		expDiff[i] = math.Exp(sharpness * float64(i-32))
	}
	weight := func(d int) float64 {
		if d >= -32 && d < 32 {
			return expDiff[d+32]
		}
		return math.Exp(sharpness * float64(d))
	}

	w := new([256]float64)
	for _, t := range allTiles {
		if code := tileCode(t); possible(code, -1) {
			w[code] = 1
		}
	}
	b := &State{Borders: st.Borders} // the board as it was, built up
	var open [64]int
	var next [256]float64
	turns := 0
	for n := 0; n < st.Placed; n++ {
		cell := int(st.laid.cell[n])
		edges := st.Cells[cell]
		if engine.Seat(st.laid.seat[n]) == o {
			turns++
			nOpen := 0
			for c := 0; c < board.Len(); c++ {
				if b.canPlace(c) {
					open[nOpen] = c
					nOpen++
				}
			}
			laidPoints := b.points(cell, edges)
			z := func(code int) float64 {
				sum := 0.0
				sh := &shapes[code]
				for _, ori := range sh.o[:sh.n] {
					for _, c := range open[:nOpen] {
						sum += weight(b.points(c, ori) - laidPoints)
					}
				}
				return sum
			}
			p := tileCode(edges.Canonical())
			zp, before := z(p), w[p]
			total := 0.0
			for _, t := range allTiles {
				code := tileCode(t)
				next[code] = 0
				if code == p || !possible(code, n) {
					continue
				}
				next[code] = (before + w[code]) / (zp + z(code))
				total += next[code]
			}
			for _, t := range allTiles {
				code := tileCode(t)
				switch {
				case total > 0 && !math.IsInf(total, 0):
					w[code] = next[code] / total
				case code != p && possible(code, n):
					w[code] = 1 // nothing to go by: alike
				default:
					w[code] = 0
				}
			}
		}
		b.Cells[cell], b.Filled[cell] = edges, true
		b.Placed++
	}
	if turns == 0 {
		return nil
	}
	return w
}
