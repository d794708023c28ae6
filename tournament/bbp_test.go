package tournament

import (
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// bbpPair asks bbpPairings (the binary BBPPAIRINGS names) to pair the
// event's next round. An event on the 2025 rules goes as TRF-2026, whose
// 240 lines say who sits the round out; one on the 2017 rules as TRF-16
// (bbpPairings v5 reads no 240 lines), with the next round's column
// filled for those who sit it out, as JaVaFo's manual has it.
func bbpPair(t *testing.T, bin, dir string, e Event) (Round, string, error) {
	trf := trfForPairing(t, e)
	in, out := filepath.Join(dir, "in.trf"), filepath.Join(dir, "out.txt")
	if err := os.WriteFile(in, []byte(trf), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(out)
	cmd := exec.Command(bin, "--dutch", in, "-p", out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return Round{}, trf, fmt.Errorf("bbpPairings: %v: %s", err, msg)
	}
	text, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	seeded := Seeded(e.Players)
	id := func(s string) string {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > len(seeded) {
			t.Fatalf("bbpPairings names player %q:\n%s", s, text)
		}
		return seeded[n-1].ID
	}
	var rd Round
	for i, line := range strings.Split(strings.TrimSpace(string(text)), "\n") {
		f := strings.Fields(line)
		if i == 0 || len(f) != 2 {
			continue
		}
		if f[1] == "0" {
			rd.Byes = append(rd.Byes, id(f[0]))
			continue
		}
		rd.Tables = append(rd.Tables, Table{Seats: []string{id(f[0]), id(f[1])}})
	}
	rd.Absent = e.requestedFor(len(e.Played) + 1)
	rd.Rules = e.PairingRules()
	return rd, trf, nil
}

// trfForPairing is the file that asks for the event's next round.
func trfForPairing(t *testing.T, e Event) string {
	var b bytes.Buffer
	if e.PairingRules() == Dutch2025 {
		if err := WriteTRF2026(&b, e); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	if err := WriteTRF(&b, e); err != nil {
		t.Fatal(err)
	}
	out := map[int]string{}
	start := map[string]int{}
	for i, p := range Seeded(e.Players) {
		start[p.ID] = i + 1
		if p.Withdrawn {
			out[i+1] = "0000 - Z"
		}
	}
	for _, a := range e.requestedFor(len(e.Played) + 1) {
		out[start[a.ID]] = "0000 - " + string(byeCode(a.Bye))
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	col := 91 + 10*len(e.Played)
	for i, line := range lines {
		if !strings.HasPrefix(line, "001 ") {
			continue
		}
		n, _ := strconv.Atoi(strings.TrimSpace(line[4:8]))
		if cell, ok := out[n]; ok {
			lines[i] = line + strings.Repeat(" ", max(0, col-len(line))) + cell
		}
	}
	return strings.Join(lines, "\n") + "\n"
}

// bbpCheck runs bbpPairings's checker (-c) on a file: it pairs every
// round again from the ones before and lists the rounds it would pair
// otherwise. It returns what the checker said when it disagrees.
func bbpCheck(t *testing.T, bin, dir, trf string) string {
	in := filepath.Join(dir, "check.trf")
	if err := os.WriteFile(in, []byte(trf), 0o644); err != nil {
		t.Fatal(err)
	}
	msg, err := exec.Command(bin, "--dutch", in, "-c").CombinedOutput()
	var odd []string
	for _, line := range strings.Split(strings.TrimSpace(string(msg)), "\n") {
		if line != "" && !regexp.MustCompile(`: Round #\d+$`).MatchString(line) {
			odd = append(odd, line)
		}
	}
	if err != nil || len(odd) > 0 {
		return fmt.Sprintf("%v\n%s", err, msg)
	}
	return ""
}

// generator makes the random events of the comparison: 9 to 60 players
// (ratings with ties), log2(n)+1 to +3 rounds, results a win, draw or
// loss with equal chance; with absences, also requests (a half-point
// bye 4%, a zero-point absence 3% of the players a round, within the
// limits of 2 and 2 and not in the last round), withdrawals (1% a
// round) and forfeits (3% of the games one player does not appear,
// 0.5% neither).
type generator struct {
	rng      *rand.Rand
	absences bool
}

func (g generator) event(ev int, rules DutchRules) Event {
	n := 9 + g.rng.Intn(52)
	total := 1
	for 1<<total < n {
		total++
	}
	total += 1 + g.rng.Intn(3)
	e := Event{Name: fmt.Sprintf("random %d", ev), Format: FormatSwiss, Rounds: total, Seed: g.rng.Int63(), Rules: rules}
	if g.absences {
		e.MaxHalfByes, e.MaxZeroByes, e.LastByeRound = 2, 2, total-1
	}
	for i := 0; i < n; i++ {
		e.Players = append(e.Players, Player{ID: fmt.Sprintf("p%02d", i+1), Rating: 1000 + g.rng.Intn(40)*25})
	}
	return e
}

// beforeRound makes the players' requests and withdrawals for the next
// round.
func (g generator) beforeRound(e *Event) {
	if !g.absences {
		return
	}
	next := len(e.Played) + 1
	for _, p := range e.Players {
		if p.Withdrawn {
			continue
		}
		switch x := g.rng.Float64(); {
		case x < 0.01:
			e.Withdraw(p.ID)
		case x < 0.05:
			e.RequestBye(p.ID, next, ByeHalf)
		case x < 0.08:
			e.RequestBye(p.ID, next, ByeZero)
		}
	}
}

// results gives a paired round its random results.
func (g generator) results(rd *Round) {
	for i := range rd.Tables {
		t := &rd.Tables[i]
		t.Places = [][]int{{1, 2}, {1, 1}, {2, 1}}[g.rng.Intn(3)]
		if !g.absences {
			continue
		}
		switch x := g.rng.Float64(); {
		case x < 0.005:
			t.Places, t.Forfeited = []int{1, 1}, []bool{true, true}
		case x < 0.035:
			loser := g.rng.Intn(2)
			t.Forfeited = []bool{loser == 0, loser == 1}
			t.Places = []int{2 - loser, 1 + loser}
		}
	}
}

// bbpEnv reads the comparison's settings: BBPPAIRINGS the binary,
// BBP_RULES the rules the events are paired by (2025, the default, for
// bbpPairings v6; 2017 for v5.0.1), BBP_EVENTS the events (250),
// BBP_ABSENCES=1 for the set with absences and forfeits.
func bbpEnv(t *testing.T) (bin string, rules DutchRules, events int, g generator) {
	bin = os.Getenv("BBPPAIRINGS")
	if bin == "" {
		t.Skip("BBPPAIRINGS does not name bbpPairings's binary")
	}
	rules = Dutch2025
	if os.Getenv("BBP_RULES") == "2017" {
		rules = Dutch2017
	}
	events = 250
	if v, err := strconv.Atoi(os.Getenv("BBP_EVENTS")); err == nil {
		events = v
	}
	g = generator{rng: rand.New(rand.NewSource(48)), absences: os.Getenv("BBP_ABSENCES") == "1"}
	return bin, rules, events, g
}

// pairsOf lists a round's pairs as "white-black" (and "bye x"); loose
// ignores the colours.
func pairsOf(rd Round, loose bool) map[string]bool {
	out := map[string]bool{}
	for _, t := range rd.Tables {
		a, b := t.Seats[0], t.Seats[1]
		if loose && a > b {
			a, b = b, a
		}
		out[a+"-"+b] = true
	}
	for _, p := range rd.Byes {
		out["bye "+p] = true
	}
	return out
}

func sortedKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestCompareBBPPairings pairs random Swiss events round by round with
// both our Dutch system and bbpPairings, continuing each event with
// bbpPairings's pairing (so every history is a correct Dutch one), and
// reports how often the two agree: on the whole round, on the pairs
// without colours, and pair by pair; every round that differs is
// classified and, with BBP_OUT set, written there (the TRF and both
// pairings) to study. It runs only when BBPPAIRINGS names the binary
// (bbpEnv lists the other settings):
//
//	BBPPAIRINGS=/tmp/bbp6/bbpPairings.exe go test -run TestCompareBBPPairings -v ./tournament
//	BBPPAIRINGS=/tmp/bbp5/bbpPairings.exe BBP_RULES=2017 go test -run TestCompareBBPPairings -v ./tournament
func TestCompareBBPPairings(t *testing.T) {
	bin, rules, events, g := bbpEnv(t)
	outDir := os.Getenv("BBP_OUT")
	dir := t.TempDir()
	var rounds, whole, loose, pairs, pairsSame, pairsLoose int
	kinds := map[string]int{}
	examples := map[string]string{}
	for ev := 0; ev < events; ev++ {
		e := g.event(ev, rules)
		for r := 0; r < e.Rounds; r++ {
			g.beforeRound(&e)
			theirs, trf, err := bbpPair(t, bin, dir, e)
			ours, oerr := Dutch(e)
			if err != nil || oerr != nil {
				if (err == nil) != (oerr == nil) {
					kinds["one refuses, the other pairs"]++
					examples["one refuses, the other pairs"] = fmt.Sprintf("bbpPairings: %v\nours: %v\n%s", err, oerr, trf)
				}
				break
			}
			rounds++
			strict, ourStrict := pairsOf(theirs, false), pairsOf(ours, false)
			lo, ourLo := pairsOf(theirs, true), pairsOf(ours, true)
			same, sameLoose := 0, 0
			for k := range strict {
				if ourStrict[k] {
					same++
				}
			}
			for k := range lo {
				if ourLo[k] {
					sameLoose++
				}
			}
			pairs += len(strict)
			pairsSame += same
			pairsLoose += sameLoose
			if same == len(strict) && len(strict) == len(ourStrict) {
				whole++
			} else {
				kind := classify(e, theirs, ours)
				kinds[kind]++
				if _, ok := examples[kind]; !ok {
					examples[kind] = fmt.Sprintf("event %d round %d\nbbpPairings: %v\nours:        %v\n%s", ev, r+1, sortedKeys(strict), sortedKeys(ourStrict), trf)
				}
				if outDir != "" {
					os.MkdirAll(outDir, 0o755)
					name := filepath.Join(outDir, fmt.Sprintf("ev%03d-r%d.txt", ev, r+1))
					os.WriteFile(name, []byte(fmt.Sprintf("%s\nbbpPairings: %v\nours:        %v\n%s", kind, sortedKeys(strict), sortedKeys(ourStrict), trf)), 0o644)
				}
			}
			if sameLoose == len(lo) && len(lo) == len(ourLo) {
				loose++
			}
			// Continue with bbpPairings's round and random results.
			g.results(&theirs)
			e.Played = append(e.Played, theirs)
		}
	}
	pct := func(a, b int) float64 { return 100 * float64(a) / float64(max(b, 1)) }
	t.Logf("%s, absences %v: %d events, %d rounds compared", rules, g.absences, events, rounds)
	t.Logf("whole round the same (pairs, colours, bye): %d (%.2f%%)", whole, pct(whole, rounds))
	t.Logf("whole round the same but for colours: %d (%.2f%%)", loose, pct(loose, rounds))
	t.Logf("pairs (and byes) the same: %d of %d (%.2f%%); ignoring colours %d (%.2f%%)", pairsSame, pairs, pct(pairsSame, pairs), pairsLoose, pct(pairsLoose, pairs))
	var ks []string
	for k := range kinds {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	for _, k := range ks {
		t.Logf("difference %q: %d rounds; for example\n%s", k, kinds[k], examples[k])
	}
}

// TestCheckBBPPairings pairs random events round by round with our Dutch
// system alone, and hands each finished event, as TRF-16 and as
// TRF-2026, to bbpPairings's checker (-c), which pairs every round again
// from the rounds before it: every event must pass, every round as
// bbpPairings would pair it. Settings as TestCompareBBPPairings; with
// BBP_OUT, the events that fail are written there.
func TestCheckBBPPairings(t *testing.T) {
	bin, rules, events, g := bbpEnv(t)
	outDir := os.Getenv("BBP_OUT")
	dir := t.TempDir()
	var rounds, passed, files int
	for ev := 0; ev < events; ev++ {
		e := g.event(ev, rules)
		for r := 0; r < e.Rounds; r++ {
			g.beforeRound(&e)
			rd, err := Dutch(e)
			if err != nil {
				break
			}
			g.results(&rd)
			e.Played = append(e.Played, rd)
			rounds++
		}
		for _, w := range []struct {
			name  string
			write func(io.Writer, Event) error
		}{{"TRF-16", WriteTRF}, {"TRF-2026", WriteTRF2026}} {
			if rules == Dutch2017 && w.name == "TRF-2026" {
				continue // bbpPairings v5 reads TRF-16
			}
			var b bytes.Buffer
			if err := w.write(&b, e); err != nil {
				t.Fatal(err)
			}
			files++
			if why := bbpCheck(t, bin, dir, b.String()); why != "" {
				t.Errorf("event %d, %s: the checker disagrees:\n%s", ev, w.name, why)
				if outDir != "" {
					os.MkdirAll(outDir, 0o755)
					os.WriteFile(filepath.Join(outDir, fmt.Sprintf("check-ev%03d-%s.trf", ev, w.name)), b.Bytes(), 0o644)
				}
				continue
			}
			passed++
		}
	}
	t.Logf("%s, absences %v: %d events (%d rounds paired by Dutch), %d of %d files pass bbpPairings -c", rules, g.absences, events, rounds, passed, files)
}

// classify names how two pairings of a round differ: only in colours, in
// the bye, or in the pairs, by the score of the highest bracket where
// they part (the top bracket, a middle one, the last one).
func classify(e Event, theirs, ours Round) string {
	if fmt.Sprint(sortedKeys(pairsOf(theirs, true))) == fmt.Sprint(sortedKeys(pairsOf(ours, true))) {
		return "colours only"
	}
	if fmt.Sprint(theirs.Byes) != fmt.Sprint(ours.Byes) {
		return "the bye"
	}
	d := newDutch(e)
	score := map[string]int{}
	top, bottom := -1, 1<<30
	for _, p := range d.ps {
		score[p.id] = p.score
		top = max(top, p.score)
		bottom = min(bottom, p.score)
	}
	ourLo := pairsOf(ours, true)
	first := -1
	for _, t := range theirs.Tables {
		a, b := t.Seats[0], t.Seats[1]
		if a > b {
			a, b = b, a
		}
		if !ourLo[a+"-"+b] {
			first = max(first, max(score[a], score[b]))
		}
	}
	switch first {
	case top:
		return "pairs, from the top score group"
	case bottom:
		return "pairs, in the lowest score group"
	}
	return "pairs, from a middle score group"
}

// TestCompareBBPGenerated reads tournaments bbpPairings makes itself
// (its -g generator: random results, forfeits, byes, each round paired
// by bbpPairings) and pairs every round again with Dutch from the rounds
// before it, as the checker does, with the players the file shows
// absent asking for that round. BBP_GENERATED sets the number of
// tournaments (100); BBP_RULES as for TestCompareBBPPairings (the
// generator of bbpPairings v6 pairs by the 2025 rules, v5's by 2017).
func TestCompareBBPGenerated(t *testing.T) {
	bin, rules, _, _ := bbpEnv(t)
	n := 100
	if v, err := strconv.Atoi(os.Getenv("BBP_GENERATED")); err == nil {
		n = v
	}
	dir := t.TempDir()
	var rounds, same int
	for i := 0; i < n; i++ {
		file := filepath.Join(dir, "gen.trf")
		if msg, err := exec.Command(bin, "--dutch", "-g", "-o", file, "-s", strconv.Itoa(4800+i)).CombinedOutput(); err != nil {
			t.Fatalf("bbpPairings -g: %v: %s", err, msg)
		}
		text, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		full, err := ReadTRF(bytes.NewReader(text))
		if err != nil {
			t.Fatalf("tournament %d: %v", i, err)
		}
		full.Rules, full.Rounds = rules, len(full.Played)
		full.Seed = initialColourSeed(full)
		for r := range full.Played {
			e := full
			e.Played = full.Played[:r]
			e.Requests = nil
			for _, a := range full.Played[r].Absent {
				e.Requests = append(e.Requests, ByeRequest{ID: a.ID, Round: r + 1, Bye: a.Bye})
			}
			ours, err := Dutch(e)
			if err != nil {
				t.Errorf("tournament %d, round %d: %v", i, r+1, err)
				break
			}
			rounds++
			theirs, mine := sortedKeys(pairsOf(full.Played[r], false)), sortedKeys(pairsOf(ours, false))
			if fmt.Sprint(theirs) == fmt.Sprint(mine) {
				same++
			} else {
				t.Logf("tournament %d (-s %d), round %d:\nbbpPairings: %v\nours:        %v", i, 4800+i, r+1, theirs, mine)
			}
		}
	}
	t.Logf("%s: %d generated tournaments, %d rounds, %d the same (%.2f%%)", rules, n, rounds, same, 100*float64(same)/float64(max(rounds, 1)))
}

// initialColourSeed finds a seed whose lot gives the initial colour a
// file's first round shows: the higher-ranked player of its first table
// has the initial colour if their pairing number is odd (E.5).
func initialColourSeed(e Event) int64 {
	first := e
	first.Played = nil
	for _, a := range e.Played[0].Absent {
		first.Requests = append(first.Requests, ByeRequest{ID: a.ID, Round: 1, Bye: a.Bye})
	}
	num := map[string]int{}
	for _, p := range newDutch(first).ps {
		num[p.id] = p.num
	}
	wantWhite := true
	if len(e.Played[0].Tables) > 0 {
		t := e.Played[0].Tables[0]
		hi, seat := t.Seats[0], 0
		if num[t.Seats[1]] < num[hi] {
			hi, seat = t.Seats[1], 1
		}
		wantWhite = (seat == 0) == (num[hi]%2 == 1)
	}
	for s := int64(0); ; s++ {
		if firstColourWhite(s) == wantWhite {
			return s
		}
	}
}
