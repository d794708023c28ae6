package tournament

import (
	"fmt"
	"testing"
)

// play gives every unplayed table of e a result: its first seat wins.
func play(e *Event) {
	for r := range e.Played {
		for t := range e.Played[r].Tables {
			tb := &e.Played[r].Tables[t]
			if !tb.Played() {
				tb.Places = make([]int, len(tb.Seats))
				for i := range tb.Places {
					tb.Places[i] = i + 1
				}
			}
		}
	}
}

func entrants(n int) []Player {
	var ps []Player
	for i := 1; i <= n; i++ {
		ps = append(ps, Player{ID: fmt.Sprint("p", i), Rating: 2000 - 10*i})
	}
	return ps
}

// TestNextRoundRobin: four players meet each other once, all at once: 6
// games in 3 rounds at the start, nothing more while any is unplayed,
// then the end.
func TestNextRoundRobin(t *testing.T) {
	e := &Event{Format: FormatRoundRobin, Players: entrants(4), Seed: 1}
	s, err := Next(e, 1)
	if err != nil || !s.AtOnce || s.Over || len(s.New) != 6 || len(s.Rounds()) != 3 || len(e.Played) != 3 {
		t.Fatalf("start: %+v, %v; %d rounds", s, err, len(e.Played))
	}
	if s, _ := Next(e, 1); len(s.New) != 0 || s.Over {
		t.Fatalf("with games in play: %+v", s)
	}
	play(e)
	if s, _ := Next(e, 1); !s.Over || s.Why != "" || len(s.New) != 0 {
		t.Fatalf("all played: %+v", s)
	}
}

// TestNextSwiss: two rounds planned for four players: a round of two
// tables, nothing while it is open, the second round, then the end.
func TestNextSwiss(t *testing.T) {
	e := &Event{Format: FormatSwiss, Players: entrants(4), Rounds: 2, Seed: 1}
	for round := 0; round < 2; round++ {
		s, err := Next(e, 1)
		if err != nil || s.Over || len(s.New) != 2 || s.New[0].Round != round || len(e.Played) != round+1 {
			t.Fatalf("round %d: %+v, %v", round+1, s, err)
		}
		if s, _ := Next(e, 1); len(s.New) != 0 || s.Over {
			t.Fatalf("round %d open: %+v", round+1, s)
		}
		play(e)
	}
	if s, _ := Next(e, 1); !s.Over || s.Why != "" {
		t.Fatalf("after the planned rounds: %+v", s)
	}
	// Two players cannot play a third round against each other: over,
	// saying why.
	e = &Event{Format: FormatSwiss, Players: entrants(2), Rounds: 3, Seed: 1}
	Next(e, 1)
	play(e)
	if s, _ := Next(e, 1); !s.Over || s.Why == "" {
		t.Fatalf("unpairable: %+v", s)
	}
}

// TestNextKnockout: three players, best of one: the top seed has a bye,
// the other two play; then the final; then the end, whose winner is the
// final's first seat.
func TestNextKnockout(t *testing.T) {
	e := &Event{Format: FormatKnockout, Players: entrants(3), Seed: 1}
	s, err := Next(e, 1)
	if err != nil || len(s.New) != 1 || len(e.Played) != 1 || len(e.Played[0].Byes) != 1 || e.Played[0].Byes[0] != "p1" {
		t.Fatalf("first round: %+v, %v; %+v", s, err, e.Played)
	}
	play(e)
	s, err = Next(e, 1)
	if err != nil || len(s.New) != 1 || s.New[0].Round != 1 || s.Over {
		t.Fatalf("final: %+v, %v", s, err)
	}
	if w := KnockoutWinner(*e, 1); w != "" {
		t.Fatalf("a winner before the final is played: %s", w)
	}
	play(e)
	s, err = Next(e, 1)
	final := e.Played[1].Tables[0]
	if err != nil || !s.Over || len(s.New) != 0 || KnockoutWinner(*e, 1) != final.Seats[0] {
		t.Fatalf("end: %+v, %v; winner %q, final %+v", s, err, KnockoutWinner(*e, 1), final)
	}
}
