package tournament

import "fmt"

// Bracket seeds a knockout: the players by seed (Seeded) placed in the
// standard bracket, slot 2k meeting slot 2k+1 in the first round, so that
// seed 1 meets the last seed, seeds 1 and 2 can meet only in the final,
// 1 to 4 only in the semi-finals, and so on. When the count is not a
// power of two the bracket is the next power and the missing seeds are
// byes (""), which fall to the top seeds: with 5 players seeds 1, 2 and
// 3 go through the first round unplayed.
func Bracket(ps []Player) ([]string, error) {
	if err := checkPlayers(ps); err != nil {
		return nil, err
	}
	if len(ps) < 2 {
		return nil, fmt.Errorf("%w: a knockout needs 2, got %d", ErrTooFewPlayers, len(ps))
	}
	seeded := Seeded(ps)
	size := 1
	for size < len(ps) {
		size *= 2
	}
	// order(2m) puts each seed x of order(m) beside its mirror 2m+1-x.
	order := []int{1}
	for m := 1; m < size; m *= 2 {
		next := make([]int, 0, 2*m)
		for _, x := range order {
			next = append(next, x, 2*m+1-x)
		}
		order = next
	}
	slots := make([]string, size)
	for i, s := range order {
		if s <= len(seeded) {
			slots[i] = seeded[s-1].ID
		}
	}
	return slots, nil
}

// Match is a knockout match: Players[0] sits first in its first game
// (the better seed), and the games so far, in order.
type Match struct {
	Players [2]string `json:"players"`
	BestOf  int       `json:"bestOf"`
	Games   []Table   `json:"games,omitempty"`
}

// Matches pairs a round's slots (Bracket's, or the winners of the round
// before in order) two by two, the better seed of each pair first.
func Matches(slots []string, ps []Player, bestOf int) ([]Match, error) {
	if len(slots)%2 != 0 {
		return nil, fmt.Errorf("tournament: a knockout round needs an even number of slots, got %d", len(slots))
	}
	if bestOf < 1 {
		return nil, fmt.Errorf("tournament: a match is best of at least 1 game, not %d", bestOf)
	}
	rank := map[string]int{}
	for i, p := range Seeded(ps) {
		rank[p.ID] = i
	}
	var out []Match
	for i := 0; i < len(slots); i += 2 {
		a, b := slots[i], slots[i+1]
		if a == "" || b != "" && rank[b] < rank[a] {
			a, b = b, a
		}
		out = append(out, Match{Players: [2]string{a, b}, BestOf: bestOf})
	}
	return out, nil
}

// Next says how the match stands: the winner once it is decided, or else
// the seats of the game to play next. A match against a bye ("") is won
// at once. The first games alternate the seats, Players[0] first; the
// last game of an odd best-of and every further decider (after the
// scheduled games end level, by draws) seat the players by lot, drawn
// from lot (pass the same lot for the same match, e.g. from the event's
// seed, the round and the match's index: MatchLot) and the game's number,
// so asking again gives the same seats. A player wins the match by more
// than half the scheduled games' points, or by the first decider won.
func (m Match) Next(lot int64) (next Table, winner string, err error) {
	a, b := m.Players[0], m.Players[1]
	switch {
	case a == "" && b == "":
		return Table{}, "", fmt.Errorf("tournament: a match between two byes")
	case b == "":
		return Table{}, a, nil
	case a == "":
		return Table{}, b, nil
	}
	var score [2]float64 // over the scheduled games
	decider := ""        // the winner of the first decider not drawn
	for i, g := range m.Games {
		if !g.Played() {
			return Table{}, "", fmt.Errorf("%w: game %d of %s-%s", ErrRoundOpen, i+1, a, b)
		}
		pts := Points(g)
		var got [2]float64
		for s, id := range g.Seats {
			switch id {
			case a:
				got[0] = pts[s]
			case b:
				got[1] = pts[s]
			default:
				return Table{}, "", fmt.Errorf("tournament: game %d of %s-%s seats %q", i+1, a, b, id)
			}
		}
		switch {
		case i < m.BestOf:
			score[0] += got[0]
			score[1] += got[1]
		case decider == "" && got[0] > got[1]:
			decider = a
		case decider == "" && got[1] > got[0]:
			decider = b
		}
	}
	half := float64(m.BestOf) / 2
	switch {
	case score[0] > half || len(m.Games) >= m.BestOf && score[0] > score[1]:
		return Table{}, a, nil
	case score[1] > half || len(m.Games) >= m.BestOf && score[1] > score[0]:
		return Table{}, b, nil
	case decider != "":
		return Table{}, decider, nil
	}
	k := len(m.Games)
	first := k%2 == 0
	if k >= m.BestOf/2*2 {
		first = newLot(lot, int64(k)).intn(2) == 0
	}
	if first {
		return Table{Seats: []string{a, b}}, "", nil
	}
	return Table{Seats: []string{b, a}}, "", nil
}

// MatchLot is the lot of one match of an event: the event's seed, the
// knockout round (from 1) and the match's index in it.
func MatchLot(seed int64, round, match int) int64 {
	return int64(newLot(seed, int64(round), int64(match)).next())
}
