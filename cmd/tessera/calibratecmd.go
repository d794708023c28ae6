package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"tessera/ai"
	"tessera/lab"
	"tessera/render"
	"tessera/service"
)

// runCalibrate is `tessera calibrate`: self-play games of one game, every
// position judged as /analyze judges it, and how honest the chances were
// (a reliability diagram in bins of 10%, the Brier score, where games
// were decided), as JSON; --png draws the diagram.
func runCalibrate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("calibrate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	gf := addGameFlags(fs).withSeed(fs, "the run's seed: game k is dealt from a seed derived from it")
	n := fs.Int("n", 300, "self-play games")
	iterations := fs.Int("iterations", service.DefaultAnalysisIterations, "the analysis's iterations per position (ai.analysis_iterations)")
	self := fs.String("self", "", "who plays: easy, normal, hard or mctsN for a separate search choosing every move, without its time cap (default: the analysis's own preferred move)")
	workers := fs.Int("workers", 1, "games played at once (the result does not depend on it)")
	pngPath := fs.String("png", "", "write the reliability diagram to this PNG file")
	merge := fs.Bool("merge", false, "merge the JSON reports given as arguments (runs of one game with different seeds) instead of playing")
	fit := fs.Bool("fit", false, "with --merge: fit a logistic map of the chances on the odd-numbered reports, check it on the even-numbered ones, and print the merged report mapped (--png draws it)")
	seat := fs.Bool("seat", false, "with --fit on 2-player reports: fit the second seat's term S too (a balance between the seats the search does not see)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: tessera calibrate --game ID [--players N] [--option k=v]... [-n GAMES] [--seed S] [--iterations N] [--self LEVEL] [--workers W] [--png FILE]\n       tessera calibrate --merge [--fit [--seat]] [--png FILE] REPORT.json...\n")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if *merge {
		return mergeCalibrations(fs.Args(), *pngPath, *fit, *seat, stdout, stderr)
	}
	if fs.NArg() != 0 || *gf.game == "" || *n < 1 || *iterations < 1 || *workers < 1 {
		fs.Usage()
		return 2
	}
	setup, err := gf.setup()
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	cfg := lab.CalibrationConfig{Game: setup.Game, Players: setup.Players, Options: setup.Options, Games: *n, Seed: setup.Seed,
		Analysis: ai.AnalysisBudgetOf(*iterations), Workers: *workers,
		Progress: func(done int) { fmt.Fprintf(stderr, "\r%d of %d games", done, *n) }}
	if *self != "" {
		b, err := selfBudget(*self)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 2
		}
		cfg.Self = b
	}
	c, err := lab.Calibrate(context.Background(), cfg)
	fmt.Fprintln(stderr)
	if err != nil {
		fmt.Fprintln(stderr, "calibrate:", err)
		return 1
	}
	return printCalibration(c, *pngPath, stdout, stderr)
}

// printCalibration prints a report as JSON, and draws its diagram when
// pngPath is set.
func printCalibration(c lab.Calibration, pngPath string, stdout, stderr io.Writer) int {
	c = c.Round()
	if pngPath != "" {
		data, err := render.ChartPNG(reliabilityChart(c))
		if err == nil {
			err = os.WriteFile(pngPath, data, 0o644)
		}
		if err != nil {
			fmt.Fprintln(stderr, "calibrate:", err)
			return 1
		}
	}
	b, _ := json.Marshal(c)
	fmt.Fprintln(stdout, string(b))
	return 0
}

// mergeCalibrations is --merge: the reports in files as one; with fit,
// a map fitted on half of them and checked on the other half, and the
// report mapped.
func mergeCalibrations(files []string, pngPath string, fit, seat bool, stdout, stderr io.Writer) int {
	if len(files) == 0 {
		fmt.Fprintln(stderr, "calibrate --merge: give the reports to merge")
		return 2
	}
	var cs []lab.Calibration
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			fmt.Fprintln(stderr, "calibrate:", err)
			return 1
		}
		var c lab.Calibration
		if err := json.Unmarshal(b, &c); err != nil {
			fmt.Fprintf(stderr, "calibrate: %s: not a report: %v\n", f, err)
			return 1
		}
		cs = append(cs, c)
	}
	c, err := lab.MergeCalibrations(cs)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if !fit {
		return printCalibration(c, pngPath, stdout, stderr)
	}
	var fitOn, heldOut [][3]float64
	for i, r := range cs {
		if i%2 == 0 {
			fitOn = append(fitOn, r.Points...)
		} else {
			heldOut = append(heldOut, r.Points...)
		}
	}
	seats := 0 // no second seat's term unless asked
	if seat {
		seats = c.Players
	}
	m := lab.FitLogisticSeats(fitOn, c.Movers, seats)
	check := struct {
		Map         lab.Logistic `json:"map"`
		FitPoints   int          `json:"fit_points"`
		HeldOut     int          `json:"held_out_points"`
		BrierRaw    float64      `json:"held_out_brier_raw"`
		BrierMapped float64      `json:"held_out_brier_mapped"`
		BrierHalf   float64      `json:"held_out_brier_one_half"` // always 1/2: the base of 2-player games
	}{Map: m, FitPoints: len(fitOn), HeldOut: len(heldOut), BrierRaw: lab.Logistic{A: 1}.BrierSeats(heldOut, c.Players), BrierMapped: m.BrierSeats(heldOut, c.Players),
		BrierHalf: lab.Logistic{}.BrierSeats(heldOut, c.Players)}
	b, _ := json.Marshal(check)
	fmt.Fprintln(stdout, string(b))
	return printCalibration(c.Mapped(m), pngPath, stdout, stderr)
}

// selfBudget reads --self: a level's budget or mctsN's, on two trees,
// without a time cap (so the run is deterministic).
func selfBudget(s string) (ai.Budget, error) {
	if rest, ok := strings.CutPrefix(strings.ToLower(s), "mcts"); ok {
		var k int
		if _, err := fmt.Sscan(rest, &k); err == nil && k > 0 {
			return ai.Budget{Iterations: k, Workers: 2}, nil
		}
	}
	l, err := ai.ParseLevel(s)
	if err != nil {
		return ai.Budget{}, fmt.Errorf("--self %q: give easy, normal, hard or mctsN", s)
	}
	b := l.Budget(0)
	b.Think = 0
	return b, nil
}

// reliabilityChart is the diagram: for each bin of chances given, the
// share of wins that followed, beside the chance itself (a calibrated
// estimate's two lines coincide).
func reliabilityChart(c lab.Calibration) render.Chart {
	ch := render.Chart{Title: fmt.Sprintf("%s, %d players: %d games, Brier %.3f (1/n: %.3f)", c.Game, c.Players, c.Games, c.Brier, c.BrierBase),
		XLabel: "chance given, %", YLabel: "share won", Lines: true, YMax: 1, Guide: math.NaN()}
	given := render.Series{Name: "chance given"}
	won := render.Series{Name: "share won"}
	for _, b := range c.Bins {
		ch.Labels = append(ch.Labels, fmt.Sprintf("%.0f-%.0f", 100*b.Low, 100*b.High))
		if b.Count == 0 {
			given.Values = append(given.Values, math.NaN())
			won.Values = append(won.Values, math.NaN())
			continue
		}
		given.Values = append(given.Values, b.Mean)
		won.Values = append(won.Values, b.Won)
	}
	ch.Series = []render.Series{given, won}
	return ch
}
