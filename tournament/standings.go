package tournament

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Standing is one line of the standings.
type Standing struct {
	Rank      int        `json:"rank"` // 1 is first; players equal on everything are ordered by lot
	ID        string     `json:"id"`
	Points    float64    `json:"points"`
	TieBreaks []TieBreak `json:"tieBreaks"`
	Games     int        `json:"games"` // games played over the board (byes and forfeits not counted)
}

// TieBreak is one tie-break's name and value.
type TieBreak struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
}

// The tie-breaks, by the acronyms of FIDE's Tie-Break Regulations
// (Handbook C.07, as amended in force from 1 March 2026). An event's
// list is Event.TieBreaks, chosen by the organiser at new, else its
// format's DefaultTieBreaks.
const (
	TBBuchholz        = "BH"    // C.07: the sum of the opponents' scores
	TBBuchholzCut1    = "BH-C1" // C.07 with the modifier Cut-1: the least significant value cut
	TBSonnebornBerger = "SB"    // C.07: the opponents' scores, each times the points scored against them
	TBDirectEncounter = "DE"    // C.07 6: the points scored between the tied players
	TBWins            = "WIN"   // C.07: rounds that scored a win, played or not
	TBGamesWon        = "WON"   // C.07: games won over the board
	TBBlackGames      = "BPG"   // C.07: games played with black (seat 2)
	TBAverageRating   = "ARO"   // C.07: the average rating of the opponents met over the board
	TBOpponentsPoints = "OP"    // Buchholz at tables of three or four: every opponent at the table counts
)

// Tie-break names, as the standings show them.
const (
	SonnebornBerger = "Sonneborn-Berger"
	DirectEncounter = "direct encounter"
	BuchholzCut1    = "Buchholz cut 1"
	Buchholz        = "Buchholz"
	OpponentsPoints = "opponents' points"
	Wins            = "wins"
	GamesWon        = "games won"
	BlackGames      = "games with black"
	AverageRating   = "average rating of opponents"
)

var tieBreakNames = map[string]string{
	TBBuchholz: Buchholz, TBBuchholzCut1: BuchholzCut1, TBSonnebornBerger: SonnebornBerger,
	TBDirectEncounter: DirectEncounter, TBWins: Wins, TBGamesWon: GamesWon, TBBlackGames: BlackGames,
	TBAverageRating: AverageRating, TBOpponentsPoints: OpponentsPoints,
}

// TieBreakName is a tie-break's name as the standings show it.
func TieBreakName(code string) string { return tieBreakNames[code] }

// DefaultTieBreaks are a format's tie-breaks when the organiser chose
// none: round robins Sonneborn-Berger, the direct encounter, then the
// wins (everyone met everyone, so the results against the strong and
// between the tied say most); Swiss events Buchholz cut 1,
// Sonneborn-Berger, then the wins (the strength of the opponents met,
// the least significant cut first, then whom the points were won
// from); knockouts Buchholz cut 1 then
// Sonneborn-Berger; Swiss tables the opponents' points, then the wins.
func DefaultTieBreaks(f Format) []string {
	switch f {
	case FormatRoundRobin, FormatDoubleRoundRobin:
		return []string{TBSonnebornBerger, TBDirectEncounter, TBWins}
	case FormatTables:
		return []string{TBOpponentsPoints, TBWins}
	case FormatKnockout:
		return []string{TBBuchholzCut1, TBSonnebornBerger}
	default:
		return []string{TBBuchholzCut1, TBSonnebornBerger, TBWins}
	}
}

// TieBreakNames are the names of a format's default tie-breaks, in the
// order they count.
func TieBreakNames(f Format) []string {
	var out []string
	for _, c := range DefaultTieBreaks(f) {
		out = append(out, tieBreakNames[c])
	}
	return out
}

// TieBreakCodes are the event's tie-breaks: the organiser's, else the
// format's defaults.
func (e Event) TieBreakCodes() []string {
	if len(e.TieBreaks) > 0 {
		return e.TieBreaks
	}
	return DefaultTieBreaks(e.Format)
}

// MaxTieBreaks bounds an event's list: past it no two players are equal.
const MaxTieBreaks = 6

// ParseTieBreaks reads an organiser's list ("BH-C1, SB, WIN", any case,
// commas or spaces) for an event of this format. Games with black and
// the direct encounter are for two-player formats (a table has no
// colours, and groups of tied players rarely all met); the opponents'
// points are the tables' Buchholz, and the tables take it instead.
func ParseTieBreaks(f Format, text string) ([]string, error) {
	fields := strings.FieldsFunc(strings.ToUpper(text), func(r rune) bool { return r == ',' || r == ' ' || r == ';' })
	if len(fields) == 0 {
		return nil, fmt.Errorf("tournament: no tie-breaks given; name some of %s", strings.Join(allowedTieBreaks(f), ", "))
	}
	if len(fields) > MaxTieBreaks {
		return nil, fmt.Errorf("tournament: %d tie-breaks; %d at most", len(fields), MaxTieBreaks)
	}
	allowed := allowedTieBreaks(f)
	var out []string
	for _, c := range fields {
		if !slices.Contains(allowed, c) {
			return nil, fmt.Errorf("tournament: %q is not a tie-break of this format; choose from %s", c, strings.Join(allowed, ", "))
		}
		if slices.Contains(out, c) {
			return nil, fmt.Errorf("tournament: %s is named twice", c)
		}
		out = append(out, c)
	}
	return out, nil
}

func allowedTieBreaks(f Format) []string {
	if f == FormatTables {
		return []string{TBOpponentsPoints, TBSonnebornBerger, TBWins, TBGamesWon, TBAverageRating}
	}
	return []string{TBBuchholzCut1, TBBuchholz, TBSonnebornBerger, TBDirectEncounter, TBWins, TBGamesWon, TBBlackGames, TBAverageRating}
}

// entry is one round's contribution to a player's Buchholz-type
// tie-breaks: the opponents' scores (or a virtual opponent's) and the
// Sonneborn-Berger product; vur marks a voluntarily unplayed round,
// which a cut takes first.
type entry struct {
	score, sb float64
	vur       bool
}

// Standings ranks the event's players by points, then by the event's
// tie-breaks (TieBreakCodes) in order, then by lot drawn from the event's
// seed (C.07: the last resort is a drawing of lots, not the seed). Games without a result count for nothing yet.
//
// Unplayed rounds follow C.07's article 16:
//
//   - The voluntarily unplayed rounds (16.1.2) are the requested byes (a
//     half point or none), forfeit losses, and the rounds after a
//     withdrawal. The pairing-allocated bye, a full-point bye and a
//     forfeit win are unplayed but not voluntary (16.2.1, 16.2.2).
//   - An opponent's score, as Buchholz and Sonneborn-Berger read it, is
//     their points with each voluntarily unplayed round after their last
//     round that was not (the rounds after they withdrew, say) counted as
//     a draw (16.3, and 16.2.5 for which they are); a round robin counts
//     them as nothing.
//   - Each of the player's own unplayed rounds in a Swiss event counts
//     as a game against a virtual opponent whose score is the player's
//     own, but never more than the scheduled opponent's (a forfeit) or a
//     draw in every round (16.4.1, 16.4.2); Sonneborn-Berger multiplies it by the
//     points the round gave (a bye's win counts that score whole, a
//     half-point bye half of it). Round robins count only the games.
//   - A cut (Cut-1) removes a voluntarily unplayed round first (16.5.1,
//     the 2026 amendment), else the lowest value.
//
// At tables of three or four every player at the table is an opponent:
// the opponents' points add the scores of all of them, a draw is half
// the points of a win (a place in the middle), and against one opponent
// a player scores 1 for finishing ahead and ½ for a shared place.
func Standings(e Event) ([]Standing, error) {
	if err := checkPlayers(e.Players); err != nil {
		return nil, err
	}
	if err := checkRounds(e); err != nil {
		return nil, err
	}
	codes := e.TieBreakCodes()
	rounds := len(e.Played)
	win := float64(e.seats() - 1)
	draw := win / 2
	rr := e.Format == FormatRoundRobin || e.Format == FormatDoubleRoundRobin
	rating := map[string]int{}
	for _, p := range e.Players {
		rating[p.ID] = p.Rating
	}

	// Each player's rounds, their points, and their score as an opponent.
	results := map[string][]Result{}
	points := map[string]float64{}
	adjusted := map[string]float64{}
	for _, p := range e.Players {
		last := 0 // the last round counted that was not voluntarily unplayed
		for r := 1; r <= rounds; r++ {
			x := e.Result(p.ID, r)
			results[p.ID] = append(results[p.ID], x)
			if counted(x) {
				points[p.ID] += x.Points
				if !voluntary(x) {
					last = r
				}
			}
		}
		for i, x := range results[p.ID] {
			switch {
			case !counted(x):
			case i+1 <= last || len(x.Opponents) > 0:
				adjusted[p.ID] += x.Points
			case !rr:
				adjusted[p.ID] += draw
			}
		}
	}

	// Each round's Buchholz entry.
	entries := map[string][]entry{}
	for _, p := range e.Players {
		for r, x := range results[p.ID] {
			if !counted(x) {
				continue
			}
			switch {
			case x.Played:
				sb, score := 0.0, 0.0
				t := e.Played[r].Tables[x.Table]
				for j, o := range t.Seats {
					if j == x.Seat {
						continue
					}
					score += adjusted[o]
					sb += against(t, x.Seat, j) * adjusted[o]
				}
				entries[p.ID] = append(entries[p.ID], entry{score: score, sb: sb})
			case rr:
				if len(x.Opponents) > 0 { // a forfeit: a round of the cycle with nothing to count
					entries[p.ID] = append(entries[p.ID], entry{vur: voluntary(x)})
				}
			default:
				virtual := points[p.ID]
				if len(x.Opponents) > 0 {
					for _, o := range x.Opponents {
						virtual = math.Min(virtual, adjusted[o])
					}
				} else {
					virtual = math.Min(virtual, draw*float64(rounds))
				}
				n := float64(e.seats() - 1)
				if len(x.Opponents) > 0 {
					n = float64(len(x.Opponents))
				}
				entries[p.ID] = append(entries[p.ID], entry{score: n * virtual, sb: virtual * x.Points, vur: voluntary(x)})
			}
		}
	}

	out := make([]Standing, 0, len(e.Players))
	for _, p := range e.Players {
		st := Standing{ID: p.ID, Points: points[p.ID]}
		for _, x := range results[p.ID] {
			if x.Played {
				st.Games++
			}
		}
		for _, code := range codes {
			v := 0.0
			switch code {
			case TBBuchholz, TBOpponentsPoints:
				for _, en := range entries[p.ID] {
					v += en.score
				}
			case TBBuchholzCut1:
				v = cut1(entries[p.ID])
			case TBSonnebornBerger:
				for _, en := range entries[p.ID] {
					v += en.sb
				}
			case TBWins:
				for _, x := range results[p.ID] {
					if counted(x) && x.Points == win {
						v++
					}
				}
			case TBGamesWon:
				for _, x := range results[p.ID] {
					if x.Played && x.Points == win {
						v++
					}
				}
			case TBBlackGames:
				for _, x := range results[p.ID] {
					if x.Played && x.Seat == 1 {
						v++
					}
				}
			case TBAverageRating:
				sum, n := 0, 0
				for _, x := range results[p.ID] {
					if x.Played {
						for _, o := range x.Opponents {
							sum += rating[o]
							n++
						}
					}
				}
				if n > 0 {
					v = math.Round(float64(sum) / float64(n))
				}
			}
			st.TieBreaks = append(st.TieBreaks, TieBreak{Name: tieBreakNames[code], Value: v})
		}
		out = append(out, st)
	}
	// The direct encounter is computed within each group still equal on
	// points and the tie-breaks before it (directEncounter).
	for k, code := range codes {
		if code != TBDirectEncounter {
			continue
		}
		groups := map[string][]string{}
		for _, st := range out {
			groups[key(st, k)] = append(groups[key(st, k)], st.ID)
		}
		de := map[string]float64{}
		for _, members := range groups {
			for id, v := range directEncounter(e, members, rr) {
				de[id] = v
			}
		}
		for i := range out {
			out[i].TieBreaks[k].Value = de[out[i].ID]
		}
	}
	// The lot is drawn over the players in seed order, not over their ids:
	// a TRF file numbers the players by that order, so an event and the
	// event read back from its file draw the same lot (FuzzReadTRF).
	lot := map[string]int{}
	var ids []string
	for _, p := range Seeded(e.Players) {
		ids = append(ids, p.ID)
	}
	for i, id := range Shuffle(ids, e.Seed^lotSalt) {
		lot[id] = i
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
		return lot[a.ID] < lot[b.ID]
	})
	for i := range out {
		out[i].Rank = i + 1
	}
	return out, nil
}

// lotSalt keeps the standings' lot apart from the other lots drawn from
// the event's seed (a round robin's numbers use the seed itself).
const lotSalt = 0x0c07

// counted reports whether a round counts for the standings: the player
// was in it and it has its result.
func counted(x Result) bool { return x.Kind != KindNone && !x.Pending }

// voluntary reports whether a round is voluntarily unplayed (C.07
// 16.1.2): a requested bye, a forfeit loss, a round after withdrawing.
func voluntary(x Result) bool {
	switch x.Kind {
	case KindHalfBye, KindZeroBye, KindForfeitLoss, KindWithdrawn:
		return true
	}
	return false
}

// against is what seat a scored against seat b at a played table: 1 for
// finishing ahead, ½ for a shared place, 0 behind.
func against(t Table, a, b int) float64 {
	switch {
	case t.Places[a] < t.Places[b]:
		return 1
	case t.Places[a] == t.Places[b]:
		return 0.5
	}
	return 0
}

// cut1 is the sum of the entries without one: a voluntarily unplayed
// round first (the lowest of them), else the lowest (C.07 16.5.1).
func cut1(es []entry) float64 {
	if len(es) == 0 {
		return 0
	}
	pick := -1
	for i, en := range es {
		if en.vur && (pick < 0 || !es[pick].vur || en.score < es[pick].score) {
			pick = i
		}
	}
	if pick < 0 {
		pick = 0
		for i, en := range es {
			if en.score < es[pick].score {
				pick = i
			}
		}
	}
	v := 0.0
	for i, en := range es {
		if i != pick {
			v += en.score
		}
	}
	return v
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

// directEncounter ranks a group of players still equal by C.07's
// direct encounter (article 6) and gives each the number of the group it
// ranks above (0 for everyone when it separates no one), so that a
// higher value ranks higher, as with every tie-break. As FIDE's
// TieBreakServer reads the article:
//
//   - Each player's score against the others of the group is the points
//     scored in the games played between them (forfeits are not
//     games); two who met more than once count the average of their
//     games (6.1.2).
//   - When every two of the group met (in a round robin always: its
//     pairings are fixed, so a pair yet to meet counts nothing), the
//     scores rank them; equal scores stay equal (6.2).
//   - Otherwise the best scorer is placed above the rest only if their
//     score is more than any other could reach by winning every
//     encounter they have not had; then the next, and so on; the first
//     who cannot be placed so leaves everyone from there on equal.
//   - Whenever this separates the group, it is done again within each
//     part still equal, counting only the games between its own members.
func directEncounter(e Event, group []string, rr bool) map[string]float64 {
	out := map[string]float64{}
	var rank func(ids []string)
	rank = func(ids []string) {
		if len(ids) < 2 {
			return
		}
		in := map[string]bool{}
		for _, id := range ids {
			in[id] = true
		}
		// Points scored against each other member, by the games played.
		sum := map[[2]string]float64{}
		games := map[[2]string]int{}
		for _, rd := range e.Played {
			for _, t := range rd.Tables {
				if !t.Played() || t.Forfeit() {
					continue
				}
				for a, ida := range t.Seats {
					for b, idb := range t.Seats {
						if a != b && in[ida] && in[idb] {
							sum[[2]string{ida, idb}] += against(t, a, b)
							games[[2]string{ida, idb}]++
						}
					}
				}
			}
		}
		score := map[string]float64{}
		most := map[string]float64{} // the score with every encounter not had won
		all := true
		for _, a := range ids {
			met := 0
			for _, b := range ids {
				if n := games[[2]string{a, b}]; n > 0 {
					score[a] += sum[[2]string{a, b}] / float64(n)
					met++
				}
			}
			most[a] = score[a]
			if !rr && met < len(ids)-1 {
				all = false
				most[a] += float64(len(ids) - 1 - met)
			}
		}
		order := append([]string(nil), ids...)
		sort.SliceStable(order, func(i, j int) bool {
			a, b := order[i], order[j]
			if score[a] != score[b] {
				return score[a] > score[b]
			}
			return most[a] > most[b]
		})
		// The parts, best first: each a run of players left equal.
		var parts [][]string
		if all {
			for i, id := range order {
				if i == 0 || score[id] != score[order[i-1]] {
					parts = append(parts, nil)
				}
				parts[len(parts)-1] = append(parts[len(parts)-1], id)
			}
		} else {
			i := 0
			for ; i < len(order)-1; i++ {
				reach := 0.0
				for _, o := range order[i+1:] {
					reach = max(reach, most[o])
				}
				if score[order[i]] <= reach {
					break
				}
				parts = append(parts, []string{order[i]})
			}
			parts = append(parts, order[i:])
		}
		if len(parts) < 2 {
			return
		}
		below := len(ids)
		for _, part := range parts {
			below -= len(part)
			for _, id := range part {
				out[id] += float64(below)
			}
			rank(part)
		}
	}
	for _, id := range group {
		out[id] = 0
	}
	rank(group)
	return out
}
