package console

import (
	"strings"
	"testing"
)

// Issue 45: /say, "a move typed as text", plays a move said on the
// speaker's turn in the game's thread, where it spoke in the console's
// channel and every move was "(chatter: ignored)"; chatter is still
// ignored, and with several games #id says which.
func TestConsoleSayPlaysAMove(t *testing.T) {
	c, out := newConsole(t)
	c.Line(t.Context(), "ana: /new elemental bo")
	c.Line(t.Context(), "bo: /accept")
	out.Reset()
	c.Line(t.Context(), "ana: /say h8 BGGY")
	if !strings.Contains(out.String(), "(plain-text move)") || !strings.Contains(out.String(), "[✅]") || !strings.Contains(out.String(), "bo, your turn") {
		t.Fatalf("the move said:\n%s", out)
	}
	g, err := c.store().Game(t.Context(), 1)
	if err != nil || len(g.Moves) != 1 {
		t.Fatalf("game #1 holds %v (%v)", g.Moves, err)
	}
	out.Reset()
	c.Line(t.Context(), "bo: /say good game")
	if !strings.Contains(out.String(), "(chatter: not taken as a move") {
		t.Fatalf("chatter:\n%s", out)
	}
	c.Line(t.Context(), "ana: /new closure bo")
	c.Line(t.Context(), "bo: /accept")
	out.Reset()
	c.Line(t.Context(), "bo: /say h1 YGYG")
	if !strings.Contains(out.String(), "You play 2 games: say which with #id") {
		t.Fatalf("with two games:\n%s", out)
	}
	out.Reset()
	c.Line(t.Context(), "bo: /say #1 a1 RRRR")
	if !strings.Contains(out.String(), "That is not a legal move") {
		t.Fatalf("an illegal move said in game #1:\n%s", out)
	}
}
