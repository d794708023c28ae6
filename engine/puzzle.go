package engine

// Puzzle is how a game is played alone (Knotwork's easy and hard
// puzzles): a one-player game started with one option, whose levels are
// the option's values, and the hint that shows a move of a solution. The
// platform starts puzzles, and answers /hint, from this registration
// alone.
type Puzzle struct {
	// Option is the option whose value is the level ("puzzle").
	Option string
	// Levels in order; the first is the one /puzzle starts by default.
	Levels []PuzzleLevel
	// Hint looks, in a puzzle's position, for a move of a solution that
	// extends it, without changing the position. found is false when it
	// found none; exhaustive then says whether none exists (true) or the
	// search ran out of time (false).
	Hint func(st State) (m Move, found, exhaustive bool)
}

// PuzzleLevel is one level of a puzzle.
type PuzzleLevel struct {
	Name string // the option's value ("easy")
	Goal string // in a few words ("fit all 25 tiles into 5x5")
}

// Level finds a level by its name.
func (p *Puzzle) Level(name string) (PuzzleLevel, bool) {
	for _, l := range p.Levels {
		if l.Name == name {
			return l, true
		}
	}
	return PuzzleLevel{}, false
}

// Puzzles lists the registered games that can be played as puzzles,
// sorted by id.
func Puzzles() []Game {
	var out []Game
	for _, g := range Games() {
		if g.Puzzle != nil {
			out = append(out, g)
		}
	}
	return out
}
