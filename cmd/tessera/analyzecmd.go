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
	"tessera/ai"
	"tessera/engine"
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
	// Parts are the decomposition (issue #49): from a spectator's view
	// (the shared chart: "public"), and each seat's own ("own").
	Parts   *partsJSON `json:"parts,omitempty"`
	Seconds float64    `json:"seconds"` // wall-clock time of the analysis
}

// partsJSON is the analysis split into each move's error and each step's
// luck (ai.Decompose).
type partsJSON struct {
	// Luckless: the game hides and draws nothing; its accounts' noise is
	// what the decisions do not explain.
	Luckless bool `json:"luckless"`
	// View names the view every point of Public is judged from, the same
	// at every position: "spectator" (the board and the scores, no hand),
	// or "board" where nothing is hidden and every player sees it whole.
	View string `json:"view"`
	// Public is each seat's chance at each position from that view,
	// [position][seat].
	Public [][]float64 `json:"public"`
	// Moves are each move's error (the chance its player lost against the
	// best move, from what they knew) and each seat's luck in the step.
	Moves    []movePartJSON `json:"moves"`
	Accounts []accountJSON  `json:"accounts"`
	Own      []ownViewJSON  `json:"own"`
	Verdicts []string       `json:"verdicts"`
	Costly   []costlyPart   `json:"costliest"`
}

type movePartJSON struct {
	N     int       `json:"n"`
	By    int       `json:"by"` // 1-based
	Error float64   `json:"error"`
	Luck  []float64 `json:"luck"`
	Noise []float64 `json:"noise,omitempty"`
}

type accountJSON struct {
	Seat           int     `json:"seat"` // 1-based
	Start          float64 `json:"start"`
	OwnErrors      float64 `json:"own_errors"`
	Luck           float64 `json:"luck"`
	OpponentErrors float64 `json:"opponents_errors"`
	Sum            float64 `json:"sum"`
	Result         float64 `json:"result"`
	Noise          float64 `json:"noise"`
	Moves          int     `json:"moves"`
	Errors         int     `json:"errors"`
	ErrorRate      float64 `json:"error_rate"`
}

// ownViewJSON is one seat's own view: its line and its account.
type ownViewJSON struct {
	Seat    int         `json:"seat"` // 1-based
	Line    []float64   `json:"line"`
	Account accountJSON `json:"account"`
}

type costlyPart struct {
	N     int     `json:"n"`
	Seat  int     `json:"seat"` // 1-based
	Move  string  `json:"move"`
	Error float64 `json:"error"`
	Best  string  `json:"best"`
	Kept  float64 `json:"kept"`
	Left  float64 `json:"left"`
}

func accountOf(a ai.Account) accountJSON {
	return accountJSON{Seat: int(a.Seat) + 1, Start: a.Start, OwnErrors: a.OwnErrors, Luck: a.Luck, OpponentErrors: a.OpponentErrors,
		Sum: a.Sum, Result: a.Result, Noise: a.Noise, Moves: a.Moves, Errors: a.Errors, ErrorRate: a.ErrorRate}
}

// partsOf is the decomposition of an analysis, or nil when it has none.
func partsOf(setup engine.Setup, entries []tessera.MoveEntry, ps []tessera.AnalysedPosition, names []string) *partsJSON {
	d, ok := service.Decompose(setup, entries, ps, engine.NoSeat)
	if !ok {
		return nil
	}
	view := "spectator"
	if d.Luckless {
		view = "board"
	}
	out := &partsJSON{Luckless: d.Luckless, View: view, Public: d.Line, Moves: []movePartJSON{}, Accounts: []accountJSON{}, Own: []ownViewJSON{}, Verdicts: []string{}, Costly: []costlyPart{}}
	for _, sp := range d.Steps {
		m := movePartJSON{N: sp.N, By: int(sp.By) + 1, Error: sp.Error, Luck: sp.Luck}
		if d.Luckless {
			m.Noise = sp.Noise
		}
		out.Moves = append(out.Moves, m)
	}
	for _, a := range d.Accounts {
		out.Accounts = append(out.Accounts, accountOf(a))
		name := fmt.Sprintf("seat %d", a.Seat+1)
		if int(a.Seat) < len(names) {
			name = names[a.Seat]
		}
		out.Verdicts = append(out.Verdicts, service.Verdict(setup.Game, name, a, d.Luckless)+" — "+service.Sum(a, d.Luckless))
	}
	for _, c := range d.Costliest(3) {
		out.Costly = append(out.Costly, costlyPart{N: c.N, Seat: int(c.By) + 1, Move: c.Played, Error: c.Error, Best: c.Best, Kept: c.Kept, Left: c.Left})
	}
	for seat := range setup.Players {
		od, ok := service.Decompose(setup, entries, ps, engine.Seat(seat))
		if !ok || len(od.Accounts) != 1 {
			continue
		}
		v := ownViewJSON{Seat: seat + 1, Account: accountOf(od.Accounts[0])}
		for _, row := range od.Line {
			v.Line = append(v.Line, row[seat])
		}
		out.Own = append(out.Own, v)
	}
	return out
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
	// After is the chances after the move from ToMove's information
	// before it (a search of the position after it, the draw that
	// follows dealt anew), or absent where nothing is hidden and the
	// move was not the preferred one: the next move's Before is then the
	// position after it.
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
	var names []string
	for _, p := range rec.Players {
		names = append(names, p.Name)
	}
	out.Parts = partsOf(rec.Setup, entries, ps, names)
	for _, c := range service.Costliest(ps, 3) {
		out.Costliest = append(out.Costliest, costlyJSON{N: c.N, Seat: c.Seat + 1, Move: c.Played, Before: c.Before, After: c.After, Best: c.Best, Kept: c.Kept})
	}
	if *pngPath != "" {
		chart := picture.WinChart{Title: fmt.Sprintf("%s · game #%d · chance of winning", rec.Name, rec.ID)}
		line := func(i, seat int) float64 { return ps[i].Win[seat] }
		if out.Parts != nil {
			for _, c := range out.Parts.Costly {
				chart.Marks = append(chart.Marks, c.N)
			}
			if out.Parts.Luckless {
				chart.Title += " · the whole board, as every player sees it"
			} else {
				chart.Title += " · a spectator's view, no hand"
			}
			line = func(i, seat int) float64 { return out.Parts.Public[i][seat] }
		} else {
			for _, c := range service.Costliest(ps, 3) {
				chart.Marks = append(chart.Marks, c.N)
			}
		}
		for seat := range rec.Setup.Players {
			cs := picture.ChartSeat{Name: fmt.Sprintf("seat %d", seat+1)}
			if seat < len(rec.Players) {
				cs.Name = rec.Players[seat].Name
			}
			for i := range ps {
				cs.Chance = append(cs.Chance, line(i, seat))
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
