package picture

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"tessera/engine"
)

// tenEach measures every character 10 px wide, so the expectations below
// are counted in letters.
func tenEach(s string) float64 { return float64(10 * utf8.RuneCountInString(s)) }

func TestFitAndWrap(t *testing.T) {
	fits := []struct {
		s    string
		w    float64
		want string
	}{
		{"abcdef", 60, "abcdef"}, // fits as it is: no ellipsis
		{"abcdef", 40, "abc…"},   // three letters and the ellipsis make 40
		{"ab def", 40, "ab…"},    // the space before the ellipsis goes
		{"abcdef", 5, "…"},       // nothing fits: the ellipsis alone
	}
	for _, tt := range fits {
		if got := Fit(tenEach, tt.s, tt.w); got != tt.want {
			t.Errorf("Fit(%q, %v) = %q, want %q", tt.s, tt.w, got, tt.want)
		}
	}
	wraps := []struct {
		s    string
		w    float64
		want []string
	}{
		{"aa bb cc", 50, []string{"aa bb", "cc"}},        // "aa bb" is exactly 50
		{"aa  bb", 80, []string{"aa bb"}},                // runs of spaces are one
		{"aa verylongword", 50, []string{"aa", "very…"}}, // a word past a line is shortened
		{"", 50, nil}, // no text, no line
	}
	for _, tt := range wraps {
		if got := Wrap(tenEach, tt.s, tt.w); !slices.Equal(got, tt.want) {
			t.Errorf("Wrap(%q, %v) = %q, want %q", tt.s, tt.w, got, tt.want)
		}
	}
}

// TestLayoutPanel: each seat has a row with its score right-aligned at
// the margin, the rows follow each other down the picture, and a legend
// too long for a line wraps and makes the panel taller.
func TestLayoutPanel(t *testing.T) {
	m := func(s string, px float64, bold bool) float64 { return tenEach(s) }
	p := Panel{Title: "Game", Status: "Ana to move", Seats: []Seat{
		{Name: "Ana", SeatView: engine.SeatView{Score: 12, ToMove: true, InHand: 3}},
		{Name: "Bo", SeatView: engine.SeatView{Score: 7, InHand: -1}},
	}}
	short := LayoutPanel(m, p, 100, 400, 20)
	if len(short.Rows) != 2 || !short.Rows[0].ToMove || short.Rows[1].ToMove {
		t.Fatalf("rows %+v: want two, the first to move", short.Rows)
	}
	if short.Rows[1].Top < short.Rows[0].Top+short.Rows[0].H {
		t.Fatalf("the second row starts inside the first: %+v", short.Rows)
	}
	var scores []Line
	for _, l := range short.Lines {
		if l.Align == engine.Right {
			scores = append(scores, l)
		}
	}
	if len(scores) != 2 || scores[0].Text != "12" || scores[1].Text != "7" || scores[0].X != 380 {
		t.Fatalf("scores %+v: want 12 and 7 right-aligned at 380", scores)
	}
	// Lines of 36 letters (400 px less two margins of 20) hold seven
	// words of four: fourteen make two lines.
	p.Legend = []string{strings.TrimSpace(strings.Repeat("abcd ", 14))}
	long := LayoutPanel(m, p, 100, 400, 20)
	if got := long.H - short.H; got != 2*TextLineH {
		t.Fatalf("a two-line legend adds %v px, want %v", got, 2*TextLineH)
	}
}
