package console

import (
	"strings"
	"testing"

	"tessera/service"
)

// Issue 45: what a command delivers is printed once. At a game's start
// the status message and the first post carry the same picture, and its
// line was printed twice; /analyze edits its progress line once a
// position, and printed as many "(status message updated)" lines, all
// after the line itself already read "done".
func TestConsolePrintsEachThingOnce(t *testing.T) {
	// A small analysis: how its lines are printed is under test here,
	// not its chances.
	c, out := newConsoleWith(t, func(cfg *service.Config) { cfg.AnalysisIterations = 100 })
	c.dir = t.TempDir()
	c.Line(t.Context(), "ana: /new elemental bo")
	out.Reset()
	c.Line(t.Context(), "bo: /accept")
	if n := strings.Count(out.String(), "game-1-move-0.png"); n != 1 {
		t.Fatalf("the start's picture is printed %d times:\n%s", n, out)
	}
	// Both players move a few times, then the game ends and is analysed.
	for range 1 {
		for _, who := range []string{"ana", "bo"} {
			out.Reset()
			c.Line(t.Context(), who+": /moves")
			first := strings.TrimPrefix(strings.SplitN(out.String(), "\n", 2)[0], "(only you)")
			move, _, _ := strings.Cut(strings.TrimSpace(first), " (") // "h8 BGGY (+3)"
			c.Line(t.Context(), who+": /move "+move)
		}
	}
	c.Line(t.Context(), "ana: /resign")
	c.Line(t.Context(), "ana: /click resign:1")
	if g, err := c.store().Game(t.Context(), 1); err != nil || len(g.Moves) < 3 {
		t.Fatalf("the game: %v %v\n%s", g, err, out)
	}
	out.Reset()
	c.Line(t.Context(), "cy: /analyze #1")
	if n := strings.Count(out.String(), "(status message updated)"); n > 1 || !strings.Contains(out.String(), "Analysis of game #1: done") {
		t.Fatalf("%d status lines:\n%s", n, out)
	}
	// Asked again, a picture already shown is shown again: once per line.
	out.Reset()
	c.Line(t.Context(), "ana: /board #1")
	if n := strings.Count(out.String(), "picture: "); n != 1 {
		t.Fatalf("/board printed %d pictures:\n%s", n, out)
	}
}
