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

// Keyer is implemented by move types that can name themselves with a
// number: Key is equal for two moves of one game exactly when their
// notations (String) are. A search keys its tree by it instead of
// building the notation of every move it looks at, which in a game with
// hidden information is most of a search's time.
type Keyer interface {
	Key() uint64
}

// Sampler is implemented by games whose positions have very many legal
// moves (Glorieta's thousands of stone pairs). RandomMove draws one move
// uniformly from the distinct legal moves without listing them, as
// FastPlayer.PlayRandom would play it, and says how many distinct legal
// moves there are; it does not change the position. ok is false when the
// game is over. A search expands a node by sampling the few moves it will
// try instead of listing thousands it never will.
type Sampler interface {
	RandomMove(r *Rand) (m Move, legal int, ok bool)
}

// KeyLister is implemented by games whose legal moves are Keyers and that
// can list the keys without building the moves. LegalKeys appends to dst
// the keys of Legal's moves, in Legal's order, allocating nothing when dst
// is large enough, and does not change the position; MoveOfKey builds the
// move of the seat to move that a key of LegalKeys names. A search with
// hidden information lists a node's moves again in every determinization
// (they differ with the hands); keys spare it a move, and an allocation,
// per legal move.
type KeyLister interface {
	LegalKeys(dst []uint64) []uint64
	MoveOfKey(k uint64) Move
}

// Finisher is implemented by games whose wins come suddenly, in the middle
// of play (a loop closed), and that can find such a win faster than by
// trying every legal move. WinningMove returns a move of the seat to move
// that ends the game at once with that seat the sole winner, if there is
// one, without changing the position. A search uses it to see an
// opponent's win one move ahead, which sampling thousands of replies
// misses; it is a fact of the rules, like Legal, and holds no strategy.
type Finisher interface {
	WinningMove() (Move, bool)
}
