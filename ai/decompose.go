package ai

// Error and luck (issue #49), as GNU Backgammon's analysis splits a
// backgammon game: a player's chance of winning moves along a game
// because of the players' decisions and because of what nobody chose.
//
// Each move's error is its mover's chance after the best move minus after
// the move played, both judged from what the mover knew (Step.BestWin and
// Step.PlayedWin, from the mover's search). Every other seat's chance
// moves with that decision too: the opponents' errors of a seat are what
// their decisions gave or took from it.
//
// A seat's line, seen from one view (a spectator's, or the seat's own),
// moves from each position to the next by the decision made there and,
// where the game hides or draws something, by the luck: the tiles drawn,
// and the hidden tiles that showed (what the mover knew and the view did
// not). The luck of a step is the line's change less the decision's part,
// so that start + own errors + luck + opponents' errors = the result
// exactly. Where nothing is hidden or drawn (Glorieta, Knotwork,
// TilingKing) there is no luck, and what the decisions do not explain is
// the estimates' noise: Account.Noise, which the identity's test bounds.

import (
	"math"
	"slices"

	"tessera/engine"
)

// ErrorThreshold is the chance a move must lose against the best move to
// count as an error in a verdict's count ("3 errors"); smaller losses are
// within the noise of a search of the analysis's budget.
const ErrorThreshold = 0.04

// Decomposition is a game's analysis from one view.
type Decomposition struct {
	// View is the view the lines come from: engine.NoSeat for a
	// spectator's (the shared chart), a seat for that seat's own.
	View engine.Seat
	// Line[t][s] is seat s's chance at position t (before move t+1; the
	// last is the result), from View (for a seat's own view, only that
	// seat's line is set; the others are NaN).
	Line [][]float64
	// Steps are the moves, in order.
	Steps []StepSplit
	// Accounts are the seats' sums (only View's own seat in a seat's view).
	Accounts []Account
	// Luckless: the game hides and draws nothing, so Luck is 0 and the
	// change the decisions do not explain is Noise.
	Luckless bool
}

// StepSplit is one move's part.
type StepSplit struct {
	N      int         // the move's number, 1-based
	By     engine.Seat // who decided: the mover, or the seat that resigned
	Played string
	Best   string
	// Error is the chance By lost by the move played against Best, from
	// what By knew (negative: the move played was judged better than the
	// search's preferred one). A resignation's error is all the chance its
	// player gave up.
	Error float64
	// Decision[s] is what the move did to seat s's chance (−Error for By).
	Decision []float64
	// Luck[s] is the change of s's line not due to the decision (0 where
	// nothing is hidden or drawn); Noise[s] the same where nothing is.
	Luck  []float64
	Noise []float64
	// Kept is the chance Best kept for By, Left the chance the move played
	// left.
	Kept, Left float64
}

// Account is one seat's game in one view: where it started, what its own
// decisions, the luck and the opponents' decisions did, and where it
// ended. Start + OwnErrors + Luck + OpponentErrors = Sum; Result − Sum is
// Noise.
type Account struct {
	Seat           engine.Seat
	Start          float64
	OwnErrors      float64 // the sum of the seat's decisions' parts (≤ 0 but for noise)
	Luck           float64
	OpponentErrors float64 // what the other seats' decisions gave it
	Sum            float64
	Result         float64
	Noise          float64
	Moves          int     // the seat's moves
	Errors         int     // of them, those that lost at least ErrorThreshold
	ErrorRate      float64 // the mean chance lost a move (errors below 0 count 0)
}

// Decompose splits steps (a game's positions, the last its end) as seen
// from view: engine.NoSeat for the spectator's lines (Step.Public), a seat
// for its own (Step.Own). hidden says the game hides or draws something
// (Hides). It reports false when a step lacks the chances it needs (an
// analysis made before issue #49).
func Decompose(steps []Step, view engine.Seat, hidden bool) (Decomposition, bool) {
	if len(steps) == 0 {
		return Decomposition{}, false
	}
	n := len(steps[len(steps)-1].Win)
	if n == 0 {
		return Decomposition{}, false
	}
	line := func(s Step) []float64 {
		if view == engine.NoSeat {
			return s.Public
		}
		return s.Own
	}
	d := Decomposition{View: view, Luckless: !hidden}
	for _, s := range steps {
		l := line(s)
		if len(l) != n {
			return Decomposition{}, false
		}
		row := slices.Clone(l)
		if view != engine.NoSeat {
			for k := range row {
				if k != int(view) {
					row[k] = math.NaN()
				}
			}
		}
		d.Line = append(d.Line, row)
	}
	seats := []engine.Seat{view}
	if view == engine.NoSeat {
		seats = seats[:0]
		for s := range n {
			seats = append(seats, engine.Seat(s))
		}
	}
	acc := make([]Account, len(seats))
	for i, s := range seats {
		acc[i] = Account{Seat: s, Start: d.Line[0][s], Result: d.Line[len(d.Line)-1][s]}
	}
	for t := 0; t+1 < len(steps); t++ {
		st := steps[t]
		by := st.Mover
		sp := StepSplit{N: t + 1, By: by, Played: st.Played, Best: st.Best,
			Decision: make([]float64, n), Luck: make([]float64, n), Noise: make([]float64, n)}
		if by < 0 || int(by) >= n {
			return Decomposition{}, false
		}
		before, after := d.Line[t], d.Line[t+1]
		played := st.PlayedWin
		if played == nil && !hidden && isMove(st) {
			played = steps[t+1].Public // nothing hidden: the next position is the one after the move
		}
		switch {
		case len(played) == n && len(st.BestWin) == n:
			for s := range n {
				sp.Decision[s] = played[s] - st.BestWin[s]
			}
			sp.Kept, sp.Left = st.BestWin[by], played[by]
		default: // no move: a resignation or a timeout, all its change decided by it
			if st.Entry >= 0 && int(st.Entry) < n {
				by = st.Entry
				sp.By = by
			}
			for s := range n {
				sp.Decision[s] = steps[t+1].Public[s] - st.Public[s]
			}
			sp.Kept, sp.Left = st.Public[by], steps[t+1].Public[by]
		}
		sp.Error = -sp.Decision[by]
		for _, s := range seats {
			rest := after[s] - before[s] - sp.Decision[s]
			if hidden {
				sp.Luck[s] = rest
			} else {
				sp.Noise[s] = rest
			}
		}
		d.Steps = append(d.Steps, sp)
		for i, s := range seats {
			a := &acc[i]
			if s == by {
				a.OwnErrors += sp.Decision[s]
				a.Moves++
				a.ErrorRate += max(0, sp.Error)
				if sp.Error >= ErrorThreshold {
					a.Errors++
				}
			} else {
				a.OpponentErrors += sp.Decision[s]
			}
			a.Luck += sp.Luck[s]
		}
	}
	for i := range acc {
		a := &acc[i]
		a.Sum = a.Start + a.OwnErrors + a.Luck + a.OpponentErrors
		a.Noise = a.Result - a.Sum
		if a.Moves > 0 {
			a.ErrorRate /= float64(a.Moves)
		}
	}
	d.Accounts = acc
	return d, true
}

// isMove reports whether the entry played from s is a move of its mover:
// not a resignation or a timeout (the platform's entries
// engine.ResignEntry and engine.TimeoutEntry, which no game parses), nor
// the end.
func isMove(s Step) bool {
	return s.Played != "" && s.Played != engine.ResignEntry && s.Played != engine.TimeoutEntry && s.Entry == s.Mover
}

// Costliest are the k moves that lost their player most (an Error above
// 0 and a move other than the search's preferred one), the worst first,
// ties to the earlier move.
func (d Decomposition) Costliest(k int) []StepSplit {
	var out []StepSplit
	for _, s := range d.Steps {
		if s.Error > 0 && s.Played != s.Best {
			out = append(out, s)
		}
	}
	slices.SortStableFunc(out, func(a, b StepSplit) int {
		switch {
		case a.Error > b.Error:
			return -1
		case a.Error < b.Error:
			return 1
		}
		return a.N - b.N
	})
	return out[:min(k, len(out))]
}
