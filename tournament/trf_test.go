package tournament

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"
	"testing"
)

// swissOfFive is the worked Swiss example of the standings, with names
// and ratings so that the file has something in every column.
func swissOfFive() Event {
	return Event{Name: "Swiss of five", Format: FormatSwiss, Rounds: 4, Seed: 3,
		Players: []Player{{ID: "A", Name: "Ana", Rating: 1900}, {ID: "B", Name: "Bo", Rating: 1800},
			{ID: "C", Name: "Cé", Rating: 1700}, {ID: "D", Name: "Dov", Rating: 1600}, {ID: "E", Name: "Eve", Rating: 1500}},
		Played: []Round{
			{Tables: []Table{two("A", "B", "1-0"), two("C", "D", "0-1")}, Byes: []string{"E"}},
			{Tables: []Table{two("D", "A", "½"), two("E", "C", "1-0")}, Byes: []string{"B"}},
			{Tables: []Table{two("A", "E", "0-1"), two("D", "B", "1-0")}, Byes: []string{"C"}},
		}}
}

// The columns FIDE's TRF-16 fixes: start number at 5, name at 15, rating
// at 49, points at 81, rank at 86, rounds from 92 ten apart.
func TestWriteTRFColumns(t *testing.T) {
	var b bytes.Buffer
	if err := WriteTRF(&b, swissOfFive()); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	want := []string{
		"012 Swiss of five",
		"092 swiss",
		"XXR 4",
	}
	for i, w := range want {
		if lines[i] != w {
			t.Errorf("line %d = %q, want %q", i+1, lines[i], w)
		}
	}
	if !strings.HasPrefix(lines[3], "XXC ") {
		t.Errorf("line 4 = %q, want the first colour", lines[3])
	}
	// FIDE's columns, from 1: what each field of A's and C's lines holds.
	cols := func(line string, from, to int) string {
		if len(line) < to {
			return "(short line)"
		}
		return line[from-1 : to]
	}
	for _, c := range []struct {
		line     string
		from, to int
		want     string
	}{
		{lines[4], 1, 8, "001    1"},
		{lines[4], 15, 47, "Ana" + strings.Repeat(" ", 30)},
		{lines[4], 49, 52, "1900"},
		{lines[4], 81, 89, " 1.5    3"},
		{lines[4], 92, 99, "   2 w 1"},
		{lines[4], 102, 109, "   4 b ="},
		{lines[4], 112, 119, "   5 w 0"},
		{lines[6], 1, 8, "001    3"},
		{lines[6], 15, 17, "C? "}, // not ASCII: '?'
		{lines[6], 81, 89, " 1.0    4"},
		{lines[6], 112, 119, "0000 - U"}, // the bye
	} {
		if got := cols(c.line, c.from, c.to); got != c.want {
			t.Errorf("columns %d-%d = %q, want %q\n%s", c.from, c.to, got, c.want, c.line)
		}
	}
}

// canon writes rounds with ids mapped, tables and byes sorted, so that
// two events can be compared whatever order their lists are in.
func canon(rounds []Round, id func(string) string) string {
	var b strings.Builder
	for r, rd := range rounds {
		var items []string
		for _, t := range rd.Tables {
			items = append(items, fmt.Sprintf("%s-%s%v%v", id(t.Seats[0]), id(t.Seats[1]), t.Places, t.Forfeited))
		}
		for _, p := range rd.Byes {
			items = append(items, "bye "+id(p))
		}
		for _, a := range rd.Absent {
			items = append(items, fmt.Sprintf("absent %s %s", id(a.ID), a.Bye))
		}
		sort.Strings(items)
		fmt.Fprintf(&b, "round %d: %s\n", r+1, strings.Join(items, ", "))
	}
	return b.String()
}

// What is written reads back the same: the same players in the same seed
// order, the same tables with the same seats and results, the same byes;
// and writing what was read gives the same file.
func TestTRFRoundTrip(t *testing.T) {
	rr, _ := RoundRobin([]string{"A", "B", "C", "D", "E"}, false)
	for r := range rr {
		for i := range rr[r].Tables {
			rr[r].Tables[i].Places = [][]int{{1, 2}, {1, 1}, {2, 1}}[(r+i)%3]
		}
	}
	events := []Event{swissOfFive(), {Name: "RR", Format: FormatRoundRobin, Players: players("A", "B", "C", "D", "E"), Played: rr}}
	for _, e := range events {
		var first bytes.Buffer
		if err := WriteTRF(&first, e); err != nil {
			t.Fatal(err)
		}
		back, err := ReadTRF(bytes.NewReader(first.Bytes()))
		if err != nil {
			t.Fatalf("%s: %v\n%s", e.Name, err, first.String())
		}
		number := map[string]string{}
		for i, p := range Seeded(e.Players) {
			number[p.ID] = fmt.Sprint(i + 1)
		}
		same := func(s string) string { return s }
		if got, want := canon(back.Played, same), canon(e.Played, func(s string) string { return number[s] }); got != want {
			t.Errorf("%s: read back\n%s\nwant\n%s", e.Name, got, want)
		}
		if back.Name != e.Name || back.Format != e.Format || back.Rounds != max(e.Rounds, len(e.Played)) || len(back.Players) != len(e.Players) {
			t.Errorf("%s: read back %q %q %d rounds %d players", e.Name, back.Name, back.Format, back.Rounds, len(back.Players))
		}
		back.Seed = e.Seed
		var second bytes.Buffer
		if err := WriteTRF(&second, back); err != nil {
			t.Fatal(err)
		}
		if second.String() != strings.ReplaceAll(first.String(), "Cé", "C?") {
			t.Errorf("%s: written again\n%s\nfirst\n%s", e.Name, second.String(), first.String())
		}
	}
}

// A round with a game in play is left out; a table of three cannot be
// written.
func TestWriteTRFStopsAtOpenRound(t *testing.T) {
	e := swissOfFive()
	e.Played = append(e.Played, Round{Tables: []Table{{Seats: []string{"A", "B"}}}})
	var b bytes.Buffer
	if err := WriteTRF(&b, e); err != nil {
		t.Fatal(err)
	}
	if back, err := ReadTRF(&b); err != nil || len(back.Played) != 3 {
		t.Errorf("%d rounds read (%v), want the 3 played", len(back.Played), err)
	}
	if err := WriteTRF(&b, Event{Seats: 3, Players: players("A", "B", "C")}); err == nil {
		t.Error("a three-player event written as a TRF")
	}
}

// Lines that are not what they claim are refused with the line's number.
func TestReadTRFRefuses(t *testing.T) {
	pad := func(start int) string {
		line := []byte(strings.Repeat(" ", 91))
		copy(line, fmt.Sprintf("001 %4d", start))
		copy(line[80:], " 0.0")
		return string(line)
	}
	head, head2 := pad(1), pad(2)
	for _, c := range []struct {
		file string
		why  string
	}{
		{"001    1  A\n", "a short player line"},
		{"001    x" + head[8:] + "\n", "a start number that is not a number"},
		{head + "   2 w 1\n" + head2 + "   1 w 0\n", "both players white"},
		{head + "   2 w 1\n" + head2 + "   1 b 1\n", "both players won"},
		{head + "   2 w 1\n", "an opponent without a line"},
		{head + "   2 w +\n" + head2 + "   1 b +\n", "both won by forfeit"},
		{head + "   2 w +\n" + head2 + "   1 b 0\n", "a forfeit against a game"},
		{head + "0000 - Q\n", "a bye of no known kind"},
		{"192 FIDE_BURSTEIN\n", "a pairing system Tessera does not pair"},
		{"240 Q   2    1\n", "a 240 line of no known bye"},
		{head + "   1 w 1\n", "a player meets themself"},
		{"XXR many\n", "rounds that are not a number"},
		{head + "\n" + head + "\n", "a start number twice"},
	} {
		if _, err := ReadTRF(strings.NewReader(c.file)); err == nil {
			t.Errorf("%s: no error", c.why)
		}
	}
}

// What the reader accepts, written and read again, reads the same: the
// writer and the reader agree on every file the reader takes.
func FuzzReadTRF(f *testing.F) {
	var b bytes.Buffer
	WriteTRF(&b, swissOfFive())
	f.Add(b.String())
	f.Add("012 x\nXXR 2\n")
	f.Fuzz(func(t *testing.T, file string) {
		e, err := ReadTRF(strings.NewReader(file))
		if err != nil {
			return
		}
		var once bytes.Buffer
		if err := WriteTRF(&once, e); err != nil {
			return // e.g. a table the standings refuse
		}
		again, err := ReadTRF(bytes.NewReader(once.Bytes()))
		if err != nil {
			t.Fatalf("our own file is refused: %v\n%s", err, once.String())
		}
		var twice bytes.Buffer
		if err := WriteTRF(&twice, again); err != nil {
			t.Fatalf("written once, not twice: %v", err)
		}
		if once.String() != twice.String() {
			t.Fatalf("written again differently:\n%s\nthen\n%s", once.String(), twice.String())
		}
	})
}

// withAbsences is a Swiss event with every kind of round without a game:
// a forfeit won, a double forfeit, a half-point bye, a zero-point
// absence, a full-point bye, the pairing's bye, and requests for the
// next round.
func withAbsences() Event {
	e := Event{Name: "Absences", Format: FormatSwiss, Rounds: 4, Seed: 9, Rules: Dutch2025, Players: rated(7),
		MaxHalfByes: 2, MaxZeroByes: 2}
	e.Played = []Round{{
		Tables: []Table{
			{Seats: []string{"s1", "s5"}, Places: []int{1, 2}, Forfeited: []bool{false, true}},
			{Seats: []string{"s6", "s2"}, Places: []int{1, 1}, Forfeited: []bool{true, true}},
			two("s3", "s7", "½"),
		},
		Absent: []Absence{{ID: "s4", Bye: ByeHalf}},
	}, {
		Tables: []Table{two("s2", "s1", "1-0"), two("s7", "s5", "0-1")},
		Byes:   []string{"s6"},
		Absent: []Absence{{ID: "s3", Bye: ByeZero}, {ID: "s4", Bye: ByeFull}},
	}}
	e.Requests = []ByeRequest{{ID: "s2", Round: 3, Bye: ByeHalf}, {ID: "s5", Round: 3, Bye: ByeZero}, {ID: "s1", Round: 4, Bye: ByeHalf}}
	return e
}

// Forfeits, absences and requests are written with TRF's codes and read
// back the same, from TRF-16 and from TRF-2026.
func TestTRFAbsencesRoundTrip(t *testing.T) {
	e := withAbsences()
	number := map[string]string{}
	for i, p := range Seeded(e.Players) {
		number[p.ID] = fmt.Sprint(i + 1)
	}
	for _, w := range []struct {
		name  string
		write func(io.Writer, Event) error
	}{{"TRF-16", WriteTRF}, {"TRF-2026", WriteTRF2026}} {
		var b bytes.Buffer
		if err := w.write(&b, e); err != nil {
			t.Fatal(err)
		}
		file := b.String()
		for _, want := range []string{"   5 w +", "   1 b -", "   6 b -", "   2 w -", "0000 - H", "0000 - Z", "0000 - F", "0000 - U"} {
			if !strings.Contains(file, want) {
				t.Errorf("%s: no %q in\n%s", w.name, want, file)
			}
		}
		back, err := ReadTRF(strings.NewReader(file))
		if err != nil {
			t.Fatalf("%s: %v\n%s", w.name, err, file)
		}
		if got, want := canon(back.Played, func(s string) string { return s }), canon(e.Played, func(s string) string { return number[s] }); got != want {
			t.Errorf("%s: read back\n%s\nwant\n%s", w.name, got, want)
		}
		for _, p := range back.Players {
			orig := Seeded(e.Players)[mustAtoi(p.ID)-1].ID
			for r := 1; r <= 2; r++ {
				if a, b := back.Result(p.ID, r), e.Result(orig, r); a.Kind != b.Kind || a.Points != b.Points {
					t.Errorf("%s: %s round %d: %s %v, want %s %v", w.name, orig, r, a.Kind, a.Points, b.Kind, b.Points)
				}
			}
		}
		if w.name == "TRF-2026" {
			for _, want := range []string{"142 4", "192 FIDE_DUTCH_2025", "240 H   3    2", "240 Z   3    5", "240 H   4    1"} {
				if !strings.Contains(file, want) {
					t.Errorf("TRF-2026: no %q in\n%s", want, file)
				}
			}
			if len(back.Requests) != 3 || back.Rules != Dutch2025 {
				t.Errorf("TRF-2026: requests %+v, rules %q read back", back.Requests, back.Rules)
			}
		}
	}
}

// A file as bbpPairings writes it: lines ended by CR alone, the system in
// 092, forfeits with colours.
func TestReadTRFFromBBPPairings(t *testing.T) {
	pad := func(start int, points, rounds string) string {
		line := []byte(strings.Repeat(" ", 91))
		copy(line, fmt.Sprintf("001 %4d", start))
		copy(line[80:], points)
		return string(line) + rounds
	}
	file := "012 AutoTest Tournament 7\r" +
		pad(1, " 1.0", "   2 w +     3 b =") + "\r" +
		pad(2, " 1.0", "   1 b -  0000 - U") + "\r" +
		pad(3, " 0.5", "0000 - H     1 w =") + "\r\r092 FIDE_DUTCH_2025\r"
	e, err := ReadTRF(strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	if e.Name != "AutoTest Tournament 7" || e.Format != FormatSwiss || e.Rules != Dutch2025 || len(e.Players) != 3 || len(e.Played) != 2 {
		t.Fatalf("read %+v", e)
	}
	for _, c := range []struct {
		id    string
		round int
		kind  Kind
	}{{"1", 1, KindForfeitWin}, {"2", 1, KindForfeitLoss}, {"3", 1, KindHalfBye}, {"2", 2, KindPairingBye}, {"1", 2, KindGame}} {
		if got := e.Result(c.id, c.round); got.Kind != c.kind {
			t.Errorf("player %s round %d: %s, want %s", c.id, c.round, got.Kind, c.kind)
		}
	}
}
