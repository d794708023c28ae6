package tournament

import "fmt"

// RoundRobin pairs every player against every other by FIDE's Berger
// tables: ids are the players' numbers in order (1 is ids[0]; draw them
// by lot with Shuffle), an odd count adds a bye that each player has
// once, and seats are balanced (each player sits first in half their
// games, or one more or fewer). double plays the whole cycle twice, the
// second time with every table's seats swapped, and, as the
// recommendation printed with FIDE's Berger tables (C.05, Annex 1) says,
// with the first cycle's last two rounds in reverse order: played as
// printed, the first cycle's last round and the second's first would
// give two players of an even count three games of the same colour in a
// row. Tables carry no result.
func RoundRobin(ids []string, double bool) ([]Round, error) {
	ps := make([]Player, len(ids))
	for i, id := range ids {
		ps[i] = Player{ID: id}
	}
	if err := checkPlayers(ps); err != nil {
		return nil, err
	}
	if len(ids) < 2 {
		return nil, fmt.Errorf("%w: a round robin needs 2, got %d", ErrTooFewPlayers, len(ids))
	}
	n := len(ids)
	if n%2 == 1 {
		n++ // number n is the bye
	}
	name := func(x int) string { // x is a Berger number, 1..n
		if x > len(ids) {
			return ""
		}
		return ids[x-1]
	}
	// In round r (from 0) number x < n stands where x + r*n/2 stood in
	// round 0 (mod n-1); number n keeps the first board and alternates
	// its seat. This is how FIDE's printed tables run.
	at := func(x, r int) int { return (x-1+r*(n/2))%(n-1) + 1 }
	var rounds []Round
	for r := 0; r < n-1; r++ {
		var rd Round
		pair := func(a, b int) {
			switch {
			case name(a) == "":
				rd.Byes = append(rd.Byes, name(b))
			case name(b) == "":
				rd.Byes = append(rd.Byes, name(a))
			default:
				rd.Tables = append(rd.Tables, Table{Seats: []string{name(a), name(b)}})
			}
		}
		if r%2 == 0 {
			pair(at(1, r), n)
		} else {
			pair(n, at(1, r))
		}
		for i := 1; i < n/2; i++ {
			pair(at(1+i, r), at(n-i, r))
		}
		rounds = append(rounds, rd)
	}
	if double {
		first := append([]Round(nil), rounds...)
		if len(rounds) >= 3 {
			last := len(rounds) - 1
			rounds[last-1], rounds[last] = rounds[last], rounds[last-1]
		}
		for _, rd := range first {
			var back Round
			back.Byes = append(back.Byes, rd.Byes...)
			for _, t := range rd.Tables {
				back.Tables = append(back.Tables, Table{Seats: []string{t.Seats[1], t.Seats[0]}})
			}
			rounds = append(rounds, back)
		}
	}
	return rounds, nil
}
