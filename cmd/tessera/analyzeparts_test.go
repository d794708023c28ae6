package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// TestAnalyzeRecordParts: `tessera analyze --record` prints the
// decomposition: a spectator's line a position, each move's error and
// luck, each seat's account adding up to its result (its noise 0 where
// the game hides something, its luck 0 where it hides nothing), each
// seat's own view, a verdict a seat and the costliest moves.
func TestAnalyzeRecordParts(t *testing.T) {
	for _, c := range []struct {
		game     string
		luckless bool
	}{{"closure", false}, {"knotwork", true}} {
		path := recordFile(t, c.game, 8, 3)
		code, out, errs := runCmd(t, "", "analyze", "--record", path, "--iterations", "60")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.game, code, errs)
		}
		var got analysisJSON
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		p := got.Parts
		if p == nil || p.Luckless != c.luckless || p.View != map[bool]string{false: "spectator", true: "board"}[c.luckless] || len(p.Public) != len(got.Moves)+1 || len(p.Moves) != len(got.Moves) || len(p.Accounts) != 2 || len(p.Own) != 2 || len(p.Verdicts) != 2 {
			t.Fatalf("%s: parts %+v", c.game, p)
		}
		for _, a := range append([]accountJSON{p.Accounts[0], p.Accounts[1]}, p.Own[0].Account, p.Own[1].Account) {
			if math.Abs(a.Start+a.OwnErrors+a.Luck+a.OpponentErrors-a.Sum) > 1e-9 || math.Abs(a.Sum+a.Noise-a.Result) > 1e-9 {
				t.Fatalf("%s: %+v does not add up", c.game, a)
			}
			if c.luckless && a.Luck != 0 || !c.luckless && math.Abs(a.Noise) > 1e-9 {
				t.Fatalf("%s: %+v", c.game, a)
			}
		}
		if !strings.HasPrefix(p.Verdicts[0], "ana: ") || !strings.Contains(p.Verdicts[0], "opponents' errors") {
			t.Fatalf("%s: verdicts %q", c.game, p.Verdicts)
		}
		// The game ends in a resignation: the resigning seat's error is
		// all the chance it gave up.
		last := p.Moves[len(p.Moves)-1]
		if got.Moves[len(got.Moves)-1].Move == "resign" && math.Abs(last.Error-(p.Public[len(p.Public)-2][last.By-1]-p.Public[len(p.Public)-1][last.By-1])) > 1e-9 {
			t.Fatalf("%s: the resignation's error %v", c.game, last.Error)
		}
	}
}
