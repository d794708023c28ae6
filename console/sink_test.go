package console

import (
	"fmt"
	"strings"
	"testing"

	"tessera/service"
)

// TestConsoleDeliversSeveralGamesAtOnce: one line that announces to
// several games (a vacation pauses every game of its player, each with a
// post) is delivered by the courier's workers at once, and the console
// prints each post once, whole. FuzzLine found this: the sink's writes to
// the shared output and batch were not guarded, and two workers posting
// at once stopped the process with "concurrent map writes" (under -race,
// this test reports the race if the guard goes).
func TestConsoleDeliversSeveralGamesAtOnce(t *testing.T) {
	c, out := newConsoleWith(t, func(cfg *service.Config) { cfg.Courier.Workers = 4 })
	const games = 6
	for i := 1; i <= games; i++ {
		c.Line(t.Context(), "ana: /new closure bo")
		c.Line(t.Context(), fmt.Sprintf("bo: /accept #%d", i))
	}
	out.Reset()
	c.Line(t.Context(), "ana: /vacation 3")
	text := out.String()
	if !strings.Contains(text, "Enjoy! Your clocks are paused until") {
		t.Fatalf("no vacation:\n%s", text)
	}
	for i := 1; i <= games; i++ {
		// Each game's post, on a line of its own, in that game's thread.
		want := fmt.Sprintf("  [#%d Closure] ana is away until ", i)
		if n := strings.Count(text, want); n != 1 {
			t.Errorf("game %d's post printed %d times:\n%s", i, n, text)
		}
	}
}
