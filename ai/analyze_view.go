package ai

// Chances from one view (issue #49). Analyze judges a position from the
// information of the seat to move, so a chart of its chances switches
// views at every move and, in a game with hidden hands, zig-zags. The
// searches here judge a position from a viewer's information whoever is
// to move (a spectator's, engine.NoSeat, or any seat's own), and a move
// played from the mover's information before what follows it is drawn:
// the pieces of the analysis's error and luck (decompose.go).

import (
	"context"
	"fmt"

	"tessera/engine"
)

// Hides reports whether st's game hides anything or draws by chance
// (an engine.Determinizer): only there can a position look different
// from two seats, and only there is there luck.
func Hides(st engine.State) bool {
	_, ok := st.(engine.Determinizer)
	return ok
}

// AnalyzeView is Analyze from viewer's information: every iteration's
// world is dealt for viewer (engine.NoSeat: a spectator, who sees no
// hand), whoever is to move. Where the game hides nothing, or viewer is
// the seat to move, it is Analyze. Elsewhere it neither scans the mover's
// moves for a win at once nor reads any hidden part of st, so its result
// depends only on what viewer sees (the mover's hand is dealt in each
// world, and the root's moves are the mover's in those worlds).
func AnalyzeView(ctx context.Context, st engine.State, viewer engine.Seat, b Budget, seed uint64) (p Position, err error) {
	if st.Over() || viewer == st.ToMove() || !Hides(st) {
		return Analyze(ctx, st, b, seed)
	}
	defer func() {
		if r := recover(); r != nil {
			p, err = Position{}, fmt.Errorf("ai: the engine panicked during the analysis: %v", r)
		}
	}()
	b = b.normal()
	if b.Think > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, b.Think)
		defer cancel()
	}
	return searchChances(ctx, st, viewer, nil, nil, b, seed)
}

// AnalyzeAfter is every seat's chance after the seat to move plays move
// (its notation) in st, judged from the mover's information before it:
// where the game draws after a move, what is drawn is dealt anew in
// every world, as the mover could not know it. It is what the mover's
// own search (Position.After) says of a move it tried often, for a move
// it tried too little. A move that ends the game gives its result. The
// chances are the search's mean over all its iterations (Position.Win),
// as a position's are.
func AnalyzeAfter(ctx context.Context, st engine.State, move string, b Budget, seed uint64) (w []float64, err error) {
	defer func() {
		if r := recover(); r != nil {
			w, err = nil, fmt.Errorf("ai: the engine panicked during the analysis: %v", r)
		}
	}()
	if st.Over() {
		return nil, ErrOver
	}
	mover := st.ToMove()
	m, err := st.Parse(move)
	if err != nil {
		return nil, err
	}
	after := st.Clone()
	if err := playMove(after, m); err != nil {
		return nil, err
	}
	if after.Over() {
		return resultChances(after), nil
	}
	d := dealer(st, mover, b.Policy)
	if d == nil { // nothing hidden, nothing drawn: the position after it, as anyone sees it
		p, err := Analyze(ctx, after, b, seed)
		return p.Win, err
	}
	b = b.normal()
	if b.Think > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, b.Think)
		defer cancel()
	}
	p, err := searchChances(ctx, after, mover, playedDeal{d: d, move: move, mover: mover}, nil, b, seed)
	return p.Win, err
}

// playedDeal deals a world of the position before a move, as the mover
// saw it, and plays the move there: the world after the move, with what
// the move drew drawn from that world's supply.
type playedDeal struct {
	d     engine.Determinizer
	move  string
	mover engine.Seat
}

// Determinize ignores viewer: the world is always the mover's (the tree
// asks for the seat it was made for, which is the mover).
func (p playedDeal) Determinize(_ engine.Seat, r *engine.Rand) engine.State {
	for try := 0; ; try++ {
		w := p.d.Determinize(p.mover, r)
		m, err := w.Parse(p.move)
		if err == nil && playMove(w, m) == nil {
			return w
		}
		if try == 8 { // the mover's own move is legal in every world it can imagine
			panic(fmt.Sprintf("the move %q is not legal in the mover's worlds: %v", p.move, err))
		}
	}
}

// normal is b with at least one worker and one iteration.
func (b Budget) normal() Budget {
	b.Workers = max(1, b.Workers)
	b.Iterations = max(1, b.Iterations)
	return b
}
