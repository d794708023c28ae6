package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"tessera/lab"
)

// runLabPair is `tessera lab pair A B`: two runs of the same deals and
// seatings with other players or options, compared player by player and
// game by game (lab.Pair).
func runLabPair(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("lab pair", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the measures as JSON")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: tessera lab pair [--json] A B\n  A, B: the output of tessera lab --json for the same game, players and seed (several runs of one line-up in a file, as chunks of --first, are joined first)\n")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code // 0 for -h, 2 for a mistake
	}
	if fs.NArg() != 2 {
		fs.Usage()
		return 2
	}
	var runs [2]lab.Report
	for i, name := range fs.Args() {
		reps, err := readLabJSON(name)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		if runs[i], err = lab.Merge(reps...); err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", name, err)
			return 1
		}
	}
	ms, err := lab.Pair(runs[0], runs[1])
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if *asJSON {
		if err := json.NewEncoder(stdout).Encode(ms); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		return 0
	}
	cfg := runs[0].Config
	n := 0
	if len(ms) > 0 {
		n = ms[0].Diff.N
	}
	fmt.Fprintf(stdout, "%s, %d players, seed %d: B − A over the %d games both played, paired by deal and seating (95%% intervals; one that excludes 0 is a real effect)\n",
		cfg.Game, cfg.Players, cfg.Seed, n)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "player, measure\tA\tB\tB − A\t")
	for _, m := range ms {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t\n", m.Name, lab.IntervalText(m.Stat, m.Rate), lab.IntervalText(*m.Other, m.Rate), m.DiffText())
	}
	tw.Flush()
	return 0
}
