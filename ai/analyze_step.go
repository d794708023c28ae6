package ai

import (
	"context"

	"tessera/engine"
)

// Step is one position of a game's analysis with what the decomposition
// of error and luck needs (decompose.go): the mover's view of its choice,
// and every seat's chance from views that do not change along the game.
// Every chance is mapped by the game's calibration map (Calibrated).
type Step struct {
	Mover engine.Seat // the seat to move; NoSeat at the end
	// Entry is the seat whose entry was played from here: the mover for a
	// move, the seat that resigned or ran out of time for those.
	Entry engine.Seat
	// Win is each seat's chance as the mover's search judges the position
	// (its mean over every move it tried); the result at the end.
	Win []float64
	// Best is the move the mover's search prefers and BestWin the chances
	// after it; Played the move played from here and PlayedWin the
	// chances after it, from the mover's information before it (nil when
	// nothing was played or the entry is no move: a resignation).
	Best      string
	BestWin   []float64
	Played    string
	PlayedWin []float64
	// Public is each seat's chance from a spectator's view (engine.NoSeat:
	// the board, the scores, no hand), the same view at every step. Where
	// the game hides nothing every seat sees the same, and Public is the
	// mover's BestWin: the position is worth its best move.
	Public []float64
	// Own[s] is seat s's chance from s's own view: its BestWin when s is
	// to move, else a search dealt from what s sees.
	Own []float64
}

// AnalyzeStep analyses the position st, from which played (a move's
// notation, or "" when nothing is played or the entry is not a move) is
// played: the mover's search; the chances after the move played, from
// the mover's search when it tried it enough, else from AnalyzeAfter; and
// where the game hides something, the spectator's search and each other
// seat's own. Deterministic for a seed and a budget without a time cap.
// It costs one search where nothing is hidden (two when a move the search
// hardly tried was played), 1 + players where something is.
func AnalyzeStep(ctx context.Context, st engine.State, played string, b Budget, seed uint64) (Step, error) {
	game := st.Game()
	if st.Over() {
		res := resultChances(st)
		return Step{Mover: engine.NoSeat, Entry: engine.NoSeat, Win: res, Public: res, Own: res}, nil
	}
	p, err := Analyze(ctx, st, b, seed)
	if err != nil {
		return Step{}, err
	}
	mover := p.Seat
	cal := func(w []float64, to engine.Seat) []float64 {
		if w == nil {
			return nil
		}
		return Calibrated(game, w, to)
	}
	s := Step{Mover: mover, Entry: mover, Win: cal(p.Win, mover), Best: p.Best, Played: played}
	// The chances after a move are a search's mean at the position after
	// it (the mean a calibration map makes honest), for the best move and
	// the move played alike, so that an error compares like with like.
	if p.Shortcut != "" {
		s.BestWin = cal(p.BestWin, mover) // a win at once: certain
	} else if s.BestWin, err = afterChances(ctx, st, p.Best, b, mix(seed, 100)); err != nil {
		return Step{}, err
	}
	hidden := Hides(st)
	if played != "" {
		if _, perr := st.Parse(played); perr == nil {
			switch {
			case played == p.Best:
				s.PlayedWin = s.BestWin
			case hidden:
				if s.PlayedWin, err = afterChances(ctx, st, played, b, mix(seed, 101)); err != nil {
					return Step{}, err
				}
			default:
				// Nothing hidden: the position after the move is the next
				// one, whose own analysis (Public) stands for it
				// (Decompose), at no second search.
			}
		}
	}
	n := st.Players()
	if !hidden {
		s.Public = s.Win
		s.Own = s.Win
		return s, nil
	}
	pub, err := AnalyzeView(ctx, st, engine.NoSeat, b, mix(seed, 102))
	if err != nil {
		return Step{}, err
	}
	s.Public = cal(pub.Win, mover)
	s.Own = make([]float64, n)
	for seat := range n {
		if engine.Seat(seat) == mover {
			s.Own[seat] = s.Win[seat]
			continue
		}
		v, err := AnalyzeView(ctx, st, engine.Seat(seat), b, mix(seed, 103+uint64(seat)))
		if err != nil {
			return Step{}, err
		}
		s.Own[seat] = cal(v.Win, mover)[seat]
	}
	return s, nil
}

// afterChances is AnalyzeAfter mapped by the game's calibration map: the
// search after the move has the next seat to move at its root, so the
// map's mover term is that seat's (none when the move ends the game).
func afterChances(ctx context.Context, st engine.State, move string, b Budget, seed uint64) ([]float64, error) {
	w, err := AnalyzeAfter(ctx, st, move, b, seed)
	if err != nil {
		return nil, err
	}
	c := st.Clone()
	m, err := c.Parse(move)
	if err != nil || playMove(c, m) != nil || c.Over() {
		return w, nil
	}
	return Calibrated(st.Game(), w, c.ToMove()), nil
}
