package service

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestClipEchoes: a refusal's echoes of what was typed are cut to
// MaxQuoted characters, quoted or not; its own words stay as they are.
func TestClipEchoes(t *testing.T) {
	long := strings.Repeat("x", 6000)
	cut := strings.Repeat("x", MaxQuoted-1) + "…"
	for _, c := range []struct {
		why, in, want string
	}{
		{"a refusal without echoes is kept", "It is bo's turn in game #1, not yours.", "It is bo's turn in game #1, not yours."},
		{"a short echo is kept", `borders=RB: give the four colours`, `borders=RB: give the four colours`},
		{"a quoted echo stays quoted", `elemental has no option "` + long + `" (options: borders)`, `elemental has no option "` + cut + `" (options: borders)`},
		{"an unquoted value keeps its name and the colon after it", "borders=" + long + ": give the four colours", "borders=" + cut + ": give the four colours"},
		{"an unquoted word", long + " is not a move", cut + " is not a move"},
		{"a quote inside an unquoted value cannot shield it", `board=a"` + long, `board=a"` + cut},
		{"an echo on a later line", "first line\nsecond " + long + ".", "first line\nsecond " + cut + "."},
		{"characters, not bytes", "colors=" + strings.Repeat("é", 40), "colors=" + strings.Repeat("é", MaxQuoted-1) + "…"},
	} {
		got := clipEchoes(c.in)
		if got != c.want {
			t.Errorf("%s: got %.120q, want %.120q", c.why, got, c.want)
		}
		if !utf8.ValidString(got) {
			t.Errorf("%s: invalid UTF-8", c.why)
		}
	}
}
