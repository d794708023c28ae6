package engine

// The optional interfaces below are what a search (the AI in ai/, the lab)
// may use besides State. A game implements them to be searched faster or
// fairly; it never holds AI code of its own. A game without them still
// works: the search falls back to Legal, Apply and Clone.

// Determinizer is implemented by games with hidden information or chance
// (private hands, a shuffled supply). Determinize returns an independent
// copy of the position in which everything the viewer cannot see (other
// seats' hands, the order of the supply, and the state of the game's own
// random source) is drawn again from r, consistent with everything the
// viewer can see (its own hand, the board, discards, counts). The copy
// must not depend on the hidden parts of the receiver: two positions that
// differ only in what viewer cannot see give the same copy for the same r.
// A search calls it once per iteration on the real position and never
// looks at the real position's hidden state any other way.
type Determinizer interface {
	Determinize(viewer Seat, r *Rand) State
}

// FastPlayer is implemented by games that can play fast, for playouts.
type FastPlayer interface {
	// PlayRandom plays, for the seat to move, one move drawn uniformly
	// from the distinct legal moves (exactly as choosing uniformly from
	// Legal() would), and any passes the engine makes by itself. It draws
	// from r, not from the game's own source, except for the game's own
	// chance events (a tile drawn from the supply). It builds no words,
	// deltas or pictures and allocates nothing in the steady state. It
	// does nothing when the game is over.
	PlayRandom(r *Rand)
	// Play applies m (from Legal or Parse of this position) like Apply,
	// with the same resulting position, but without building the
	// outcome's words and deltas.
	Play(m Move) error
}

// Ender is implemented by games that can say why a finished game ended,
// as one short stable word or phrase per end condition ("board full",
// "all passed", "blocked", "resignation"), for the designers' statistics.
type Ender interface {
	EndReason() string
}
