package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"tessera/engine"
	"tessera/lab"
	"tessera/render"
)

// runLab is `tessera lab`: many games between AI levels and baselines,
// with each player's results and their 95% interval.
func runLab(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "merge" {
		return runLabMerge(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "pair" {
		return runLabPair(args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("lab", flag.ContinueOnError)
	fs.SetOutput(stderr)
	gf := addGameFlags(fs).withSeed(fs, "the run's seed: the same seed gives the same games")
	games := fs.Int("n", 100, "number of games (a multiple of the players, so each plays each seat equally often)")
	seats := fs.String("seats", "", "one player per seat, comma-separated: easy, normal, hard, mctsN (N iterations), random, greedy")
	first := fs.Int("first", 0, "play games `K` onwards of the seed (from 0): --first 100 continues a 100-game run, to be joined to it with tessera lab merge")
	asJSON := fs.Bool("json", false, "print the report, with every game's record, as JSON (with --compare, a second line for the second option set)")
	workers := fs.Int("workers", 0, "games played at once (default: one per CPU)")
	think := fs.Duration("think", 0, "cap each AI move's search at this long (default none: the full budget, deterministic)")
	out := fs.String("out", "", "write report.md, report.json and PNG pictures into this directory")
	var compare multiFlag
	fs.Var(&compare, "compare", "also play the same seeds with this option changed, name=value (repeatable), and report both and their difference")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: tessera lab --game ID --players N -n GAMES --seats hard,greedy[,...] [--option k=v]... [--seed S] [--first K] [--compare k=v]... [--json] [--out DIR] [--workers W] [--think D]\n       tessera lab merge [--out DIR] FILE...   (join --json outputs of runs of different games)\n       tessera lab pair [--json] A B   (two runs of the same deals with other players or options, game by game)\n")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code // 0 for -h, 2 for a mistake
	}
	if fs.NArg() != 0 || *gf.game == "" || *seats == "" {
		fs.Usage()
		return 2
	}
	setup, err := gf.setup()
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	changes, err := engine.ParseOptions(compare)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	options, players := setup.Options, setup.Players
	cfg := lab.Config{Game: setup.Game, Players: players, Options: options, Games: *games, Seed: setup.Seed, First: *first, Workers: *workers, Think: *think}
	for _, s := range strings.Split(*seats, ",") {
		cfg.Seats = append(cfg.Seats, strings.TrimSpace(s))
	}
	// Ctrl-C (or a SIGTERM, as from timeout or a batch system) stops the
	// games and still reports those that finished.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	runs := 1
	var cfgB lab.Config
	if len(compare) > 0 {
		runs = 2
		cfgB = cfg
		cfgB.Options = maps.Clone(options)
		if cfgB.Options == nil {
			cfgB.Options = map[string]string{}
		}
		maps.Copy(cfgB.Options, changes)
	}
	// Everything that can be wrong is said now, not after the first
	// option set's hour of games: the second set's options and --out.
	for _, c := range []lab.Config{cfg, cfgB}[:runs] {
		if err := c.Check(); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
	}
	if *out != "" {
		if err := checkWritableDir(*out); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
	}
	if *games%players != 0 {
		fmt.Fprintf(stderr, "note: %d games is not a multiple of %d players: the seats are not played equally often\n", *games, players)
	}
	start := time.Now()
	prog := newProgress(stderr, runs*cfg.Games, start)
	cfg.Progress = prog.update(0)
	rep, err := lab.Run(ctx, cfg)
	stopped := errors.Is(err, context.Canceled)
	if err != nil && !stopped {
		fmt.Fprintln(stderr, err)
		return 1
	}
	var repB *lab.Report
	if runs == 2 && !stopped {
		cfgB.Progress = prog.update(cfg.Games)
		b, err := lab.Run(ctx, cfgB)
		stopped = errors.Is(err, context.Canceled)
		if err != nil && !stopped {
			fmt.Fprintln(stderr, err)
			return 1
		}
		repB = &b
	}
	prog.finish()
	if stopped {
		played := len(rep.Records)
		if repB != nil {
			played += len(repB.Records)
		}
		fmt.Fprintf(stderr, "stopped: %d of %d games played; reporting those\n", played, runs*cfg.Games)
		if runs == 2 && repB == nil {
			fmt.Fprintln(stderr, "the comparison run had not started: the report has the first option set only")
		}
	}
	an := lab.Analyze(rep, repB)
	if *out != "" {
		if err := writeLabReport(*out, an, stderr); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
	}
	reps := []lab.Report{rep}
	if repB != nil {
		reps = append(reps, *repB)
	}
	for _, r := range reps {
		if !*asJSON {
			printLab(stdout, r, time.Since(start))
			continue
		}
		// One JSON document per option set, a line each: with --compare
		// the second is the comparison's, its options in its config.
		if err := json.NewEncoder(stdout).Encode(r); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
	}
	if repB != nil && !*asJSON {
		printComparison(stdout, an)
	}
	if stopped {
		return 130
	}
	return 0
}

// printComparison is what --compare promises: each measure under both
// option sets and their difference, as report.md has them.
func printComparison(w io.Writer, an lab.Analysis) {
	fmt.Fprintf(w, "B − A, B = %s against A = %s, over the games both played, paired by seed and seating (95%% intervals; one that excludes 0 is a real effect):\n",
		lab.OptionText(an.Compare), lab.OptionText(an.Options))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "measure\tA\tB\tB − A\t")
	fmt.Fprintf(tw, "balance\t%.1f%%\t%.1f%%\t\t\n", 100*an.Balance, 100**an.BalanceB)
	for _, m := range an.Measures {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t\n", m.Name, lab.IntervalText(m.Stat, m.Rate), lab.IntervalText(*m.Other, m.Rate), m.DiffText())
	}
	tw.Flush()
}

func printLab(w io.Writer, rep lab.Report, took time.Duration) {
	cfg := rep.Config
	fmt.Fprintf(w, "%s, %d players, %d games, seed %d", cfg.Game, cfg.Players, len(rep.Records), cfg.Seed)
	fmt.Fprintf(w, ", %s", lab.OptionText(cfg.Options))
	if cfg.Think > 0 {
		fmt.Fprintf(w, ", think %s (%d moves cut short)", cfg.Think, rep.Capped)
	}
	if took > 0 { // a merge reports no time
		fmt.Fprintf(w, ", %s", took.Round(time.Second))
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "\tgames\twins\tdraws\tlosses\twin rate\t95% interval\t")
	for _, s := range append(rep.Players, rep.Seats...) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%.3f\t[%.3f, %.3f]\t\n", s.Name, s.Games, s.Wins, s.Draws, s.Losses, s.Rate, s.Low, s.High)
	}
	tw.Flush()
	fmt.Fprintln(w, "(win rate: a win shared by k seats counts 1/k; the seat rows count whoever sat there)")
	if d := lab.Analyze(rep, nil).Deals; d != nil {
		var parts []string
		for _, p := range d.ByPlayer {
			parts = append(parts, fmt.Sprintf("%s %.3f [%.3f, %.3f]", p.Name, p.Rate, p.Low, p.High))
		}
		parts = append(parts, fmt.Sprintf("the seat %.3f [%.3f, %.3f] (by chance %.3f)", d.BySeat.Rate, d.BySeat.Low, d.BySeat.High, d.Chance.BySeat),
			fmt.Sprintf("mixed %.3f", d.Mixed.Rate))
		fmt.Fprintf(w, "%d deals, each played in every seating, decided by: %s\n", d.Deals, strings.Join(parts, ", "))
	}
}

// checkWritableDir makes dir if it is missing and checks that a file can
// be written in it.
func checkWritableDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	f, err := os.CreateTemp(dir, ".lab-probe-*")
	if err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	f.Close()
	return os.Remove(f.Name())
}

// writeLabReport writes the designers' report into dir: report.md,
// report.json and the pictures, and says where on stderr. Nothing in them
// depends on the clock.
func writeLabReport(dir string, an lab.Analysis, stderr io.Writer) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	charts := labCharts(an)
	var names []string
	for _, c := range charts {
		png, err := render.ChartPNG(c.chart)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, c.file), png, 0o644); err != nil {
			return err
		}
		names = append(names, c.file)
	}
	if err := os.WriteFile(filepath.Join(dir, "report.json"), an.JSON(), 0o644); err != nil {
		return err
	}
	md := filepath.Join(dir, "report.md")
	if err := os.WriteFile(md, an.Markdown(names), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "wrote %s\n", md)
	return nil
}

type namedChart struct {
	file  string
	chart render.Chart
}

// labCharts are the report's pictures: win rate per seat with intervals,
// the length and margin histograms and the branching factor by turn, each
// with both variants when the analysis compares two.
func labCharts(an lab.Analysis) []namedChart {
	names := []string{lab.OptionText(an.Options)}
	if an.Compare != nil {
		names = append(names, lab.OptionText(an.Compare))
	}
	title := fmt.Sprintf("%s, %d players", an.Game, an.Players)
	seats := render.Chart{Title: title + ": win rate by seat", XLabel: "seat (95% intervals; dashed: a fair share)", YLabel: "win rate",
		YMax: 1, Guide: 1 / float64(an.Players)}
	for s := range an.Players {
		seats.Labels = append(seats.Labels, fmt.Sprint(s+1))
	}
	for v, name := range names {
		sr := render.Series{Name: name}
		for _, m := range an.Measures[:an.Players] {
			e := m.Stat
			if v == 1 {
				e = *m.Other
			}
			sr.Values, sr.Low, sr.High = append(sr.Values, e.Value), append(sr.Low, e.Low), append(sr.High, e.High)
		}
		seats.Series = append(seats.Series, sr)
	}
	hist := func(what, unit string, a lab.Histogram, b *lab.Histogram) render.Chart {
		c := render.Chart{Title: title + ": " + what, XLabel: unit, YLabel: "games", Guide: math.NaN()}
		// Each bar is labelled with its bin's lowest value: ranges overlap
		// one another on the axis.
		for i := range a.Counts {
			c.Labels = append(c.Labels, fmt.Sprint(a.Start+i*a.Width))
		}
		if a.Width > 1 {
			c.XLabel = fmt.Sprintf("%s (bins of %d, labelled by their lowest value)", unit, a.Width)
		}
		for v, h := range []*lab.Histogram{&a, b}[:len(names)] {
			sr := render.Series{Name: names[v]}
			for _, n := range h.Counts {
				sr.Values = append(sr.Values, float64(n))
			}
			c.Series = append(c.Series, sr)
		}
		return c
	}
	branch := render.Chart{Title: title + ": branching factor", XLabel: "turn", YLabel: "mean legal moves", Lines: true, Guide: math.NaN()}
	for v, bs := range [][]lab.Branch{an.Branching, an.BranchingB}[:len(names)] {
		sr := render.Series{Name: names[v]}
		for _, b := range bs {
			sr.Values = append(sr.Values, b.Mean)
		}
		branch.Series = append(branch.Series, sr)
	}
	for t := range max(len(an.Branching), len(an.BranchingB)) {
		branch.Labels = append(branch.Labels, fmt.Sprint(t+1))
	}
	for i := range branch.Series {
		for len(branch.Series[i].Values) < len(branch.Labels) {
			branch.Series[i].Values = append(branch.Series[i].Values, math.NaN())
		}
	}
	return []namedChart{
		{"seats.png", seats},
		{"length.png", hist("length", "moves in the game", an.Lengths, an.LengthsB)},
		{"branching.png", branch},
		{"margin.png", hist("score margin", "top score minus the next", an.Margins, an.MarginsB)},
	}
}
