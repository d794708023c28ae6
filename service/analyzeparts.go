package service

// Error and luck in /analyze (issue #49): a stored analysis turned into
// ai.Steps, split by ai.Decompose from one view, and said in words: each
// player's errors, luck and opponents' errors adding up to the result,
// the costliest moves with the better move, and a verdict.

import (
	"fmt"
	"math"
	"strings"

	"tessera"
	"tessera/ai"
	"tessera/engine"
)

// Decompose splits the analysis ps of a game played from setup with moves
// as seen from view (engine.NoSeat: a spectator's, the shared one; a
// seat: its own). It reports false for an analysis made before issue #49
// (no views kept) or one that does not match the moves.
func Decompose(setup engine.Setup, moves []tessera.MoveEntry, ps []tessera.AnalysedPosition, view engine.Seat) (ai.Decomposition, bool) {
	if len(ps) != len(moves)+1 {
		return ai.Decomposition{}, false
	}
	st, err := engine.New(setup)
	if err != nil {
		return ai.Decomposition{}, false
	}
	steps := make([]ai.Step, len(ps))
	for i, p := range ps {
		steps[i] = ai.Step{Mover: engine.Seat(p.Seat), Entry: engine.NoSeat, Win: p.Win, Best: p.Best, BestWin: p.BestWin,
			Played: p.Played, PlayedWin: p.PlayedWin, Public: p.Public, Own: p.Own}
		if i < len(moves) {
			steps[i].Entry = engine.Seat(moves[i].Seat)
		}
	}
	return ai.Decompose(steps, view, ai.Hides(st))
}

// signed is a change of chance as the analysis writes it: "+0.12",
// "−0.41" (a true minus sign), "0.00".
func signed(v float64) string {
	v = math.Round(v*100) / 100
	switch {
	case v > 0:
		return fmt.Sprintf("+%.2f", v)
	case v < 0:
		return fmt.Sprintf("−%.2f", -v)
	}
	return "0.00"
}

// Verdict is a player's account in words: "Ana: 3 errors, total −0.41;
// luck +0.12; opponents' errors +0.30; played like normal".
func Verdict(game, name string, a ai.Account, luckless bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s, total %s", name, plural(a.Errors, "error"), signed(a.OwnErrors))
	if luckless {
		b.WriteString("; no luck (nothing is drawn or hidden)")
	} else {
		fmt.Fprintf(&b, "; luck %s", signed(a.Luck))
	}
	fmt.Fprintf(&b, "; opponents' errors %s", signed(a.OpponentErrors))
	if l, below, above, ok := ai.PlayedLike(game, a.ErrorRate); ok && a.Moves > 0 {
		switch {
		case below:
			fmt.Fprintf(&b, "; played below %s (%.3f lost a move)", l, a.ErrorRate)
		case above:
			fmt.Fprintf(&b, "; played above %s (%.3f lost a move)", l, a.ErrorRate)
		default:
			fmt.Fprintf(&b, "; played like %s (%.3f lost a move)", l, a.ErrorRate)
		}
	} else if a.Moves > 0 {
		fmt.Fprintf(&b, "; %.3f lost a move", a.ErrorRate)
	}
	return b.String()
}

// Sum is a player's account as a sum: "50% − 0.41 + 0.12 + 0.30 = 51%
// (result 52%: noise +0.01)".
func Sum(a ai.Account, luckless bool) string {
	term := func(v float64) string {
		s := signed(v)
		sign := s[:len(s)-len(strings.TrimLeft(s, "+−"))]
		if sign == "" { // 0.00
			sign = "+"
		}
		return sign + " " + strings.TrimLeft(s, "+−")
	}
	s := pct(a.Start) + " " + term(a.OwnErrors)
	if !luckless {
		s += " " + term(a.Luck)
	}
	s += " " + term(a.OpponentErrors) + " = " + pct(a.Sum)
	if luckless {
		s += fmt.Sprintf(" (result %s: the estimates' noise %s)", pct(a.Result), signed(a.Noise))
	} else {
		s += " (the result)"
	}
	return s
}

// partsLines are the decomposition's lines of /analyze's result: the
// view, each player's verdict and sum, and the costliest moves.
func partsLines(g *tessera.Game, d ai.Decomposition, name func(int) string) (lines []string, marks []int) {
	if d.Luckless {
		lines = append(lines, "Each player's chance from the board, which every player sees whole. A move's error is the chance its player lost against the best move; nothing is drawn or hidden, so what the errors do not explain is the estimates' noise.")
	} else {
		lines = append(lines, "Each player's chance from a spectator's view (the board and the scores, no hand), the same at every move. A move's error is the chance its player lost against the best move, judged from what they knew; the luck is what the tiles drawn and revealed did.")
	}
	for _, a := range d.Accounts {
		lines = append(lines, "• "+Verdict(g.Setup.Game, name(int(a.Seat)), a, d.Luckless))
		lines = append(lines, "  "+Sum(a, d.Luckless))
	}
	costly := d.Costliest(costlyShown)
	if len(costly) == 0 {
		lines = append(lines, "No move lost its player a chance the AI could measure.")
		return lines, nil
	}
	lines = append(lines, "The costliest moves:")
	for _, c := range costly {
		marks = append(marks, c.N)
		lines = append(lines, fmt.Sprintf("• Move %d, %s %s: error %s (%s → %s); %s was better", c.N, name(int(c.By)), c.Played, signed(-c.Error), pct(c.Kept), pct(c.Left), bestOr(c.Best)))
	}
	return lines, marks
}

func bestOr(best string) string {
	if best == "" {
		return "playing on"
	}
	return best
}

// OwnView is seat's own view of its game, in words, for its eyes only:
// its chance as it could judge it from its own hand at every move, its
// account from that view and where luck moved it most ("" for no seat,
// an analysis without views, or a game that hides nothing, where every
// player's view is the shared one).
func OwnView(g *tessera.Game, a *tessera.Analysis, seat int) string {
	if seat < 0 || a == nil || a.Status != tessera.AnalysisDone {
		return ""
	}
	d, ok := Decompose(g.Setup, g.Moves, a.Positions, engine.Seat(seat))
	if !ok || len(d.Accounts) != 1 {
		return ""
	}
	acc := d.Accounts[0]
	if d.Luckless { // nothing was hidden from anyone: the shared view is every player's own
		return ""
	}
	lines := []string{"**Your view** (only you see this): your chance as you could judge it from your own hand, " + course(ownPositions(d, seat), seat)}
	lines = append(lines, "  "+Sum(acc, false))
	best, worst := -1, -1
	for i, sp := range d.Steps {
		if best < 0 || sp.Luck[seat] > d.Steps[best].Luck[seat] {
			best = i
		}
		if worst < 0 || sp.Luck[seat] < d.Steps[worst].Luck[seat] {
			worst = i
		}
	}
	if best >= 0 {
		lines = append(lines, fmt.Sprintf("  Your best luck: move %d (%s); your worst: move %d (%s).",
			d.Steps[best].N, signed(d.Steps[best].Luck[seat]), d.Steps[worst].N, signed(d.Steps[worst].Luck[seat])))
	}
	return strings.Join(lines, "\n")
}

// ownPositions are d's line as analysed positions, for course.
func ownPositions(d ai.Decomposition, seat int) []tessera.AnalysedPosition {
	out := make([]tessera.AnalysedPosition, len(d.Line))
	for i, row := range d.Line {
		w := make([]float64, len(row))
		w[seat] = row[seat]
		out[i] = tessera.AnalysedPosition{Win: w}
	}
	return out
}
