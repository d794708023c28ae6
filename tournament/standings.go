package tournament

import (
	"sort"
	"strconv"
)

// Standing is one line of the standings.
type Standing struct {
	Rank      int        `json:"rank"` // 1 is first; players equal on everything are ordered by seed
	ID        string     `json:"id"`
	Points    float64    `json:"points"`
	TieBreaks []TieBreak `json:"tieBreaks"`
	Games     int        `json:"games"` // tables played (byes not counted)
}

// TieBreak is one tie-break's name and value.
type TieBreak struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
}

// Tie-break names, as the standings show them.
const (
	SonnebornBerger = "Sonneborn-Berger"
	DirectEncounter = "direct encounter"
	BuchholzCut1    = "Buchholz cut 1"
	OpponentsPoints = "opponents' points"
)

// TieBreakNames are the tie-breaks of a format, in the order they count:
// round robins Sonneborn-Berger then the direct encounters; Swiss events
// (and knockouts) Buchholz cut 1 then Sonneborn-Berger; Swiss tables the
// sum of the opponents' points.
func TieBreakNames(f Format) []string {
	switch f {
	case FormatRoundRobin, FormatDoubleRoundRobin:
		return []string{SonnebornBerger, DirectEncounter}
	case FormatTables:
		return []string{OpponentsPoints}
	default:
		return []string{BuchholzCut1, SonnebornBerger}
	}
}

// game is one played table from one player's side.
type game struct {
	opponents []string
	scored    float64 // the player's points at that table
	against   map[string]float64
}

// Standings ranks the event's players by points, then by the format's
// tie-breaks (TieBreakNames), then by seed. Unplayed tables count for
// nothing yet; byes score ByePoints.
//
//   - Sonneborn-Berger: for each played game, the player's points in it
//     times the opponent's total (a win counts the beaten player's total,
//     a draw half of it); byes add nothing.
//   - Direct encounter: among the players still equal on points and
//     Sonneborn-Berger, the points each scored in the games between them.
//   - Buchholz cut 1: the sum of the opponents' totals without the lowest
//     one; a bye counts as an opponent with the player's own total (so it
//     neither helps nor harms), and is the first cut when it is lowest.
//   - Opponents' points: at tables, the totals of everyone the player sat
//     with, summed over the tables played.
func Standings(e Event) ([]Standing, error) {
	if err := checkPlayers(e.Players); err != nil {
		return nil, err
	}
	if err := checkRounds(e); err != nil {
		return nil, err
	}
	seeded := Seeded(e.Players)
	seed := map[string]int{}
	for i, p := range seeded {
		seed[p.ID] = i
	}
	points := map[string]float64{}
	games := map[string][]game{}
	byes := map[string]int{}
	bye := ByePoints(e)
	for _, rd := range e.Played {
		for _, t := range rd.Tables {
			pts := Points(t)
			if pts == nil {
				continue
			}
			for i, id := range t.Seats {
				points[id] += pts[i]
				g := game{scored: pts[i], against: map[string]float64{}}
				for j, o := range t.Seats {
					if j != i {
						g.opponents = append(g.opponents, o)
						// Against one opponent at a bigger table, the
						// player scores 1 for finishing ahead, ½ for a
						// shared place.
						switch {
						case t.Places[i] < t.Places[j]:
							g.against[o] = 1
						case t.Places[i] == t.Places[j]:
							g.against[o] = 0.5
						default:
							g.against[o] = 0
						}
					}
				}
				games[id] = append(games[id], g)
			}
		}
		for _, id := range rd.Byes {
			points[id] += bye
			byes[id]++
		}
	}
	names := TieBreakNames(e.Format)
	out := make([]Standing, len(seeded))
	for i, p := range seeded {
		st := Standing{ID: p.ID, Points: points[p.ID], Games: len(games[p.ID])}
		for _, name := range names {
			v := 0.0
			switch name {
			case SonnebornBerger:
				for _, g := range games[p.ID] {
					for _, o := range g.opponents {
						v += g.against[o] * points[o]
					}
				}
			case BuchholzCut1:
				var opp []float64
				for _, g := range games[p.ID] {
					for _, o := range g.opponents {
						opp = append(opp, points[o])
					}
				}
				for b := 0; b < byes[p.ID]; b++ {
					opp = append(opp, points[p.ID])
				}
				sort.Float64s(opp)
				for k := 1; k < len(opp); k++ {
					v += opp[k]
				}
			case OpponentsPoints:
				for _, g := range games[p.ID] {
					for _, o := range g.opponents {
						v += points[o]
					}
				}
			}
			st.TieBreaks = append(st.TieBreaks, TieBreak{Name: name, Value: v})
		}
		out[i] = st
	}
	// The direct encounter is computed within each group still equal on
	// points and the tie-breaks before it.
	for k, name := range names {
		if name != DirectEncounter {
			continue
		}
		groups := map[string][]int{}
		for i, st := range out {
			groups[key(st, k)] = append(groups[key(st, k)], i)
		}
		for _, members := range groups {
			in := map[string]bool{}
			for _, i := range members {
				in[out[i].ID] = true
			}
			for _, i := range members {
				v := 0.0
				for _, g := range games[out[i].ID] {
					for _, o := range g.opponents {
						if in[o] && len(members) > 1 {
							v += g.against[o]
						}
					}
				}
				out[i].TieBreaks[k].Value = v
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Points != b.Points {
			return a.Points > b.Points
		}
		for k := range a.TieBreaks {
			if a.TieBreaks[k].Value != b.TieBreaks[k].Value {
				return a.TieBreaks[k].Value > b.TieBreaks[k].Value
			}
		}
		return seed[a.ID] < seed[b.ID]
	})
	for i := range out {
		out[i].Rank = i + 1
	}
	return out, nil
}

// key identifies a player's points and first k tie-breaks, to group those
// still equal.
func key(st Standing, k int) string {
	b := []byte{}
	b = appendFloat(b, st.Points)
	for _, tb := range st.TieBreaks[:k] {
		b = appendFloat(b, tb.Value)
	}
	return string(b)
}

func appendFloat(b []byte, f float64) []byte {
	return strconv.AppendFloat(append(b, '/'), f, 'g', -1, 64)
}
