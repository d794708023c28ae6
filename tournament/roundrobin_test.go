package tournament

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func ids(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("p%02d", i+1)
	}
	return out
}

// For every size a server may hold, the Berger tables meet the issue's
// promises: each pair meets once (twice, seats swapped, in a double
// round robin), every player plays once a round or has the bye, each
// player has the bye exactly once when the count is odd, and each player
// sits first in half their games, or one more or fewer.
func TestRoundRobinProperties(t *testing.T) {
	for n := 2; n <= 20; n++ {
		for _, double := range []bool{false, true} {
			rounds, err := RoundRobin(ids(n), double)
			if err != nil {
				t.Fatal(err)
			}
			cycles := 1
			if double {
				cycles = 2
			}
			wantRounds := n - 1 + n%2
			if len(rounds) != cycles*wantRounds {
				t.Errorf("n=%d double=%v: %d rounds, want %d", n, double, len(rounds), cycles*wantRounds)
			}
			met := map[[2]string]int{} // seat 1, seat 2
			first := map[string]int{}
			games := map[string]int{}
			byes := map[string]int{}
			for r, rd := range rounds {
				seen := map[string]bool{}
				for _, tb := range rd.Tables {
					a, b := tb.Seats[0], tb.Seats[1]
					met[[2]string{a, b}]++
					first[a]++
					games[a]++
					games[b]++
					for _, p := range tb.Seats {
						if seen[p] {
							t.Errorf("n=%d round %d: %s plays twice", n, r+1, p)
						}
						seen[p] = true
					}
				}
				for _, p := range rd.Byes {
					byes[p]++
					seen[p] = true
				}
				if len(seen) != n {
					t.Errorf("n=%d round %d: %d players placed, want %d", n, r+1, len(seen), n)
				}
			}
			for _, a := range ids(n) {
				if n%2 == 1 && byes[a] != cycles {
					t.Errorf("n=%d double=%v: %s has %d byes, want %d", n, double, a, byes[a], cycles)
				}
				if d := 2*first[a] - games[a]; d < -1 || d > 1 {
					t.Errorf("n=%d double=%v: %s first in %d of %d games", n, double, a, first[a], games[a])
				}
				for _, b := range ids(n) {
					if a >= b {
						continue
					}
					ab, ba := met[[2]string{a, b}], met[[2]string{b, a}]
					if !double && ab+ba != 1 {
						t.Errorf("n=%d: %s and %s meet %d times", n, a, b, ab+ba)
					}
					if double && (ab != 1 || ba != 1) {
						t.Errorf("n=%d double: %s-%s %d times, %s-%s %d times, want once each", n, a, b, ab, b, a, ba)
					}
				}
			}
		}
	}
}

// The first rounds of FIDE's printed Berger table for four players:
// 1-4 2-3, 4-3 1-2, 2-4 3-1.
func TestRoundRobinBergerTable(t *testing.T) {
	rounds, err := RoundRobin([]string{"1", "2", "3", "4"}, false)
	if err != nil {
		t.Fatal(err)
	}
	var got [][]string
	for _, rd := range rounds {
		var line []string
		for _, tb := range rd.Tables {
			line = append(line, tb.Seats[0]+"-"+tb.Seats[1])
		}
		got = append(got, line)
	}
	want := [][]string{{"1-4", "2-3"}, {"4-3", "1-2"}, {"2-4", "3-1"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// Bad input says what is wrong instead of pairing something odd.
func TestRoundRobinRefuses(t *testing.T) {
	for _, c := range []struct {
		ids []string
		why string
	}{
		{nil, "no players"},
		{[]string{"a"}, "one player"},
		{[]string{"a", "a"}, "a player twice"},
		{[]string{"a", ""}, "an empty id"},
	} {
		if _, err := RoundRobin(c.ids, false); err == nil {
			t.Errorf("%s: no error", c.why)
		}
	}
}

// A double round robin of four, worked by hand from the printed table
// (1-4 2-3, 4-3 1-2, 2-4 3-1) with FIDE's recommendation: the first
// cycle's last two rounds swapped, then the cycle as printed with the
// colours reversed. Colours (seat 1 is white) of each player by round:
//
//	1: W B W B B W    2: W W B B W B    3: B W B W W B    4: B B W W B W
//
// As printed (no swap) player 1 would have B B B in rounds 3 to 5.
func TestDoubleRoundRobinBergerRecommendation(t *testing.T) {
	rounds, err := RoundRobin([]string{"1", "2", "3", "4"}, true)
	if err != nil {
		t.Fatal(err)
	}
	var got [][]string
	for _, rd := range rounds {
		var line []string
		for _, tb := range rd.Tables {
			line = append(line, tb.Seats[0]+"-"+tb.Seats[1])
		}
		got = append(got, line)
	}
	want := [][]string{{"1-4", "2-3"}, {"2-4", "3-1"}, {"4-3", "1-2"}, {"4-1", "3-2"}, {"3-4", "2-1"}, {"4-2", "1-3"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// No player of a double round robin of 3 to 20 plays three games in a
// row with the same colour (byes skipped: the colour of one game and
// the next is what a player feels), which the plain repeat of the cycle
// gave two players of every even count.
func TestDoubleRoundRobinNoThreeColoursInARow(t *testing.T) {
	for n := 3; n <= 20; n++ {
		rounds, err := RoundRobin(ids(n), true)
		if err != nil {
			t.Fatal(err)
		}
		colours := map[string][]byte{}
		for _, rd := range rounds {
			for _, tb := range rd.Tables {
				colours[tb.Seats[0]] = append(colours[tb.Seats[0]], 'W')
				colours[tb.Seats[1]] = append(colours[tb.Seats[1]], 'B')
			}
		}
		for p, cs := range colours {
			if strings.Contains(string(cs), "WWW") || strings.Contains(string(cs), "BBB") {
				t.Errorf("n=%d: %s plays %s", n, p, cs)
			}
		}
	}
}
