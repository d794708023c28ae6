package engine

import "testing"

func TestShown(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"XX", "XX"},               // what players type: unchanged
		{"R B", "R B"},             // a space prints
		{"rötbg", "rötbg"},         // so do letters beyond ASCII
		{"0\n0", `"0\n0"`},         // FuzzReplayFlags's finding: one line
		{"a\tb", `"a\tb"`},         // a tab would look like spaces
		{"x\u200by", `"x\u200by"`}, // an invisible character is shown
		{"\xff", `"\xff"`},         // not UTF-8
		{"", ""},
	} {
		if got := Shown(c.in); got != c.want {
			t.Errorf("Shown(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}
