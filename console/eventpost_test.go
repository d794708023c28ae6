package console

import (
	"strings"
	"testing"

	"tessera/service"
)

// TestConsoleTournamentPost: the console records the reply to /tournament
// new as the event's post, prints the post as each entry edits it (with
// its buttons), and at the start the event's thread with the round's
// pairings.
func TestConsoleTournamentPost(t *testing.T) {
	c, out := newConsole(t)
	c.Line(t.Context(), "ana: /tournament new game:closure format:swiss name:Cup")
	e, err := c.store().Event(t.Context(), 1)
	if err != nil || e.MessageID != postID(service.Reply{Event: 1}) || e.ChannelID != "console" {
		t.Fatalf("the post is not recorded: %+v (%v)\n%s", e, err, out)
	}
	c.Line(t.Context(), "bo: /click tjoin:1")
	if !strings.Contains(out.String(), "(the tournament's post now reads)") || !strings.Contains(out.String(), "Players (1 of at most 300): bo.") ||
		!strings.Contains(out.String(), "[Join: /click tjoin:1]") {
		t.Fatalf("the post's edit after bo joined is not printed:\n%s", out)
	}
	c.Line(t.Context(), "ana: /click tjoin:1")
	c.Line(t.Context(), "ana: /click tstart:1")
	for _, want := range []string{`[new thread "🏆 Cup (#1)"]`, "[🏆 Cup (#1)] Cup (#1) begins with 2 players.", "Round 1 of Cup (#1):"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("output lacks %q:\n%s", want, out)
		}
	}
}
