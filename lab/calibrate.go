package lab

// Calibration of the analysis's win chances (/analyze): self-play games,
// every position judged by ai.Analyze from the information of the seat
// to move, and how often a seat given a chance of about p went on to win.

import (
	"context"
	"fmt"
	"math"
	"sync"

	"tessera/ai"
	"tessera/engine"
)

// CalibrationConfig is one calibration run.
type CalibrationConfig struct {
	Game    string
	Players int
	Options map[string]string
	Games   int
	Seed    uint64
	// Analysis is the budget of each position's estimate (ai.AnalysisBudget
	// for /analyze's own).
	Analysis ai.Budget
	// Self, when its Iterations are set, is the budget of a separate search
	// that chooses each move (hard against hard: ai.Hard.Budget(0) without
	// its cap); otherwise the analysis's own preferred move is played, so
	// one search per position serves both.
	Self ai.Budget
	// Workers is how many games are played at once (each on one
	// goroutine; the results do not depend on it).
	Workers int
	// Progress, when set, is called after each game with the number done.
	Progress func(done int)
}

// Calibration is a run's result.
type Calibration struct {
	Game       string `json:"game"`
	Players    int    `json:"players"`
	Games      int    `json:"games"`
	Positions  int    `json:"positions"`  // judged positions (the end's are not counted)
	Iterations int    `json:"iterations"` // per position
	SelfPlay   string `json:"self_play"`  // how the moves were chosen
	// Bins are the reliability diagram: every seat's chance at every
	// position, in ten bins of 10%.
	Bins []CalibrationBin `json:"bins"`
	// Brier is the mean squared difference between a seat's chance and
	// its result (1 won, 1/k shared by k, 0 lost); BrierBase the same for
	// the constant 1/players, the score of knowing nothing.
	Brier     float64 `json:"brier"`
	BrierBase float64 `json:"brier_base"`
	// Decided is, per game, the move after which the eventual winner's
	// chance stayed at or above 90% to the end (0: from the start; the
	// game's length + 1 when it never did, as in a shared win), and
	// DecidedShare its mean as a share of the game's length.
	Decided []int `json:"decided"`
	Lengths []int `json:"lengths"`
	// Points are every chance given and the result that followed, [p, y,
	// mover] rounded to 3 decimals (mover 1 for the seat to move, whose
	// search gave the chances, else 0), so that a map can be fitted on some
	// runs and checked on others (FitLogistic).
	Points       [][3]float64 `json:"points,omitempty"`
	DecidedShare float64      `json:"decided_share"`
	// Movers says the points carry their mover (reports before it was
	// kept hold [p, y] only: their mover reads 0, and a fit ignores it).
	Movers bool `json:"movers,omitempty"`
}

// CalibrationBin is one bin of the reliability diagram.
type CalibrationBin struct {
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
	Count int     `json:"count"`
	Mean  float64 `json:"mean"` // mean chance given
	Won   float64 `json:"won"`  // mean result (the share of wins)
}

// calibrationGame is one game's judged positions and result.
type calibrationGame struct {
	chances [][]float64 // per position before each move
	movers  []int       // the seat to move at each of those positions
	result  []float64   // per seat
	err     error
}

// Calibrate plays cfg.Games self-play games and measures how honest the
// analysis's chances are. It is deterministic for a seed (without time
// caps), whatever cfg.Workers.
func Calibrate(ctx context.Context, cfg CalibrationConfig) (Calibration, error) {
	if cfg.Games < 1 {
		return Calibration{}, fmt.Errorf("calibrate: no games")
	}
	if cfg.Analysis.Iterations < 1 {
		cfg.Analysis = ai.AnalysisBudget
	}
	workers := max(1, cfg.Workers)
	games := make([]calibrationGame, cfg.Games)
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				games[i] = calibrationPlay(ctx, cfg, i)
				mu.Lock()
				done++
				if cfg.Progress != nil {
					cfg.Progress(done)
				}
				mu.Unlock()
			}
		}()
	}
	for i := range cfg.Games {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return Calibration{}, err
	}
	out := Calibration{Game: cfg.Game, Players: cfg.Players, Games: cfg.Games, Iterations: cfg.Analysis.Iterations, SelfPlay: "the analysis's preferred move", Movers: true}
	if cfg.Self.Iterations > 0 {
		out.SelfPlay = fmt.Sprintf("a search of %d iterations on %d trees", cfg.Self.Iterations, max(1, cfg.Self.Workers))
	}
	out.Bins = make([]CalibrationBin, 10)
	for b := range out.Bins {
		out.Bins[b].Low, out.Bins[b].High = float64(b)/10, float64(b+1)/10
	}
	var sq, sqBase float64
	n := 0
	base := 1 / float64(cfg.Players)
	for _, g := range games {
		if g.err != nil {
			return Calibration{}, g.err
		}
		out.Positions += len(g.chances)
		for i, w := range g.chances {
			for s, p := range w {
				y := g.result[s]
				b := min(9, int(p*10))
				out.Bins[b].Count++
				out.Bins[b].Mean += p
				out.Bins[b].Won += y
				mover := 0.0
				if s == g.movers[i] {
					mover = 1
				}
				out.Points = append(out.Points, [3]float64{math.Round(p*1000) / 1000, math.Round(y*1000) / 1000, mover})
				sq += (p - y) * (p - y)
				sqBase += (base - y) * (base - y)
				n++
			}
		}
		d := decidedAt(g)
		out.Decided = append(out.Decided, d)
		out.Lengths = append(out.Lengths, len(g.chances))
		if len(g.chances) > 0 {
			out.DecidedShare += float64(d) / float64(len(g.chances)) / float64(len(games))
		}
	}
	for b := range out.Bins {
		if c := out.Bins[b].Count; c > 0 {
			out.Bins[b].Mean /= float64(c)
			out.Bins[b].Won /= float64(c)
		}
	}
	if n > 0 {
		out.Brier, out.BrierBase = sq/float64(n), sqBase/float64(n)
	}
	return out, nil
}

// decidedAt is the move after which the winner's chance stayed at or
// above 90% (see Calibration.Decided).
func decidedAt(g calibrationGame) int {
	winner := -1
	for s, y := range g.result {
		if y == 1 {
			winner = s
		}
	}
	if winner < 0 {
		return len(g.chances) + 1
	}
	d := 0
	for i, w := range g.chances {
		if w[winner] < 0.9 {
			d = i + 1
		}
	}
	return d
}

// calibrationPlay plays game i of a run and judges its positions.
func calibrationPlay(ctx context.Context, cfg CalibrationConfig, i int) calibrationGame {
	seed := mix(cfg.Seed, uint64(i))
	st, err := engine.New(engine.Setup{Game: cfg.Game, Players: cfg.Players, Seed: seed, Options: cfg.Options})
	if err != nil {
		return calibrationGame{err: err}
	}
	var g calibrationGame
	for k := 0; !st.Over(); k++ {
		if k > 20000 {
			return calibrationGame{err: fmt.Errorf("calibrate: game %d does not end", i)}
		}
		ps := mix(seed, uint64(k)+1)
		p, err := ai.Analyze(ctx, st, cfg.Analysis, ps)
		if err != nil {
			return calibrationGame{err: err}
		}
		g.chances = append(g.chances, p.Win)
		g.movers = append(g.movers, int(p.Seat))
		text := p.Best
		if cfg.Self.Iterations > 0 {
			m, _, err := ai.Search(ctx, st, st.ToMove(), cfg.Self, ps^0x5eed)
			if err != nil {
				return calibrationGame{err: err}
			}
			text = m.String()
		}
		m, err := st.Parse(text)
		if err == nil {
			_, err = st.Apply(m)
		}
		if err != nil {
			return calibrationGame{err: fmt.Errorf("calibrate: game %d, move %d %q: %w", i, k+1, text, err)}
		}
	}
	g.result = make([]float64, st.Players())
	ws := st.Winners()
	for _, s := range ws {
		g.result[s] += 1 / float64(len(ws))
	}
	if len(ws) == 0 {
		for s := range g.result {
			g.result[s] = 1 / float64(len(g.result))
		}
	}
	return g
}

// Round rounds a report's numbers to 3 decimals for printing.
func (c Calibration) Round() Calibration {
	r := func(v float64) float64 { return math.Round(v*1000) / 1000 }
	c.Brier, c.BrierBase, c.DecidedShare = r(c.Brier), r(c.BrierBase), r(c.DecidedShare)
	for i := range c.Bins {
		c.Bins[i].Mean, c.Bins[i].Won = r(c.Bins[i].Mean), r(c.Bins[i].Won)
	}
	return c
}

// MergeCalibrations combines runs of one game (chunks run apart, with
// different seeds) into one report, as if their games had been one run's.
func MergeCalibrations(cs []Calibration) (Calibration, error) {
	if len(cs) == 0 {
		return Calibration{}, fmt.Errorf("calibrate: nothing to merge")
	}
	out := Calibration{Game: cs[0].Game, Players: cs[0].Players, Iterations: cs[0].Iterations, SelfPlay: cs[0].SelfPlay, Bins: make([]CalibrationBin, 10), Movers: true}
	for b := range out.Bins {
		out.Bins[b].Low, out.Bins[b].High = float64(b)/10, float64(b+1)/10
	}
	var sq, sqBase, share float64
	n := 0
	for _, c := range cs {
		if c.Game != out.Game || c.Players != out.Players || c.Iterations != out.Iterations || c.SelfPlay != out.SelfPlay || len(c.Bins) != 10 {
			return Calibration{}, fmt.Errorf("calibrate: runs of different games or budgets (%s/%d/%d, %s/%d/%d)", out.Game, out.Players, out.Iterations, c.Game, c.Players, c.Iterations)
		}
		k := 0
		for b, bin := range c.Bins {
			out.Bins[b].Count += bin.Count
			out.Bins[b].Mean += bin.Mean * float64(bin.Count)
			out.Bins[b].Won += bin.Won * float64(bin.Count)
			k += bin.Count
		}
		sq += c.Brier * float64(k)
		sqBase += c.BrierBase * float64(k)
		n += k
		out.Games += c.Games
		out.Positions += c.Positions
		out.Decided = append(out.Decided, c.Decided...)
		out.Lengths = append(out.Lengths, c.Lengths...)
		out.Points = append(out.Points, c.Points...)
		out.Movers = out.Movers && c.Movers
		share += c.DecidedShare * float64(c.Games)
	}
	for b := range out.Bins {
		if c := out.Bins[b].Count; c > 0 {
			out.Bins[b].Mean /= float64(c)
			out.Bins[b].Won /= float64(c)
		}
	}
	if n > 0 {
		out.Brier, out.BrierBase = sq/float64(n), sqBase/float64(n)
	}
	if out.Games > 0 {
		out.DecidedShare = share / float64(out.Games)
	}
	return out, nil
}

// Logistic is a calibration map of chances: a seat's chance p becomes
// σ(A·logit(p) + B), plus M inside the σ for the seat to move, whose own
// search gave the chances. A below 1 pulls overconfident chances towards
// the middle; M below 0 takes back what a search gives its own side
// (Glorieta's playouts favour the player who moves first in them).
//
// S, fitted only when asked (FitLogisticSeats), is added for the second
// seat of a two-player game: a balance between the seats that the search
// does not see.
type Logistic struct {
	A float64 `json:"a"`
	B float64 `json:"b"`
	M float64 `json:"m"`
	S float64 `json:"s,omitempty"`
}

// Apply maps one chance as the service does (ai.ChanceMap.Apply); mover
// says whether it is the chance of the seat to move.
func (l Logistic) Apply(p float64, mover bool) float64 { return ai.ChanceMap(l).Apply(p, mover) }

// applyTo maps a point's chance; second says it is the second seat's.
func (l Logistic) applyTo(pt [3]float64, second bool) float64 {
	return ai.ChanceMap(l).ApplySeat(pt[0], pt[2] == 1, second)
}

// second says whether point i of a report's points, which come a
// position's seats at a time in seat order, is the second seat's of a
// two-player game (seats 2); never for another count.
func second(i, seats int) bool { return seats == 2 && i%2 == 1 }

// FitLogistic fits a map to points [p, y, mover] by maximum likelihood
// (Newton's method on the log loss, y a share in [0, 1]), with the mover's
// term M when movers says the points carry it (else M stays 0); the
// identity (A 1) when there are too few points to fit, or when the fit
// runs away (|A| or |M| above maxSlope: the chances say nothing the
// results follow, and the likelihood has no finite maximum).
func FitLogistic(points [][3]float64, movers bool) Logistic {
	return FitLogisticSeats(points, movers, 0)
}

// FitLogisticSeats is FitLogistic that also fits S, the second seat's
// term, when seats is 2 (the points a position's two seats at a time, in
// seat order, as a report's are); another count fits no S.
func FitLogisticSeats(points [][3]float64, movers bool, seats int) Logistic {
	l := Logistic{A: 1}
	if len(points) < 20 {
		return l
	}
	// The terms fitted, in order: A, B, then M with movers, then S with
	// two seats.
	terms := []int{0, 1}
	if movers {
		terms = append(terms, 2)
	}
	if seats == 2 {
		terms = append(terms, 3)
	}
	k := len(terms)
	for range 50 {
		var g [4]float64
		var h [4][4]float64
		for i, pt := range points {
			p := min(1-1e-3, max(1e-3, pt[0]))
			sec := second(i, seats)
			all := [4]float64{math.Log(p / (1 - p)), 1, pt[2], 0}
			if sec {
				all[3] = 1
			}
			q := l.applyTo(pt, sec)
			d, w := q-pt[1], q*(1-q)
			for a, ta := range terms {
				g[a] += d * all[ta]
				for b, tb := range terms {
					h[a][b] += w * all[ta] * all[tb]
				}
			}
		}
		step, ok := solve(h, g, k)
		if !ok {
			break
		}
		var full [4]float64
		size := 0.0
		for a, ta := range terms {
			full[ta] = step[a]
			size += math.Abs(step[a])
		}
		l.A, l.B, l.M, l.S = l.A-full[0], l.B-full[1], l.M-full[2], l.S-full[3]
		if size < 1e-9 {
			break
		}
	}
	if math.IsNaN(l.A) || math.IsNaN(l.B) || math.IsNaN(l.M) || math.IsNaN(l.S) || math.Abs(l.A) > maxSlope || math.Abs(l.M) > maxSlope || math.Abs(l.S) > maxSlope {
		return Logistic{A: 1}
	}
	return l
}

// solve solves the k×k system h·x = g (k at most 4) by Gaussian
// elimination with partial pivoting; false when h is singular.
func solve(h [4][4]float64, g [4]float64, k int) ([4]float64, bool) {
	var x [4]float64
	for c := range k {
		piv := c
		for r := c + 1; r < k; r++ {
			if math.Abs(h[r][c]) > math.Abs(h[piv][c]) {
				piv = r
			}
		}
		if math.Abs(h[piv][c]) < 1e-12 {
			return x, false
		}
		h[c], h[piv] = h[piv], h[c]
		g[c], g[piv] = g[piv], g[c]
		for r := c + 1; r < k; r++ {
			f := h[r][c] / h[c][c]
			for j := c; j < k; j++ {
				h[r][j] -= f * h[c][j]
			}
			g[r] -= f * g[c]
		}
	}
	for r := k - 1; r >= 0; r-- {
		v := g[r]
		for j := r + 1; j < k; j++ {
			v -= h[r][j] * x[j]
		}
		x[r] = v / h[r][r]
	}
	return x, true
}

// maxSlope bounds a fitted map's A and M: beyond it the map makes every
// chance 0 or 1.
const maxSlope = 10

// Brier is the mean squared difference between the chances, mapped by
// l, and the results; the points are a report's (a position's seats at a
// time, in seat order) when l has a second seat's term.
func (l Logistic) Brier(points [][3]float64) float64 { return l.BrierSeats(points, 2) }

// BrierSeats is Brier for points of seats seats a position.
func (l Logistic) BrierSeats(points [][3]float64, seats int) float64 {
	if len(points) == 0 {
		return 0
	}
	sq := 0.0
	for i, pt := range points {
		d := l.applyTo(pt, second(i, seats)) - pt[1]
		sq += d * d
	}
	return sq / float64(len(points))
}

// Mapped is the report with every chance mapped by l: its bins and Brier
// score recomputed from its points (the other fields kept).
func (c Calibration) Mapped(l Logistic) Calibration {
	out := c
	out.Bins = make([]CalibrationBin, 10)
	for b := range out.Bins {
		out.Bins[b].Low, out.Bins[b].High = float64(b)/10, float64(b+1)/10
	}
	out.Points = nil
	for i, pt := range c.Points {
		p := l.applyTo(pt, second(i, c.Players))
		b := min(9, int(p*10))
		out.Bins[b].Count++
		out.Bins[b].Mean += p
		out.Bins[b].Won += pt[1]
		out.Points = append(out.Points, [3]float64{p, pt[1], pt[2]})
	}
	for b := range out.Bins {
		if k := out.Bins[b].Count; k > 0 {
			out.Bins[b].Mean /= float64(k)
			out.Bins[b].Won /= float64(k)
		}
	}
	out.Brier = l.BrierSeats(c.Points, c.Players)
	return out
}
