package tournament

import (
	"fmt"
	"strings"
	"testing"
)

// two is a played two-player table: "1-0", "½" (a draw) or "0-1".
func two(a, b, result string) Table {
	places := map[string][]int{"1-0": {1, 2}, "½": {1, 1}, "0-1": {2, 1}}[result]
	return Table{Seats: []string{a, b}, Places: places}
}

func players(names ...string) []Player {
	var ps []Player
	for _, n := range names {
		ps = append(ps, Player{ID: n})
	}
	return ps
}

// line is a standings line as the docs write it: "A 2.5 5 0".
func lines(st []Standing) string {
	var b strings.Builder
	for _, s := range st {
		fmt.Fprintf(&b, "%s %g", s.ID, s.Points)
		for _, tb := range s.TieBreaks {
			fmt.Fprintf(&b, " %g", tb.Value)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// The worked examples of docs/tournaments.md, computed there by hand;
// if these change, the document is wrong.
func TestStandingsWorkedExamples(t *testing.T) {
	cases := []struct {
		name string
		e    Event
		want string // id, points, tie-breaks, in rank order
	}{
		{
			// Five players, ten games, a bye a round: Sonneborn-Berger
			// separates A from B and E from D.
			name: "round robin of five",
			e: Event{Format: FormatRoundRobin, Players: players("A", "B", "C", "D", "E"), Played: []Round{
				{Tables: []Table{two("A", "B", "1-0"), two("C", "D", "½")}, Byes: []string{"E"}},
				{Tables: []Table{two("A", "C", "½"), two("D", "E", "1-0")}, Byes: []string{"B"}},
				{Tables: []Table{two("A", "D", "1-0"), two("B", "E", "½")}, Byes: []string{"C"}},
				{Tables: []Table{two("E", "A", "1-0"), two("B", "C", "1-0")}, Byes: []string{"D"}},
				{Tables: []Table{two("B", "D", "1-0"), two("C", "E", "1-0")}, Byes: []string{"A"}},
			}},
			want: "A 2.5 5 0 2\nB 2.5 4.25 0 2\nC 2 3.5 0 1\nE 1.5 3.75 0 1\nD 1.5 2.5 0 1\n",
		},
		{
			// A and B are equal on points and Sonneborn-Berger; A beat B.
			name: "round robin, direct encounter",
			e: Event{Format: FormatRoundRobin, Players: players("A", "B", "C", "D"), Played: []Round{
				{Tables: []Table{two("A", "B", "1-0"), two("C", "D", "½")}},
				{Tables: []Table{two("A", "C", "½"), two("B", "D", "½")}},
				{Tables: []Table{two("D", "A", "1-0"), two("B", "C", "1-0")}},
			}},
			want: "D 2 2.75 0 1\nA 1.5 2 1 1\nB 1.5 2 0 1\nC 1 1.75 0 0\n",
		},
		{
			// Five players, three rounds, three byes: a bye counts in
			// Buchholz as a virtual opponent with the player's own
			// points, at most a draw a round (1.5), so C (who met the
			// leaders) is above B.
			name: "swiss of five",
			e: Event{Format: FormatSwiss, Players: players("A", "B", "C", "D", "E"), Played: []Round{
				{Tables: []Table{two("A", "B", "1-0"), two("C", "D", "0-1")}, Byes: []string{"E"}},
				{Tables: []Table{two("D", "A", "½"), two("E", "C", "1-0")}, Byes: []string{"B"}},
				{Tables: []Table{two("A", "E", "0-1"), two("D", "B", "1-0")}, Byes: []string{"C"}},
			}},
			want: "E 3 3 4 3\nD 2.5 2.5 2.75 2\nA 1.5 5.5 2.25 1\nC 1 5.5 1 1\nB 1 4 1 1\n",
		},
		{
			// Six players of a three-player game, two rounds; shared
			// places split their points.
			name: "tables of three",
			e: Event{Format: FormatTables, Seats: 3, Players: players("A", "B", "C", "D", "E", "F"), Played: []Round{
				{Tables: []Table{{Seats: []string{"A", "B", "C"}, Places: []int{1, 2, 3}}, {Seats: []string{"D", "E", "F"}, Places: []int{1, 1, 3}}}},
				{Tables: []Table{{Seats: []string{"A", "D", "E"}, Places: []int{2, 1, 3}}, {Seats: []string{"B", "C", "F"}, Places: []int{1, 2, 2}}}},
			}},
			want: "D 3.5 6.5 1\nA 3 8.5 1\nB 3 4.5 1\nE 1.5 10.5 0\nC 0.5 9.5 0\nF 0.5 8.5 0\n",
		},
		{
			// Four players, three rounds, every kind of unplayed round:
			// D asks for a half-point bye in round 2 (B has the
			// pairing's bye), B withdraws before round 3, D does not
			// appear against A in round 3 (a forfeit) and C has the bye.
			// docs/tournaments.md works it by hand.
			name: "swiss with a half-point bye, a withdrawal and a forfeit",
			e: Event{Format: FormatSwiss, Players: []Player{{ID: "A"}, {ID: "B", Withdrawn: true, WithdrawnFrom: 3}, {ID: "C"}, {ID: "D"}}, Played: []Round{
				{Tables: []Table{two("A", "B", "1-0"), two("C", "D", "½")}},
				{Tables: []Table{two("A", "C", "1-0")}, Byes: []string{"B"}, Absent: []Absence{{ID: "D", Bye: ByeHalf}}},
				{Tables: []Table{{Seats: []string{"A", "D"}, Places: []int{1, 2}, Forfeited: []bool{false, true}}}, Byes: []string{"C"}},
			}},
			want: "A 3 3 4 3\nC 1.5 4.5 2 1\nB 1 4 1 1\nD 1 2.5 1.25 0\n",
		},
	}
	for _, c := range cases {
		st, err := Standings(c.e)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := lines(st); got != c.want {
			t.Errorf("%s:\n%s\nwant\n%s", c.name, got, c.want)
		}
	}
}

// The scale of points by place, shared places split.
func TestPoints(t *testing.T) {
	cases := []struct {
		places []int
		want   []float64
		why    string
	}{
		{[]int{1, 2}, []float64{1, 0}, "a two-player win is FIDE's 1-0"},
		{[]int{1, 1}, []float64{0.5, 0.5}, "a draw is ½ each"},
		{[]int{3, 1, 2}, []float64{0, 2, 1}, "three players: 2, 1, 0 by place, whatever the seat"},
		{[]int{1, 1, 3}, []float64{1.5, 1.5, 0}, "two share first: (2+1)/2 each"},
		{[]int{1, 1, 2}, []float64{1.5, 1.5, 0}, "places written densely mean the same"},
		{[]int{1, 2, 2, 2}, []float64{3, 1, 1, 1}, "three share second of four: (2+1+0)/3"},
		{[]int{1, 1, 1, 1}, []float64{1.5, 1.5, 1.5, 1.5}, "all four share: the mean"},
	}
	for _, c := range cases {
		seats := make([]string, len(c.places))
		got := Points(Table{Seats: seats, Places: c.places})
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%v: %v, want %v (%s)", c.places, got, c.want, c.why)
		}
	}
	if Points(Table{Seats: []string{"a", "b"}}) != nil {
		t.Error("an unplayed table scores")
	}
}

// Tables that seat strangers or a player twice are refused, not counted.
func TestStandingsRefuses(t *testing.T) {
	for _, c := range []struct {
		rd  Round
		why string
	}{
		{Round{Tables: []Table{two("A", "Z", "1-0")}}, "a player not entered"},
		{Round{Tables: []Table{two("A", "B", "1-0")}, Byes: []string{"A"}}, "a player twice in a round"},
		{Round{Tables: []Table{{Seats: []string{"A", "B"}, Places: []int{1}}}}, "places that do not match the seats"},
		{Round{Tables: []Table{{Seats: []string{"A"}}}}, "a table of one"},
	} {
		if _, err := Standings(Event{Players: players("A", "B"), Played: []Round{c.rd}}); err == nil {
			t.Errorf("%s: no error", c.why)
		}
	}
}

// Players equal on points and every tie-break are ordered by a lot
// drawn from the event's seed (C.07), not by their seed: the same seed
// always gives the same order, and some seed puts the lower seed first.
func TestStandingsTiesByLot(t *testing.T) {
	e := Event{Format: FormatSwiss, Players: []Player{{ID: "a", Rating: 2000}, {ID: "b", Rating: 1000}}}
	order := func(seed int64) string {
		e.Seed = seed
		st, err := Standings(e)
		if err != nil {
			t.Fatal(err)
		}
		return st[0].ID + st[1].ID
	}
	seen := map[string]bool{}
	for seed := int64(0); seed < 20; seed++ {
		if order(seed) != order(seed) {
			t.Fatalf("seed %d: two orders", seed)
		}
		seen[order(seed)] = true
	}
	if !seen["ba"] || !seen["ab"] {
		t.Errorf("20 seeds gave only %v: not a lot", seen)
	}
}

// The organiser's list: C.07's acronyms in any case, refused with the
// choices when unknown, repeated or not for the format.
func TestParseTieBreaks(t *testing.T) {
	got, err := ParseTieBreaks(FormatSwiss, "bh-c1, SB win")
	if err != nil || fmt.Sprint(got) != "[BH-C1 SB WIN]" {
		t.Errorf("got %v, %v", got, err)
	}
	for _, c := range []struct {
		f    Format
		text string
	}{{FormatSwiss, "XYZ"}, {FormatSwiss, "SB,SB"}, {FormatTables, "BPG"}, {FormatSwiss, ""}, {FormatSwiss, "BH BH-C1 SB DE WIN WON ARO"}} {
		if _, err := ParseTieBreaks(c.f, c.text); err == nil {
			t.Errorf("%s %q: no error", c.f, c.text)
		}
	}
}
