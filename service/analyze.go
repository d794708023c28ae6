package service

// /analyze: a finished game's analysis. The AI judges every position from
// the information of the seat to move there (never a game in play: that
// would reveal what is hidden and coach a player), off the interaction
// path (analyzeworker.go); the result is kept in the store, so asking
// again answers at once. The reply says where the analysis stands; the
// game's place gets a progress line, edited as it runs, then the chart
// of each seat's chance and the three moves that cost their player most,
// in words too for screen readers.

import (
	"errors"
	"fmt"
	"strings"

	"tessera"
	"tessera/engine"
	"tessera/picture"
	"tessera/storage"
)

// costlyShown is how many of the costliest moves the result names.
const costlyShown = 3

// WinCharter draws an analysis's chart; render.Renderer does. A renderer
// without it gives an analysis in words only.
type WinCharter interface {
	WinChart(c picture.WinChart) ([]byte, error)
}

// Analyze queues the analysis of a finished game, or answers with it when
// it is done.
func (s *Service) Analyze(req Request, ref string) (Reply, error) {
	ctx := req.Context()
	g, err := s.findGame(req, ref, inPlay)
	if err != nil {
		return Reply{}, err
	}
	switch g.Status {
	case tessera.StatusFinished:
	case tessera.StatusChallenge:
		return Reply{}, errorf(tessera.EINVALID, "Game #%d is a challenge not yet accepted: it can be analysed once it is played and over.", g.ID)
	case tessera.StatusPlaying:
		return Reply{}, errorf(tessera.EFORBIDDEN, "Game #%d is still in play: it can be analysed once it is over (an analysis would reveal hidden tiles and coach a player).", g.ID)
	case tessera.StatusAborted:
		return Reply{}, errorf(tessera.EINVALID, "Game #%d was aborted, without result: there is nothing to analyse.", g.ID)
	default:
		return Reply{}, errorf(tessera.EINVALID, "Game #%d never started (the challenge was %s): there is nothing to analyse.", g.ID, g.Status)
	}
	a, err := s.store.Analysis(ctx, g.ID)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		a = &tessera.Analysis{GameID: g.ID}
		s.queueAnalysis(a, req)
		err = s.store.CreateAnalysis(ctx, a)
		if errors.Is(err, storage.ErrDuplicate) { // asked at the same moment by someone else
			return s.Analyze(req, fmt.Sprint(g.ID))
		}
	case err != nil:
	case a.Status == tessera.AnalysisFailed: // asked again: anew, at the queue's end
		a, err = s.store.UpdateAnalysis(ctx, g.ID, func(a *tessera.Analysis) error {
			if a.Status == tessera.AnalysisFailed {
				*a = tessera.Analysis{GameID: a.GameID, MessageID: a.MessageID}
				s.queueAnalysis(a, req)
			}
			return nil
		})
	case a.Status == tessera.AnalysisDone:
		m, err := s.AnalysisMessage(g, a, true)
		if err != nil {
			return Reply{}, err
		}
		r := Reply{Text: m.Text, Files: m.Files, Ephemeral: elsewhere(g, req)}
		if own := OwnView(g, a, g.Seat(req.User.ID)); own != "" { // a player's own view, for their eyes only
			r.Text, r.Ephemeral = r.Text+"\n"+own, true
		}
		return r, nil
	}
	if err != nil {
		return Reply{}, err
	}
	place, err := s.queuePlace(req, g.ID)
	if err != nil {
		return Reply{}, err
	}
	s.pokeAnalyses()
	where := "in the game's thread"
	if g.InDMs {
		where = "to its players"
	}
	started := "has started"
	if place > 1 {
		started = fmt.Sprintf("is queued: %s in line", ordinal(place))
	}
	if len(a.Positions) > 0 {
		started = fmt.Sprintf("is under way (%d of %d positions)", len(a.Positions), len(g.Moves)+1)
	}
	return Reply{Text: fmt.Sprintf("The analysis of game #%d %s. A progress line follows %s, then the chart of each player's chance and the moves that cost most.", g.ID, started, where),
		Ephemeral: elsewhere(g, req)}, nil
}

// queueAnalysis fills in a new request.
func (s *Service) queueAnalysis(a *tessera.Analysis, req Request) {
	a.Status, a.Requested, a.UserID, a.ChannelID = tessera.AnalysisQueued, s.now(), req.User.ID, req.ChannelID
	a.Iterations = s.cfg.AnalysisIterations
	if a.Iterations <= 0 {
		a.Iterations = DefaultAnalysisIterations
	}
}

// queuePlace is game id's place in the queue (1 for the first).
func (s *Service) queuePlace(req Request, id uint64) (int, error) {
	ids, err := s.store.AnalysisQueue(req.Context())
	if err != nil {
		return 0, err
	}
	for i, q := range ids {
		if q == id {
			return i + 1, nil
		}
	}
	return 1, nil // done meanwhile
}

// AnalysisMessage is what the courier posts for g's analysis a: its
// progress line, or with result its result (the chart and the costly
// moves).
func (s *Service) AnalysisMessage(g *tessera.Game, a *tessera.Analysis, result bool) (Message, error) {
	total := len(g.Moves) + 1
	if !result {
		var line string
		switch a.Status {
		case tessera.AnalysisDone:
			line = fmt.Sprintf("Analysis of game #%d: done, %d positions (the chart follows).", g.ID, total)
		case tessera.AnalysisFailed:
			line = fmt.Sprintf("Analysis of game #%d: it stopped (%s). Ask again with /analyze game:%d.", g.ID, clipTo(a.Error, 120), g.ID)
		default:
			line = fmt.Sprintf("Analysis of game #%d: %d of %d positions… %s", g.ID, len(a.Positions), total, bar(len(a.Positions), total))
		}
		return Message{Text: line}, nil
	}
	if a.Status == tessera.AnalysisFailed {
		return Message{Text: fmt.Sprintf("The analysis of game #%d stopped (%s). Ask again with /analyze game:%d.", g.ID, clipTo(a.Error, 120), g.ID)}, nil
	}
	if a.Status != tessera.AnalysisDone || len(a.Positions) == 0 {
		return Message{Text: fmt.Sprintf("The analysis of game #%d is not done yet.", g.ID)}, nil
	}
	names := g.Names()
	name := func(seat int) string {
		if seat >= 0 && seat < len(names) {
			return clipTo(names[seat], 24)
		}
		return fmt.Sprintf("seat %d", seat+1)
	}
	var lines []string
	var marks []int
	title := fmt.Sprintf("%s · game #%d · chance of winning", gameName(g.Setup.Game), g.ID)
	line := func(p tessera.AnalysedPosition) []float64 { return p.Win }
	if d, ok := Decompose(g.Setup, g.Moves, a.Positions, engine.NoSeat); ok {
		lines = []string{fmt.Sprintf("**Analysis** of %s, game #%d (%s), %s a position.", gameName(g.Setup.Game), g.ID, strings.Join(names, " vs "), plural(a.Iterations, "playout"))}
		more, mk := partsLines(g, d, name)
		lines, marks = append(lines, more...), mk
		if d.Luckless {
			title += " · the whole board, as every player sees it"
		} else {
			title += " · a spectator's view, no hand"
		}
		line = func(p tessera.AnalysedPosition) []float64 { return p.Public }
	} else {
		lines, marks = costlyLines(g, a, names, name)
	}
	m := Message{Text: strings.Join(lines, "\n")}
	if wc, ok := s.renderer.(WinCharter); ok {
		chart := picture.WinChart{Title: title, Marks: marks}
		colors := seatColors(g)
		for seat := range names {
			cs := picture.ChartSeat{Name: name(seat)}
			if seat < len(colors) {
				cs.Color = colors[seat]
			}
			for _, p := range a.Positions {
				v := 0.0
				if w := line(p); seat < len(w) {
					v = w[seat]
				}
				cs.Chance = append(cs.Chance, v)
			}
			chart.Seats = append(chart.Seats, cs)
		}
		data, err := wc.WinChart(chart)
		if err != nil {
			return Message{}, err
		}
		m.Files = []File{{Name: fmt.Sprintf("game-%d-analysis.png", g.ID), Data: data}}
	}
	return m, nil
}

// costlyLines are the result's lines of an analysis made before issue #49:
// the chances from the view of each position's mover, and the moves
// whose player's chance fell most across them.
func costlyLines(g *tessera.Game, a *tessera.Analysis, names []string, name func(int) string) (lines []string, marks []int) {
	costly := Costliest(a.Positions, costlyShown)
	lines = []string{fmt.Sprintf("**Analysis** of %s, game #%d (%s): each player's chance of winning, as the player to move could judge it (%s a position).",
		gameName(g.Setup.Game), g.ID, strings.Join(names, " vs "), plural(a.Iterations, "playout"))}
	for seat := range names {
		lines = append(lines, fmt.Sprintf("%s: %s", name(seat), course(a.Positions, seat)))
	}
	if len(costly) == 0 {
		lines = append(lines, "No move cost its player a chance the AI could measure.")
	} else {
		lines = append(lines, "The moves that cost their player most:")
	}
	for _, c := range costly {
		marks = append(marks, c.N)
		line := fmt.Sprintf("Move %d, %s %s: %s → %s", c.N, name(c.Seat), c.Played, pct(c.Before), pct(c.After))
		if c.Best != "" {
			line += fmt.Sprintf("; %s kept %s", c.Best, pct(c.Kept))
		}
		lines = append(lines, "• "+line)
	}
	return lines, marks
}

// seatColors are the seats' colours in g's pictures (none when its
// position does not replay).
func seatColors(g *tessera.Game) []engine.Color {
	st, err := ReplayN(g, len(g.Moves))
	if err != nil {
		return nil
	}
	var out []engine.Color
	for _, sv := range st.View(engine.NoSeat).Seats {
		out = append(out, sv.Color)
	}
	return out
}

// course is a seat's chance through the game in words, at its start,
// each quarter and its end: "50% · 62% after move 16 · … · 100% at the
// end".
func course(ps []tessera.AnalysedPosition, seat int) string {
	at := func(i int) float64 {
		if seat < len(ps[i].Win) {
			return ps[i].Win[seat]
		}
		return 0
	}
	n := len(ps) - 1
	parts := []string{pct(at(0)) + " at the start"}
	for q := 1; q < 4 && n >= 4; q++ {
		i := n * q / 4
		parts = append(parts, fmt.Sprintf("%s after move %d", pct(at(i)), i))
	}
	if n > 0 {
		parts = append(parts, pct(at(n))+" at the end")
	}
	return strings.Join(parts, " · ")
}

// pct is a chance as a whole percentage.
func pct(v float64) string { return fmt.Sprintf("%.0f%%", 100*v) }

// bar is a progress bar of ten cells.
func bar(done, total int) string {
	k := 0
	if total > 0 {
		k = 10 * done / total
	}
	return "[" + strings.Repeat("■", k) + strings.Repeat("□", 10-k) + "]"
}
