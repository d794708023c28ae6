package service

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxQuoted is the most characters of what a player typed that a refusal
// quotes back: enough to recognise it, never a wall of their own text
// (Discord lets an option hold 6,000 characters).
const MaxQuoted = 32

// typed quotes what a player typed for a refusal: at most MaxQuoted
// characters, a longer text cut with "…", control characters such as a
// newline escaped, so the refusal stays one short line.
func typed(s string) string {
	return strconv.Quote(clipTo(strings.TrimSpace(s), MaxQuoted))
}

// quoted finds a Go-quoted string ("…" with backslash escapes) in a text.
var quoted = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

// clipQuoted shortens every quoted string in a refusal to MaxQuoted
// characters: the refusals the engine words (an option or a cell it does
// not know) quote the whole of what was typed.
func clipQuoted(text string) string {
	return quoted.ReplaceAllStringFunc(text, func(q string) string {
		s, err := strconv.Unquote(q)
		if err != nil || utf8.RuneCountInString(s) <= MaxQuoted {
			return q
		}
		return strconv.Quote(clipTo(s, MaxQuoted))
	})
}
