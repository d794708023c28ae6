package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"tessera/ai"
	"tessera/engine"
)

// aiResult is the JSON printed by `tessera ai`.
type aiResult struct {
	Move     string `json:"move"`
	Playouts int    `json:"playouts"`
	MS       int64  `json:"ms"`
}

// runAI is `tessera ai`: replay a moves file like `tessera replay` and ask
// the AI for the move of the seat to move.
func runAI(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ai", flag.ContinueOnError)
	fs.SetOutput(stderr)
	game := fs.String("game", "", "game id ("+gameIDs()+")")
	players := fs.Int("players", 2, "number of players")
	seed := fs.Uint64("seed", 1, "the game's random seed")
	deck := fs.String("deck", "", "comma-separated pieces put on top of the shuffled supply, first drawn first")
	level := fs.String("level", "normal", "easy, normal or hard")
	aiSeed := fs.Uint64("ai-seed", 1, "the AI's seed: the same seed, level and position give the same move")
	think := fs.Duration("think", ai.DefaultThink, "the hard level's time cap (ai.think); easy and normal get a fifth and a half of it")
	var opts multiFlag
	fs.Var(&opts, "option", "game option name=value (repeatable)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: tessera ai --game ID [--players N] [--seed S] [--option k=v]... [--deck a,b,...] [--level L] [--ai-seed K] [--think D] MOVES_FILE|-\n")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code // 0 for -h, 2 for a mistake
	}
	if fs.NArg() != 1 || *game == "" {
		fs.Usage()
		return 2
	}
	if *think <= 0 {
		// The AI would quietly take the default instead: say so.
		fmt.Fprintf(stderr, "--think %v: write a time above zero, like 5s or 500ms\n", *think)
		return 2
	}
	lvl, err := ai.ParseLevel(*level)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	options, err := engine.ParseOptions(opts)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	setup := engine.Setup{Game: *game, Players: *players, Seed: *seed, Options: options}
	for _, d := range strings.Split(*deck, ",") {
		if d = strings.TrimSpace(d); d != "" {
			setup.Deck = append(setup.Deck, d)
		}
	}
	st, _, code := replayFile(setup, fs.Arg(0), stdin, stderr)
	if code != 0 {
		return code
	}
	if st.Over() {
		fmt.Fprintln(stderr, "the game is over: there is no move to choose")
		return 1
	}
	start := time.Now()
	m, stats, err := ai.Search(context.Background(), st, st.ToMove(), lvl.Budget(*think), *aiSeed)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	res := aiResult{Move: m.String(), Playouts: stats.Playouts, MS: time.Since(start).Milliseconds()}
	if err := json.NewEncoder(stdout).Encode(res); err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	return 0
}
