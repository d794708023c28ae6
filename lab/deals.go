package lab

import (
	"bytes"
	"fmt"
	"math"
	"sort"
)

// Every deal (a game's seed) is played once in each seating: the players
// rotate over the same seed (Config.setup). So a deal whose games all have
// a sole winner says who decided it: one player won it in every seat (the
// players decided), or one seat won it whoever sat there (the deal and the
// seat decided, not the play), or neither. Between two equal players the
// seat's share shows how much the deal and the seat decide the game on
// their own; between a strong and a weak player it shows the deals no
// skill turned, the ceiling that luck puts on a win rate.

// Deals is the split of a run's complete deals.
type Deals struct {
	Deals int `json:"deals"` // deals played in every seating
	// ByPlayer[p]: deals player p (an index in Config.Seats) won in every
	// seating.
	ByPlayer []DealShare `json:"by_player"`
	// BySeat: deals one seat won in every seating, whoever sat there.
	BySeat DealShare `json:"by_seat"`
	// Mixed: the rest (a shared win in one of the games, or wins that
	// follow neither a player nor a seat; with 3 or 4 players, most).
	Mixed DealShare `json:"mixed"`
	// Chance is what the same split would be if the deal did not matter:
	// every game independent, each player winning in each seat as often as
	// it did in the run (so a seat's advantage is not counted as the
	// deal's). The deal decides more than chance when BySeat is above
	// Chance.BySeat.
	Chance DealChance `json:"chance"`
}

// DealChance is the split expected of independent games.
type DealChance struct {
	ByPlayer []float64 `json:"by_player"`
	BySeat   float64   `json:"by_seat"`
}

// DealShare is a count of deals with its share of Deals and the share's
// 95% Wilson interval.
type DealShare struct {
	Name  string  `json:"name,omitempty"`
	Count int     `json:"count"`
	Rate  float64 `json:"rate"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
}

// dealSplit computes Deals from a run's records (a stopped run's
// incomplete deals are left out). Nil when no deal is complete.
func dealSplit(cfg Config, records []Record) *Deals {
	n := cfg.Players
	byDeal := map[int][]Record{}
	for _, r := range records {
		byDeal[r.Index/n] = append(byDeal[r.Index/n], r)
	}
	var ids []int
	for id, rs := range byDeal {
		if len(rs) == n {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	sort.Ints(ids)
	byPlayer := make([]int, len(cfg.Seats))
	bySeat, mixed := 0, 0
	for _, id := range ids {
		player, seat := -1, -1
		samePlayer, sameSeat := true, true
		for i, r := range byDeal[id] {
			if len(r.Winners) != 1 {
				samePlayer, sameSeat = false, false
				break
			}
			s := r.Winners[0]
			p := r.Players[s]
			if i == 0 {
				player, seat = p, s
				continue
			}
			samePlayer = samePlayer && p == player
			sameSeat = sameSeat && s == seat
		}
		switch {
		case samePlayer: // a player in every seat: its seats differ, so not sameSeat
			byPlayer[player]++
		case sameSeat:
			bySeat++
		default:
			mixed++
		}
	}
	d := &Deals{Deals: len(ids)}
	for p, c := range byPlayer {
		d.ByPlayer = append(d.ByPlayer, share(fmt.Sprintf("%d:%s", p+1, cfg.Seats[p]), c, len(ids)))
	}
	d.BySeat = share("", bySeat, len(ids))
	d.Mixed = share("", mixed, len(ids))
	d.Chance = chance(cfg, records)
	return d
}

// chance is the split of independent games with the run's sole-win rates
// of each player in each seat: a player takes a deal with the product of
// its rates over the seats, a seat with the product over the players.
func chance(cfg Config, records []Record) DealChance {
	n := cfg.Players
	wins := make([][]float64, len(cfg.Seats)) // [player][seat]
	games := make([][]float64, len(cfg.Seats))
	for p := range wins {
		wins[p], games[p] = make([]float64, n), make([]float64, n)
	}
	for _, r := range records {
		for s, p := range r.Players {
			games[p][s]++
			if len(r.Winners) == 1 && r.Winners[0] == s {
				wins[p][s]++
			}
		}
	}
	rate := func(p, s int) float64 {
		if games[p][s] == 0 {
			return 0
		}
		return wins[p][s] / games[p][s]
	}
	c := DealChance{ByPlayer: make([]float64, len(cfg.Seats))}
	for p := range cfg.Seats {
		c.ByPlayer[p] = 1
		for s := 0; s < n; s++ {
			c.ByPlayer[p] *= rate(p, s)
		}
	}
	for s := 0; s < n; s++ {
		x := 1.0
		for p := range cfg.Seats {
			x *= rate(p, s)
		}
		c.BySeat += x
	}
	return c
}

func share(name string, count, of int) DealShare {
	lo, hi := Wilson(float64(count), of, z95)
	return DealShare{Name: name, Count: count, Rate: float64(count) / float64(of), Low: lo, High: hi}
}

// dealsSection writes the deals' split into a report.
func dealsSection(b *bytes.Buffer, an Analysis) {
	if an.Deals == nil {
		return
	}
	b.WriteString("\n## Who decided each deal\n\nEvery deal (seed) is played once in each seating. A deal is decided by a player when that player won it in every seat, by the seat when one seat won it whoever sat there; the rest are mixed (a shared win, or neither). \"By chance\" is the share expected if the deal did not matter (every game independent, each player winning in each seat as often as in the run): a seat share well above it means the deal decides games.\n\n")
	if an.DealsB != nil {
		b.WriteString("| deals decided by | A | by chance | B | by chance |\n|---|---|---|---|---|\n")
	} else {
		b.WriteString("| deals decided by | share [95%] | deals | by chance |\n|---|---|---|---|\n")
	}
	row := func(name string, a DealShare, other *DealShare, ca, cb float64) {
		fmt.Fprintf(b, "| %s | %.1f%% [%.1f, %.1f] |", name, 100*a.Rate, 100*a.Low, 100*a.High)
		if other != nil {
			fmt.Fprintf(b, " %s | %.1f%% [%.1f, %.1f] | %s |\n", pct(ca), 100*other.Rate, 100*other.Low, 100*other.High, pct(cb))
		} else {
			fmt.Fprintf(b, " %d of %d | %s |\n", a.Count, an.Deals.Deals, pct(ca))
		}
	}
	pick := func(f func(*Deals) DealShare) *DealShare {
		if an.DealsB == nil {
			return nil
		}
		s := f(an.DealsB)
		return &s
	}
	chanceB := func(f func(DealChance) float64) float64 {
		if an.DealsB == nil {
			return math.NaN()
		}
		return f(an.DealsB.Chance)
	}
	for i, p := range an.Deals.ByPlayer {
		row("player "+p.Name, p, pick(func(d *Deals) DealShare { return d.ByPlayer[i] }),
			an.Deals.Chance.ByPlayer[i], chanceB(func(c DealChance) float64 { return c.ByPlayer[i] }))
	}
	row("the seat", an.Deals.BySeat, pick(func(d *Deals) DealShare { return d.BySeat }),
		an.Deals.Chance.BySeat, chanceB(func(c DealChance) float64 { return c.BySeat }))
	row("mixed", an.Deals.Mixed, pick(func(d *Deals) DealShare { return d.Mixed }), math.NaN(), math.NaN())
}

func pct(x float64) string {
	if math.IsNaN(x) {
		return ""
	}
	return fmt.Sprintf("%.1f%%", 100*x)
}
