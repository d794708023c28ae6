package console

import (
	"regexp"
	"strings"
	"testing"

	"tessera/service"
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
		c.Line(t.Context(), "ana: /move "+m[1])
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
			c.Line(t.Context(), start)
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
			c.Line(t.Context(), "ana: /click rematch:1")
			if !strings.Contains(out.String(), "was played alone: start another with /puzzle") {
				t.Fatalf("rematch of a puzzle:\n%s", out)
			}
			c.Line(t.Context(), "ana: /games")
			if !strings.Contains(out.String(), "Knotwork (alone)") {
				t.Fatalf("/games:\n%s", out)
			}
		})
	}
}

// The easy puzzle's solution, laid in the hard puzzle, is a full board of
// several knots: reported as not solved, with no hint but undo; undo
// takes the last tile back.
func TestHardPuzzleWithSeveralKnotsIsNotSolved(t *testing.T) {
	c, out := newConsole(t)
	c.Line(t.Context(), "ana: /puzzle easy")
	moves := solveByHints(t, c, out)
	c, out = newConsole(t)
	c.Line(t.Context(), "bo: /puzzle hard")
	for _, m := range moves {
		c.Line(t.Context(), "bo: /move "+m)
	}
	log := out.String()
	if strings.Contains(log, "Solved") || !strings.Contains(log, "Not solved: the 25 tiles form") {
		t.Fatalf("a full board of several knots:\n%s", log)
	}
	if !strings.Contains(log, "(the hard puzzle wants one knot through all 25: undo)") {
		t.Fatalf("the first small knot is not pointed out:\n%s", log)
	}
	r, err := c.Do("bo: /hint")
	if err != nil || r.Text != "There is no solution from here in game #1; undo." || !r.Ephemeral {
		t.Fatalf("hint: %q %v", r.Text, err)
	}
	before := out.Len()
	c.Line(t.Context(), "bo: /move undo")
	if !strings.Contains(out.String()[before:], "bo played undo") {
		t.Fatalf("undo:\n%s", out.String()[before:])
	}
	c.Line(t.Context(), "bo: /games")
	if !strings.Contains(out.String(), "Knotwork (alone): your turn") {
		t.Fatalf("/games:\n%s", out.String()[before:])
	}
	// Autocomplete lists undo.
	req := service.Request{User: user("bo"), ChannelID: "console", GuildID: "console"}
	if ch := c.svc.MoveChoices(req, "", "und"); len(ch) != 1 || ch[0].Value != "undo" {
		t.Fatalf("choices for \"und\": %+v", ch)
	}
}

// TestPuzzleWords: /puzzle's words are a game (one whose id is typed) and
// a level, in either order, or written name=value; a level alone is the
// one game's with puzzles (the service picks it).
func TestPuzzleWords(t *testing.T) {
	for _, c := range []struct {
		words       []string
		game, level string
	}{
		{nil, "", ""},
		{[]string{"hard"}, "", "hard"},
		{[]string{"Knotwork", "hard"}, "knotwork", "hard"},
		{[]string{"easy", "knotwork"}, "knotwork", "easy"},
		{[]string{"level=hard", "game=knotwork"}, "knotwork", "hard"},
	} {
		in, refused := syntaxes["puzzle"].read(nil, service.Request{}, "", c.words)
		if refused != nil || in.String("game") != c.game || in.String("level") != c.level {
			t.Errorf("%q: %v %v, want game %q level %q", c.words, in, refused, c.game, c.level)
		}
	}
}
