package lab

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"

	"tessera/engine"
)

// Analysis is what a designer reads about a run, or about two runs of the
// same seeds under two option sets (--compare). It holds no times, so the
// same command and seed give the same bytes.
type Analysis struct {
	Game    string            `json:"game"`
	Players int               `json:"players"`
	Seats   []string          `json:"seats"`
	Seed    uint64            `json:"seed"`
	Games   int               `json:"games"`  // asked for
	Played  int               `json:"played"` // finished (fewer when stopped)
	Options map[string]string `json:"options,omitempty"`
	// Compare is the second run's option set (nil without --compare).
	Compare    map[string]string `json:"compare,omitempty"`
	PlayedB    int               `json:"played_b,omitempty"`
	Standings  []Standing        `json:"standings"`
	StandingsB []Standing        `json:"standings_b,omitempty"`
	Balance    float64           `json:"balance"` // the largest |seat win rate - 1/players|
	BalanceB   *float64          `json:"balance_b,omitempty"`
	Measures   []Measure         `json:"measures"`
	Branching  []Branch          `json:"branching"`
	BranchingB []Branch          `json:"branching_b,omitempty"`
	Lengths    Histogram         `json:"length_histogram"`
	LengthsB   *Histogram        `json:"length_histogram_b,omitempty"`
	Margins    Histogram         `json:"margin_histogram"`
	MarginsB   *Histogram        `json:"margin_histogram_b,omitempty"`
	Capped     int               `json:"capped,omitempty"`
	// Deals says who decided each deal (deals.go); DealsB for --compare.
	Deals  *Deals `json:"deals,omitempty"`
	DealsB *Deals `json:"deals_b,omitempty"`
}

// Analyze computes the designers' measures of a run, and with b (a run of
// the same seeds and seats under other options) each measure's difference.
func Analyze(a Report, b *Report) Analysis {
	cfg := a.Config
	an := Analysis{Game: cfg.Game, Players: cfg.Players, Seats: cfg.Seats, Seed: cfg.Seed, Games: cfg.Games,
		Played: len(a.Records), Options: cfg.Options, Standings: a.Players, Capped: a.Capped}
	reasons := endReasons(a.Records)
	if b != nil {
		an.Compare = b.Config.Options
		if an.Compare == nil {
			an.Compare = map[string]string{}
		}
		an.PlayedB = len(b.Records)
		an.StandingsB = b.Players
		an.Capped += b.Capped
		reasons = endReasons(append(append([]Record(nil), a.Records...), b.Records...))
	}
	va := perGameValues(cfg.Players, a.Records, reasons)
	var vb []perGame
	if b != nil {
		vb = perGameValues(cfg.Players, b.Records, reasons)
	}
	for i, m := range va {
		ms := Measure{Name: m.name, Rate: m.rate, Stat: estimate(m)}
		if b != nil {
			o := estimate(vb[i])
			d := difference(pairs(a.Records, m.values, b.Records, vb[i].values))
			ms.Other, ms.Diff = &o, &d
		}
		an.Measures = append(an.Measures, ms)
	}
	an.Balance = balance(an.Measures[:cfg.Players], false)
	an.Branching = branching(a.Records)
	lens := column(va, lengthMoves)
	margins := column(va, marginName)
	lo, hi := span(lens, nil)
	mlo, mhi := span(margins, nil)
	if b != nil {
		bb := balance(an.Measures[:cfg.Players], true)
		an.BalanceB = &bb
		an.BranchingB = branching(b.Records)
		lo, hi = span(lens, column(vb, lengthMoves))
		mlo, mhi = span(margins, column(vb, marginName))
		lh := histogram(column(vb, lengthMoves), lo, hi)
		mh := histogram(column(vb, marginName), mlo, mhi)
		an.LengthsB, an.MarginsB = &lh, &mh
	}
	an.Lengths = histogram(lens, lo, hi)
	an.Margins = histogram(margins, mlo, mhi)
	an.Deals = dealSplit(cfg, a.Records)
	if b != nil {
		an.DealsB = dealSplit(b.Config, b.Records)
	}
	return an
}

// pairs lines up two runs' values by game index (a stopped run may lack
// some games), so each difference compares the same seed and seating.
func pairs(ra []Record, a []float64, rb []Record, b []float64) ([]float64, []float64) {
	byIndex := map[int]float64{}
	for i, r := range rb {
		byIndex[r.Index] = b[i]
	}
	var xa, xb []float64
	for i, r := range ra {
		if v, ok := byIndex[r.Index]; ok {
			xa, xb = append(xa, a[i]), append(xb, v)
		}
	}
	return xa, xb
}

func balance(seats []Measure, other bool) float64 {
	worst := 0.0
	for _, m := range seats {
		e := m.Stat
		if other {
			e = *m.Other
		}
		if e.N == 0 { // no game played (stopped at once): no imbalance seen
			continue
		}
		worst = math.Max(worst, math.Abs(e.Value-1/float64(len(seats))))
	}
	return worst
}

func endReasons(records []Record) []string {
	seen := map[string]bool{}
	for _, r := range records {
		if r.EndReason != "" {
			seen[r.EndReason] = true
		}
	}
	var out []string
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func span(a, b []float64) (lo, hi int) {
	lo, hi = math.MaxInt, 0
	for _, v := range append(append([]float64(nil), a...), b...) {
		if math.IsNaN(v) {
			continue
		}
		lo, hi = min(lo, int(v)), max(hi, int(v))
	}
	if lo > hi {
		return 0, 0
	}
	return lo, hi
}

// JSON is the analysis as indented JSON, every number in it.
func (an Analysis) JSON() []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(an); err != nil {
		panic(err) // only floats and strings: NaN never reaches here
	}
	return buf.Bytes()
}

// OptionText is a lab run's options as a report names them: sorted
// "name=value" words, or "defaults".
func OptionText(o map[string]string) string {
	if len(o) == 0 {
		return "defaults"
	}
	return strings.Join(engine.OptionWords(o), " ")
}

// IntervalText is a value with its 95% interval, as the report prints it:
// "52.0% [41.2, 62.6]" for a rate, "1.17 [0.00, 2.80]" for a mean.
func IntervalText(e Estimate, rate bool) string { return interval(e, rate) }

// DiffText is the measure's difference B − A with its 95% interval, as
// the report prints it ("–" when no game defines it in both runs).
func (m Measure) DiffText() string {
	if m.Diff == nil || m.Diff.N == 0 {
		return "–"
	}
	if m.Rate {
		return fmt.Sprintf("%+.1f%% [%+.1f, %+.1f]", 100*m.Diff.Value, 100*m.Diff.Low, 100*m.Diff.High)
	}
	return fmt.Sprintf("%+.2f [%+.2f, %+.2f]", m.Diff.Value, m.Diff.Low, m.Diff.High)
}

func interval(e Estimate, rate bool) string {
	if e.N == 0 {
		return "–"
	}
	if rate {
		return fmt.Sprintf("%.1f%% [%.1f, %.1f]", 100*e.Value, 100*e.Low, 100*e.High)
	}
	return fmt.Sprintf("%.2f [%.2f, %.2f]", e.Value, e.Low, e.High)
}

// Markdown is the report a designer reads: the measures in one table, the
// branching factor by turn, and the pictures' file names.
func (an Analysis) Markdown(pictures []string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s, %d players: lab report\n\n", an.Game, an.Players)
	fmt.Fprintf(&b, "Players by seat (rotated every game): %s. Seed %d. %d of %d games played", strings.Join(an.Seats, ", "), an.Seed, an.Played, an.Games)
	if an.Compare != nil {
		fmt.Fprintf(&b, " with **A** = %s, and %d with **B** = %s on the same seeds", OptionText(an.Options), an.PlayedB, OptionText(an.Compare))
	} else {
		fmt.Fprintf(&b, " with %s", OptionText(an.Options))
	}
	b.WriteString(".\n\n")
	if an.Capped > 0 {
		fmt.Fprintf(&b, "%d AI moves were cut short by the time cap: this report depends on the machine.\n\n", an.Capped)
	}
	b.WriteString("Rates have 95% Wilson intervals; means have 95% normal intervals (±1.96 standard errors), cut to the values a game can give (a count is never below 0). A shared win of k seats counts 1/k to each. Balance is the largest distance of a seat's win rate from a fair share.\n\n")
	if an.Compare != nil {
		b.WriteString("The difference is B − A over the games both runs played, paired by seed and seating, with a 95% normal interval; an interval that excludes 0 is a real effect at that level.\n\n")
		b.WriteString("| measure | A | B | B − A |\n|---|---|---|---|\n")
		fmt.Fprintf(&b, "| balance | %.1f%% | %.1f%% | |\n", 100*an.Balance, 100**an.BalanceB)
		for _, m := range an.Measures {
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", m.Name, interval(m.Stat, m.Rate), interval(*m.Other, m.Rate), m.DiffText())
		}
	} else {
		b.WriteString("| measure | value [95% interval] | games |\n|---|---|---|\n")
		fmt.Fprintf(&b, "| balance | %.1f%% | %d |\n", 100*an.Balance, an.Played)
		for _, m := range an.Measures {
			fmt.Fprintf(&b, "| %s | %s | %d |\n", m.Name, interval(m.Stat, m.Rate), m.Stat.N)
		}
	}
	b.WriteString("\n## Players\n\n| player | games | wins | shared | losses | win rate [95%] |\n|---|---|---|---|---|---|\n")
	for _, s := range an.Standings {
		fmt.Fprintf(&b, "| %s%s | %d | %d | %d | %d | %.1f%% [%.1f, %.1f] |\n", runTag(an, "A "), s.Name, s.Games, s.Wins, s.Draws, s.Losses, 100*s.Rate, 100*s.Low, 100*s.High)
	}
	for _, s := range an.StandingsB {
		fmt.Fprintf(&b, "| B %s | %d | %d | %d | %d | %.1f%% [%.1f, %.1f] |\n", s.Name, s.Games, s.Wins, s.Draws, s.Losses, 100*s.Rate, 100*s.Low, 100*s.High)
	}
	dealsSection(&b, an)
	b.WriteString("\n## Branching factor by turn\n\nMean legal moves of the moves made in turn t (a turn is one seat's consecutive moves), over the games that lasted that long.\n\n")
	if an.Compare != nil {
		b.WriteString("| turn | A | games | B | games |\n|---|---|---|---|---|\n")
	} else {
		b.WriteString("| turn | legal moves | games |\n|---|---|---|\n")
	}
	// Every turn: sampling every other one showed, with two seats taking
	// turns, one seat's branching only.
	rows := max(len(an.Branching), len(an.BranchingB))
	for t := 0; t < rows; t++ {
		fmt.Fprintf(&b, "| %d | %s |", t+1, branchCell(an.Branching, t))
		if an.Compare != nil {
			fmt.Fprintf(&b, " %s |", branchCell(an.BranchingB, t))
		}
		b.WriteString("\n")
	}
	if len(pictures) > 0 {
		b.WriteString("\n## Pictures\n\n")
		for _, p := range pictures {
			fmt.Fprintf(&b, "![%s](%s)\n", strings.TrimSuffix(p, ".png"), p)
		}
	}
	return b.Bytes()
}

// column is the per-game values of the named measure.
func column(ps []perGame, name string) []float64 {
	for _, p := range ps {
		if p.name == name {
			return p.values
		}
	}
	panic("lab: no measure " + name)
}

func runTag(an Analysis, tag string) string {
	if an.Compare != nil {
		return tag
	}
	return ""
}

func branchCell(bs []Branch, t int) string {
	if t >= len(bs) {
		return "– | 0"
	}
	return fmt.Sprintf("%.1f | %d", bs[t].Mean, bs[t].Games)
}
