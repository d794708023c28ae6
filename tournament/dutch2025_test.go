package tournament

import (
	"fmt"
	"testing"
)

// whiteSeed is a seed whose lot gives the top seed white in round 1.
func whiteSeed() int64 {
	for s := int64(0); ; s++ {
		if firstColourWhite(s) {
			return s
		}
	}
}

func roundString(rd Round) string {
	s := ""
	for _, t := range rd.Tables {
		s += t.Seats[0] + "-" + t.Seats[1] + " "
	}
	return fmt.Sprintf("%sbye %v", s, rd.Byes)
}

// C.5 of 2025: the bye goes to the lowest score that can take it. Six
// players, s4 sits out round 3 (a zero-point absence), so five are
// paired: s1 and s3 on 2, s2 and s5 on 1, s6 on 0. By the 2017 rules
// the top bracket pairs its own two (s1-s3, who have not met), which
// leaves s2, s5 (who met) and s6: s6-s2 and the bye to s5, on 1 point.
// By the 2025 rules s6, on 0, takes the bye (C.5 outranks pairing the
// top bracket within itself), so s1 and s3 meet s5 and s2. bbpPairings
// v5.0.1 and v6.0.0 pair this exactly so.
func TestDutch2025ByeToLowestScore(t *testing.T) {
	e := Event{Format: FormatSwiss, Rounds: 3, Seed: whiteSeed(), Players: rated(6), MaxZeroByes: 1}
	e.Played = []Round{
		{Tables: []Table{two("s1", "s4", "1-0"), two("s5", "s2", "0-1"), two("s3", "s6", "1-0")}},
		{Tables: []Table{two("s2", "s1", "0-1"), two("s4", "s3", "0-1"), two("s6", "s5", "0-1")}},
	}
	if err := e.RequestBye("s4", 3, ByeZero); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		rules DutchRules
		want  string
	}{
		{Dutch2017, "s1-s3 s6-s2 bye [s5]"},
		{Dutch2025, "s1-s5 s3-s2 bye [s6]"},
	} {
		e.Rules = c.rules
		rd, err := Dutch(e)
		if err != nil {
			t.Fatal(err)
		}
		if got := roundString(rd); got != c.want {
			t.Errorf("%s: %s, want %s", c.rules, got, c.want)
		}
		if rd.Rules != c.rules || len(rd.Absent) != 1 || rd.Absent[0].ID != "s4" {
			t.Errorf("%s: the round records rules %q and absent %v", c.rules, rd.Rules, rd.Absent)
		}
	}
}

// C.9 of 2025: of the players who may take the bye, the one who has
// played the most games. Five players; s5 was absent in round 1 (zero
// points, no game). In round 2 s3, s4 and s5 are on 0; s5, the lowest
// ranked, has played no game, so the bye goes to s4, who has played
// one: s2-s1, s3-s5 and the bye to s4 (bbpPairings v6.0.0 alike).
func TestDutch2025ByeToMostGamesPlayed(t *testing.T) {
	e := Event{Format: FormatSwiss, Rounds: 3, Seed: whiteSeed(), Players: rated(5), Rules: Dutch2025}
	e.Played = []Round{{
		Tables: []Table{two("s1", "s3", "1-0"), two("s4", "s2", "0-1")},
		Absent: []Absence{{ID: "s5", Bye: ByeZero}},
	}}
	rd, err := Dutch(e)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := roundString(rd), "s2-s1 s3-s5 bye [s4]"; got != want {
		t.Errorf("%s, want %s", got, want)
	}
}

// Bye eligibility (C.2): by the 2017 rules only the pairing's bye and a
// forfeit win exclude a player from the bye; by the 2025 rules any
// round that scored a win without a game does, a full-point bye too,
// while a half-point bye does not.
func TestDutchByeEligibility(t *testing.T) {
	for _, c := range []struct {
		name  string
		round Round // s3's first round
		rules DutchRules
		can   bool
	}{
		{"pairing bye, 2017", Round{Byes: []string{"s3"}}, Dutch2017, false},
		{"pairing bye, 2025", Round{Byes: []string{"s3"}}, Dutch2025, false},
		{"forfeit win, 2017", Round{Tables: []Table{{Seats: []string{"s3", "s4"}, Places: []int{1, 2}, Forfeited: []bool{false, true}}}}, Dutch2017, false},
		{"forfeit win, 2025", Round{Tables: []Table{{Seats: []string{"s3", "s4"}, Places: []int{1, 2}, Forfeited: []bool{false, true}}}}, Dutch2025, false},
		{"full-point bye, 2017", Round{Absent: []Absence{{ID: "s3", Bye: ByeFull}}}, Dutch2017, true},
		{"full-point bye, 2025", Round{Absent: []Absence{{ID: "s3", Bye: ByeFull}}}, Dutch2025, false},
		{"half-point bye, 2025", Round{Absent: []Absence{{ID: "s3", Bye: ByeHalf}}}, Dutch2025, true},
		{"forfeit loss, 2025", Round{Tables: []Table{{Seats: []string{"s3", "s4"}, Places: []int{2, 1}, Forfeited: []bool{true, false}}}}, Dutch2025, true},
	} {
		e := Event{Format: FormatSwiss, Rounds: 3, Players: rated(5), Rules: c.rules, Played: []Round{c.round}}
		d := newDutch(e)
		for _, p := range d.ps {
			if p.id == "s3" && d.canBye(p) != c.can {
				t.Errorf("%s: may take the bye %v, want %v", c.name, d.canBye(p), c.can)
			}
		}
	}
}

// Floats of rounds without a game: by the 2017 rules every such round
// counts as a downfloat; by the 2025 rules only one that scored (a
// pairing bye, a forfeit win, a half- or full-point bye), not a zero-
// point absence or a forfeit loss.
func TestDutchUnplayedFloats(t *testing.T) {
	rd := Round{
		Tables: []Table{{Seats: []string{"s1", "s2"}, Places: []int{1, 2}, Forfeited: []bool{false, true}}},
		Byes:   []string{"s3"},
		Absent: []Absence{{ID: "s4", Bye: ByeHalf}, {ID: "s5", Bye: ByeZero}},
	}
	want := map[DutchRules]map[string]int{
		Dutch2017: {"s1": -1, "s2": -1, "s3": -1, "s4": -1, "s5": -1},
		Dutch2025: {"s1": -1, "s2": 0, "s3": -1, "s4": -1, "s5": 0},
	}
	for rules, w := range want {
		d := newDutch(Event{Format: FormatSwiss, Rounds: 3, Players: rated(6), Rules: rules, Played: []Round{rd}})
		for _, p := range d.ps {
			if f, ok := w[p.id]; ok && p.float(1) != f {
				t.Errorf("%s: %s floated %d, want %d", rules, p.id, p.float(1), f)
			}
		}
	}
}
