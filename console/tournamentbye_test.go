package console

import (
	"strings"
	"testing"
)

// TestConsoleTournamentBye: the console takes /tournament bye as Discord
// does: a player not entered is refused with the reason, an entrant's
// request is confirmed with what is left to ask for.
func TestConsoleTournamentBye(t *testing.T) {
	c, out := newConsole(t)
	c.Line(t.Context(), "ana: /tournament new game:closure format:swiss name:Cup rounds:3 half-byes:2")
	c.Line(t.Context(), "ana: /click tjoin:1")
	c.Line(t.Context(), "bo: /tournament bye round:2 event:1")
	if !strings.Contains(out.String(), "You are not entered in this event") {
		t.Fatalf("a stranger's bye is not refused:\n%s", out)
	}
	c.Line(t.Context(), "ana: /tournament bye round:2 kind:half event:1")
	if !strings.Contains(out.String(), "You will sit out round 2 of Cup (#1) with a half-point bye (0.5 points). You may still ask for 1 half-point bye and 1 zero-point bye.") {
		t.Fatalf("the bye is not confirmed:\n%s", out)
	}
}
