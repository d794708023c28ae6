package console

import (
	"regexp"
	"strings"
	"testing"
)

// hintRE reads the move out of a /hint reply ("Try d4 NE (game #1).").
var hintRE = regexp.MustCompile(`Try (.+) \(game #\d+\)\.`)

// solveByHints follows /hint alone from an empty board until the post
// says the puzzle is solved, and returns the moves played.
func solveByHints(t *testing.T, c *Console, out *strings.Builder) []string {
	t.Helper()
	var moves []string
	for i := 0; i < 30; i++ {
		r, err := c.Do("ana: /hint")
		if err != nil {
			t.Fatalf("hint %d: %v\n%s", i, err, out)
		}
		m := hintRE.FindStringSubmatch(r.Text)
		if m == nil || !r.Ephemeral {
			t.Fatalf("hint %d is %q (ephemeral %v)\n%s", i, r.Text, r.Ephemeral, out)
		}
		moves = append(moves, m[1])
		before := out.Len()
		c.Line("ana: /move " + m[1])
		if strings.Contains(out.String()[before:], "Solved, well done ana!") {
			return moves
		}
	}
	t.Fatalf("not solved after 30 hints:\n%s", out)
	return nil
}

func TestPuzzlesSolvedByFollowingHints(t *testing.T) {
	for _, start := range []string{"ana: /new knotwork puzzle=easy", "ana: /puzzle hard"} {
		t.Run(start, func(t *testing.T) {
			c, out := newConsole(t)
			c.Line(start)
			if !strings.Contains(out.String(), "for ana alone") || strings.Contains(out.String(), "open challenge") {
				t.Fatalf("the puzzle did not start at once:\n%s", out)
			}
			moves := solveByHints(t, c, out)
			if len(moves) != 24 {
				t.Fatalf("%d moves: %v", len(moves), moves)
			}
			for _, want := range []string{"Solved!", "Solved, well done ana!"} {
				if !strings.Contains(out.String(), want) {
					t.Fatalf("output lacks %q:\n%s", want, out)
				}
			}
			for _, never := range []string{"against", "your turn", "direct message", "vs :"} {
				if strings.Contains(out.String(), never) {
					t.Fatalf("output has %q:\n%s", never, out)
				}
			}
			c.Line("ana: /games")
			if !strings.Contains(out.String(), "Knotwork (alone)") {
				t.Fatalf("/games:\n%s", out)
			}
		})
	}
}
