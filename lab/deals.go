package lab

import (
	"bytes"
	"fmt"
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
	return d
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
	b.WriteString("\n## Who decided each deal\n\nEvery deal (seed) is played once in each seating. A deal is decided by a player when that player won it in every seat, by the seat when one seat won it whoever sat there (the deal and the seat decided, not the play); the rest are mixed (a shared win, or neither).\n\n")
	if an.DealsB != nil {
		b.WriteString("| deals decided by | A | B |\n|---|---|---|\n")
	} else {
		b.WriteString("| deals decided by | share [95%] | deals |\n|---|---|---|\n")
	}
	row := func(name string, a DealShare, other *DealShare) {
		fmt.Fprintf(b, "| %s | %.1f%% [%.1f, %.1f] |", name, 100*a.Rate, 100*a.Low, 100*a.High)
		if other != nil {
			fmt.Fprintf(b, " %.1f%% [%.1f, %.1f] |\n", 100*other.Rate, 100*other.Low, 100*other.High)
		} else {
			fmt.Fprintf(b, " %d of %d |\n", a.Count, an.Deals.Deals)
		}
	}
	pick := func(f func(*Deals) DealShare) *DealShare {
		if an.DealsB == nil {
			return nil
		}
		s := f(an.DealsB)
		return &s
	}
	for i, p := range an.Deals.ByPlayer {
		row("player "+p.Name, p, pick(func(d *Deals) DealShare { return d.ByPlayer[i] }))
	}
	row("the seat", an.Deals.BySeat, pick(func(d *Deals) DealShare { return d.BySeat }))
	row("mixed", an.Deals.Mixed, pick(func(d *Deals) DealShare { return d.Mixed }))
}
