package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"tessera"
	"tessera/picture"
	"tessera/render"
	"tessera/service"
)

// analysisJSON is what `tessera analyze` prints: every move with the
// chances before and after it (seats in order, from the information of
// the seat to move) and the move the AI preferred, then the costliest
// moves, as /analyze names them.
type analysisJSON struct {
	Game       string             `json:"game"`
	Players    int                `json:"players"`
	Iterations int                `json:"iterations"` // search per position
	Seed       uint64             `json:"seed"`
	Moves      []analysedMoveJSON `json:"moves"`
	End        []float64          `json:"end"` // the result: 1 for a sole winner, 1/k shared
	Costliest  []costlyJSON       `json:"costliest"`
	Seconds    float64            `json:"seconds"` // wall-clock time of the analysis
}

type analysedMoveJSON struct {
	N    int    `json:"n"`    // 1-based
	Seat int    `json:"seat"` // 1-based, the player of the entry
	Move string `json:"move"`
	// ToMove is the seat (1-based) whose information judged the position
	// before the move (the entry's own seat, except a resignation out of
	// turn).
	ToMove int       `json:"to_move"`
	Before []float64 `json:"before"`
	// After is the chances after the move as ToMove's search saw it, or
	// absent when it tried the move too little (the next move's Before
	// stands for it then).
	After       []float64 `json:"after,omitempty"`
	Best        string    `json:"best"`
	BestChances []float64 `json:"best_chances"`
}

type costlyJSON struct {
	N      int     `json:"n"`
	Seat   int     `json:"seat"` // 1-based
	Move   string  `json:"move"`
	Before float64 `json:"before"`
	After  float64 `json:"after"`
	Best   string  `json:"best"`
	Kept   float64 `json:"kept"`
}

// runAnalyze is `tessera analyze --record FILE`: the analysis /analyze
// makes, of a record file written by /export, as JSON.
func runAnalyze(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	for _, a := range args {
		if a == "--lab" || a == "-lab" {
			return runAnalyzeLab(args, stdout, stderr)
		}
	}
	fs := flag.NewFlagSet("analyze", flag.ContinueOnError)
	fs.SetOutput(stderr)
	record := fs.String("record", "", "the record file (/export's game-N.json)")
	iterations := fs.Int("iterations", service.DefaultAnalysisIterations, "the search's iterations per position (the setting ai.analysis_iterations)")
	seed := fs.Uint64("seed", 0, "the analysis's seed (default the record's game id, as /analyze)")
	pngPath := fs.String("png", "", "also draw the chart of each seat's chance to this PNG file, as /analyze posts it")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: tessera analyze --record FILE [--iterations N] [--seed S] [--png FILE]\n")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if *record == "" || fs.NArg() != 0 || *iterations < 1 || *iterations > service.MaxAnalysisIterations {
		fs.Usage()
		return 2
	}
	b, err := os.ReadFile(*record)
	if err != nil {
		fmt.Fprintln(stderr, "analyze:", err)
		return 1
	}
	var rec service.Record
	if err := json.Unmarshal(b, &rec); err != nil {
		fmt.Fprintf(stderr, "analyze: %s: not a record file: %v\n", *record, err)
		return 1
	}
	if _, err := rec.Play(); err != nil {
		fmt.Fprintf(stderr, "analyze: %s: %v\n", *record, err)
		return 1
	}
	s := *seed
	if s == 0 {
		s = rec.ID
	}
	var entries []tessera.MoveEntry
	for _, m := range rec.Moves {
		entries = append(entries, tessera.MoveEntry{Seat: m.Seat - 1, Text: m.Move})
	}
	start := time.Now()
	ps, err := service.AnalyzePositions(context.Background(), rec.Setup, entries, *iterations, s, nil, nil)
	if err != nil {
		fmt.Fprintf(stderr, "analyze: %s: %v\n", *record, err)
		return 1
	}
	out := analysisJSON{Game: rec.Setup.Game, Players: rec.Setup.Players, Iterations: *iterations, Seed: s,
		Moves: []analysedMoveJSON{}, Costliest: []costlyJSON{}, Seconds: time.Since(start).Seconds()}
	for i, m := range entries {
		p := ps[i]
		out.Moves = append(out.Moves, analysedMoveJSON{N: i + 1, Seat: m.Seat + 1, Move: m.Text, ToMove: p.Seat + 1,
			Before: p.Win, After: p.PlayedWin, Best: p.Best, BestChances: p.BestWin})
	}
	out.End = ps[len(ps)-1].Win
	for _, c := range service.Costliest(ps, 3) {
		out.Costliest = append(out.Costliest, costlyJSON{N: c.N, Seat: c.Seat + 1, Move: c.Played, Before: c.Before, After: c.After, Best: c.Best, Kept: c.Kept})
	}
	if *pngPath != "" {
		chart := picture.WinChart{Title: fmt.Sprintf("%s · game #%d · chance of winning", rec.Name, rec.ID)}
		for _, c := range service.Costliest(ps, 3) {
			chart.Marks = append(chart.Marks, c.N)
		}
		for seat := range rec.Setup.Players {
			cs := picture.ChartSeat{Name: fmt.Sprintf("seat %d", seat+1)}
			if seat < len(rec.Players) {
				cs.Name = rec.Players[seat].Name
			}
			for _, p := range ps {
				cs.Chance = append(cs.Chance, p.Win[seat])
			}
			chart.Seats = append(chart.Seats, cs)
		}
		data, err := render.WinChartPNG(chart)
		if err == nil {
			err = os.WriteFile(*pngPath, data, 0o644)
		}
		if err != nil {
			fmt.Fprintln(stderr, "analyze:", err)
			return 1
		}
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		fmt.Fprintln(stderr, "analyze:", err)
		return 1
	}
	return 0
}
