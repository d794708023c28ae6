package main

import (
	"flag"
	"strings"

	"tessera/engine"
)

// gameFlags are the flags that set a game up, shared by the subcommands
// that play or replay one (ai, replay, playouts, lab): --game, --players
// and --option (repeatable), and, for those that take them, --seed and
// --deck.
type gameFlags struct {
	game    *string
	players *int
	options multiFlag
	seed    *uint64 // nil: no --seed
	deck    *string // nil: no --deck
}

// addGameFlags declares --game, --players and --option on fs.
func addGameFlags(fs *flag.FlagSet) *gameFlags {
	g := &gameFlags{
		game:    fs.String("game", "", "game id ("+gameIDs()+")"),
		players: fs.Int("players", 2, "number of players"),
	}
	fs.Var(&g.options, "option", "game option name=value (repeatable)")
	return g
}

// withSeed declares --seed, saying what it seeds.
func (g *gameFlags) withSeed(fs *flag.FlagSet, help string) *gameFlags {
	g.seed = fs.Uint64("seed", 1, help)
	return g
}

// withDeck declares --deck.
func (g *gameFlags) withDeck(fs *flag.FlagSet) *gameFlags {
	g.deck = fs.String("deck", "", "comma-separated pieces put on top of the shuffled supply, first drawn first")
	return g
}

// setup is the game the flags set up; an option that does not parse is
// an error to print, with exit code 2.
func (g *gameFlags) setup() (engine.Setup, error) {
	options, err := engine.ParseOptions(g.options)
	if err != nil {
		return engine.Setup{}, err
	}
	s := engine.Setup{Game: *g.game, Players: *g.players, Options: options}
	if g.seed != nil {
		s.Seed = *g.seed
	}
	if g.deck != nil {
		for _, d := range strings.Split(*g.deck, ",") {
			if d = strings.TrimSpace(d); d != "" {
				s.Deck = append(s.Deck, d)
			}
		}
	}
	return s, nil
}
