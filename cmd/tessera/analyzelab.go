package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"tessera/ai"
	"tessera/lab"
)

// runAnalyzeLab is `tessera analyze --lab`: lab games played by the
// given players, every position analysed as /analyze does (error and
// luck, issue #49), and how the decomposition adds up and how much chance
// each player lost a move, as JSON (lab.DecompositionReport). The AI
// levels' error rates that /analyze's verdict compares a player with
// (ai.LevelErrorRates) come from such runs.
func runAnalyzeLab(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("analyze --lab", stderr)
	fs.Bool("lab", true, "play and analyse lab games instead of a record")
	game := fs.String("game", "", "the game")
	players := fs.Int("players", 2, "players a game")
	games := fs.Int("n", 10, "games")
	seed := fs.Uint64("seed", 1, "the run's seed")
	seats := fs.String("seats", "random", "the players, comma-separated (lab players: easy, normal, hard, random, greedy, mctsN), rotated over the seats")
	iterations := fs.Int("iterations", ai.AnalysisBudget.Iterations, "the analysis's iterations per search")
	workers := fs.Int("workers", 1, "games played at once")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if *game == "" || *games < 1 || *iterations < 1 || fs.NArg() != 0 {
		fmt.Fprintln(stderr, "usage: tessera analyze --lab --game G [--players N] [-n GAMES] [--seed S] [--seats a,b] [--iterations N] [--workers W]")
		return 2
	}
	cfg := lab.DecompositionConfig{Game: *game, Players: *players, Games: *games, Seed: *seed,
		Analysis: ai.AnalysisBudgetOf(*iterations), Workers: *workers}
	for _, s := range strings.Split(*seats, ",") {
		p, err := lab.ParsePlayer(s)
		if err != nil {
			fmt.Fprintln(stderr, "analyze:", err)
			return 2
		}
		cfg.Seats = append(cfg.Seats, p)
	}
	cfg.Progress = func(done int) { fmt.Fprintf(stderr, "\r%d of %d games", done, *games) }
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep, err := lab.Decompositions(ctx, cfg)
	fmt.Fprintln(stderr)
	if err != nil && rep.Games == 0 {
		fmt.Fprintln(stderr, "analyze:", err)
		return 1
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(rep); err != nil {
		fmt.Fprintln(stderr, "analyze:", err)
		return 1
	}
	return 0
}
