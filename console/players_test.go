package console

import (
	"strings"
	"testing"
)

// TestConsoleOpenChallengeAndRecords: an open challenge for three, joined
// twice, played to its end by resignations; the end post offers a
// rematch; /history lists the game and /export writes its record.
func TestConsoleOpenChallengeAndRecords(t *testing.T) {
	c, out := newConsole(t)
	for _, line := range []string{
		"ana: /new tilingking seats=3",
		"bo: /challenges",
		"bo: /join #1",
		"cy: /join 1",
		"ana: /export #1",
		"ana: /click resign:1",
		"bo: /click resign:1",
		"ana: /history",
		"cy: /history ana tilingking",
		"ana: /export #1",
	} {
		c.Line(t.Context(), line)
	}
	for _, want := range []string{"is looking for 2 opponents", "[Join #1: /click join:1]", "bo joined game #1; waiting for 1 more player",
		"cy joined: TilingKing, game #1, begins", "still in play", "[Rematch: /click rematch:1]", "Your finished games, newest first",
		"ana's finished games of TilingKing", "The record of game #1"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("output lacks %q:\n%s", want, out)
		}
	}
}
