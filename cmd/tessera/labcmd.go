package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"tessera/engine"
	"tessera/lab"
)

// runLab is `tessera lab`: many games between AI levels and baselines,
// with each player's results and their 95% interval.
func runLab(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("lab", flag.ContinueOnError)
	fs.SetOutput(stderr)
	game := fs.String("game", "", "game id ("+gameIDs()+")")
	players := fs.Int("players", 2, "number of players")
	games := fs.Int("n", 100, "number of games (a multiple of the players, so each plays each seat equally often)")
	seats := fs.String("seats", "", "one player per seat, comma-separated: easy, normal, hard, mctsN (N iterations), random, greedy")
	seed := fs.Uint64("seed", 1, "the run's seed: the same seed gives the same games")
	asJSON := fs.Bool("json", false, "print the report, with every game's record, as JSON")
	workers := fs.Int("workers", 0, "games played at once (default: one per CPU)")
	think := fs.Duration("think", 0, "cap each AI move's search at this long (default none: the full budget, deterministic)")
	var opts multiFlag
	fs.Var(&opts, "option", "game option name=value (repeatable)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: tessera lab --game ID --players N -n GAMES --seats hard,greedy[,...] [--option k=v]... [--seed S] [--json] [--workers W] [--think D]\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 0 || *game == "" || *seats == "" {
		fs.Usage()
		return 2
	}
	options, err := engine.ParseOptions(opts)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	cfg := lab.Config{Game: *game, Players: *players, Options: options, Games: *games, Seed: *seed, Workers: *workers, Think: *think}
	for _, s := range strings.Split(*seats, ",") {
		cfg.Seats = append(cfg.Seats, strings.TrimSpace(s))
	}
	if *players > 0 && *games%*players != 0 {
		fmt.Fprintf(stderr, "note: %d games is not a multiple of %d players: the seats are not played equally often\n", *games, *players)
	}
	start := time.Now()
	rep, err := lab.Run(context.Background(), cfg)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if *asJSON {
		if err := json.NewEncoder(stdout).Encode(rep); err != nil {
			fmt.Fprintln(stderr, err)
			return 2
		}
		return 0
	}
	printLab(stdout, rep, time.Since(start))
	return 0
}

func printLab(w io.Writer, rep lab.Report, took time.Duration) {
	cfg := rep.Config
	fmt.Fprintf(w, "%s, %d players, %d games, seed %d", cfg.Game, cfg.Players, cfg.Games, cfg.Seed)
	for k, v := range cfg.Options {
		fmt.Fprintf(w, ", %s=%s", k, v)
	}
	if cfg.Think > 0 {
		fmt.Fprintf(w, ", think %s (%d moves cut short)", cfg.Think, rep.Capped)
	}
	fmt.Fprintf(w, ", %s\n", took.Round(time.Second))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "\tgames\twins\tdraws\tlosses\twin rate\t95% interval\t")
	for _, s := range append(rep.Players, rep.Seats...) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%.3f\t[%.3f, %.3f]\t\n", s.Name, s.Games, s.Wins, s.Draws, s.Losses, s.Rate, s.Low, s.High)
	}
	tw.Flush()
	fmt.Fprintln(w, "(win rate: a win shared by k seats counts 1/k; the seat rows count whoever sat there)")
}
