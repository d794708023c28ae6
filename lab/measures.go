package lab

import (
	"fmt"
	"math"
	"sort"
)

// A measure is one number a designer reads, computed from one value per
// game (a game where it does not apply gives NaN and is left out). Rates
// are 0/1 (or a share) per game and get a Wilson interval; other measures
// are means with a normal interval (mean ± 1.96 standard errors), cut to
// the values the measure can take (a count is never below 0).
type Measure struct {
	Name  string    `json:"name"`
	Rate  bool      `json:"rate"`
	Stat  Estimate  `json:"a"`
	Other *Estimate `json:"b,omitempty"`    // the --compare run
	Diff  *Estimate `json:"diff,omitempty"` // b - a over the games both define, paired by seed
}

// Estimate is a value with its 95% interval and how many games it rests on.
type Estimate struct {
	Value float64 `json:"value"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
	N     int     `json:"n"`
}

// perGame is a measure's name, whether it is a rate, and its value in each
// game.
type perGame struct {
	name   string
	rate   bool
	values []float64
	// least and most are the values a game can give: 0 and +Inf for a
	// count or a length, 0 and 1 for a rate or a share of the game.
	least, most float64
}

// turns splits a game's plies into turns: a turn is a run of consecutive
// moves by the same seat (a Glorieta handful, a TilingKing double move).
func turns(r Record) [][2]int {
	var out [][2]int
	for i := range r.Movers {
		if i == 0 || r.Movers[i] != r.Movers[i-1] {
			out = append(out, [2]int{i, i + 1})
		} else {
			out[len(out)-1][1] = i + 1
		}
	}
	return out
}

// leader is the seat with the strictly highest score, or -1 on a tie.
func leader(scores []int) int {
	best, who := math.MinInt, -1
	for s, v := range scores {
		switch {
		case v > best:
			best, who = v, s
		case v == best:
			who = -1
		}
	}
	return who
}

// leadChanges counts how often the sole leader becomes another seat
// (a tie in between is not a change by itself), and lateLead is the point
// of the game, from 0 to 1, after which the eventual sole winner led alone
// to the end (NaN when the winner did not lead on score at the end: a win
// by another rule, or a shared win).
func leadChanges(r Record) (changes float64, lateLead float64) {
	last := -1
	for _, sc := range r.Scores {
		if l := leader(sc); l >= 0 {
			if last >= 0 && l != last {
				changes++
			}
			last = l
		}
	}
	lateLead = math.NaN()
	if len(r.Winners) != 1 || len(r.Scores) == 0 {
		return changes, lateLead
	}
	w := r.Winners[0]
	i := len(r.Scores)
	for i > 0 && leader(r.Scores[i-1]) == w {
		i--
	}
	if i == len(r.Scores) {
		return changes, lateLead
	}
	return changes, float64(i) / float64(len(r.Scores))
}

// margin is the final top score minus the next (0 with one seat).
func margin(final []int) float64 {
	s := append([]int(nil), final...)
	sort.Sort(sort.Reverse(sort.IntSlice(s)))
	if len(s) < 2 {
		return math.NaN()
	}
	return float64(s[0] - s[1])
}

const (
	lengthMoves = "length in moves"
	marginName  = "margin (top score minus next)"
)

// perGameValues computes every measure's value in every game. reasons is
// the list of end reasons to count (the union over the runs compared).
func perGameValues(players int, records []Record, reasons []string) []perGame {
	col := func(name string, rate bool, f func(Record) float64) perGame {
		// Every measure here is a rate, a count or a length, all at
		// least 0; a share of the game is at most 1 (ofGame).
		p := perGame{name: name, rate: rate, least: 0, most: math.Inf(1)}
		if rate {
			p.most = 1
		}
		for _, r := range records {
			p.values = append(p.values, f(r))
		}
		return p
	}
	var out []perGame
	for s := range players {
		out = append(out, col(fmt.Sprintf("seat %d win rate", s+1), true, func(r Record) float64 { return r.Share(s) }))
	}
	// Some games decide who starts by a draw (Closure), so a seat is not
	// the first mover: this is the first-move advantage itself.
	out = append(out, col("first mover win rate", true, func(r Record) float64 {
		if len(r.Movers) == 0 {
			return math.NaN()
		}
		return r.Share(r.Movers[0])
	}))
	out = append(out,
		col("shared win (draw)", true, func(r Record) float64 { return b2f(len(r.Winners) > 1) }),
		col("no winner", true, func(r Record) float64 { return b2f(len(r.Winners) == 0) }))
	for _, why := range reasons {
		out = append(out, col("ends: "+why, true, func(r Record) float64 { return b2f(r.EndReason == why) }))
	}
	out = append(out,
		col(lengthMoves, false, func(r Record) float64 { return float64(len(r.Moves)) }),
		col("length in turns", false, func(r Record) float64 { return float64(len(turns(r))) }),
		col("mean legal moves per move", false, func(r Record) float64 { return mean(ints(r.Legal)) }),
		col("lead changes", false, func(r Record) float64 { c, _ := leadChanges(r); return c }),
		ofGame(col("winner leads for good from (0=start, 1=end)", false, func(r Record) float64 { _, l := leadChanges(r); return l })),
		col(marginName, false, func(r Record) float64 { return margin(r.Final) }))
	return out
}

// ofGame marks a measure as a share of the game, at most 1.
func ofGame(p perGame) perGame {
	p.most = 1
	return p
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func ints(xs []int) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = float64(x)
	}
	return out
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// estimate is the value of one measure over the games that define it.
func estimate(p perGame) Estimate {
	var xs []float64
	for _, v := range p.values {
		if !math.IsNaN(v) {
			xs = append(xs, v)
		}
	}
	e := Estimate{N: len(xs)}
	if len(xs) == 0 {
		return e
	}
	e.Value = mean(xs)
	if p.rate {
		e.Low, e.High = Wilson(e.Value*float64(len(xs)), len(xs), z95)
		return e
	}
	// The normal interval of a mean of few skewed counts reaches values
	// no game can give ("lead changes 1.17 [-0.47, 2.80]"): it is cut
	// to the possible ones.
	e.Low, e.High = normal(xs, e.Value)
	e.Low, e.High = math.Max(e.Low, p.least), math.Min(e.High, p.most)
	return e
}

// normal is the mean's 95% interval from its standard error.
func normal(xs []float64, m float64) (lo, hi float64) {
	if len(xs) < 2 {
		return m, m
	}
	ss := 0.0
	for _, x := range xs {
		ss += (x - m) * (x - m)
	}
	se := math.Sqrt(ss/float64(len(xs)-1)) / math.Sqrt(float64(len(xs)))
	return m - z95*se, m + z95*se
}

// difference is b - a over the games both define, paired game by game: the
// compared runs play the same seeds, so a game's luck cancels. Its
// interval is the normal one of the paired differences (for rates too).
func difference(a, b []float64) Estimate {
	var d []float64
	for i := range min(len(a), len(b)) {
		if !math.IsNaN(a[i]) && !math.IsNaN(b[i]) {
			d = append(d, b[i]-a[i])
		}
	}
	e := Estimate{N: len(d)}
	if len(d) == 0 {
		return e
	}
	e.Value = mean(d)
	e.Low, e.High = normal(d, e.Value)
	return e
}

// Branch is the branching factor at one turn: the mean number of legal
// moves of the moves made in turn Turn (1-based), over the Games that
// lasted that long.
type Branch struct {
	Turn  int     `json:"turn"`
	Mean  float64 `json:"mean"`
	Games int     `json:"games"`
}

func branching(records []Record) []Branch {
	var sum []float64
	var n []int
	for _, r := range records {
		for t, span := range turns(r) {
			if t == len(sum) {
				sum, n = append(sum, 0), append(n, 0)
			}
			sum[t] += mean(ints(r.Legal[span[0]:span[1]]))
			n[t]++
		}
	}
	out := make([]Branch, len(sum))
	for t := range sum {
		out[t] = Branch{Turn: t + 1, Mean: sum[t] / float64(n[t]), Games: n[t]}
	}
	return out
}

// Histogram counts whole-number values in bins of Width from Start.
type Histogram struct {
	Start  int   `json:"start"`
	Width  int   `json:"width"`
	Counts []int `json:"counts"`
}

// histogram bins whole numbers into at most about 30 bins; lo and hi are
// the range to cover (shared by both runs of a comparison, so their
// pictures line up).
func histogram(values []float64, lo, hi int) Histogram {
	w := max(1, (hi-lo+30)/30)
	h := Histogram{Start: lo - lo%w, Width: w}
	h.Counts = make([]int, (hi-h.Start)/w+1)
	for _, v := range values {
		if math.IsNaN(v) {
			continue
		}
		h.Counts[(int(v)-h.Start)/w]++
	}
	return h
}
