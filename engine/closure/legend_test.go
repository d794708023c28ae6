package closure

import (
	"strings"
	"testing"

	"tessera/engine"
)

// Item 21 of issue 24: the picture's legend counts in words that agree
// with the number: "1 tile laid", where it said "1 tiles laid".
func TestLegendCountsTiles(t *testing.T) {
	s, err := engine.New(engine.Setup{Game: ID, Players: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for laid, want := range []string{"0 tiles laid", "1 tile laid", "2 tiles laid"} {
		if got := s.View(engine.NoSeat).Legend[0]; !strings.Contains(got, " · "+want+" · ") {
			t.Fatalf("after %d tiles: legend %q, want %q", laid, got, want)
		}
		if _, err := s.Apply(s.Legal()[0]); err != nil {
			t.Fatal(err)
		}
	}
}
