package tournament

import (
	"errors"
	"fmt"
	"math/rand"
	"testing"
)

// randomEvent makes a Swiss event of n players with random ratings (some
// equal, so the given order counts) and plays rounds of it: each round
// paired by pair, each game given a random result (the first seat wins,
// draws or loses). It stops early if a round cannot be paired.
func randomEvent(t *testing.T, rng *rand.Rand, n, rounds int, pair func(Event) (Round, error)) (Event, error) {
	e := Event{Name: fmt.Sprintf("random %d", n), Format: FormatSwiss, Rounds: rounds, Seed: rng.Int63()}
	for i := 0; i < n; i++ {
		e.Players = append(e.Players, Player{ID: fmt.Sprintf("p%02d", i+1), Name: fmt.Sprintf("Player %d", i+1), Rating: 1000 + rng.Intn(40)*25})
	}
	for r := 0; r < rounds; r++ {
		rd, err := pair(e)
		if err != nil {
			return e, err
		}
		for i := range rd.Tables {
			rd.Tables[i].Places = [][]int{{1, 2}, {1, 1}, {2, 1}}[rng.Intn(3)]
		}
		e.Played = append(e.Played, rd)
	}
	return e, nil
}

// checkSwissRound holds a round to the absolute rules: every player once
// (a table or the bye), a bye only for an odd count and never twice to a
// player, no pairing repeated, and colours (seats) that keep each
// player's difference within ±2 and never give three of one in a row,
// except in the last round for topscorers (more than half the points
// played for) and their opponents, whom the rules (A.7, C.3) let play
// past those limits rather than out of their score group.
func checkSwissRound(t *testing.T, e Event, rd Round) {
	t.Helper()
	seen := map[string]int{}
	for _, tb := range rd.Tables {
		for _, id := range tb.Seats {
			seen[id]++
		}
	}
	for _, id := range rd.Byes {
		seen[id]++
	}
	active := 0
	away := map[string]bool{}
	for _, a := range rd.Absent {
		away[a.ID] = true
	}
	for _, p := range e.Players {
		if p.Withdrawn || away[p.ID] {
			if seen[p.ID] != 0 {
				t.Errorf("round %d: withdrawn or absent %s is paired", len(e.Played)+1, p.ID)
			}
			continue
		}
		active++
		if seen[p.ID] != 1 {
			t.Errorf("round %d: %s placed %d times", len(e.Played)+1, p.ID, seen[p.ID])
		}
	}
	if want := active % 2; len(rd.Byes) != want {
		t.Errorf("round %d: %d byes for %d players", len(e.Played)+1, len(rd.Byes), active)
	}
	met := map[[2]string]bool{}
	byes := map[string]bool{}
	colours := map[string][]int{}
	// Forfeits are no meetings and give no colours; a point without a
	// game (a pairing bye, a forfeit win; by the 2025 rules a full-point
	// bye too) excludes the bye as a bye does.
	for _, old := range append(append([]Round(nil), e.Played...), rd) {
		for _, tb := range old.Tables {
			if tb.Forfeit() {
				for s, id := range tb.Seats {
					if !tb.forfeited(s) {
						byes[id] = true
					}
				}
				continue
			}
			a, b := tb.Seats[0], tb.Seats[1]
			if a > b {
				a, b = b, a
			}
			if met[[2]string{a, b}] {
				t.Errorf("round %d: %s and %s meet again", len(e.Played)+1, a, b)
			}
			met[[2]string{a, b}] = true
			colours[tb.Seats[0]] = append(colours[tb.Seats[0]], white)
			colours[tb.Seats[1]] = append(colours[tb.Seats[1]], black)
		}
		for _, id := range old.Byes {
			if byes[id] {
				t.Errorf("round %d: %s has a second bye (or a bye after a point without a game)", len(e.Played)+1, id)
			}
			byes[id] = true
		}
		for _, a := range old.Absent {
			if a.Bye == ByeFull && e.PairingRules() == Dutch2025 {
				byes[a.ID] = true
			}
		}
	}
	exempt := map[string]bool{}
	if len(e.Played)+1 == e.Rounds {
		points := map[string]float64{}
		for r := range e.Played {
			for _, p := range e.Players {
				points[p.ID] += e.Result(p.ID, r+1).Points
			}
		}
		for _, tb := range rd.Tables {
			if a, b := tb.Seats[0], tb.Seats[1]; points[a] > float64(len(e.Played))/2 || points[b] > float64(len(e.Played))/2 {
				exempt[a], exempt[b] = true, true
			}
		}
	}
	for id, cs := range colours {
		if exempt[id] {
			continue
		}
		d := 0
		for i, c := range cs {
			d += 1 - 2*c
			if i >= 2 && cs[i-1] == c && cs[i-2] == c {
				t.Errorf("round %d: %s has the same seat three times in a row: %v", len(e.Played)+1, id, cs)
			}
		}
		if d > 2 || d < -2 {
			t.Errorf("round %d: %s has colour difference %d: %v", len(e.Played)+1, id, d, cs)
		}
	}
}

// pairable reports by brute force whether some pairing of the event's
// next round meets the absolute criteria (no repeat, no second bye, no
// two players with the same absolute colour preference).
func pairable(e Event) bool {
	d := newDutch(e)
	var rec func(ps []*swissPlayer, bye bool) bool
	rec = func(ps []*swissPlayer, bye bool) bool {
		if len(ps) == 0 {
			return true
		}
		a := ps[0]
		if bye && !a.hadBye && rec(ps[1:], false) {
			return true
		}
		for j := 1; j < len(ps); j++ {
			if compatible(a, ps[j]) {
				rest := append(append([]*swissPlayer(nil), ps[1:j]...), ps[j+1:]...)
				if rec(rest, bye) {
					return true
				}
			}
		}
		return false
	}
	return rec(d.ps, len(d.ps)%2 == 1)
}

// Random Swiss events of 5 to 40 players, up to log2(n)+2 rounds: every
// round keeps the absolute rules, and a round refused as unpairable is
// unpairable indeed (brute force, for the small events where it can
// happen).
func TestDutchProperties(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	refused := 0
	for trial := 0; trial < 60; trial++ {
		n := 5 + rng.Intn(36)
		rounds := 1
		for 1<<rounds < n {
			rounds++
		}
		rounds += 1 + rng.Intn(2)
		_, err := randomEvent(t, rng, n, rounds, func(e Event) (Round, error) {
			rd, err := Dutch(e)
			if err == nil {
				checkSwissRound(t, e, rd)
			} else if errors.Is(err, ErrUnpairable) {
				if n <= 12 && pairable(e) {
					t.Errorf("%d players, round %d refused, but a pairing exists", n, len(e.Played)+1)
				}
			}
			return rd, err
		})
		if err != nil {
			if !errors.Is(err, ErrUnpairable) {
				t.Fatal(err)
			}
			refused++
		}
	}
	t.Logf("%d events stopped at an unpairable round", refused)
}

// The same properties on events with absences, requested byes,
// withdrawals and forfeits (the comparison's generator), by both rules;
// and by the 2025 rules the bye goes to the lowest score that leaves
// the rest pairable (C.5), checked by brute force on small rounds.
func TestDutchPropertiesAbsences(t *testing.T) {
	g := generator{rng: rand.New(rand.NewSource(3)), absences: true}
	rounds := 0
	for trial := 0; trial < 60; trial++ {
		rules := []DutchRules{Dutch2017, Dutch2025}[trial%2]
		e := g.event(trial, rules)
		for r := 0; r < e.Rounds; r++ {
			g.beforeRound(&e)
			rd, err := Dutch(e)
			if err != nil {
				if !errors.Is(err, ErrUnpairable) && !errors.Is(err, ErrTooFewPlayers) {
					t.Fatal(err)
				}
				break
			}
			checkSwissRound(t, e, rd)
			if rules == Dutch2025 && len(rd.Byes) == 1 {
				d := newDutch(e)
				var bye *swissPlayer
				for _, p := range d.ps {
					if p.id == rd.Byes[0] {
						bye = p
					}
				}
				for _, p := range d.ps {
					if p.score < bye.score && !p.hadBye && len(d.ps) <= 16 && pairableWithout(e, p.id) {
						t.Errorf("round %d: the bye to %s on %d half points, but %s on %d could take it", r+1, bye.id, bye.score, p.id, p.score)
					}
				}
			}
			g.results(&rd)
			e.Played = append(e.Played, rd)
			rounds++
		}
	}
	t.Logf("%d rounds", rounds)
}

// pairableWithout reports by brute force whether the next round's
// players but id can all be paired (no repeat, no two absolute colour
// preferences alike).
func pairableWithout(e Event, id string) bool {
	d := newDutch(e)
	var ps []*swissPlayer
	for _, p := range d.ps {
		if p.id != id {
			ps = append(ps, p)
		}
	}
	var rec func(ps []*swissPlayer) bool
	rec = func(ps []*swissPlayer) bool {
		if len(ps) == 0 {
			return true
		}
		for j := 1; j < len(ps); j++ {
			if compatible(ps[0], ps[j]) {
				rest := append(append([]*swissPlayer(nil), ps[1:j]...), ps[j+1:]...)
				if rec(rest) {
					return true
				}
			}
		}
		return false
	}
	return rec(ps)
}

// The first round: the top half against the bottom half, 1 against n/2+1,
// the colours alternating down the boards from the drawn initial colour.
func TestDutchFirstRound(t *testing.T) {
	e := Event{Format: FormatSwiss, Players: rated(7), Seed: 5}
	rd, err := Dutch(e)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tb := range rd.Tables {
		got = append(got, tb.Seats[0]+"-"+tb.Seats[1])
	}
	want := []string{"s1-s4", "s5-s2", "s3-s6"}
	if !firstColourWhite(e.Seed) {
		want = []string{"s4-s1", "s2-s5", "s6-s3"}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) || fmt.Sprint(rd.Byes) != "[s7]" {
		t.Errorf("round 1: %v bye %v, want %v bye [s7]", got, rd.Byes, want)
	}
}

// Same event, same pairing: nothing depends on map order or the clock.
func TestDutchDeterministic(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	e, _ := randomEvent(t, rng, 23, 3, Dutch)
	first, err := Dutch(e)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		again, _ := Dutch(e)
		if fmt.Sprint(again) != fmt.Sprint(first) {
			t.Fatalf("pairing changed: %v then %v", first, again)
		}
	}
}

// Bad events say what is wrong.
func TestDutchRefuses(t *testing.T) {
	open := Event{Format: FormatSwiss, Players: players("a", "b"), Played: []Round{{Tables: []Table{{Seats: []string{"a", "b"}}}}}}
	if _, err := Dutch(open); !errors.Is(err, ErrRoundOpen) {
		t.Errorf("a round in play: %v", err)
	}
	if _, err := Dutch(Event{Format: FormatSwiss, Players: players("a")}); !errors.Is(err, ErrTooFewPlayers) {
		t.Errorf("one player: %v", err)
	}
	if _, err := Dutch(Event{Seats: 3, Players: players("a", "b", "c")}); err == nil {
		t.Error("tables of three paired by the Dutch system")
	}
	met := Event{Format: FormatSwiss, Players: players("a", "b"), Played: []Round{{Tables: []Table{two("a", "b", "1-0")}}}}
	if _, err := Dutch(met); !errors.Is(err, ErrUnpairable) {
		t.Errorf("two players who met: %v", err)
	}
}

// BenchmarkDutch pairs round 5 of random events of 16 to 300 players,
// by each version of the rules (docs/benchmarks.md).
func BenchmarkDutch(b *testing.B) {
	for _, rules := range []DutchRules{Dutch2017, Dutch2025} {
		pair := func(e Event) (Round, error) {
			e.Rules = rules
			return Dutch(e)
		}
		for _, n := range []int{16, 40, 100, 200, 300} {
			e, err := randomEvent(nil, rand.New(rand.NewSource(int64(n))), n, 4, pair)
			if err != nil {
				b.Fatal(err)
			}
			e.Rules = rules
			b.Run(fmt.Sprintf("%s/%d", rules, n), func(b *testing.B) {
				for b.Loop() {
					if _, err := Dutch(e); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// FuzzDutch plays events of any size up to 40 with players withdrawing
// between rounds and odd places ([3 1] is a win for seat 2): the Dutch
// system never panics, and every round it pairs keeps the absolute rules.
func FuzzDutch(f *testing.F) {
	f.Add(int64(1), uint8(9), uint8(5), uint64(0))
	f.Add(int64(2), uint8(2), uint8(3), uint64(1))
	f.Add(int64(3), uint8(31), uint8(7), uint64(0x5005))
	f.Fuzz(func(t *testing.T, seed int64, n, rounds uint8, withdraw uint64) {
		rng := rand.New(rand.NewSource(seed))
		e := Event{Format: FormatSwiss, Rounds: int(rounds%8) + 1, Seed: seed}
		for i := 0; i < int(n%41); i++ {
			e.Players = append(e.Players, Player{ID: fmt.Sprintf("p%02d", i), Rating: rng.Intn(3)})
		}
		for r := 0; r < e.Rounds; r++ {
			for i := range e.Players {
				if withdraw>>(uint(r*7+i)%64)&1 == 1 && rng.Intn(4) == 0 {
					e.Players[i].Withdrawn = true
				}
			}
			rd, err := Dutch(e)
			if err != nil {
				return // too few, or unpairable: said, not paired
			}
			checkSwissRound(t, e, rd)
			for i := range rd.Tables {
				rd.Tables[i].Places = []int{rng.Intn(4), rng.Intn(4)}
			}
			e.Played = append(e.Played, rd)
		}
	})
}
