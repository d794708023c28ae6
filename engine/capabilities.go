package engine

// The optional interfaces of a position, all of them, in one place. A game
// needs none of them: the platform falls back to State's methods (Legal,
// Apply, Clone, Board) and the search to Legal, Apply and Clone. Each
// is here because it buys something measured (docs/ai.md, "What each
// capability buys"; docs/benchmarks.md). What holds for every position of
// a game is no interface but a field of its registration (Game.Banked,
// Game.Puzzle, Option.Values), and enginetest.Run checks every interface
// below that a game implements: against Legal and Apply where the
// interface promises agreement with them, and for the rest the
// properties a caller relies on (a Gain per move, a Framer's frames of
// one size, an Inferrer's worlds blind to what the viewer cannot see, an
// Ender silent in play); its doc comment lists each check.
//
// For the platform (service, render, web): Previewer, Gainer, Framer,
// Starter, Placer. For a search (ai/, lab/): FastPlayer, Determinizer,
// Inferrer, Keyer, KeyLister, KeyScorer, Sampler, Finisher; for the
// designers' statistics: Ender. Fourteen in all.
//
// Before issue #25 there were fourteen, in three files: Banker (a
// constant, now Game.Banked) and the service's hinter and searchHinter
// (now Game.Puzzle.Hint) are gone. Keyer stays apart from KeyLister:
// keys without the lists pay in Glorieta and Knotwork (ai.md).

// Previewer is implemented by states that can tell a move's score changes
// without applying it (used by autocomplete). Without it the platform
// applies the move to a clone.
//
// Buys: the autocomplete's points for each listed move without a clone
// and an Apply each (Closure, Elemental, Knotwork).
type Previewer interface {
	Preview(m Move) []Delta
}

// Gain is what a move does for the player making it, in words a player
// reads beside the move ("+5: covers 3, captures 2 cells", "wins: closes
// your loop"), and a rank to list the moves by.
type Gain struct {
	Text string // "" when the move gains nothing that can be said now
	Rank int    // the higher, the better for the mover: listed highest first
}

// Gainer is implemented by games whose moves gain more than points, or
// whose points come only later (a loop, a knot, a capture): /moves and
// the autocomplete show each move's Gain and list the moves by rank.
// Without it they show a Previewer's points. Gains gets moves that are
// legal in the position (and those Parse accepts, like "pass"), and
// leaves the position as it was.
//
// Buys: words a player can use where points say nothing yet (Glorieta's
// loops, Knotwork's knots, TilingKing's captures).
type Gainer interface {
	Gains(moves []Move) []Gain
}

// Framer is implemented by games whose board picture shows only the part
// of the table in play, so that the picture's frame grows with the game.
// BoardFramed draws the position in the frame of later, a position the
// game reached after this one (its frame holds this one's): the frames
// of an animated replay then line up, at one scale, with no jump.
//
// Buys: a replay GIF without jumps (Closure).
type Framer interface {
	BoardFramed(later State) Scene
}

// Starter is implemented by games that announce something when the game
// starts (e.g. the draw that decided who moves first).
//
// Buys: Closure's starting draw in the first post.
type Starter interface {
	StartEvents() []Event
}

// Placement is where a move goes on the board's picture, in the units of
// the position's Board() scene: what a player taps to make it.
type Placement struct {
	// Piece is what the move takes from the hand, named as the hand's
	// picture (HandScene) names it; "" for none.
	Piece string
	// At are the cells tapped, in order, at their centres (Glorieta's two
	// stones; Knotwork's tile, then its neutral star).
	At []Point
	// Variant is the piece's turn, flip or orientation in words ("90°",
	// "flipped"); "" when the cell and the piece say all.
	Variant string
}

// Placer is implemented by games whose moves are made by placing
// something on the board. Placement says where a legal move of the
// position goes; ok is false for a move that is not placed on a cell (a
// pass, a resignation, a flip of the whole board). Two legal moves of a
// position never have the same Piece, At and Variant, so the taps name
// exactly one move.
//
// Buys: moving by tapping the board on the web page (web's game page
// overlays the legal moves' points on the board); without it a page
// plays from the list of legal moves.
type Placer interface {
	Placement(m Move) (Placement, bool)
}

// FastPlayer is implemented by games that can play fast, for playouts.
//
// Buys: playouts 20-260 times as fast as Legal, a uniform choice and
// Apply (benchmarks.md, "Random playouts"); playouts are most of a
// search's time, so this is the AI's strength at a given think time.
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
	// outcome's words and deltas. A field of the position that only
	// Apply's words or picture read may be left alone: tag it
	// `fast:"-"` so that enginetest compares the rest.
	Play(m Move) error
}

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
//
// Buys: fairness, not speed. Without it a search of a game with hidden
// information would read the other hands (ai's TestFairness).
type Determinizer interface {
	Determinize(viewer Seat, r *Rand) State
}

// Inferrer is implemented by games with hidden hands in which a seat's
// play tells something of the tiles it kept. Infer returns a Determinizer
// for viewer whose worlds deal the other seats' hidden tiles weighted by
// how likely each makes the moves those seats were seen to make, for a
// player who makes each legal move with a probability proportional to
// exp(sharpness × the move's points): 0 is a player indifferent to points
// (every deal as likely as Determinize's), a large sharpness one who
// always takes the most. It reads only what viewer can see (the board,
// the order and authors of its tiles, viewer's hand), so, as with
// Determinize, two positions that differ only in what viewer cannot see
// give the same worlds for the same random source. The Determinizer it
// returns is for viewer only and for the position as it was when Infer
// was called; a search calls Infer once and Determinize per iteration.
//
// Buys: Elemental's hard won 0.795 instead of 0.713 of the same 200
// games against greedy, and 0.685 instead of 0.642 against the old hard
// (docs/ai.md, "Elemental against greedy: what a fair player can know of
// the hand"); at the normal budget nothing measurable.
type Inferrer interface {
	Infer(viewer Seat, sharpness float64) Determinizer
}

// Keyer is implemented by move types that can name themselves with a
// number: Key is equal for two moves of one game exactly when their
// notations (String) are. A search keys its tree by it instead of
// building the notation of every move it looks at.
//
// Buys: a search without a string per move looked at, where the tree
// looks at many (Glorieta's sampled nodes, every root's gains): a third
// of the allocations of a 1,000-iteration Glorieta search (52,939
// against 153,829) and 5-30% less CPU, alone, without KeyLister (ai.md,
// "What each capability buys").
type Keyer interface {
	Key() uint64
}

// KeyLister is implemented by games whose legal moves are Keyers and that
// can list the keys without building the moves. LegalKeys appends to dst
// the keys of Legal's moves, in Legal's order, allocating nothing when dst
// is large enough, and does not change the position; MoveOfKey builds the
// move of the seat to move that a key of LegalKeys names. A search with
// hidden information lists a node's moves again in every determinization
// (they differ with the hands); keys spare it a move, and an allocation,
// per legal move. A search without hidden information lists a node's
// moves once, and does not use it.
//
// Buys: with a Determinizer, the same search with an eighth of the
// allocations and 2.6-2.8 times less CPU (Elemental, Closure;
// benchmarks.md, "The search with hidden information").
type KeyLister interface {
	LegalKeys(dst []uint64) []uint64
	MoveOfKey(k uint64) Move
}

// KeyScorer is implemented by KeyListers that can score a move from its
// key without building or playing it. KeyPoints is the immediate score
// change of the move a key of LegalKeys names for the seat to move: its
// own points less the others', exactly what Preview's deltas sum to
// counted that way. It does not change the position.
//
// Buys: a search that orders every node's new moves by their points and
// plays informed playouts at a few nanoseconds a move instead of
// Preview's allocation and words (Elemental; ai.md, "A stronger hard
// level").
type KeyScorer interface {
	KeyPoints(k uint64) int
}

// Sampler is implemented by games whose positions have very many legal
// moves (Glorieta's thousands of stone pairs). RandomMove draws one move
// uniformly from the distinct legal moves without listing them, as
// FastPlayer.PlayRandom would play it, and says how many distinct legal
// moves there are; it does not change the position. ok is false when the
// game is over. A search expands a node by sampling the few moves it will
// try instead of listing thousands it never will.
//
// Buys: a Glorieta search about five times as fast, TilingKing's 4.1-5.3
// times (benchmarks.md, "TilingKing's search without lists").
type Sampler interface {
	RandomMove(r *Rand) (m Move, legal int, ok bool)
}

// Finisher is implemented by games whose wins come suddenly, in the middle
// of play (a loop closed), and that can find such a win faster than by
// trying every legal move. WinningMove returns a move of the seat to move
// that ends the game at once with that seat the sole winner, if there is
// one, without changing the position. A search uses it to see an
// opponent's win one move ahead, which sampling thousands of replies
// misses; it is a fact of the rules, like Legal, and holds no strategy.
//
// Buys: strength, at a cost in speed: without it hard Glorieta let the
// opponent close a loop at once (ai.md, "Wins one move ahead"); about 3
// µs a call against Legal's thousands of Applies.
type Finisher interface {
	WinningMove() (Move, bool)
}

// Ender is implemented by games that can say why a finished game ended,
// as one short stable word or phrase per end condition ("board full",
// "all passed", "blocked", "resignation"), for the designers' statistics;
// "" while the game goes on.
//
// Buys: the lab's end reasons (lab.Result.EndReason), which no other
// method tells.
type Ender interface {
	EndReason() string
}
