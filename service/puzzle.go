package service

// Puzzles: games played alone (Knotwork's easy and hard puzzles). They
// start at once, have no clock, no turn notices and no reminders (there
// is nobody else to wait for), are never open challenges, and may offer
// a hint: one move of a solution that extends the position. What a
// puzzle is (its option, its levels, its hint) is the game's
// registration's (engine.Puzzle); this file only answers the commands.

import (
	"fmt"
	"strings"

	"tessera"
	"tessera/engine"
)

// solo reports whether a game is played alone (by its setup: an open
// challenge nobody joined yet has one player too, but is not alone).
func solo(g *tessera.Game) bool { return g.Setup.Players == 1 }

// puzzleGame is the game the /puzzle command starts.
const puzzleGame = "knotwork"

// puzzleOf is the puzzle registration of a game, or nil.
func puzzleOf(gameID string) *engine.Puzzle {
	g, _ := engine.Lookup(gameID)
	return g.Puzzle
}

// Puzzle starts a Knotwork puzzle (level easy or hard; "" is easy) for
// the caller alone, at once.
func (s *Service) Puzzle(req Request, level string) (Reply, error) {
	p := puzzleOf(puzzleGame)
	if p == nil { // a build without Knotwork
		return Reply{}, errorf(tessera.EINVALID, "There are no puzzles here.")
	}
	level = strings.ToLower(strings.TrimSpace(level))
	if level == "" {
		level = p.Levels[0].Name
	}
	if _, ok := p.Level(level); !ok {
		choices := make([]string, len(p.Levels))
		for i, l := range p.Levels {
			choices[i] = fmt.Sprintf("%s (%s)", l.Name, l.Goal)
		}
		return Reply{}, errorf(tessera.EINVALID, "There is no %q puzzle: choose %s.", clipTo(level, 20), strings.Join(choices, " or "))
	}
	return s.NewOpen(req, NewGameRequest{Game: puzzleGame, Seats: 1, Options: p.Option + "=" + level})
}

// Hint shows the caller, privately, one move of a solution that extends
// the position of their puzzle.
func (s *Service) Hint(req Request, ref string) (Reply, error) {
	g, p, seat, err := s.playable(req, ref, true)
	if err != nil {
		return Reply{}, err
	}
	puzzle := puzzleOf(g.Setup.Game)
	if puzzle == nil {
		return Reply{}, errorf(tessera.EINVALID, "%s has no hints.", gameName(g.Setup.Game))
	}
	if !solo(g) {
		// A hint would play for one side of a game between people.
		return Reply{}, errorf(tessera.EINVALID, "Hints are for puzzles played alone, not for game #%d against others.", g.ID)
	}
	if int(p.state.ToMove()) != seat {
		return Reply{}, errorf(tessera.EINVALID, "Game #%d is not waiting for a move.", g.ID)
	}
	// The search works on a copy: the cached position is shared.
	m, found, exhaustive := puzzle.Hint(p.state.Clone())
	return Reply{Text: hintText(g.ID, m, found, exhaustive), Ephemeral: true}, nil
}

// hintText is a hint's answer: the move, or why there is none.
func hintText(id uint64, m engine.Move, found, exhaustive bool) string {
	switch {
	case found:
		return fmt.Sprintf("Try %s (game #%d).", m, id)
	case !exhaustive:
		return fmt.Sprintf("I could not find a solution in time from this position of game #%d; try undo.", id)
	}
	return fmt.Sprintf("There is no solution from here in game #%d; undo.", id)
}

// soloTurnLine is turnLine for a game played alone: no ping (nobody else
// moves), and a celebration when it is solved.
func (s *Service) soloTurnLine(g *tessera.Game, st engine.State) string {
	if st.Over() {
		if len(st.Winners()) == 1 {
			return fmt.Sprintf("**Solved, well done %s!**", g.Players[0].Name)
		}
		return "**Game over.**"
	}
	line := "Lay the next tile with /move"
	if puzzleOf(g.Setup.Game) != nil {
		line += "; /hint shows one of a solution"
	}
	if m, err := st.Parse("undo"); err == nil && m != nil {
		line += "; `undo` takes back the last"
	}
	return line + "."
}

// againstText is " against Bo and Cy", or "" for a game played alone.
func againstText(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return " against " + joinAnd(names)
}

// vsText is "Knotwork vs Bo", "Knotwork (alone)" for a puzzle, or
// "Closure (nobody joined)" for an open challenge without takers.
func vsText(g *tessera.Game, userID string) string {
	opp := g.Opponents(userID)
	switch {
	case solo(g):
		return gameName(g.Setup.Game) + " (alone)"
	case len(opp) == 0:
		return gameName(g.Setup.Game) + " (nobody joined)"
	}
	return gameName(g.Setup.Game) + " vs " + joinAnd(opp)
}
