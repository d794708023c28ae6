package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"runtime"
	"time"

	"tessera/engine"
)

// playoutsResult is the JSON printed by `tessera playouts`.
type playoutsResult struct {
	Game              string  `json:"game"`
	Players           int     `json:"players"`
	PlayoutsPerSecond float64 `json:"playouts_per_second"`
	MovesPerPlayout   float64 `json:"moves_per_playout"`
}

// runPlayouts is `tessera playouts`: how fast the engine plays uniformly
// random games from the start, on one core. It is the number the AI's
// strength rests on (docs/ai.md).
func runPlayouts(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("playouts", flag.ContinueOnError)
	fs.SetOutput(stderr)
	gf := addGameFlags(fs)
	seconds := fs.Float64("seconds", 5, "how long to play")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: tessera playouts --game ID [--players N] [--option k=v]... [--seconds S]\n")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code // 0 for -h, 2 for a mistake
	}
	if fs.NArg() != 0 || *gf.game == "" || !(*seconds > 0) {
		fs.Usage()
		return 2
	}
	setup, err := gf.setup()
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	// The game's own refusal first (Closure with 1 player: "for 2 to 3
	// players"); then the puzzles the game does allow.
	setup.Seed = 1
	if _, err := engine.New(setup); err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	if setup.Players < 2 {
		// A puzzle's random player can undo for ever: no playout ends.
		fmt.Fprintln(stderr, "playouts are games of 2 or more players; a 1-player game is a puzzle, which random play never finishes")
		return 2
	}
	// One core: the rate is per core, whatever the machine has.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	limit := time.Duration(*seconds * float64(time.Second))
	r := engine.NewRand(1)
	playouts, moves := 0, 0
	start := time.Now()
	for playouts == 0 || time.Since(start) < limit {
		setup.Seed = uint64(playouts + 1) // a new deal each game
		st, err := engine.New(setup)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 2
		}
		n, err := randomGame(st, &r)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		playouts++
		moves += n
	}
	elapsed := time.Since(start).Seconds()
	res := playoutsResult{Game: setup.Game, Players: setup.Players,
		PlayoutsPerSecond: math.Round(float64(playouts)/elapsed*10) / 10,
		MovesPerPlayout:   math.Round(float64(moves)/float64(playouts)*10) / 10}
	if err := json.NewEncoder(stdout).Encode(res); err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	return 0
}

// randomGame plays st to its end with uniformly random moves, through
// engine.FastPlayer when the game has it, and returns the moves played.
func randomGame(st engine.State, r *engine.Rand) (int, error) {
	const guard = 1000000
	n := 0
	if fp, ok := st.(engine.FastPlayer); ok {
		for ; !st.Over(); n++ {
			if n == guard {
				return n, fmt.Errorf("a random game did not end after %d moves", n)
			}
			fp.PlayRandom(r)
		}
		return n, nil
	}
	for ; !st.Over(); n++ {
		legal := st.Legal()
		if len(legal) == 0 || n == guard {
			return n, fmt.Errorf("a random game stopped after %d moves, not over, with %d legal moves", n, len(legal))
		}
		if _, err := st.Apply(legal[r.IntN(len(legal))]); err != nil {
			return n, err
		}
	}
	return n, nil
}
