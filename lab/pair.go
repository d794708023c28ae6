package lab

import (
	"fmt"
	"math"
	"slices"
)

// Pair compares two runs of the same deals and seatings (the same game,
// players and seed) whose line-ups or options differ: for each place of
// Config.Seats, its player's win rate and margin (its final score less the
// best other seat's) in each run, and B − A paired game by game, so that
// a deal's luck and the seat's advantage cancel. A difference of a few
// points is easier to see so than by two win rates, whose intervals are
// as wide as the deals are unequal. Only games both runs played count
// toward the differences (a stopped run may lack some).
func Pair(a, b Report) ([]Measure, error) {
	ca, cb := a.Config, b.Config
	if ca.Game != cb.Game || ca.Players != cb.Players || ca.Seed != cb.Seed || len(ca.Seats) != ca.Players || len(cb.Seats) != cb.Players {
		return nil, fmt.Errorf("cannot pair %s with %s: only runs of the same game, players and seed play the same deals", describe(ca), describe(cb))
	}
	byIndex := map[int]Record{}
	for _, r := range b.Records {
		byIndex[r.Index] = r
	}
	for _, r := range a.Records {
		if o, ok := byIndex[r.Index]; ok && (o.Seed != r.Seed || !slices.Equal(o.Players, r.Players)) {
			return nil, fmt.Errorf("game %d was dealt or seated differently in the two runs: they cannot be paired", r.Index+1)
		}
	}
	measures := []struct {
		name  string
		rate  bool
		value func(r Record, seat int) float64
	}{
		{"win rate", true, Record.Share},
		{"margin over the best other", false, func(r Record, seat int) float64 {
			best := math.MinInt
			for s, v := range r.Final {
				if s != seat {
					best = max(best, v)
				}
			}
			if seat >= len(r.Final) || best == math.MinInt {
				return math.NaN()
			}
			return float64(r.Final[seat] - best)
		}},
	}
	var out []Measure
	for k := range ca.Players {
		for _, m := range measures {
			of := func(records []Record) perGame {
				p := perGame{name: m.name, rate: m.rate, least: math.Inf(-1), most: math.Inf(1)}
				if m.rate {
					p.least, p.most = 0, 1
				}
				for _, r := range records {
					v := math.NaN()
					if seat := slices.Index(r.Players, k); seat >= 0 {
						v = m.value(r, seat)
					}
					p.values = append(p.values, v)
				}
				return p
			}
			va, vb := of(a.Records), of(b.Records)
			ea, eb := estimate(va), estimate(vb)
			d := difference(pairs(a.Records, va.values, b.Records, vb.values))
			name := fmt.Sprintf("%d:%s", k+1, ca.Seats[k])
			if cb.Seats[k] != ca.Seats[k] {
				name += " → " + cb.Seats[k]
			}
			out = append(out, Measure{Name: name + ", " + m.name, Rate: m.rate, Stat: ea, Other: &eb, Diff: &d})
		}
	}
	return out, nil
}
