package bot

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestLimitCutsBetweenCharacters(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int // characters in the result
	}{
		{strings.Repeat("a", 2000), 2000},
		{strings.Repeat("é", 2000), 2000}, // 4000 bytes, 2000 characters: kept whole
		{strings.Repeat("é", 2001), 2000},
		{strings.Repeat("a", 1989) + strings.Repeat("🀄", 50), 2000}, // the old cut at byte 1990 fell inside a tile
		{"ok", 2},
	} {
		got := limit(c.in)
		if !utf8.ValidString(got) || utf8.RuneCountInString(got) != c.want {
			t.Fatalf("limit(%d bytes): valid %v, %d characters, want %d", len(c.in), utf8.ValidString(got), utf8.RuneCountInString(got), c.want)
		}
		if utf8.RuneCountInString(c.in) > maxContent && !strings.HasSuffix(got, "…") {
			t.Fatalf("a cut is not marked: %q", got[len(got)-8:])
		}
	}
}

// FuzzLimit: whatever the text, the result is valid UTF-8 within Discord's
// 2000 characters, and a valid text within the limit is kept as it is.
func FuzzLimit(f *testing.F) {
	f.Add(strings.Repeat("é", 1999) + "🀄🀄")
	f.Add("\xff\xfe" + strings.Repeat("a", 2100))
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) < 2000 && len(s) > 0 {
			s = strings.Repeat(s, 4000/len(s)+1) // reach the limit
		}
		got := limit(s)
		if !utf8.ValidString(got) || utf8.RuneCountInString(got) > maxContent {
			t.Fatalf("limit gave %d characters, valid %v", utf8.RuneCountInString(got), utf8.ValidString(got))
		}
		if utf8.ValidString(s) && utf8.RuneCountInString(s) <= maxContent && got != s {
			t.Fatal("a text within the limit was changed")
		}
	})
}
