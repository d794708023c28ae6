package ai

import (
	"context"
	"fmt"
	"slices"

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
	// mover's own Win (its search's mean over every move it tried).
	Public []float64
	// Own[s] is seat s's chance from s's own view: its BestWin when s is
	// to move, else a search dealt from what s sees.
	Own []float64
	// PublicView is the information Public was judged from: engine.NoSeat
	// (a spectator's) at every position of every game, since where the
	// mover's search stands for it the mover sees no more than a
	// spectator (checked here, position by position: a mover's view that
	// differs from the spectator's is recorded as the mover's, and
	// TestOneViewPerLine fails). OwnView[s] is the same for Own[s]: s.
	PublicView engine.Seat
	OwnView    []engine.Seat
}

// sameView reports whether viewer sees st as a spectator does: the same
// view but for the hands the game marks public (SeatView.Hidden false,
// shown to their owner only as a list, as TilingKing's, whose pieces
// every view lists in Info).
func sameView(st engine.State, viewer engine.Seat) bool {
	norm := func(v engine.View) string {
		v.Seats = slices.Clone(v.Seats) // the state's own may be shared
		for i := range v.Seats {
			if !v.Seats[i].Hidden {
				v.Seats[i].Hand = nil
			}
		}
		return fmt.Sprint(v)
	}
	return norm(st.View(viewer)) == norm(st.View(engine.NoSeat))
}

// AnalyzeStep analyses the position st, from which played (a move's
// notation, or "" when nothing is played or the entry is not a move) is
// played: the mover's search; the chances after its preferred move and
// the move played; and where the game hides something, the spectator's
// search and each other seat's own. Deterministic for a seed and a budget
// without a time cap. Where nothing is hidden it costs two searches of
// the budget (the mover's, and one after its preferred move: the position
// after the move played is the next one). Where something is, the
// mover's search and, after the preferred move, after the move played
// and for each other view, a search of a quarter of the budget.
func AnalyzeStep(ctx context.Context, st engine.State, played string, b Budget, seed uint64) (Step, error) {
	game := st.Game()
	if st.Over() {
		res := resultChances(st)
		own := make([]engine.Seat, len(res))
		for seat := range own {
			own[seat] = engine.Seat(seat)
		}
		return Step{Mover: engine.NoSeat, Entry: engine.NoSeat, Win: res, Public: res, Own: res, PublicView: engine.NoSeat, OwnView: own}, nil
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
		return Calibrated(game, b.Iterations, w, to)
	}
	s := Step{Mover: mover, Entry: mover, Win: cal(p.Win, mover), Best: p.Best, Played: played}
	// The chances after a move are a search's mean at the position after
	// it (the mean a calibration map makes honest), for the best move and
	// the move played alike, so that an error compares like with like.
	// Where something is hidden a position costs more searches (the
	// spectator's, each other seat's own), so there these two and the
	// views' searches run 1/HiddenViewShare of the budget each: a 64-move
	// Closure game within 60 s of one core (docs/benchmarks.md). (The
	// mover's own search's means after its moves would cost nothing, but
	// a move it tried little has a mean pulled down by the few playouts
	// that chose it: errors of moves the search disliked came out large.)
	hidden := Hides(st)
	vb := b
	if hidden {
		vb.Iterations = max(1, b.Iterations/HiddenViewShare)
	}
	after := func(move string, salt uint64) ([]float64, error) {
		return afterChances(ctx, st, move, vb, b.Iterations, mix(seed, salt))
	}
	if p.Shortcut != "" {
		s.BestWin = cal(p.BestWin, mover) // a win at once: certain
	} else if s.BestWin, err = after(p.Best, 100); err != nil {
		return Step{}, err
	}
	if played != "" {
		if _, perr := st.Parse(played); perr == nil {
			switch {
			case played == p.Best:
				s.PlayedWin = s.BestWin
			case hidden:
				if s.PlayedWin, err = after(played, 101); err != nil {
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
	s.PublicView = engine.NoSeat
	s.OwnView = make([]engine.Seat, n)
	for seat := range n {
		s.OwnView[seat] = engine.Seat(seat)
	}
	if !hidden {
		s.Public = s.Win
		s.Own = s.Win
		if !sameView(st, mover) {
			s.PublicView = mover // never, if Hides tells the truth: the test would fail
		}
		return s, nil
	}
	pub, err := AnalyzeView(ctx, st, engine.NoSeat, vb, mix(seed, 102))
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
		v, err := AnalyzeView(ctx, st, engine.Seat(seat), vb, mix(seed, 103+uint64(seat)))
		if err != nil {
			return Step{}, err
		}
		s.Own[seat] = cal(v.Win, mover)[seat]
	}
	return s, nil
}

// HiddenViewShare: where something is hidden, the searches after the
// preferred and the played move, the spectator's search and each other
// seat's own run 1/HiddenViewShare of the analysis's iterations each.
const HiddenViewShare = 4

// afterChances is AnalyzeAfter mapped by the game's calibration map for
// an analysis of iterations a position (b is the search's own): the
// search after the move has the next seat to move at its root, so the
// map's mover term is that seat's (none when the move ends the game).
func afterChances(ctx context.Context, st engine.State, move string, b Budget, iterations int, seed uint64) ([]float64, error) {
	w, err := AnalyzeAfter(ctx, st, move, b, seed)
	if err != nil {
		return nil, err
	}
	c := st.Clone()
	m, err := c.Parse(move)
	if err != nil || playMove(c, m) != nil || c.Over() {
		return w, nil
	}
	return Calibrated(st.Game(), iterations, w, c.ToMove()), nil
}
