package service

// Puzzles: games played alone (Knotwork's easy and hard puzzles). They
// start at once, have no clock, no turn notices and no reminders (there
// is nobody else to wait for), are never open challenges, and may offer
// a hint: one move of a solution that extends the position. What a
// puzzle is (its option, its levels, its hint) and which games have one
// are the games' registrations' (engine.Puzzle, engine.Puzzles); this
// file only answers the commands, and puzzleCommand words /puzzle from
// them, so that a game that adds puzzles needs nothing here.

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"tessera"
	"tessera/engine"
)

// solo reports whether a game is played alone (by its setup: an open
// challenge nobody joined yet has one player too, but is not alone).
func solo(g *tessera.Game) bool { return g.Setup.Players == 1 }

// puzzleOf is the puzzle registration of a game, or nil.
func puzzleOf(gameID string) *engine.Puzzle {
	g, _ := engine.Lookup(gameID)
	return g.Puzzle
}

// PuzzleRequest is /puzzle's: which game's puzzle ("": the one game that
// has puzzles, when there is one) and its level ("": the game's first).
type PuzzleRequest struct {
	Game, Level string
}

// Puzzle starts a puzzle of a game that has them (engine.Puzzles) for
// the caller alone, at once.
func (s *Service) Puzzle(req Request, r PuzzleRequest) (Reply, error) {
	games := engine.Puzzles()
	if len(games) == 0 { // a build without a game that has puzzles
		return Reply{}, errorf(tessera.EINVALID, "There are no puzzles here.")
	}
	names := make([]string, len(games))
	for i, g := range games {
		names[i] = g.ID
	}
	id := strings.ToLower(strings.TrimSpace(r.Game))
	switch g, ok := engine.Lookup(id); {
	case id == "" && len(games) == 1:
		id = games[0].ID
	case id == "":
		return Reply{}, errorf(tessera.EINVALID, "Which game's puzzle? Choose %s.", joinOr(names))
	case !ok || g.Puzzle == nil:
		return Reply{}, errorf(tessera.EINVALID, "%q has no puzzles: choose %s.", clipTo(r.Game, 20), joinOr(names))
	default:
		id = g.ID
	}
	p := puzzleOf(id)
	level := strings.ToLower(strings.TrimSpace(r.Level))
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
	return s.NewOpen(req, NewGameRequest{Game: id, Seats: 1, Options: p.Option + "=" + level})
}

// joinOr is "a", "a or b", "a, b or c".
func joinOr(words []string) string {
	if n := len(words); n > 1 {
		return strings.Join(words[:n-1], ", ") + " or " + words[n-1]
	}
	return strings.Join(words, "")
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

// puzzleCommand is /puzzle, worded from the games that have puzzles
// (engine.Puzzles), so that a game that adds puzzles reaches every
// transport without a change here: its level: choices are their levels,
// and it gets a game: option once two games have puzzles (with one, the
// command names it and its levels' goals).
func puzzleCommand() Command { return puzzleCommandOf(engine.Puzzles()) }

// puzzleCommandOf is /puzzle for these games with puzzles.
func puzzleCommandOf(games []engine.Game) Command {
	c := Command{Name: "puzzle", InServer: true, MakesThread: true, Public: true, Run: runPuzzle}
	var levels []Choice
	seen := map[string]bool{}
	for _, g := range games {
		for _, l := range g.Puzzle.Levels {
			if !seen[l.Name] {
				seen[l.Name] = true
				levels = append(levels, Choice{Name: l.Name, Value: l.Name})
			}
		}
	}
	level := Option{Type: StringOption, Name: "level", Choices: levels,
		Description: "How hard: each game's levels are in /rules; default the game's first"}
	switch len(games) {
	case 0: // a build without a game that has puzzles: Puzzle says so
		c.Description, c.Options = "Play a puzzle alone (no game here has puzzles)", []Option{level}
		return c
	case 1:
		g, p := games[0], games[0].Puzzle
		goals := make([]string, len(p.Levels))
		names := make([]string, len(p.Levels))
		for i, l := range p.Levels {
			goals[i] = fmt.Sprintf("%s (%s)", l.Goal, l.Name)
			names[i] = fmt.Sprintf("%s (%s)", l.Name, l.Goal)
		}
		c.Description = fitDescription(fmt.Sprintf("Play a %s puzzle alone: %s", g.Name, joinOr(goals)),
			fmt.Sprintf("Play a %s puzzle alone (see /rules)", g.Name))
		level.Description = fitDescription(joinOr(names)+"; default "+p.Levels[0].Name, level.Description)
		c.Options = []Option{level}
		return c
	}
	choices := make([]Choice, len(games))
	names := make([]string, len(games))
	for i, g := range games {
		choices[i], names[i] = Choice{Name: g.Name, Value: g.ID}, g.Name
	}
	c.Description = fitDescription("Play a puzzle alone: "+joinOr(names), "Play a puzzle alone (see /rules)")
	c.Options = []Option{
		{Type: StringOption, Name: "game", Description: "Which game's puzzle", Required: true, Choices: choices},
		level,
	}
	return c
}

// fitDescription is text when it fits a command's or an option's
// description on Discord (100 characters), else the shorter words.
func fitDescription(text, shorter string) string {
	if utf8.RuneCountInString(text) <= maxDescription {
		return text
	}
	return clipTo(shorter, maxDescription)
}

// maxDescription is the longest description Discord takes.
const maxDescription = 100
