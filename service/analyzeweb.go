package service

// A finished game's analysis on its web page (issue #49): the shared
// chart, each line from a spectator's view, and each move's error and
// luck in the move list.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"tessera"
	"tessera/engine"
	"tessera/storage"
)

// Chart's box on the page, in SVG units: the moves across, the chance up.
const webChartW, webChartH = 400, 160

// WebAnalysis is a finished game's analysis as its page shows it.
type WebAnalysis struct {
	View     string // the view every line is judged from, in words
	W, H     int    // the chart's box
	Lines    []WebChartLine
	Verdicts []string // each player's, with the sum
}

// WebChartLine is one seat's chance along the game: an SVG polyline's
// points in the chart's box, from the position before the first move to
// the end.
type WebChartLine struct {
	Name   string
	Color  string // "#rrggbb"; "" lets the page pick one
	Points string
}

// webAnalysis adds a finished game's done analysis to v: the chart and
// the verdicts, and each record entry's error and luck. A game without
// one, or with one made before issue #49, is left as it was.
func (s *Service) webAnalysis(ctx context.Context, g *tessera.Game, v *GameView) error {
	if g.Status != tessera.StatusFinished {
		return nil
	}
	a, err := s.store.Analysis(ctx, g.ID)
	if errors.Is(err, storage.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if a.Status != tessera.AnalysisDone {
		return nil
	}
	d, ok := Decompose(g.Setup, g.Moves, a.Positions, engine.NoSeat)
	if !ok || len(d.Line) < 2 {
		return nil
	}
	names := g.Names()
	name := func(seat int) string {
		if seat >= 0 && seat < len(names) {
			return clipTo(names[seat], 24)
		}
		return fmt.Sprintf("seat %d", seat+1)
	}
	wa := &WebAnalysis{W: webChartW, H: webChartH, View: "from a spectator's view (the board and the scores, no hand), the same at every move"}
	if d.Luckless {
		wa.View = "from the board, which every player sees whole"
	}
	moves := len(d.Line) - 1
	colors := seatColors(g)
	for seat := range len(d.Line[0]) {
		l := WebChartLine{Name: name(seat)}
		if seat < len(colors) && colors[seat].A > 0 {
			c := colors[seat]
			l.Color = fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B)
		}
		var pts []string
		for t, row := range d.Line {
			y := math.Min(1, math.Max(0, row[seat]))
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", float64(webChartW)*float64(t)/float64(moves), float64(webChartH)*(1-y)))
		}
		l.Points = strings.Join(pts, " ")
		wa.Lines = append(wa.Lines, l)
	}
	for _, acc := range d.Accounts {
		wa.Verdicts = append(wa.Verdicts, Verdict(g.Setup.Game, name(int(acc.Seat)), acc, d.Luckless)+" — "+Sum(acc, d.Luckless))
	}
	for _, sp := range d.Steps {
		i := sp.N - 1
		if i < 0 || i >= len(v.Record) {
			continue
		}
		m := &v.Record[i]
		if sp.Error >= 0.005 {
			m.Error = "error " + signed(-sp.Error)
			if sp.Best != "" && sp.Best != sp.Played {
				m.Error += " (" + sp.Best + " was better)"
			}
		}
		if !d.Luckless && int(sp.By) >= 0 && int(sp.By) < len(sp.Luck) {
			m.Luck = "luck " + signed(sp.Luck[sp.By])
		}
	}
	v.Analysis = wa
	return nil
}
