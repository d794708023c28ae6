package console

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConsoleAnalyze: /analyze #1 of a finished game answers that it
// started, runs the analysis after the command, prints the result and
// writes the chart to the pictures folder; a game in play is refused.
func TestConsoleAnalyze(t *testing.T) {
	c, out := newConsole(t)
	c.dir = t.TempDir()
	for _, l := range []string{"ana: /new elemental bo", "bo: /accept", "ana: /move h8 BGGY", "cy: /analyze #1", "bo: /resign", "bo: /click resign:1"} {
		c.Line(t.Context(), l)
	}
	if !strings.Contains(out.String(), "Game #1 is still in play: it can be analysed once it is over") {
		t.Fatalf("a game in play was not refused:\n%s", out)
	}
	out.Reset()
	c.Line(t.Context(), "cy: /analyze #1")
	for _, want := range []string{"The analysis of game #1 has started", "Analysis of game #1: done, 3 positions", "Analysis of Elemental Connection, game #1 (ana vs bo)", "ana: ", "bo: "} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("output lacks %q:\n%s", want, out)
		}
	}
	data, err := os.ReadFile(filepath.Join(c.dir, "game-1-analysis.png"))
	if err != nil || len(data) < 1000 || string(data[1:4]) != "PNG" {
		t.Fatalf("chart: %d bytes, %v\n%s", len(data), err, out)
	}
	out.Reset()
	c.Line(t.Context(), "ana: /analyze #1")
	if !strings.Contains(out.String(), "Analysis of Elemental Connection, game #1") || strings.Contains(out.String(), "analysing") {
		t.Fatalf("asked again:\n%s", out)
	}
}

// Issue 45: /analyze and /export of a challenge nobody accepted yet say
// so, where they said the game was "still in play".
func TestConsoleChallengeIsNotInPlay(t *testing.T) {
	c, out := newConsole(t)
	c.Line(t.Context(), "ana: /new elemental bo")
	for _, l := range []string{"ana: /analyze #1", "ana: /export #1"} {
		out.Reset()
		c.Line(t.Context(), l)
		if !strings.Contains(out.String(), "Game #1 is a challenge not yet accepted") || strings.Contains(out.String(), "in play") {
			t.Errorf("%s:\n%s", l, out)
		}
	}
}
