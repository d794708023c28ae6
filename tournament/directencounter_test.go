package tournament

import (
	"strings"
	"testing"
)

// The direct encounter by C.07 article 6, as FIDE's TieBreakServer
// reads it, on events worked by hand (docs/tournaments.md gives the
// first two). The value is how many of the tied group a player is
// placed above; equal values are left to the next tie-break (here the
// lot, so only the DE column and the order it forces are checked).
func TestDirectEncounter(t *testing.T) {
	swiss := func(ps []string, rounds ...[]Table) Event {
		e := Event{Format: FormatSwiss, Players: players(ps...), TieBreaks: []string{TBDirectEncounter}}
		for _, r := range rounds {
			e.Played = append(e.Played, Round{Tables: r})
		}
		return e
	}
	cases := []struct {
		name string
		e    Event
		want map[string]float64 // DE of each player
		// order: runs of players the standings must list in this order
		// (a space between runs whose members DE leaves equal).
		order string
	}{
		{
			// A, B, C, D on 3 points of 5 rounds. A beat B, C and D; B
			// beat C and D; C and D never met. A scored 3 and met all
			// three: no one else can reach 3 (B at most 2, C and D 0 +
			// 1 for the game they did not have), so A is placed first;
			// B's 2 is beyond C's and D's reach of 1, so B second; C and
			// D, 0 each with 1 within reach, stay equal (and among
			// themselves, never having met, too).
			name: "swiss, not everyone met: placed one by one while out of reach",
			e: swiss([]string{"A", "B", "C", "D", "E", "F", "G", "H"},
				[]Table{two("A", "B", "1-0"), two("C", "E", "1-0"), two("D", "F", "1-0"), two("G", "H", "1-0")},
				[]Table{two("A", "C", "1-0"), two("B", "D", "1-0"), two("E", "G", "½"), two("F", "H", "1-0")},
				[]Table{two("A", "D", "1-0"), two("B", "C", "1-0"), two("E", "H", "1-0"), two("F", "G", "0-1")},
				[]Table{two("A", "E", "0-1"), two("B", "F", "1-0"), two("C", "G", "1-0"), two("D", "H", "1-0")},
				[]Table{two("A", "F", "0-1"), two("B", "G", "0-1"), two("C", "H", "1-0"), two("D", "E", "1-0")},
			),
			want:  map[string]float64{"A": 3, "B": 2, "C": 0, "D": 0, "E": 0, "F": 0, "G": 0, "H": 0},
			order: "G A B CD E F H",
		},
		{
			// A, B, C, D on 1 point of 2 rounds. A beat B; C and D met
			// twice, one win each (an average of ½ each, 6.1.2). A
			// leads with 1, but C and D could still reach ½ + 2 for
			// the two encounters each has not had (B 0 + 2): no one is
			// placed.
			name: "swiss, the leader not out of reach: no one placed",
			e: swiss([]string{"A", "B", "C", "D", "E", "F"},
				[]Table{two("A", "B", "1-0"), two("C", "D", "1-0"), two("E", "F", "½")},
				[]Table{two("A", "E", "0-1"), two("B", "F", "1-0"), two("C", "D", "0-1")},
			),
			want:  map[string]float64{"A": 0, "B": 0, "C": 0, "D": 0, "E": 0, "F": 0},
			order: "E ABCD F",
		},
		{
			// A round robin of six: A, B, C, D on 2 points each, E 3,
			// F 4. Among the four (everyone met): A beat B and D, lost
			// to C: 2; B beat C and D: 2; C beat A: 1; D beat C: 1.
			// So A and B above C and D (DE 2 each, C and D 0); then
			// again within each pair: A beat B (A 3, B 2), D beat C
			// (D 1, C 0).
			name: "round robin: the parts still equal are ranked again among themselves",
			e: Event{Format: FormatRoundRobin, Players: players("A", "B", "C", "D", "E", "F"), TieBreaks: []string{TBDirectEncounter}, Played: []Round{
				{Tables: []Table{two("A", "B", "1-0"), two("C", "D", "0-1"), two("E", "F", "1-0")}},
				{Tables: []Table{two("A", "C", "0-1"), two("B", "E", "0-1"), two("D", "F", "0-1")}},
				{Tables: []Table{two("A", "D", "1-0"), two("B", "F", "0-1"), two("C", "E", "1-0")}},
				{Tables: []Table{two("A", "E", "0-1"), two("B", "D", "1-0"), two("C", "F", "0-1")}},
				{Tables: []Table{two("A", "F", "0-1"), two("B", "C", "1-0"), two("D", "E", "1-0")}},
			}},
			want:  map[string]float64{"A": 3, "B": 2, "D": 1, "C": 0, "E": 0, "F": 0},
			order: "F E A B D C",
		},
	}
	for _, c := range cases {
		st, err := Standings(c.e)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		pos := map[string]int{}
		for i, s := range st {
			pos[s.ID] = i
			if s.TieBreaks[0].Value != c.want[s.ID] {
				t.Errorf("%s: %s's DE is %g, want %g (%s)", c.name, s.ID, s.TieBreaks[0].Value, c.want[s.ID], lines(st))
			}
		}
		runs := strings.Fields(c.order)
		at := 0
		for _, run := range runs {
			for _, id := range run {
				if p := pos[string(id)]; p < at || p >= at+len(run) {
					t.Errorf("%s: %c ranked %d, want among %d to %d: %s", c.name, id, p+1, at+1, at+len(run), lines(st))
				}
			}
			at += len(run)
		}
	}
}
