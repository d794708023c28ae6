package engine

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Shown is a value the player typed, as a refusal repeats it: as typed
// when it is UTF-8 and every character prints, else quoted with escapes (a newline as
// \n), so that the refusal stays one line and shows what was sent.
func Shown(v string) string {
	if utf8.ValidString(v) && strings.IndexFunc(v, func(r rune) bool { return !unicode.IsGraphic(r) }) < 0 {
		return v
	}
	return strconv.Quote(v)
}
