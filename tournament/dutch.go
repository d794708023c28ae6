package tournament

import (
	"fmt"
	"sort"
)

// Dutch pairs the next round of a two-player Swiss event by FIDE's Dutch
// system (C.04.3), seat 1 playing white, by the version of the rules the
// event is paired by (Event.PairingRules: 2025 for a new event, 2017 for
// one begun before); the round records it (Round.Rules). The event's
// players not withdrawn and not absent by request are paired (those who
// asked are the round's Absent); its played rounds must all have their
// results. The first round's colours come from the event's seed;
// Rounds, the rounds planned, says which round is the last (A.7).
//
// The brackets are paired from the top score down, each bracket's
// candidates tried in the rules' order (S1 against S2, transpositions of
// S2, then exchanges between S1 and S2; moved-down players first in a
// heterogeneous bracket) and judged by the criteria in order (the 2017
// numbers):
//
//   - absolute: no two players meet twice (C.1; forfeits are no
//     meetings), no bye to a player not eligible (C.2), no two players
//     with the same absolute colour preference meet (C.3), and the rest
//     of the round can still be paired (C.4); by the 2025 rules also the
//     bye to the lowest score that can take it (C.5 of 2025);
//   - quality: the most pairs (C.5), the smallest score differences
//     (C.6, the PSD; 2025: the most pairs of the highest scores), the
//     next bracket's pairs and PSD (C.7; 2025: its pairs and scores,
//     within the whole round), by the 2025 rules the bye to the player
//     who has played the most games (C.9 of 2025), in the last round the
//     fewest topscorers (or their opponents) with a colour difference
//     past ±2 (C.8) or a third colour in a row (C.9), the fewest players
//     denied their colour preference (C.10), their strong preference
//     (C.11), the fewest repeated down- and upfloats of the last round
//     and the one before (C.12 to C.15) and the smallest score
//     differences of those (C.16 to C.19; 2025: their scores).
//
// The first candidate that breaks no quality criterion is taken; when
// none does, the best found. The bye (one point) goes to the player the
// last bracket leaves. The search gives up on a bracket after a bounded
// number of candidates, keeping the best found; docs/tournaments.md
// reports how often this agrees with bbpPairings v5.0.1 (2017) and
// v6.0.0 (2025).
func Dutch(e Event) (Round, error) {
	if e.seats() != 2 {
		return Round{}, fmt.Errorf("tournament: the Dutch system pairs two players, not tables of %d", e.seats())
	}
	if err := checkPlayers(e.Players); err != nil {
		return Round{}, err
	}
	if err := checkRounds(e); err != nil {
		return Round{}, err
	}
	for r, rd := range e.Played {
		for _, t := range rd.Tables {
			if len(t.Seats) != 2 {
				return Round{}, fmt.Errorf("tournament: round %d has a table of %d in a two-player event", r+1, len(t.Seats))
			}
			if !t.Played() {
				return Round{}, fmt.Errorf("%w: round %d, %s-%s", ErrRoundOpen, r+1, t.Seats[0], t.Seats[1])
			}
		}
	}
	d := newDutch(e)
	if len(d.ps) < 2 {
		return Round{}, fmt.Errorf("%w: a Swiss round needs 2 players to pair, got %d", ErrTooFewPlayers, len(d.ps))
	}
	rd, err := d.pair()
	if err != nil {
		return Round{}, err
	}
	rd.Absent = e.requestedFor(len(e.Played) + 1)
	rd.Rules = e.PairingRules()
	return rd, nil
}

// swissPlayer is a player's history as the Dutch rules read it.
type swissPlayer struct {
	id      string
	num     int   // pairing number, from 1
	score   int   // in half points
	colours []int // of the games played, in order: 0 white (seat 1), 1 black
	met     map[string]bool
	hadBye  bool  // not eligible for the pairing-allocated bye (C.2): had it, or a point without a game
	played  int   // games played over the board
	floats  []int // each round: -1 floated down (or had the bye), +1 up, 0 neither

	prefColour, prefStrength, cd int  // pref() and diff(), kept once the history is read
	top                          bool // a topscorer of the last round (A.7)
}

const (
	white, black = 0, 1
	noColour     = -1
)

// Strengths of a colour preference (A.6).
const (
	prefNone = iota
	prefMild
	prefStrong
	prefAbsolute
)

// diff is the colour difference: games with white less games with black.
func (p *swissPlayer) diff() int {
	d := 0
	for _, c := range p.colours {
		if c == white {
			d++
		} else {
			d--
		}
	}
	return d
}

// pref is the player's colour preference and its strength (A.6).
func (p *swissPlayer) pref() (colour, strength int) { return p.prefColour, p.prefStrength }

func (p *swissPlayer) readPref() (colour, strength int) {
	n := len(p.colours)
	if n == 0 {
		return noColour, prefNone
	}
	d := p.diff()
	last := p.colours[n-1]
	switch {
	case d > 1:
		return black, prefAbsolute
	case d < -1:
		return white, prefAbsolute
	case n >= 2 && p.colours[n-2] == last:
		return 1 - last, prefAbsolute
	case d == 1:
		return black, prefStrong
	case d == -1:
		return white, prefStrong
	}
	return 1 - last, prefMild
}

func (p *swissPlayer) float(back int) int {
	if i := len(p.floats) - back; i >= 0 && i < len(p.floats) {
		return p.floats[i]
	}
	return 0
}

type dutch struct {
	ps        []*swissPlayer // to pair, in pairing-number order
	initWhite bool           // the initial colour (E.5) is white
	odd       bool           // one bye this round
	rules     DutchRules
	// byeScore (2025 rules, C.5): the bye goes to a player of this score,
	// the lowest that leaves the round pairable; maxPlayed is the most
	// games played by a player of that score (C.9).
	byeScore, maxPlayed int
	memo                map[string]bool
}

func newDutch(e Event) *dutch {
	seeded := Seeded(e.Players)
	all := map[string]*swissPlayer{}
	var order []*swissPlayer
	absent := map[string]bool{}
	for _, a := range e.requestedFor(len(e.Played) + 1) {
		absent[a.ID] = true
	}
	// Pairing numbers (A.2, C.04.2) count the players in seed order, but
	// not one who has never been paired and is absent now (a player who
	// asked to sit out the first rounds): bbpPairings's "effective
	// pairing numbers", which E.5's parity reads.
	paired := map[string]bool{}
	for _, rd := range e.Played {
		for _, t := range rd.Tables {
			for _, id := range t.Seats {
				paired[id] = true
			}
		}
		for _, id := range rd.Byes {
			paired[id] = true
		}
	}
	num := 0
	for _, p := range seeded {
		sp := &swissPlayer{id: p.ID, met: map[string]bool{}}
		all[p.ID] = sp
		here := !p.Withdrawn && !absent[p.ID]
		if here || paired[p.ID] {
			num++
			sp.num = num
		}
		if here {
			order = append(order, sp)
		}
	}
	rules := e.PairingRules()
	// unplayedFloat is how a round without a game counts among the floats
	// (C.12 to C.15 of 2017, their successors of 2025): in 2017 every
	// unplayed round is a downfloat; in 2025 only one that scored.
	unplayedFloat := func(halfPoints int) int {
		if rules == Dutch2017 || halfPoints > 0 {
			return -1
		}
		return 0
	}
	for _, rd := range e.Played {
		before := map[string]int{}
		for id, sp := range all {
			before[id] = sp.score
		}
		moved := map[string]bool{}
		for _, t := range rd.Tables {
			pts := Points(t)
			for s, id := range t.Seats {
				sp, o := all[id], t.Seats[1-s]
				got := int(pts[s] * 2)
				sp.score += got
				moved[id] = true
				if t.Forfeit() {
					// Unplayed: no meeting, no colour. A forfeit win
					// is a point without a game: no pairing-allocated
					// bye after it (C.2, both rules).
					if got >= 2 {
						sp.hadBye = true
					}
					sp.floats = append(sp.floats, unplayedFloat(got))
					continue
				}
				sp.played++
				sp.colours = append(sp.colours, s)
				sp.met[o] = true
				f := 0
				switch {
				case before[o] > before[id]:
					f = +1
				case before[o] < before[id]:
					f = -1
				}
				sp.floats = append(sp.floats, f)
			}
		}
		for _, a := range rd.Absent {
			sp := all[a.ID]
			got := int(RequestedByePoints(e, a.Bye) * 2)
			sp.score += got
			// 2025: any point without a game, a full-point bye too,
			// excludes the pairing-allocated bye; 2017: only the
			// pairing's own bye and forfeit wins did.
			if rules == Dutch2025 && got >= 2 {
				sp.hadBye = true
			}
			sp.floats = append(sp.floats, unplayedFloat(got))
			moved[a.ID] = true
		}
		for _, id := range rd.Byes {
			sp := all[id]
			sp.hadBye = true
			sp.score += 2
			sp.floats = append(sp.floats, -1)
			moved[id] = true
		}
		for id, sp := range all {
			if !moved[id] {
				sp.floats = append(sp.floats, unplayedFloat(0))
			}
		}
	}
	last := e.Rounds > 0 && len(e.Played)+1 == e.Rounds
	for _, sp := range all {
		sp.prefColour, sp.prefStrength = sp.readPref()
		sp.cd = sp.diff()
		// A.7: in the last round, a player with more than half the
		// points played for is a topscorer.
		sp.top = last && sp.score > len(e.Played)
	}
	return &dutch{ps: order, rules: rules, initWhite: firstColourWhite(e.Seed), odd: len(order)%2 == 1, memo: map[string]bool{}, byeScore: 1 << 30}
}

// compatible: the absolute criteria C.1 and C.3 for a pair (two
// topscorers, or a topscorer and another, may meet whatever their
// colours: the quality criteria C.8 and C.9 then count the cost).
func compatible(a, b *swissPlayer) bool {
	if a.met[b.id] {
		return false
	}
	ca, sa := a.pref()
	cb, sb := b.pref()
	return !(sa == prefAbsolute && sb == prefAbsolute && ca == cb && !a.top && !b.top)
}

// ranksAbove orders players by score, then pairing number (A.2).
func ranksAbove(a, b *swissPlayer) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return a.num < b.num
}

func (d *dutch) pair() (Round, error) {
	players := append([]*swissPlayer(nil), d.ps...)
	sort.SliceStable(players, func(i, j int) bool { return ranksAbove(players[i], players[j]) })
	if !d.completable(players) {
		return Round{}, ErrUnpairable
	}
	if d.rules == Dutch2025 && d.odd {
		d.chooseByeScore(players)
	}
	var pairs [][2]*swissPlayer
	var bye *swissPlayer
	var moved []*swissPlayer // moved-down players
	for i := 0; i < len(players); {
		j := i
		for j < len(players) && players[j].score == players[i].score {
			j++
		}
		bracket := append(append([]*swissPlayer(nil), moved...), players[i:j]...)
		rest := players[j:]
		got, left := d.bracket(bracket, len(moved), rest)
		pairs = append(pairs, got...)
		moved = left
		i = j
	}
	switch {
	case len(moved) == 1 && d.odd && d.canBye(moved[0]):
		bye = moved[0]
	case len(moved) > 0:
		return Round{}, ErrUnpairable // cannot happen: each bracket kept the rest completable
	}
	var rd Round
	for _, pr := range pairs {
		w, b := d.colours(pr[0], pr[1])
		rd.Tables = append(rd.Tables, Table{Seats: []string{w.id, b.id}})
	}
	if bye != nil {
		rd.Byes = []string{bye.id}
	}
	return rd, nil
}

// canBye: the player may take the pairing-allocated bye (C.2), and in
// the 2025 rules only from the lowest score that can take it (C.5).
func (d *dutch) canBye(p *swissPlayer) bool {
	return !p.hadBye && p.score <= d.byeScore
}

// chooseByeScore finds the 2025 rules' score of the bye (C.5: minimise
// the score of the player who gets it): the lowest score from which an
// eligible player can take the bye with the rest of the round pairable;
// and, for C.9, the most games a player of that score has played.
func (d *dutch) chooseByeScore(players []*swissPlayer) {
	var scores []int
	for i := len(players) - 1; i >= 0; i-- {
		if s := players[i].score; len(scores) == 0 || scores[len(scores)-1] != s {
			scores = append(scores, s)
		}
	}
	for _, s := range scores {
		d.byeScore, d.memo = s, map[string]bool{}
		if d.completable(players) {
			break
		}
	}
	for _, p := range players {
		if p.score == d.byeScore {
			d.maxPlayed = max(d.maxPlayed, p.played)
		}
	}
}

// completable reports whether these players can all be paired under the
// absolute criteria, one of them (without a bye so far) taking the bye
// when the round has one and they are odd in number (C.4).
func (d *dutch) completable(ps []*swissPlayer) bool {
	if len(ps)%2 == 1 && !d.odd {
		return false
	}
	key := make([]byte, 0, len(ps))
	for _, p := range ps {
		key = append(key, byte(p.num), byte(p.num>>8))
	}
	if v, ok := d.memo[string(key)]; ok {
		return v
	}
	v := d.match(ps)
	d.memo[string(key)] = v
	return v
}

func (d *dutch) match(ps []*swissPlayer) bool {
	n := len(ps)
	if n == 0 {
		return true
	}
	// With an odd count, one vertex more stands for the bye, joined to
	// those who may take it.
	verts := n + n%2
	adj := make([][]int, verts)
	for i, a := range ps {
		for j := i + 1; j < n; j++ {
			if compatible(a, ps[j]) {
				adj[i] = append(adj[i], j)
				adj[j] = append(adj[j], i)
			}
		}
		if n%2 == 1 && d.canBye(a) {
			adj[i] = append(adj[i], n)
			adj[n] = append(adj[n], i)
		}
	}
	return perfectMatching(verts, adj)
}

// colours seats a pair by the rules E.1 to E.5: white first.
func (d *dutch) colours(a, b *swissPlayer) (w, bl *swissPlayer) {
	if ranksAbove(b, a) {
		a, b = b, a // a is the higher ranked
	}
	give := func(c int) (*swissPlayer, *swissPlayer) { // a gets c
		if c == white {
			return a, b
		}
		return b, a
	}
	ca, sa := a.pref()
	cb, sb := b.pref()
	switch {
	case ca != noColour && cb != noColour && ca != cb: // E.1
		return give(ca)
	case ca != noColour && cb == noColour:
		return give(ca)
	case ca == noColour && cb != noColour:
		return give(1 - cb)
	case ca != noColour && sa != sb: // E.2, both want ca
		if sa > sb {
			return give(ca)
		}
		return give(1 - cb)
	case ca != noColour && sa == prefAbsolute: // both absolute: the wider difference
		da, db := abs(a.cd), abs(b.cd)
		if da != db {
			if da > db {
				return give(ca)
			}
			return give(1 - cb)
		}
	}
	// E.3: alternate to the latest round in which they had different
	// colours.
	for i, j := len(a.colours)-1, len(b.colours)-1; i >= 0 && j >= 0; i, j = i-1, j-1 {
		if a.colours[i] != b.colours[j] {
			return give(1 - a.colours[i])
		}
	}
	if ca != noColour { // E.4
		return give(ca)
	}
	// E.5: the initial colour to an odd pairing number.
	init := black
	if d.initWhite {
		init = white
	}
	if a.num%2 == 1 {
		return give(init)
	}
	return give(1 - init)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
