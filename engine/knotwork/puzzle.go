package knotwork

import (
	"fmt"
	"strings"

	"tessera/engine"
)

// Browne's two puzzles, played alone: the crossing starts on e5 as in a
// game and the other 24 tiles are the player's; tiles are laid by the
// usual rules (cover an open mark, match every shared edge, keep to the
// 5x5 window), and "undo" takes back the last one. Easy: all 25 tiles on
// the board (which the window rule makes a closed 5x5 square). Hard: the
// same, as one single knot.

// puzzle is the puzzles' registration: the option, the levels, the hint.
var puzzle = engine.Puzzle{
	Option: "puzzle",
	Levels: []engine.PuzzleLevel{
		{Name: "easy", Goal: "fit all 25 tiles into 5x5"},
		{Name: "hard", Goal: "one single knot"},
	},
	Hint: func(st engine.State) (engine.Move, bool, bool) { return st.(*State).SearchHint() },
}

// Level is a puzzle's level.
type Level int

// Levels.
const (
	NoPuzzle Level = iota // a two-player game
	Easy
	Hard
)

func (l Level) String() string { return [...]string{"none", "easy", "hard"}[l] }

// puzzleOption reads the puzzle option and checks it against the player
// count: a puzzle is for one player, a game for two.
func puzzleOption(setup engine.Setup) (Level, error) {
	level := NoPuzzle
	switch v := strings.ToLower(strings.TrimSpace(setup.Option("puzzle", ""))); v {
	case "", "off", "no", "none":
	case "easy":
		level = Easy
	case "hard":
		level = Hard
	default:
		return 0, engine.Illegalf("puzzle=%s: the puzzles are puzzle=easy (fit all 25 tiles into 5x5) and puzzle=hard (one single knot)", engine.Shown(v))
	}
	switch {
	case level != NoPuzzle && setup.Players != 1:
		return 0, engine.Illegalf("the Knotwork puzzles are for one player: start puzzle=%s with no opponent", level)
	case level == NoPuzzle && setup.Players == 1:
		return 0, engine.Illegalf("Knotwork alone is a puzzle: add puzzle=easy or puzzle=hard, or invite an opponent")
	case level == NoPuzzle && setup.Players != 2:
		return 0, engine.Illegalf("Knotwork is for exactly 2 players (or 1, with puzzle=easy or puzzle=hard)")
	}
	return level, nil
}

// canUndo reports whether "undo" is a legal move: in a puzzle that is not
// solved, with a tile besides the crossing on the board.
func (st *State) canUndo() bool { return st.Puzzle != NoPuzzle && !st.Done && st.Placed > 1 }

func (st *State) parseUndo() (engine.Move, error) {
	switch {
	case st.Puzzle == NoPuzzle:
		return nil, engine.Illegalf("undo is only for the puzzles: in a game a laid tile stays")
	case !st.canUndo():
		return nil, engine.Illegalf("there is nothing to undo: only the crossing is on the board")
	}
	return Move{Undo: true}, nil
}

// undo takes back the last tile and returns its cell.
func (st *State) undo() int {
	st.Placed--
	c := int(st.History[st.Placed])
	st.Supply[st.Owner[c]][KindOf[st.Mask[c]]]++
	st.Mask[c], st.Owner[c] = 0, 0
	st.History[st.Placed] = 0
	st.Last = -1
	if st.Placed > 1 {
		st.Last = int(st.History[st.Placed-1])
	}
	st.fx.sync(st)
	return c
}

// solved reports whether the puzzle's rule holds: every tile laid (the
// window then holds a closed 5x5 square), and for the hard puzzle one
// knot.
func (st *State) solved() bool {
	return st.Placed == Window*Window && (st.Puzzle == Easy || st.fx.nknots == 1)
}

// unsolved says in a few words what is wrong with a puzzle that can go no
// further ("3 knots, not 1"), or "".
func (st *State) unsolved(f *derived) string {
	switch {
	case st.Done:
		return ""
	case st.Placed == Window*Window:
		return fmt.Sprintf("%d knots, not 1", f.nknots)
	case f.count(0) == 0:
		return "no tile fits"
	}
	return ""
}

// unsolvedWords says the same in a sentence, for the move's post.
func (st *State) unsolvedWords(f *derived) string {
	switch why := st.unsolved(f); {
	case why == "":
		return ""
	case st.Placed == Window*Window:
		return fmt.Sprintf("Not solved: the 25 tiles form %d knots, not 1; undo and try again", f.nknots)
	default:
		return "Not solved: no tile fits anywhere; undo and try again"
	}
}

// applyPuzzle lays a tile in a puzzle, with its words.
func (st *State) applyPuzzle(m Move) engine.Outcome {
	o := engine.Outcome{Seat: 0, Move: m.String()}
	st.ensure()
	knots := st.fx.nknots
	st.place(m)
	if st.fx.nknots > knots {
		for _, kn := range st.Knots() {
			if !contains(kn.Cells, m.Cell) {
				continue
			}
			text := fmt.Sprintf("closes a knot through %d tiles", len(kn.Cells))
			if st.Puzzle == Hard && len(kn.Cells) < Window*Window {
				text += " (the hard puzzle wants one knot through all 25: undo)"
			}
			o.Events = append(o.Events, engine.Event{Seat: 0, Text: text})
		}
	}
	st.turnOver()
	if st.Done {
		o.Over = true
		o.Events = append(o.Events, engine.Event{Seat: engine.NoSeat, Text: "Solved! " + st.puzzleGoal()})
	} else if words := st.unsolvedWords(&st.fx); words != "" {
		o.Events = append(o.Events, engine.Event{Seat: engine.NoSeat, Text: words})
	}
	return o
}

// puzzleGoal is the puzzle's rule in words.
func (st *State) puzzleGoal() string {
	if st.Puzzle == Hard {
		return "All 25 tiles form one single knot."
	}
	return "All 25 tiles fit into the 5x5 window."
}

// puzzleView is the view of a puzzle.
func (st *State) puzzleView() engine.View {
	v := engine.View{Seats: st.SeatViews()}
	f := st.view()
	sv := &v.Seats[0]
	sv.Label = "Puzzle"
	sv.Color = engine.Orange
	sv.InHand = st.tilesLeft(0)
	sv.Hand = st.Hand(0).([]string)
	sv.Info = []string{
		fmt.Sprintf("Tiles laid: %d of 25", st.Placed),
		fmt.Sprintf("Knots closed: %d", f.nknots),
	}
	name := strings.ToUpper(st.Puzzle.String()[:1]) + st.Puzzle.String()[1:] + " puzzle"
	switch why := st.unsolved(f); {
	case st.Done && len(st.Win) == 1:
		v.Status = name + " solved! " + st.puzzleGoal()
	case st.Done:
		v.Status = name + ": given up"
	case why != "":
		v.Status = name + " not solved: " + why + "; undo"
	default:
		v.Status = fmt.Sprintf("%s: %d tiles to lay", name, Window*Window-st.Placed)
	}
	goal := "Easy puzzle: fit all 25 tiles into the 5x5 window"
	if st.Puzzle == Hard {
		goal = "Hard puzzle: form all 25 tiles into one single knot"
	}
	v.Legend = []string{goal, "undo takes back the last tile; a hint shows a tile of a solution"}
	return v
}

// puzzleBanner is the line under a puzzle's board, and its colour.
func (st *State) puzzleBanner() (string, engine.Color) {
	switch why := st.unsolved(st.view()); {
	case st.Done && len(st.Win) == 1:
		return "Solved! " + st.puzzleGoal(), engine.Green
	case why != "":
		return "Not solved: " + why + " (undo)", engine.Red
	}
	return "", engine.Ink
}
