package ai

import "math"

// Calibration maps of the analysis's chances, per game: a seat's raw
// chance p becomes σ(A·logit(p) + B), then the seats' chances are scaled
// to sum to 1 again. Each map is fitted by `tessera calibrate --merge
// --fit` on self-play games at the default budget and kept only where it
// lowered the Brier score of games it was not fitted on (docs/ai.md,
// Calibration). A game without a map keeps its raw chances.
var chanceMaps = map[string]struct{ A, B float64 }{}

// Calibrated is win (one position's chances, as Analyze gives them) mapped
// by game's calibration map, if it has one; a new slice either way.
func Calibrated(game string, win []float64) []float64 {
	out := append([]float64(nil), win...)
	m, ok := chanceMaps[game]
	if !ok || len(out) == 0 {
		return out
	}
	total := 0.0
	for s, p := range out {
		if p <= 0 || p >= 1 { // certain: a finished game, a win at once
			continue
		}
		p = min(1-1e-3, max(1e-3, p))
		out[s] = 1 / (1 + math.Exp(-(m.A*math.Log(p/(1-p)) + m.B)))
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
