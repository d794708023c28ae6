package ai

import "math"

// levelErrorRates are the AI levels' error rates per game: the mean
// chance a move of the level loses against the analysis's preferred move
// (Account.ErrorRate), measured by `tessera analyze --lab --seats LEVEL`
// on lab games between two players of the level, with the analysis's
// default budget (docs/calibration/errors.md says which runs). A verdict
// compares a player's rate with them (PlayedLike). A game without a row
// gets no level in its verdicts.
var levelErrorRates = map[string]map[Level]float64{
	// 10 games of easy against easy, 20 of normal against normal, seed 1;
	// hard: 3 games, 3 December (docs/calibration/errors).
	"knotwork": {Easy: 0.057, Normal: 0.020, Hard: 0.0023},
	// 4 games of easy, 6 of normal, 3 of hard, seed 1.
	"tilingking": {Easy: 0.033, Normal: 0.019, Hard: 0.0047},
	// 4 games of easy and of normal, 3 of hard, seed 1 (issue #49's
	// analysis with the quarter-budget searches where something is
	// hidden). Hard's rate is normal's: Elemental's errors are small at
	// both (the most points at once is nearly always the search's choice
	// too), and the verdict says the nearer, normal, for both.
	"elemental": {Easy: 0.0129, Normal: 0.0030, Hard: 0.0030},
	// 3 games each, seed 1, 3 December: measured again with the map's
	// second seat's term, which changed Glorieta's chances (normal's
	// rate was 0.039 over 4 games with the map before).
	"glorieta": {Easy: 0.045, Normal: 0.034, Hard: 0.0129},
	// 4 games of easy and of normal, 3 of hard, seed 1 (the quarter-budget
	// searches, as Elemental's).
	"closure": {Easy: 0.037, Normal: 0.016, Hard: 0.0135},
}

// PlayedLike is the AI level whose error rate in game is nearest rate
// (on a log scale: losing 2% a move is as far from 1% as 4% is from 2%),
// and whether the game's levels were measured. below says rate is more
// than the weakest level's by half again, above that it is less than
// the strongest's by half.
func PlayedLike(game string, rate float64) (l Level, below, above, ok bool) {
	rates, ok := levelErrorRates[game]
	if !ok || len(rates) == 0 {
		return 0, false, false, false
	}
	lr := math.Log(max(rate, 1e-4))
	best := math.Inf(1)
	weakest, strongest := Level(-1), Level(-1)
	for _, lv := range Levels {
		r, ok := rates[lv]
		if !ok {
			continue
		}
		if weakest < 0 {
			weakest = lv
		}
		strongest = lv
		if d := math.Abs(math.Log(max(r, 1e-4)) - lr); d < best {
			best, l = d, lv
		}
	}
	below = rate > 1.5*rates[weakest]
	above = rate < rates[strongest]/1.5
	return l, below, above, true
}
