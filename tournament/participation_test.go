package tournament

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// An event stored before the participation model loads and means what it
// meant: tables are games, byes pairing-allocated, the withdrawn player
// left after the last round they appear in, and its rounds were paired by
// the 2017 rules.
func TestParticipationOldEventLoads(t *testing.T) {
	stored := `{"name":"Spring","format":"swiss","seats":2,"rounds":3,"seed":7,
	 "players":[{"id":"a","rating":1500},{"id":"b","rating":1400},{"id":"c","rating":1300,"withdrawn":true}],
	 "played":[{"tables":[{"seats":["a","b"],"places":[1,2]}],"byes":["c"]},
	           {"tables":[{"seats":["b","a"],"places":[1,1]}]}]}`
	var e Event
	if err := json.Unmarshal([]byte(stored), &e); err != nil {
		t.Fatal(err)
	}
	want := map[[2]any]Result{
		{"a", 1}: {Kind: KindGame, Played: true, Points: 1, Seat: 0, Opponents: []string{"b"}},
		{"b", 1}: {Kind: KindGame, Played: true, Points: 0, Seat: 1, Opponents: []string{"a"}},
		{"c", 1}: {Kind: KindPairingBye, Points: 1},
		{"c", 2}: {Kind: KindWithdrawn}, // appears last in round 1
		{"a", 2}: {Kind: KindGame, Played: true, Points: 0.5, Seat: 1, Opponents: []string{"b"}},
		{"a", 3}: {}, // not paired yet
	}
	for k, w := range want {
		if got := e.Result(k[0].(string), k[1].(int)); !reflect.DeepEqual(got, w) {
			t.Errorf("Result(%v, %v) = %+v, want %+v", k[0], k[1], got, w)
		}
	}
	if got := e.WithdrawnFrom("c"); got != 2 {
		t.Errorf("WithdrawnFrom(c) = %d, want 2 (inferred)", got)
	}
	if got := e.PairingRules(); got != Dutch2017 {
		t.Errorf("a stored event paired before rounds recorded their rules: %q, want %q", got, Dutch2017)
	}
	// Written back, it is the same JSON: no new field appears.
	out, _ := json.Marshal(e)
	for _, field := range []string{"absent", "forfeited", "requests", "rules", "withdrawnFrom", "maxHalfByes"} {
		if strings.Contains(string(out), field) {
			t.Errorf("an old event written back gains %q: %s", field, out)
		}
	}
}

// Each kind of participation answers what it scores and whether it was
// played; forfeits score but are no game.
func TestParticipationResults(t *testing.T) {
	e := Event{Format: FormatSwiss, Rounds: 3, Players: rated(7)}
	e.Players[6].Withdrawn, e.Players[6].WithdrawnFrom = true, 1
	e.Played = []Round{{
		Tables: []Table{
			{Seats: []string{"s1", "s2"}, Places: []int{1, 2}, Forfeited: []bool{false, true}}, // s2 did not appear
			{Seats: []string{"s3", "s4"}, Places: []int{1, 1}, Forfeited: []bool{true, true}},  // neither did
		},
		Byes:   []string{"s5"},
		Absent: []Absence{{ID: "s6", Bye: ByeHalf}},
	}, {
		Tables: []Table{{Seats: []string{"s2", "s1"}}}, // in play
		Absent: []Absence{{ID: "s3", Bye: ByeZero}, {ID: "s4", Bye: ByeFull}},
	}}
	cases := []struct {
		id     string
		round  int
		kind   Kind
		points float64
		played bool
	}{
		{"s1", 1, KindForfeitWin, 1, false},
		{"s2", 1, KindForfeitLoss, 0, false},
		{"s3", 1, KindForfeitLoss, 0, false}, // a double forfeit: both lose, not a draw
		{"s4", 1, KindForfeitLoss, 0, false},
		{"s5", 1, KindPairingBye, 1, false},
		{"s6", 1, KindHalfBye, 0.5, false},
		{"s7", 1, KindWithdrawn, 0, false},
		{"s1", 2, KindGame, 0, false}, // pending: not played yet
		{"s3", 2, KindZeroBye, 0, false},
		{"s4", 2, KindFullBye, 1, false},
		{"s7", 3, KindNone, 0, false},
	}
	for _, c := range cases {
		r := e.Result(c.id, c.round)
		if r.Kind != c.kind || r.Points != c.points || r.Played != c.played {
			t.Errorf("%s round %d: %+v, want %s, %v points, played %v", c.id, c.round, r, c.kind, c.points, c.played)
		}
	}
	if r := e.Result("s1", 2); !r.Pending || r.Unplayed() {
		t.Errorf("a game in play: %+v, want pending and not unplayed", r)
	}
	if r := e.Result("s6", 1); !r.Unplayed() {
		t.Errorf("a half-point bye is unplayed: %+v", r)
	}
	// Checked: an absence of no known kind is refused.
	bad := e
	bad.Played = []Round{{Absent: []Absence{{ID: "s1", Bye: "quarter"}}}}
	if _, err := Standings(bad); err == nil {
		t.Error("an absence of kind quarter was accepted")
	}
}

// Requests keep to the organiser's limits, and say why not in words.
func TestParticipationRequestLimits(t *testing.T) {
	e := Event{Format: FormatSwiss, Rounds: 5, Players: rated(4), MaxHalfByes: 1, MaxZeroByes: 2, LastByeRound: 4}
	e.Played = []Round{{Tables: []Table{{Seats: []string{"s1", "s2"}, Places: []int{1, 2}}, {Seats: []string{"s3", "s4"}, Places: []int{1, 2}}}}}
	steps := []struct {
		id    string
		round int
		kind  ByeKind
		why   string // "" allowed
	}{
		{"s1", 1, ByeHalf, "already paired"},
		{"s1", 2, ByeHalf, ""},
		{"s1", 2, ByeZero, "already asked"},
		{"s1", 3, ByeHalf, "the 1 half-point byes"},
		{"s1", 3, ByeZero, ""},
		{"s1", 4, ByeZero, ""},
		{"s2", 5, ByeZero, "up to round 4"},
		{"s2", 6, ByeZero, "has 5 rounds"},
		{"s2", 2, "quarter", "half"},
		{"zz", 2, ByeHalf, "not entered"},
	}
	for _, s := range steps {
		err := e.RequestBye(s.id, s.round, s.kind)
		switch {
		case s.why == "" && err != nil:
			t.Errorf("%s round %d %s: refused: %v", s.id, s.round, s.kind, err)
		case s.why != "" && (err == nil || !strings.Contains(err.Error(), s.why)):
			t.Errorf("%s round %d %s: %v, want a refusal saying %q", s.id, s.round, s.kind, err, s.why)
		}
	}
	if got := e.ByeRequests("s1"); len(got) != 3 || got[0].Round != 2 || got[2].Round != 4 {
		t.Errorf("s1's requests: %+v", got)
	}
	if err := e.RequestBye("s1", 5, ByeZero); err == nil || !strings.Contains(err.Error(), "up to round 4") {
		t.Errorf("past LastByeRound: %v", err)
	}
	if !e.CancelBye("s1", 4) || e.CancelBye("s1", 4) {
		t.Error("cancelling a request: want true once, then false")
	}
	if err := e.RequestBye("s1", 4, ByeZero); err != nil {
		t.Errorf("after cancelling, the zero-point bye is free again: %v", err)
	}
	if err := e.Withdraw("s1"); err != nil || len(e.ByeRequests("s1")) != 0 || e.WithdrawnFrom("s1") != 2 {
		t.Errorf("withdrawing: %v, requests %v, from %d; want none left, from round 2", err, e.ByeRequests("s1"), e.WithdrawnFrom("s1"))
	}
	if err := e.RequestBye("s1", 3, ByeZero); err == nil {
		t.Error("a withdrawn player asked for a bye")
	}
	rr := Event{Format: FormatRoundRobin, Players: rated(4), MaxHalfByes: 1}
	if err := rr.RequestBye("s1", 1, ByeHalf); err == nil {
		t.Error("a round robin took a bye request")
	}
	none := Event{Format: FormatSwiss, Players: rated(4)}
	if err := none.RequestBye("s1", 1, ByeHalf); err == nil || !strings.Contains(err.Error(), "allows no") {
		t.Errorf("limits of 0 allow none: %v", err)
	}
}

// The rules an event is paired by: the organiser's choice; else those of
// its first round; an event never paired takes the 2025 rules.
func TestPairingRules(t *testing.T) {
	for _, c := range []struct {
		e    Event
		want DutchRules
	}{
		{Event{}, Dutch2025},
		{Event{Rules: Dutch2017}, Dutch2017},
		{Event{Played: []Round{{}}}, Dutch2017},
		{Event{Played: []Round{{Rules: Dutch2025}}}, Dutch2025},
		{Event{Rules: Dutch2025, Played: []Round{{}}}, Dutch2025},
	} {
		if got := c.e.PairingRules(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.e, got, c.want)
		}
	}
}

// Dutch leaves out the players who asked to sit the round out, records
// them in the round with their bye, and stamps the rules it paired by;
// a forfeit is no meeting, so the two may be paired again.
func TestDutchHonoursRequests(t *testing.T) {
	e := Event{Format: FormatSwiss, Rounds: 3, Players: rated(5), MaxHalfByes: 1, MaxZeroByes: 1}
	if err := e.RequestBye("s2", 1, ByeHalf); err != nil {
		t.Fatal(err)
	}
	rd, err := Dutch(e)
	if err != nil {
		t.Fatal(err)
	}
	if len(rd.Tables) != 2 || len(rd.Byes) != 0 || !reflect.DeepEqual(rd.Absent, []Absence{{ID: "s2", Bye: ByeHalf}}) || rd.Rules != Dutch2025 {
		t.Fatalf("round 1: %+v; want two tables, no pairing bye, s2 absent with a half-point bye, the 2025 rules", rd)
	}
	for _, tb := range rd.Tables {
		tb.Places = []int{1, 2}
		if tb.Seats[0] == "s1" || tb.Seats[1] == "s1" {
			tb.Forfeited = []bool{false, false}
			if tb.Seats[0] == "s1" {
				tb.Forfeited[1] = true
			} else {
				tb.Forfeited[0] = true
				tb.Places = []int{2, 1}
			}
		}
		e.Played = append(e.Played[:0:0], e.Played...)
		if len(e.Played) == 0 {
			e.Played = append(e.Played, Round{Absent: rd.Absent, Rules: rd.Rules})
		}
		e.Played[0].Tables = append(e.Played[0].Tables, tb)
	}
	if r := e.Result("s2", 1); r.Kind != KindHalfBye || r.Points != 0.5 {
		t.Fatalf("s2 in round 1: %+v", r)
	}
	if r := e.Result("s1", 1); r.Kind != KindForfeitWin || r.Points != 1 || r.Played {
		t.Fatalf("s1 won by forfeit in round 1: %+v", r)
	}
	// Round 2 may pair s1 with the player who did not appear: they never met.
	opp := e.Result("s1", 1).Opponents[0]
	d := newDutch(e)
	for _, p := range d.ps {
		if p.id == "s1" && (p.met[opp] || len(p.colours) != 0) {
			t.Errorf("a forfeit counted as a meeting or a colour: met %v, colours %v", p.met, p.colours)
		}
	}
}
