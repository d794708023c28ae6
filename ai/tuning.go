package ai

import "tessera/engine"

// Tuning is which of a Measured policy's ideas apply in one game: those
// measured to pay there (docs/ai.md, "A stronger hard level"), keyed by
// the game's id in tunings. It is chosen by the game, never guessed from
// its capabilities: a sixth game with a Determinizer is not Closure, and
// what paid in Closure may lose in it. A game with no entry gets
// DefaultTuning until someone measures it. A Policy without Measured
// (the lab's letters) ignores the tunings and applies each idea wherever
// the game's capabilities allow it.
type Tuning struct {
	// Greedy keeps the informed playouts (Policy.Greedy, with its
	// Sample, GreedyPlies and GreedyTrim), where the game can inform
	// them (engine.KeyLister and engine.Previewer).
	Greedy bool
	// Unsampled informs every move of every playout among all the legal
	// moves, with every iteration: Sample, GreedyPlies, Trim and
	// GreedyTrim are dropped (a game whose playouts are short, as a
	// banked game's two moves a player, and whose moves score by key).
	Unsampled bool
	// Cut keeps Policy.Cut and Policy.Explore: playouts cut short and
	// judged by their margin, and UCB1's constant measured with them.
	Cut bool
	// Decisive keeps Policy.Decisive (and Trim with it), where the game
	// finds a win at once (engine.Finisher) and hides nothing.
	Decisive bool
	// Order keeps Policy.Order, where the game hides hands and scores a
	// move by its key (engine.KeyScorer).
	Order bool
	// Infer keeps Policy.Infer, where the game infers hidden tiles from
	// play (engine.Inferrer).
	Infer bool
}

// DefaultTuning is the tuning of a game nobody measured (and of a
// position of no registered game): none of the ideas of issue #28, so a
// Measured policy searches it as the search before them did (uniform
// playouts to the end, every iteration, UCB1's 0.7). Knotwork and
// TilingKing have it: nothing was measured to pay there.
var DefaultTuning = Tuning{}

// tunings are the games measured (docs/ai.md; TestHardPolicyWhereMeasured
// pins what each gets).
var tunings = map[string]Tuning{
	// Informed playouts to the end, among 8 moves for the first four
	// moves, half the iterations, UCB1's 0.3; ordered expansion.
	"closure": {Greedy: true, Cut: true, Order: true},
	// Two informed moves a player among all the legal moves, every
	// iteration; ordered expansion; the kept tiles inferred.
	"elemental": {Greedy: true, Unsampled: true, Order: true, Infer: true},
	// A win at once taken in the first moves of each playout.
	"glorieta": {Decisive: true},
}

// TuningOf is the tuning of a game by its id: its measured one, else
// DefaultTuning.
func TuningOf(gameID string) Tuning {
	if t, ok := tunings[gameID]; ok {
		return t
	}
	return DefaultTuning
}

// apply is p with the ideas the tuning does not keep dropped.
func (u Tuning) apply(p Policy) Policy {
	if !u.Greedy {
		p.Greedy, p.Sample, p.GreedyPlies, p.GreedyTrim = 0, 0, 0, 0
	}
	if u.Unsampled {
		p.Sample, p.GreedyPlies, p.Trim, p.GreedyTrim = 0, 0, 0, 0
	}
	if !u.Cut {
		p.Cut, p.Explore = 0, 0
	}
	if !u.Decisive {
		p.Decisive = 0
	}
	if !u.Order {
		p.Order = false
	}
	if !u.Infer {
		p.Infer = 0
	}
	return p
}

// tuningFor is the tuning of st's game.
func tuningFor(st engine.State) Tuning { return TuningOf(st.Game()) }
