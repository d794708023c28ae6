package tournament

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// bbpPair asks bbpPairings (the binary BBPPAIRINGS names) to pair the
// event's next round from our TRF.
func bbpPair(t *testing.T, bin, dir string, e Event) (Round, string, error) {
	var trf bytes.Buffer
	if err := WriteTRF(&trf, e); err != nil {
		t.Fatal(err)
	}
	in, out := filepath.Join(dir, "in.trf"), filepath.Join(dir, "out.txt")
	if err := os.WriteFile(in, trf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(out)
	cmd := exec.Command(bin, "--dutch", in, "-p", out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return Round{}, trf.String(), fmt.Errorf("bbpPairings: %v: %s", err, msg)
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
	return rd, trf.String(), nil
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
// pairings) to study. It runs only when BBPPAIRINGS names the binary:
//
//	BBPPAIRINGS=/tmp/bbp/bbpPairings.exe go test -run TestCompareBBPPairings -v ./tournament
//
// BBP_EVENTS sets the number of events (default 250).
func TestCompareBBPPairings(t *testing.T) {
	bin := os.Getenv("BBPPAIRINGS")
	if bin == "" {
		t.Skip("BBPPAIRINGS does not name bbpPairings's binary")
	}
	events := 250
	if v, err := strconv.Atoi(os.Getenv("BBP_EVENTS")); err == nil {
		events = v
	}
	outDir := os.Getenv("BBP_OUT")
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(27))
	var rounds, whole, loose, pairs, pairsSame, pairsLoose int
	kinds := map[string]int{}
	examples := map[string]string{}
	for ev := 0; ev < events; ev++ {
		n := 5 + rng.Intn(36)
		total := 2
		for 1<<total < n {
			total++
		}
		total += rng.Intn(2) // log2(n)+1 or +2 rounds
		e := Event{Name: fmt.Sprintf("random %d", ev), Format: FormatSwiss, Rounds: total, Seed: rng.Int63()}
		for i := 0; i < n; i++ {
			e.Players = append(e.Players, Player{ID: fmt.Sprintf("p%02d", i+1), Rating: 1000 + rng.Intn(40)*25})
		}
		for r := 0; r < total; r++ {
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
					examples[kind] = fmt.Sprintf("bbpPairings: %v\nours:        %v\n%s", sortedKeys(strict), sortedKeys(ourStrict), trf)
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
			for i := range theirs.Tables {
				theirs.Tables[i].Places = [][]int{{1, 2}, {1, 1}, {2, 1}}[rng.Intn(3)]
			}
			e.Played = append(e.Played, theirs)
		}
	}
	pct := func(a, b int) float64 { return 100 * float64(a) / float64(max(b, 1)) }
	t.Logf("%d events, %d rounds compared", events, rounds)
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
