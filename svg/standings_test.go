package svg_test

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tessera/internal/chrome"
	"tessera/picture"
	"tessera/render"
	"tessera/svg"
)

// standings is a Swiss event's standings after two rounds, with a long
// name shortened, a player who left and a blank tie-break.
func standings() picture.Standings {
	s := picture.Standings{Title: "Closure Swiss · event #3", Subtitle: "After round 2 of 4", Columns: []string{"BH1", "SB"},
		Footer: "BH1: Buchholz cut 1 · SB: Sonneborn-Berger · (left): withdrew, no longer paired"}
	names := []string{"Ana", "Maximiliana Wolkenstein-Hohenau", "Cy", "Di", "Ed"}
	for i, n := range names {
		s.Rows = append(s.Rows, picture.StandingsRow{Rank: fmt.Sprint(i + 1), Name: n, Points: fmt.Sprint(2 - float64(i)/2),
			TieBreaks: []string{"2.5", "1.25"}[:2-i/4], Played: 2, Withdrawn: i == 3})
	}
	return s
}

// TestStandingsTexts: the SVG writes every cell of the table, in order:
// the heads, then each row's rank, name (a long one shortened, a player
// who left marked), points, tie-breaks (a blank one not at all) and
// games.
func TestStandingsTexts(t *testing.T) {
	doc, err := svg.New().Standings(standings())
	if err != nil {
		t.Fatal(err)
	}
	_, texts := wellFormed(t, doc)
	got := strings.Join(texts, "|")
	for _, want := range []string{
		"Closure Swiss · event #3|Closure Swiss · event #3|After round 2 of 4|#|Player|Pts|BH1|SB|Games|",
		"|1|Ana|2|2.5|1.25|2|2|Maximiliana Wolken…|1.5|",
		"|4|Di (left)|0.5|2.5|1.25|2|5|Ed|0|2.5|2|BH1: Buchholz",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("texts %q\nlack %q", got, want)
		}
	}
}

// TestStandingsSVGMatchesPNG compares the standings drawn both ways, as
// TestSVGMatchesPNG does a board.
func TestStandingsSVGMatchesPNG(t *testing.T) {
	s := standings()
	data, err := render.DrawStandings(s)
	if err != nil {
		t.Fatal(err)
	}
	want, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := svg.New().Standings(s)
	if err != nil {
		t.Fatal(err)
	}
	b := want.Bounds()
	got := chrome.Rasterize(t, goFonts, doc, b.Dx(), b.Dy())
	if dir := os.Getenv("TESSERA_COMPARE_DIR"); dir != "" {
		save(t, filepath.Join(dir, "standings-png.png"), want)
		save(t, filepath.Join(dir, "standings-svg.png"), got)
	}
	mean, close := compare(want, got)
	t.Logf("standings: mean difference %.2f a channel, %.1f%% of pixels within ±%d", mean, 100*close, closeDiff)
	if mean > maxMeanDiff || close < minClose {
		t.Errorf("the SVG differs from the PNG: mean %.2f (at most %.1f), %.1f%% of pixels close (at least %.0f%%)", mean, maxMeanDiff, 100*close, 100*minClose)
	}
}
