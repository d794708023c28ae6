package console

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// Item 12 of issue 24: what a player types is quoted back as a short
// prefix at most. Each of these lines, with 6,000 characters where a word
// goes, was answered with all of them.
func TestConsoleRefusalsQuoteAShortPrefix(t *testing.T) {
	long := strings.Repeat("x", 6000)
	c, out := newConsole(t)
	c.Line(t.Context(), "ana: /new elemental bo")
	c.Line(t.Context(), "bo: /accept")
	for _, line := range []string{
		"ana: /move #" + long,
		"ana: /new " + long + " bo",
		"ana: /new elemental bo " + long + "=1",
		"ana: /new elemental tessera level=" + long,
		"ana: /settings timezone=" + long,
		"ana: /rules " + long,
		"ana: /leaderboard " + long,
		"ana: /history " + long,
		"ana: /profile " + long,
		"ana: /hand #" + long,
		"ana: /" + long,
		long + ": /games",
	} {
		out.Reset()
		c.Line(t.Context(), line)
		reply := out.String()
		if reply == "" || strings.Contains(reply, strings.Repeat("x", 40)) || utf8.RuneCountInString(reply) > 400 {
			t.Errorf("%.40s…: %d characters, %.300q", line, utf8.RuneCountInString(reply), reply)
		}
	}
}
