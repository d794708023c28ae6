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

// echo finds, in a refusal, the units clipEchoes looks at: a Go-quoted
// string ("…" with backslash escapes), a run of other characters that are
// neither space nor quote, or a quote that opens nothing.
var echo = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|[^\s"]+|"`)

// clipEchoes shortens every echo of what a player typed in a refusal to
// MaxQuoted characters, quoted or not: the refusals the engine words quote
// an option or a cell it does not know ("has no option \"…\""), or write
// a value as it came ("borders=…: give the four colours", engine.Shown),
// and Discord lets an option hold 6,000 characters. A quoted string stays
// quoted; a name=value run keeps its name. A refusal's own words are
// shorter than MaxQuoted (no link or other long word is ever part of one),
// so only an echo is cut.
func clipEchoes(text string) string {
	return echo.ReplaceAllStringFunc(text, func(u string) string {
		if len(u) <= MaxQuoted { // bytes: fewer characters still
			return u
		}
		if u[0] == '"' {
			s, err := strconv.Unquote(u)
			if err != nil || utf8.RuneCountInString(s) <= MaxQuoted {
				return u
			}
			return strconv.Quote(clipTo(s, MaxQuoted))
		}
		if utf8.RuneCountInString(u) <= MaxQuoted {
			return u
		}
		// The refusal's punctuation after the echo stays.
		body := strings.TrimRight(u, ":;,.!?)")
		tail := u[len(body):]
		if name, value, ok := strings.Cut(body, "="); ok && len(name) <= MaxQuoted {
			return name + "=" + clipTo(value, MaxQuoted) + tail
		}
		return clipTo(body, MaxQuoted) + tail
	})
}
