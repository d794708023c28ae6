package tournament

import (
	"fmt"
	"reflect"
	"testing"
)

func rated(n int) []Player {
	ps := make([]Player, n)
	for i := range ps {
		ps[i] = Player{ID: fmt.Sprintf("s%d", i+1), Rating: 3000 - i} // s1 is seed 1
	}
	return ps
}

// The standard brackets: 1-8 4-5 2-7 3-6, and with 5 players the top
// three seeds have byes.
func TestBracket(t *testing.T) {
	cases := []struct {
		n    int
		want []string
	}{
		{2, []string{"s1", "s2"}},
		{4, []string{"s1", "s4", "s2", "s3"}},
		{8, []string{"s1", "s8", "s4", "s5", "s2", "s7", "s3", "s6"}},
		{5, []string{"s1", "", "s4", "s5", "s2", "", "s3", ""}},
	}
	for _, c := range cases {
		got, err := Bracket(rated(c.n))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%d players: %q, want %q", c.n, got, c.want)
		}
	}
}

// For every count up to 64: each player once, byes only against the top
// seeds (never two byes together), and seeds 1 and 2 in different halves.
func TestBracketProperties(t *testing.T) {
	for n := 2; n <= 64; n++ {
		slots, err := Bracket(rated(n))
		if err != nil {
			t.Fatal(err)
		}
		size := len(slots)
		if size < n || size >= 2*n || size&(size-1) != 0 {
			t.Fatalf("n=%d: bracket of %d", n, size)
		}
		seen := map[string]bool{}
		for i := 0; i < size; i += 2 {
			a, b := slots[i], slots[i+1]
			if a == "" && b == "" {
				t.Errorf("n=%d: two byes meet", n)
			}
			for _, p := range []string{a, b} {
				if p != "" && seen[p] {
					t.Errorf("n=%d: %s twice", n, p)
				}
				seen[p] = true
			}
			if a == "" || b == "" {
				p := a + b
				var s int
				fmt.Sscanf(p, "s%d", &s)
				if s > size-n {
					t.Errorf("n=%d: seed %d has a bye, but only the top %d should", n, s, size-n)
				}
			}
		}
		if half := size / 2; indexOf(slots, "s1") >= half == (indexOf(slots, "s2") >= half) {
			t.Errorf("n=%d: seeds 1 and 2 in the same half", n)
		}
	}
}

func indexOf(xs []string, x string) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}

// A match plays out as promised: seats alternate, the odd game and the
// deciders are seated by a lot that gives the same answer twice, a 2-0
// ends a best-of-3, draws lead to sudden-death deciders.
func TestMatch(t *testing.T) {
	m := Match{Players: [2]string{"a", "b"}, BestOf: 3}
	play := func(next Table, winnerFirst bool) {
		places := []int{1, 2}
		if !winnerFirst {
			places = []int{2, 1}
		}
		next.Places = places
		m.Games = append(m.Games, next)
	}
	g1, w, err := m.Next(7)
	if err != nil || w != "" || !reflect.DeepEqual(g1.Seats, []string{"a", "b"}) {
		t.Fatalf("game 1: %v %q %v", g1.Seats, w, err)
	}
	play(g1, true) // a wins
	g2, _, _ := m.Next(7)
	if !reflect.DeepEqual(g2.Seats, []string{"b", "a"}) {
		t.Fatalf("game 2 seats %v: the seats alternate", g2.Seats)
	}
	play(g2, true) // b wins (seat 1)
	g3, w, _ := m.Next(7)
	again, _, _ := m.Next(7)
	if w != "" || !reflect.DeepEqual(g3.Seats, again.Seats) {
		t.Fatalf("decider %v then %v: the lot must be the same each time", g3.Seats, again.Seats)
	}
	play(g3, g3.Seats[0] == "a") // a wins the decider
	if _, w, _ := m.Next(7); w != "a" {
		t.Fatalf("winner %q, want a", w)
	}
	// The lot does draw both ways over many matches.
	firsts := map[string]int{}
	for lot := int64(0); lot < 200; lot++ {
		mm := Match{Players: [2]string{"a", "b"}, BestOf: 1}
		g, _, _ := mm.Next(lot)
		firsts[g.Seats[0]]++
	}
	if firsts["a"] < 60 || firsts["b"] < 60 {
		t.Errorf("the deciders' first seat over 200 lots: %v", firsts)
	}

	cases := []struct {
		bestOf int
		games  []Table
		winner string
		why    string
	}{
		{3, []Table{two("a", "b", "1-0"), two("b", "a", "0-1")}, "a", "2-0 ends a best-of-3"},
		{3, []Table{two("a", "b", "½"), two("b", "a", "½"), two("a", "b", "½")}, "", "level after three draws: a decider"},
		{3, []Table{two("a", "b", "½"), two("b", "a", "½"), two("a", "b", "½"), two("b", "a", "½"), two("a", "b", "0-1")}, "b", "the first decider won decides"},
		{2, []Table{two("a", "b", "1-0"), two("b", "a", "½")}, "a", "1½-½ wins a best-of-2"},
		{1, []Table{two("b", "a", "1-0")}, "b", "best of one"},
	}
	for _, c := range cases {
		m := Match{Players: [2]string{"a", "b"}, BestOf: c.bestOf, Games: c.games}
		_, w, err := m.Next(1)
		if err != nil || w != c.winner {
			t.Errorf("%s: winner %q (%v), want %q", c.why, w, err, c.winner)
		}
	}
	if _, w, _ := (Match{Players: [2]string{"a", ""}, BestOf: 3}).Next(1); w != "a" {
		t.Errorf("a bye does not advance a: %q", w)
	}
	if _, _, err := (Match{Players: [2]string{"a", "b"}, BestOf: 3, Games: []Table{{Seats: []string{"a", "b"}}}}).Next(1); err == nil {
		t.Error("a game without result was counted")
	}
	if _, _, err := (Match{Players: [2]string{"a", "b"}, BestOf: 3, Games: []Table{two("a", "c", "1-0")}}).Next(1); err == nil {
		t.Error("a game of someone else was counted")
	}
}

// Matches orders each pair by seed and plays byes through.
func TestMatches(t *testing.T) {
	ps := rated(5)
	slots, _ := Bracket(ps)
	ms, err := Matches(slots, ps, 3)
	if err != nil {
		t.Fatal(err)
	}
	var next []string
	for _, m := range ms {
		if m.Players[1] == "" {
			_, w, _ := m.Next(0)
			next = append(next, w)
		}
	}
	if !reflect.DeepEqual(next, []string{"s1", "s2", "s3"}) {
		t.Errorf("byes advance %v", next)
	}
	ms, _ = Matches([]string{"s5", "s2"}, ps, 1)
	if ms[0].Players != [2]string{"s2", "s5"} {
		t.Errorf("better seed not first: %v", ms[0].Players)
	}
	if _, err := Matches([]string{"s1"}, ps, 1); err == nil {
		t.Error("an odd round accepted")
	}
	if _, err := Matches([]string{"s1", "s2"}, ps, 0); err == nil {
		t.Error("best of 0 accepted")
	}
}
