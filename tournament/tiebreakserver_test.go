package tournament

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestTieBreaksAgainstTieBreakServer compares Standings with Otto
// Milvang's TieBreakServer (github.com/OttoMilvang/TieBreakServer, an
// implementation of C.07 with the rules of 2026, MIT, copyright FIDE) on
// random Swiss events with every kind of unplayed round,
// written as TRF-16 with the codes it reads (U the pairing's bye, H and
// Z requested byes, + and - forfeits, Z for the rounds after a
// withdrawal). Set TIEBREAKSERVER to its tiebreakchecker.py (Python 3.10
// or later with networkx); without it the test skips. TIEBREAK_EVENTS
// sets the number of events (200).
//
//	git clone https://github.com/OttoMilvang/TieBreakServer /tmp/tbs
//	TIEBREAKSERVER=/tmp/tbs/tiebreakchecker.py go test -run TestTieBreaksAgainstTieBreakServer -v ./tournament
func TestTieBreaksAgainstTieBreakServer(t *testing.T) {
	checker := os.Getenv("TIEBREAKSERVER")
	if checker == "" {
		t.Skip("TIEBREAKSERVER is not set")
	}
	events := 200
	if n, err := strconv.Atoi(os.Getenv("TIEBREAK_EVENTS")); err == nil {
		events = n
	}
	codes := []string{TBBuchholzCut1, TBBuchholz, TBSonnebornBerger, TBWins, TBGamesWon, TBBlackGames}
	theirs := []string{"BH#C1", "BH", "SB", "WIN", "WON", "BPG"}
	rng := rand.New(rand.NewSource(2026))
	dir := t.TempDir()
	values, differ, unplayed := 0, 0, 0
	for trial := 0; trial < events; trial++ {
		e := randomTieBreakEvent(rng)
		for r := range e.Played { // TRF has no game in play
			for i := range e.Played[r].Tables {
				if !e.Played[r].Tables[i].Played() {
					e.Played[r].Tables[i].Places = []int{1, 1}
				}
			}
		}
		e.TieBreaks = codes
		st, err := Standings(e)
		if err != nil {
			t.Fatal(err)
		}
		trf, number := tieBreakTRF(e)
		for _, row := range crosstable(e) {
			for _, c := range row {
				if c.code != 'G' {
					unplayed++
				}
			}
		}
		file := filepath.Join(dir, fmt.Sprintf("e%d.trf", trial))
		if err := os.WriteFile(file, trf, 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command("python3", append([]string{checker, "-s", "-i", file, "-o", "-", "-d", "T", "-t"}, theirs...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("event %d: %v\n%s", trial, err, out)
		}
		got := map[int][]float64{}
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			f := strings.Split(sc.Text(), "\t")
			no, err := strconv.Atoi(f[0])
			if err != nil {
				continue // the heading
			}
			for _, v := range f[2:] {
				x, _ := strconv.ParseFloat(v, 64)
				got[no] = append(got[no], x)
			}
		}
		for _, s := range st {
			ref := got[number[s.ID]]
			if len(ref) != len(codes) {
				t.Fatalf("event %d: no line for %s:\n%s", trial, s.ID, out)
			}
			for k := range codes {
				values++
				if math.Abs(s.TieBreaks[k].Value-ref[k]) > 1e-9 {
					differ++
					if differ <= 10 {
						t.Errorf("event %d, %s of %s: %v, TieBreakServer %v\n%s", trial, codes[k], s.ID, s.TieBreaks[k].Value, ref[k], trf)
					}
				}
			}
		}
	}
	t.Logf("%d events, %d values compared (%d unplayed rounds), %d differ", events, values, unplayed, differ)
}

// tieBreakTRF writes a two-player Swiss event as TRF-16 for
// TieBreakServer, and the start number of each player.
func tieBreakTRF(e Event) ([]byte, map[string]int) {
	rows := crosstable(e)
	number := map[string]int{}
	for i, p := range e.Players {
		number[p.ID] = i + 1
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "012 Random\n092 Swiss\nXXR %d\n", len(e.Played))
	for i, p := range e.Players {
		pts := 0.0
		for _, c := range rows[p.ID] {
			pts += c.points
		}
		line := fmt.Sprintf("001 %4d      %-33s %4d%28s%4.1f %4d  ", i+1, p.ID, p.Rating, "", pts, i+1)
		for _, c := range rows[p.ID] {
			opp, colour := "0000", "-"
			if c.opp != "" {
				opp, colour = strconv.Itoa(number[c.opp]), "w"
				if c.black {
					colour = "b"
				}
			}
			res := map[byte]string{'U': "U", 'H': "H", 'Z': "Z", 'W': "Z", '+': "+", '-': "-", 0: "Z"}[c.code]
			if c.code == 'G' {
				res = map[float64]string{1: "1", 0.5: "=", 0: "0"}[c.points]
			}
			line += fmt.Sprintf("%4s %s %s  ", opp, colour, res)
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	return b.Bytes(), number
}

// TestDirectEncounterAgainstTieBreakServer compares the direct
// encounter (DE alone, so that the groups are the players equal on
// points) with TieBreakServer's on random Swiss events with every kind
// of unplayed round (TIEBREAKSERVER and TIEBREAK_EVENTS as above).
// TieBreakServer gives each player a place within the tied group
// (lower ranks higher, shared when DE leaves them equal), Standings the
// number of the group placed below: for every two players of a group,
// the order the two give must be the same.
func TestDirectEncounterAgainstTieBreakServer(t *testing.T) {
	checker := os.Getenv("TIEBREAKSERVER")
	if checker == "" {
		t.Skip("TIEBREAKSERVER is not set")
	}
	events := 200
	if n, err := strconv.Atoi(os.Getenv("TIEBREAK_EVENTS")); err == nil {
		events = n
	}
	rng := rand.New(rand.NewSource(6))
	dir := t.TempDir()
	pairs, separated, differ, skipped := 0, 0, 0, 0
	for trial := 0; trial < events; trial++ {
		e := randomTieBreakEvent(rng)
		for r := range e.Played {
			for i := range e.Played[r].Tables {
				if !e.Played[r].Tables[i].Played() {
					e.Played[r].Tables[i].Places = []int{1, 1}
				}
			}
		}
		// TieBreakServer averages three or more games between two
		// players as a running mean that weighs the last game half
		// (its count of games is reset to 1 at each), not as 6.1.2's
		// average; a Swiss event never pairs two players three times,
		// so the random events that do are left out.
		games := map[[2]string]int{}
		thrice := false
		for _, rd := range e.Played {
			for _, tb := range rd.Tables {
				if tb.Played() && !tb.Forfeit() {
					games[pairKey(tb.Seats[0], tb.Seats[1])]++
					thrice = thrice || games[pairKey(tb.Seats[0], tb.Seats[1])] >= 3
				}
			}
		}
		if thrice {
			skipped++
			continue
		}
		e.TieBreaks = []string{TBDirectEncounter}
		st, err := Standings(e)
		if err != nil {
			t.Fatal(err)
		}
		trf, number := tieBreakTRF(e)
		file := filepath.Join(dir, fmt.Sprintf("e%d.trf", trial))
		if err := os.WriteFile(file, trf, 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command("python3", checker, "-s", "-i", file, "-o", "-", "-d", "T", "-t", "PTS", "DE").CombinedOutput()
		if err != nil {
			t.Fatalf("event %d: %v\n%s", trial, err, out)
		}
		theirs := map[int]float64{}
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			f := strings.Split(sc.Text(), "\t")
			no, err := strconv.Atoi(f[0])
			if err != nil || len(f) < 4 {
				continue // the heading
			}
			theirs[no], _ = strconv.ParseFloat(f[3], 64)
		}
		sign := func(x float64) int {
			switch {
			case x > 0:
				return 1
			case x < 0:
				return -1
			}
			return 0
		}
		for i, a := range st {
			for _, b := range st[i+1:] {
				if a.Points != b.Points {
					continue
				}
				pairs++
				ours := sign(a.TieBreaks[0].Value - b.TieBreaks[0].Value)
				ref := sign(theirs[number[b.ID]] - theirs[number[a.ID]])
				if ours != 0 {
					separated++
				}
				if ours != ref {
					differ++
					if differ <= 10 {
						t.Errorf("event %d: %s (DE %g) and %s (DE %g), TieBreakServer %g and %g\n%s", trial, a.ID, a.TieBreaks[0].Value, b.ID, b.TieBreaks[0].Value, theirs[number[a.ID]], theirs[number[b.ID]], trf)
					}
				}
			}
		}
	}
	t.Logf("%d events (%d more left out: two players met three times), %d pairs of players equal on points, %d of them separated by DE, %d ordered otherwise by TieBreakServer", events-skipped, skipped, pairs, separated, differ)
}
