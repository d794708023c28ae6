package tournament

import (
	"fmt"
	"math"
	"math/rand"
	"sort"
	"testing"
)

// A second, deliberately plain reading of FIDE's Tie-Break Regulations
// (C.07, in force from 1 March 2026) for two-player events, written from
// the text and not from standings.go: it builds each player's crosstable
// row (one cell a round, as a TRF line holds it) by scanning the rounds,
// then computes each tie-break from the rows alone. TestTieBreaksAgree
// compares it with Standings on random events with every kind of
// unplayed round.

// cell is one round of a player's crosstable row.
type cell struct {
	code   byte    // 'G' game, '+' forfeit win, '-' forfeit loss, 'U' pairing bye, 'H' half bye, 'Z' zero bye, 'W' withdrawn, '?' in play, 0 not in it
	opp    string  // the opponent at a game or forfeit
	black  bool    // sat second
	points float64 // what the round scored
}

func crosstable(e Event) map[string][]cell {
	rows := map[string][]cell{}
	for _, p := range e.Players {
		rows[p.ID] = make([]cell, len(e.Played))
	}
	for r, rd := range e.Played {
		for _, t := range rd.Tables {
			a, b := t.Seats[0], t.Seats[1]
			if !t.Played() {
				rows[a][r] = cell{code: '?', opp: b}
				rows[b][r] = cell{code: '?', opp: a, black: true}
				continue
			}
			pa, pb := 0.5, 0.5
			if t.Places[0] < t.Places[1] {
				pa, pb = 1, 0
			} else if t.Places[0] > t.Places[1] {
				pa, pb = 0, 1
			}
			ca, cb := byte('G'), byte('G')
			if len(t.Forfeited) == 2 && (t.Forfeited[0] || t.Forfeited[1]) {
				ca, cb = '+', '+'
				if t.Forfeited[0] {
					ca, pa = '-', 0
				}
				if t.Forfeited[1] {
					cb, pb = '-', 0
				}
			}
			rows[a][r] = cell{code: ca, opp: b, points: pa}
			rows[b][r] = cell{code: cb, opp: a, black: true, points: pb}
		}
		for _, id := range rd.Byes {
			rows[id][r] = cell{code: 'U', points: ByePoints(e)}
		}
		for _, ab := range rd.Absent {
			c := cell{code: 'Z'}
			if ab.Bye == ByeHalf {
				c = cell{code: 'H', points: 0.5}
			}
			rows[ab.ID][r] = c
		}
	}
	for _, p := range e.Players {
		if !p.Withdrawn {
			continue
		}
		for r := p.WithdrawnFrom - 1; r >= 0 && r < len(e.Played); r++ {
			if rows[p.ID][r].code == 0 {
				rows[p.ID][r] = cell{code: 'W'}
			}
		}
	}
	return rows
}

// referenceTieBreaks computes code for every player from the rows.
func referenceTieBreaks(e Event, code string) map[string]float64 {
	rows := crosstable(e)
	n := len(e.Played)
	rr := e.Format == FormatRoundRobin || e.Format == FormatDoubleRoundRobin
	total := func(id string) float64 {
		s := 0.0
		for _, c := range rows[id] {
			s += c.points
		}
		return s
	}
	// 16.2.5: requested byes, forfeit losses, rounds after withdrawing.
	isVUR := func(c cell) bool { return c.code == 'H' || c.code == 'Z' || c.code == '-' || c.code == 'W' }
	// 16.3: an opponent's score for Buchholz: each VUR after their last
	// round that was not one counts as a draw (unless an opponent was
	// scheduled: a forfeit counts as it scored).
	opponentScore := func(id string) float64 {
		last := -1
		for r, c := range rows[id] {
			if c.code != 0 && c.code != '?' && !isVUR(c) {
				last = r
			}
		}
		s := 0.0
		for r, c := range rows[id] {
			switch {
			case c.code == 0 || c.code == '?':
			case r <= last || c.opp != "":
				s += c.points
			case !rr:
				s += 0.5
			}
		}
		return s
	}
	type contribution struct {
		value, sb float64
		vur       bool
	}
	out := map[string]float64{}
	for _, p := range e.Players {
		id := p.ID
		var cs []contribution
		for _, c := range rows[id] {
			switch {
			case c.code == 0 || c.code == '?':
			case c.code == 'G':
				v := opponentScore(c.opp)
				cs = append(cs, contribution{value: v, sb: v * c.points})
			case rr:
				if c.opp != "" {
					cs = append(cs, contribution{vur: isVUR(c)})
				}
			default:
				// 16.4: a virtual opponent with the player's own score, at
				// most the scheduled opponent's, else at most all draws.
				v := total(id)
				if c.opp != "" {
					v = math.Min(v, opponentScore(c.opp))
				} else {
					v = math.Min(v, 0.5*float64(n))
				}
				cs = append(cs, contribution{value: v, sb: v * c.points, vur: isVUR(c)})
			}
		}
		v := 0.0
		switch code {
		case TBBuchholz:
			for _, c := range cs {
				v += c.value
			}
		case TBBuchholzCut1:
			// 14.6: the VURs are cut first; then the least value.
			sort.SliceStable(cs, func(i, j int) bool {
				if cs[i].vur != cs[j].vur {
					return cs[i].vur
				}
				if cs[i].vur {
					return cs[i].value < cs[j].value
				}
				return cs[i].value < cs[j].value
			})
			if len(cs) > 0 && !cs[0].vur {
				sort.SliceStable(cs, func(i, j int) bool { return cs[i].value < cs[j].value })
			}
			for i, c := range cs {
				if i > 0 {
					v += c.value
				}
			}
		case TBSonnebornBerger:
			for _, c := range cs {
				v += c.sb
			}
		case TBWins:
			for _, c := range rows[id] {
				if c.code != '?' && c.code != 0 && c.points == 1 {
					v++
				}
			}
		case TBGamesWon:
			for _, c := range rows[id] {
				if c.code == 'G' && c.points == 1 {
					v++
				}
			}
		case TBBlackGames:
			for _, c := range rows[id] {
				if c.code == 'G' && c.black {
					v++
				}
			}
		case TBAverageRating:
			sum, k := 0.0, 0.0
			for _, c := range rows[id] {
				if c.code == 'G' {
					for _, q := range e.Players {
						if q.ID == c.opp {
							sum += float64(q.Rating)
						}
					}
					k++
				}
			}
			if k > 0 {
				v = math.Floor(sum/k + 0.5)
			}
		}
		out[id] = v
	}
	return out
}

// randomTieBreakEvent is a two-player Swiss event of 5 to 12 players, 3 to 7
// rounds, paired at random (tie-breaks do not care how), with results,
// half- and zero-point byes, forfeits and withdrawals at random; the last
// round may have games still in play.
func randomTieBreakEvent(rng *rand.Rand) Event {
	n := 5 + rng.Intn(8)
	e := Event{Format: FormatSwiss, Players: rated(n), Seed: rng.Int63()}
	for i := range e.Players {
		e.Players[i].Rating = 1000 + 100*rng.Intn(8)
	}
	rounds := 3 + rng.Intn(5)
	for r := 1; r <= rounds; r++ {
		var rd Round
		var free []string
		for i, p := range e.Players {
			if p.Withdrawn {
				continue
			}
			if rng.Intn(12) == 0 && r > 1 {
				e.Players[i].Withdrawn, e.Players[i].WithdrawnFrom = true, r
				continue
			}
			switch rng.Intn(14) {
			case 0:
				rd.Absent = append(rd.Absent, Absence{ID: p.ID, Bye: ByeHalf})
			case 1:
				rd.Absent = append(rd.Absent, Absence{ID: p.ID, Bye: ByeZero})
			default:
				free = append(free, p.ID)
			}
		}
		rng.Shuffle(len(free), func(i, j int) { free[i], free[j] = free[j], free[i] })
		if len(free)%2 == 1 {
			rd.Byes = []string{free[len(free)-1]}
			free = free[:len(free)-1]
		}
		for i := 0; i+1 < len(free); i += 2 {
			t := Table{Seats: []string{free[i], free[i+1]}}
			switch x := rng.Intn(20); {
			case r == rounds && x < 2: // still in play
			case x < 4:
				t.Places = [][]int{{1, 2}, {2, 1}}[x%2]
				t.Forfeited = [][]bool{{false, true}, {true, false}}[x%2]
			default:
				t.Places = [][]int{{1, 2}, {1, 1}, {2, 1}}[rng.Intn(3)]
			}
			rd.Tables = append(rd.Tables, t)
		}
		e.Played = append(e.Played, rd)
	}
	return e
}

// TestTieBreaksAgree: on 300 random Swiss events with byes of every
// kind, forfeits and withdrawals, Standings and the reference agree on
// every tie-break of every player, and Standings orders the players by
// points, then the tie-breaks in order, then the lot.
func TestTieBreaksAgree(t *testing.T) {
	rng := rand.New(rand.NewSource(707))
	codes := []string{TBBuchholzCut1, TBBuchholz, TBSonnebornBerger, TBWins, TBGamesWon, TBBlackGames, TBAverageRating}
	unplayed := map[string]int{}
	for trial := 0; trial < 300; trial++ {
		e := randomTieBreakEvent(rng)
		e.TieBreaks = codes
		st, err := Standings(e)
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range crosstable(e) {
			for _, c := range row {
				unplayed[string(c.code)]++
			}
		}
		for k, code := range codes {
			want := referenceTieBreaks(e, code)
			for _, s := range st {
				if got := s.TieBreaks[k].Value; math.Abs(got-want[s.ID]) > 1e-9 {
					t.Errorf("event %d, %s of %s: %v, the reference %v\n%s", trial, code, s.ID, got, want[s.ID], describe(e))
				}
			}
		}
		for i := 1; i < len(st); i++ {
			a, b := st[i-1], st[i]
			if a.Points < b.Points {
				t.Fatalf("event %d: %s above %s with fewer points", trial, a.ID, b.ID)
			}
		}
	}
	t.Logf("cells: %v", unplayed)
}

func describe(e Event) string {
	s := ""
	for r, rd := range e.Played {
		s += fmt.Sprintf("round %d: %+v byes %v absent %v\n", r+1, rd.Tables, rd.Byes, rd.Absent)
	}
	for _, p := range e.Players {
		if p.Withdrawn {
			s += fmt.Sprintf("%s withdrew from round %d\n", p.ID, p.WithdrawnFrom)
		}
	}
	return s
}
