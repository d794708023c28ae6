package ai

import (
	"math"

	"tessera/engine"
)

// Calibration maps of the analysis's chances, per game: a seat's raw
// chance p becomes σ(A·logit(p) + B), with M added inside the σ for the
// seat to move (whose own search gave the chances), then the seats'
// chances are scaled to sum to 1 again. Each map is fitted by `tessera
// calibrate --merge --fit` on self-play games and kept only where it
// lowered the Brier score of games it was not fitted on (docs/ai.md,
// Calibration). A game without a map keeps its raw chances. A map is
// fitted at one analysis budget, and an analysis uses the one fitted
// nearest its own (FittedMap); where a game's only map was fitted at the
// default budget, an analysis of any budget uses it.
var chanceMaps = map[string][]FittedMap{
	// The 300 games of hard against hard, 27 November 2026
	// (docs/calibration/knotwork): fitted on half the runs (5,808
	// chances), the other half's Brier score 0.070 raw, 0.068 mapped.
	// Knotwork's raw chances are too timid (a seat given 70-80% won 96%
	// of the time). Its search hardly favours the mover (its chances
	// 0.492, the movers' wins 0.501): no M (fitted with one, 0.0678 held
	// out against 0.0680 without, docs/ai.md).
	"knotwork": {{Iterations: 10000, Map: ChanceMap{A: 1.81}}},
	// The 300 games of hard against hard, 27 November 2026
	// (docs/calibration/glorieta): fitted on half the runs (15,032
	// chances), the other half's Brier score 0.272 raw, 0.242 mapped (0.250
	// for always 1/2). Glorieta's raw chances are far too sure (a seat given
	// under 10% won 32% of the time) and favour the mover's own side (the
	// mover given 0.578 on average, movers won 0.494): A pulls them to the
	// middle, M takes back the mover's share. (The map of the first 150
	// games, whose chunks were lost, was A 0.30, B 0.14, M -0.28.)
	//
	// Refitted on 3 December 2026 with the second seat's term (`tessera
	// calibrate --merge --fit --seat`, the same runs): held out 0.2417
	// without it, 0.2322 with it. Between hard players the second seat
	// wins 69% of these games while the search gives the first half the
	// start (0.512 raw, 0.47 with the map before): S gives the second seat
	// its due, and a first seat now starts at about 0.33 (issue #49: a sum
	// that starts where the seat's chances really are). The map before
	// was A 0.27, B 0.13, M -0.26.
	"glorieta": {{Iterations: 10000, Map: ChanceMap{A: 0.267, B: -0.551, M: -0.246, S: 1.349}}},
	// The 300 games of hard against hard, 27 November 2026
	// (docs/calibration/elemental): fitted on half the runs (19,200
	// chances), the other half's Brier score 0.178 raw, 0.174 mapped (0.235
	// for always 1/2). Elemental's raw chances are too sure away from the
	// ends (a seat given 10-20% won 23% of the time, one given 20-30% won
	// 35%), and the seat to move is given too little (0.484 on average;
	// movers won 0.500): A pulls the chances to the middle, M gives the
	// mover back its share.
	"elemental": {
		{Iterations: 10000, Map: ChanceMap{A: 0.66, B: -0.09, M: 0.18}},
		// 300 games of mcts200 against itself at 300 iterations, 3 December
		// 2026 (docs/calibration/300/elemental): held out 0.1861 raw,
		// 0.1756 with the map above, 0.1723 with this one.
		{Iterations: 300, Map: ChanceMap{A: 0.467, B: -0.096, M: 0.192}},
	},
	"tilingking": {
		// The 300 games of hard against hard: the raw chances are
		// honest enough that no map helped (held out 0.093 raw).
		{Iterations: 10000, Raw: true},
		// 300 games of mcts200 against itself, every position judged with
		// 300 iterations, 3 December 2026 (docs/calibration/300/tilingking):
		// fitted on half the runs (6,576 chances), the other half's Brier
		// score 0.1215 raw, 0.1206 mapped (0.196 for always 1/2). At that
		// budget the chances are a little too sure (A) and the mover's a
		// little low (M); unmapped, the sums of issue #49's decomposition
		// missed their results by 0.074 on average over 200 games, mapped
		// by 0.031 (docs/ai.md, "What is measured").
		{Iterations: 300, Map: ChanceMap{A: 0.649, B: -0.040, M: 0.080}},
	},
}

// FittedMap is a calibration map with the analysis budget it was fitted
// at. How sure a search's chances are, and how much they lean to the seat
// to move, depends on its iterations (TilingKing's raw chances are honest
// at 10,000 and too sure at 300), so an analysis uses the map fitted
// nearest its own budget (ai.analysis_iterations, or the lab's).
type FittedMap struct {
	Iterations int // the analysis's iterations a position when fitted
	// Raw says the raw chances stood at that budget: no map lowered the
	// held-out Brier score.
	Raw bool
	Map ChanceMap
}

// mapFor is game's map fitted nearest iterations (on a log scale, so 1,000
// is as near 100 as 10,000; below 1, the default budget's), or false when
// the game has none.
func mapFor(game string, iterations int) (ChanceMap, bool) {
	maps := chanceMaps[game]
	if iterations < 1 {
		iterations = AnalysisBudget.Iterations
	}
	if len(maps) == 0 {
		return ChanceMap{}, false
	}
	best, dist := maps[0], math.Inf(1)
	for _, m := range maps {
		if d := math.Abs(math.Log(float64(max(1, m.Iterations))) - math.Log(float64(max(1, iterations)))); d < dist {
			best, dist = m, d
		}
	}
	return best.Map, !best.Raw
}

// ChanceMap is a calibration map of a seat's chance (see chanceMaps);
// tessera calibrate fits one (lab.FitLogistic). S is added inside the σ
// for the second seat of a two-player game: what the search does not see
// of the seats' own balance (Glorieta's second seat wins about two games
// in three between hard players, while the search gives the first seat
// half the start). It is fitted only with `tessera calibrate --fit
// --seat`, and is 0 in the other maps.
type ChanceMap struct{ A, B, M, S float64 }

// Apply maps one seat's chance p (clamped away from 0 and 1 first, so
// that a certain chance stays finite); mover says whether the seat is the
// one to move, whose own search gave the chance. It leaves out S: see
// ApplySeat.
func (m ChanceMap) Apply(p float64, mover bool) float64 { return m.ApplySeat(p, mover, false) }

// ApplySeat is Apply with second saying whether p is the chance of the
// second seat of a two-player game, which S moves.
func (m ChanceMap) ApplySeat(p float64, mover, second bool) float64 {
	p = min(1-1e-3, max(1e-3, p))
	x := m.A*math.Log(p/(1-p)) + m.B
	if mover {
		x += m.M
	}
	if second {
		x += m.S
	}
	return 1 / (1 + math.Exp(-x))
}

// Calibrated is win (one position's chances, as Analyze gives them from
// the search of mover, the seat to move, in an analysis of iterations a
// position) mapped by game's calibration map fitted nearest that budget,
// if it has one; a new slice either way.
func Calibrated(game string, iterations int, win []float64, mover engine.Seat) []float64 {
	out := append([]float64(nil), win...)
	m, ok := mapFor(game, iterations)
	if !ok || len(out) == 0 {
		return out
	}
	total := 0.0
	for s, p := range out {
		if p <= 0 || p >= 1 { // certain: a finished game, a win at once
			continue
		}
		out[s] = m.ApplySeat(p, engine.Seat(s) == mover, len(out) == 2 && s == 1)
	}
	for _, p := range out {
		total += p
	}
	if total > 0 {
		for s := range out {
			out[s] /= total
		}
	}
	return out
}
