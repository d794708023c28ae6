package tournament

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"testing"
)

// A lot is the same for the same seed, a permutation of the ids, and
// differs between seeds (not always, but over ten of them surely).
func TestShuffle(t *testing.T) {
	in := ids(12)
	a, b := Shuffle(in, 42), Shuffle(in, 42)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("same seed, two orders: %v %v", a, b)
	}
	got := append([]string(nil), a...)
	sort.Strings(got)
	if !reflect.DeepEqual(got, in) {
		t.Fatalf("not a permutation: %v", a)
	}
	orders := map[string]bool{}
	for seed := int64(0); seed < 10; seed++ {
		orders[fmt.Sprint(Shuffle(in, seed))] = true
	}
	if len(orders) < 5 {
		t.Errorf("ten seeds gave %d orders", len(orders))
	}
}

// A withdrawn player is no longer paired, in a Swiss event or at tables,
// and the rest are paired as usual.
func TestWithdrawnNotPaired(t *testing.T) {
	ps := rated(7)
	ps[2].Withdrawn = true // s3
	rd, err := Dutch(Event{Format: FormatSwiss, Players: ps})
	if err != nil {
		t.Fatal(err)
	}
	checkSwissRound(t, Event{Format: FormatSwiss, Players: ps}, rd)
	e := Event{Format: FormatTables, Seats: 3, Players: ps}
	trd, err := SwissTables(e)
	if err != nil {
		t.Fatal(err)
	}
	checkTablesRound(t, Event{Format: FormatTables, Seats: 3, Players: append(append([]Player(nil), ps[:2]...), ps[3:]...)}, trd)
	if len(trd.Tables) != 2 || len(trd.Byes) != 0 {
		t.Errorf("six players left at tables of three: %v", trd)
	}
}

// An event goes to JSON and back unchanged: the service stores it so.
func TestEventJSON(t *testing.T) {
	e := swissOfFive()
	e.TableSizes = []int{3}
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	var back Event
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, e) {
		t.Errorf("JSON changed the event:\n%s", b)
	}
}

// An event past MaxPlayers is refused by every pairing, not attempted.
func TestTooManyPlayers(t *testing.T) {
	ps := rated(MaxPlayers + 1)
	if _, err := Dutch(Event{Format: FormatSwiss, Players: ps}); err == nil {
		t.Error("Dutch paired it")
	}
	if _, err := SwissTables(Event{Format: FormatTables, Seats: 3, Players: ps}); err == nil {
		t.Error("SwissTables paired it")
	}
	if _, err := Bracket(ps); err == nil {
		t.Error("Bracket seeded it")
	}
	var names []string
	for _, p := range ps {
		names = append(names, p.ID)
	}
	if _, err := RoundRobin(names, false); err == nil {
		t.Error("RoundRobin paired it")
	}
}
