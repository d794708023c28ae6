package tournament

import (
	"fmt"
	"math/rand"
	"reflect"
	"slices"
	"testing"
)

// How a count of players splits into tables.
func TestTableSizes(t *testing.T) {
	cases := []struct {
		n, k    int
		allowed []int
		sizes   []int
		byes    int
		why     string
	}{
		{9, 3, nil, []int{3, 3, 3}, 0, "it divides"},
		{10, 3, nil, []int{3, 3, 3}, 1, "only full tables: one bye"},
		{10, 3, []int{2}, []int{3, 3, 2, 2}, 0, "a game for 2 or 3: two tables of 2"},
		{10, 4, []int{3}, []int{4, 3, 3}, 0, "a game for 3 or 4: 4+3+3"},
		{10, 4, nil, []int{4, 4}, 2, "only 4: two byes"},
		{5, 4, []int{3, 2}, []int{3, 2}, 0, "no byes beats a full table"},
		{7, 4, []int{3}, []int{4, 3}, 0, "one smaller table"},
		{2, 3, nil, nil, 2, "too few for a table"},
	}
	for _, c := range cases {
		sizes, byes := tableSizes(c.n, c.k, c.allowed)
		if fmt.Sprint(sizes) != fmt.Sprint(c.sizes) || (sizes != nil && byes != c.byes) {
			t.Errorf("%s: %d players, tables of %d %v: %v and %d byes, want %v and %d", c.why, c.n, c.k, c.allowed, sizes, byes, c.sizes, c.byes)
		}
	}
}

// The series for one table: every seat equally often, every player
// right after every other equally often, and for three players all six
// seatings.
func TestTableRoundRobin(t *testing.T) {
	for n := 2; n <= 4; n++ {
		rounds, err := TableRoundRobin(ids(n))
		if err != nil {
			t.Fatal(err)
		}
		want := n
		if n%2 == 1 {
			want = 2 * n
		}
		if len(rounds) != want {
			t.Errorf("%d players: %d games, want %d", n, len(rounds), want)
		}
		seat := map[string]map[int]int{}
		after := map[[2]string]int{}
		orders := map[string]bool{}
		for _, rd := range rounds {
			s := rd.Tables[0].Seats
			orders[fmt.Sprint(s)] = true
			for i, id := range s {
				if seat[id] == nil {
					seat[id] = map[int]int{}
				}
				seat[id][i]++
				if i > 0 {
					after[[2]string{s[i-1], id}]++
				}
			}
		}
		for _, id := range ids(n) {
			for i := 0; i < n; i++ {
				if seat[id][i] != want/n {
					t.Errorf("%d players: %s in seat %d %d times, want %d", n, id, i+1, seat[id][i], want/n)
				}
			}
		}
		for _, a := range ids(n) {
			for _, b := range ids(n) {
				if a != b && after[[2]string{a, b}] != want/n {
					t.Errorf("%d players: %s right after %s %d times, want %d", n, b, a, after[[2]string{a, b}], want/n)
				}
			}
		}
		if n == 3 && len(orders) != 6 {
			t.Errorf("3 players: %d different seatings, want all 6", len(orders))
		}
	}
	if _, err := TableRoundRobin([]string{"a"}); err == nil {
		t.Error("a table of one")
	}
}

// playTables plays rounds of a Swiss-tables event with random places.
func playTables(t *testing.T, rng *rand.Rand, n, k int, allowed []int, rounds int) Event {
	t.Helper()
	e := Event{Format: FormatTables, Seats: k, TableSizes: allowed, Players: rated(n)}
	for r := 0; r < rounds; r++ {
		rd, err := SwissTables(e)
		if err != nil {
			t.Fatalf("%d players, round %d: %v", n, r+1, err)
		}
		checkTablesRound(t, e, rd)
		for i := range rd.Tables {
			places := make([]int, len(rd.Tables[i].Seats))
			for j := range places {
				places[j] = 1 + rng.Intn(len(places)) // shared places happen
			}
			rd.Tables[i].Places = places
		}
		e.Played = append(e.Played, rd)
	}
	return e
}

// checkTablesRound: every player once, tables of allowed sizes, a bye
// only to a player with the fewest byes.
func checkTablesRound(t *testing.T, e Event, rd Round) {
	t.Helper()
	seen := map[string]int{}
	ok := map[int]bool{e.Seats: true}
	for _, s := range e.TableSizes {
		ok[s] = true
	}
	for _, tb := range rd.Tables {
		if !ok[len(tb.Seats)] {
			t.Errorf("round %d: a table of %d", len(e.Played)+1, len(tb.Seats))
		}
		for _, id := range tb.Seats {
			seen[id]++
		}
	}
	h := readHistory(e)
	for _, id := range rd.Byes {
		seen[id]++
	}
	for _, id := range rd.Byes {
		for _, tb := range rd.Tables {
			for _, other := range tb.Seats {
				if h.byes[other] < h.byes[id] {
					t.Errorf("round %d: %s has a bye after %d, while %s plays after %d", len(e.Played)+1, id, h.byes[id], other, h.byes[other])
				}
			}
		}
	}
	for _, p := range e.Players {
		if seen[p.ID] != 1 {
			t.Errorf("round %d: %s placed %d times", len(e.Played)+1, p.ID, seen[p.ID])
		}
	}
}

// Random events of games for three and four: the rounds keep the rules
// above; a round has no repeated meeting whenever the brute force finds
// one without (small events); and each player's seats stay even: over
// the event no one sits in one seat more than twice as often, plus one,
// as the event's rounds shared evenly would give.
func TestSwissTablesProperties(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for trial := 0; trial < 40; trial++ {
		k := 3 + rng.Intn(2)
		n := 2*k + rng.Intn(24)
		var allowed []int
		if rng.Intn(2) == 0 {
			allowed = []int{k - 1}
		}
		rounds := 2 + rng.Intn(5)
		e := playTables(t, rng, n, k, allowed, rounds)
		for _, p := range e.Players {
			seats := readHistory(e).seats[p.ID]
			games := 0
			for _, c := range seats {
				games += c
			}
			for s, c := range seats {
				if c > 1+2*(games+k-1)/k {
					t.Errorf("%d players of %d, %d rounds: %s sat in seat %d %d times of %d games: %v", n, k, rounds, p.ID, s+1, c, games, seats)
				}
			}
		}
	}
}

// Repeats only where no grouping avoids them: for 9 players of a game
// for three, checked by brute force over every grouping.
func TestSwissTablesAvoidRepeats(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	for trial := 0; trial < 20; trial++ {
		e := Event{Format: FormatTables, Seats: 3, Players: rated(9)}
		for r := 0; r < 4; r++ {
			rd, err := SwissTables(e)
			if err != nil {
				t.Fatal(err)
			}
			h := readHistory(e)
			got := 0
			for _, tb := range rd.Tables {
				got += h.repeats(tb.Seats)
			}
			if best := fewestRepeats(h, ids9()); got > best {
				t.Errorf("trial %d round %d: %d repeated meetings, but %d is possible", trial, r+1, got, best)
			}
			for i := range rd.Tables {
				rd.Tables[i].Places = []int{1 + rng.Intn(3), 1 + rng.Intn(3), 1 + rng.Intn(3)}
			}
			e.Played = append(e.Played, rd)
		}
	}
}

func ids9() []string {
	var out []string
	for _, p := range rated(9) {
		out = append(out, p.ID)
	}
	return out
}

// fewestRepeats tries every split of the players into tables of three.
func fewestRepeats(h *history, ps []string) int {
	if len(ps) == 0 {
		return 0
	}
	best := 1 << 30
	a := ps[0]
	for i := 1; i < len(ps); i++ {
		for j := i + 1; j < len(ps); j++ {
			var rest []string
			for x, p := range ps {
				if x != 0 && x != i && x != j {
					rest = append(rest, p)
				}
			}
			best = min(best, h.repeats([]string{a, ps[i], ps[j]})+fewestRepeats(h, rest))
		}
	}
	return best
}

// The first round deals the seeds in order, the best together; and a
// later round keeps the leaders together when they have not met.
func TestSwissTablesScoreGroups(t *testing.T) {
	e := Event{Format: FormatTables, Seats: 3, Players: rated(6)}
	rd, err := SwissTables(e)
	if err != nil {
		t.Fatal(err)
	}
	if got := [][]string{sorted(rd.Tables[0].Seats), sorted(rd.Tables[1].Seats)}; !reflect.DeepEqual(got, [][]string{{"s1", "s2", "s3"}, {"s4", "s5", "s6"}}) {
		t.Errorf("round 1: %v", got)
	}
	// s1 and s4 won, s2 and s5 second: the leaders s1, s4 meet, with
	// the best second (s2, by seed) at their table: each table of three
	// must hold two who met, so no exchange lowers the repeats.
	e.Played = []Round{{Tables: []Table{
		{Seats: []string{"s1", "s2", "s3"}, Places: []int{1, 2, 3}},
		{Seats: []string{"s4", "s5", "s6"}, Places: []int{1, 2, 3}},
	}}}
	rd, _ = SwissTables(e)
	top := sorted(rd.Tables[0].Seats)
	if !reflect.DeepEqual(top, []string{"s1", "s2", "s4"}) {
		t.Errorf("round 2's first table %v: the two winners should meet", top)
	}
}

func sorted(xs []string) []string {
	out := append([]string(nil), xs...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// Bad events say what is wrong.
func TestSwissTablesRefuses(t *testing.T) {
	if _, err := SwissTables(Event{Format: FormatTables, Seats: 3, Players: players("a", "b")}); err == nil {
		t.Error("two players at tables of three")
	}
	if _, err := SwissTables(Event{Format: FormatTables, Seats: 3, TableSizes: []int{5}, Players: players("a", "b", "c")}); err == nil {
		t.Error("a table of 5 in a game for 3")
	}
	open := Event{Format: FormatTables, Seats: 3, Players: players("a", "b", "c"), Played: []Round{{Tables: []Table{{Seats: []string{"a", "b", "c"}}}}}}
	if _, err := SwissTables(open); err == nil {
		t.Error("a round in play")
	}
}

// With full tables and a multiple of the seats as rounds, every player
// could sit in every seat equally often; the seating keeps everyone's
// most and least used seats within 2 of each other, and more than half
// the players exactly even (docs/tournaments.md gives the measure).
func TestSwissTablesSeatsEven(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	even, all := 0, 0
	for trial := 0; trial < 100; trial++ {
		k := 3 + rng.Intn(2)
		n := k * (2 + rng.Intn(6))
		rounds := k * (1 + rng.Intn(2))
		e := playTables(t, rng, n, k, nil, rounds)
		h := readHistory(e)
		for _, p := range e.Players {
			s := append([]int(nil), h.seats[p.ID]...)
			for len(s) < k {
				s = append(s, 0)
			}
			lo, hi := s[0], s[0]
			for _, c := range s {
				lo, hi = min(lo, c), max(hi, c)
			}
			if hi-lo > 2 {
				t.Errorf("%d players of %d, %d rounds: %s sat %v", n, k, rounds, p.ID, s)
			}
			if hi == lo {
				even++
			}
			all++
		}
	}
	if even*2 < all {
		t.Errorf("only %d of %d players exactly even", even, all)
	}
}

// FuzzSwissTables plays events of games for two to four with any count
// up to 30, the table sizes the game allows, withdrawals and any places:
// no panic, and every round seats each player once at allowed tables,
// its byes to those with the fewest; standings always follow.
func FuzzSwissTables(f *testing.F) {
	f.Add(int64(1), uint8(3), uint8(10), uint8(2), uint64(0))
	f.Add(int64(2), uint8(4), uint8(7), uint8(1), uint64(3))
	f.Fuzz(func(t *testing.T, seed int64, seats, n, sizes uint8, withdraw uint64) {
		rng := rand.New(rand.NewSource(seed))
		k := 2 + int(seats%3)
		e := Event{Format: FormatTables, Seats: k, Players: rated(int(n % 31))}
		for s := 2; s < k; s++ {
			if sizes>>s&1 == 1 {
				e.TableSizes = append(e.TableSizes, s)
			}
		}
		for r := 0; r < 5; r++ {
			for i := range e.Players {
				if withdraw>>(uint(r*5+i)%64)&1 == 1 && rng.Intn(3) == 0 {
					e.Players[i].Withdrawn = true
				}
			}
			rd, err := SwissTables(e)
			if err != nil {
				return
			}
			var active []Player
			for _, p := range e.Players {
				if !p.Withdrawn {
					active = append(active, p)
				}
			}
			check := e
			check.Players = active
			checkTablesRound(t, check, rd)
			for i := range rd.Tables {
				places := make([]int, len(rd.Tables[i].Seats))
				for j := range places {
					places[j] = rng.Intn(5) - 1
				}
				rd.Tables[i].Places = places
			}
			e.Played = append(e.Played, rd)
			if _, err := Standings(e); err != nil {
				t.Fatalf("standings of a round just paired: %v", err)
			}
		}
	})
}

// A player who asked to sit a round out is not seated in it: the round
// records the absence, and the others fill the tables.
func TestSwissTablesRequestedBye(t *testing.T) {
	e := Event{Format: FormatTables, Seats: 3, Players: rated(7), MaxHalfByes: 1}
	if err := e.RequestBye("s1", 1, ByeHalf); err != nil {
		t.Fatal(err)
	}
	rd, err := SwissTables(e)
	if err != nil {
		t.Fatal(err)
	}
	if len(rd.Absent) != 1 || rd.Absent[0] != (Absence{ID: "s1", Bye: ByeHalf}) || len(rd.Tables) != 2 || len(rd.Byes) != 0 {
		t.Fatalf("round 1: %+v", rd)
	}
	for _, tb := range rd.Tables {
		if slices.Contains(tb.Seats, "s1") {
			t.Fatalf("s1 seated: %+v", rd)
		}
	}
}
