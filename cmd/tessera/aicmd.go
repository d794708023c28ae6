package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"time"

	"tessera/ai"
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
	gf := addGameFlags(fs).withSeed(fs, "the game's random seed").withDeck(fs)
	level := fs.String("level", "normal", "easy, normal or hard")
	aiSeed := fs.Uint64("ai-seed", 1, "the AI's seed: the same seed, level and position give the same move")
	think := fs.Duration("think", ai.DefaultThink, "the hard level's time cap (ai.think); easy and normal get a fifth and a half of it")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: tessera ai --game ID [--players N] [--seed S] [--option k=v]... [--deck a,b,...] [--level L] [--ai-seed K] [--think D] MOVES_FILE|-\n")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code // 0 for -h, 2 for a mistake
	}
	if fs.NArg() != 1 || *gf.game == "" {
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
	setup, err := gf.setup()
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
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
