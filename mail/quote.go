package mail

import (
	"regexp"
	"strings"
)

// The words a reply may hold besides a move: they are commands too.
var replyWords = []string{"resign", "board"}

// maxCommandLine bounds the line given to isMove: a move is short.
const maxCommandLine = 200

// firstCommand returns the first line of text, outside quotes and before
// a signature, a forwarded message or a quoted original, that isMove
// accepts or that is one of the reply words. What follows it is never
// read: one mail, one command.
//
// The rules, each from a client's habit:
//   - "-- " (and "--" once trailing spaces are lost) starts a signature
//     (RFC 3676), Outlook's line of underscores a quoted original;
//   - lines starting with ">" are quoted (every client in plain text);
//   - "On <date>, <name> wrote:" (Gmail, Apple Mail, Thunderbird; wrapped
//     over up to three lines; in a few languages) introduces a quote: it
//     is skipped when quoted lines follow (bottom posting goes on below),
//     and ends the reading when the original follows unmarked;
//   - "-----Original Message-----" and the "From: ... Sent: ..." block
//     (Outlook), "---------- Forwarded message ---------" (Gmail),
//     "-------- Forwarded Message --------" (Thunderbird) and "Begin
//     forwarded message:" (Apple Mail) end the reading: what follows is
//     someone else's text.
func firstCommand(text string, isMove func(string) bool) (string, bool) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		raw := strings.TrimRight(lines[i], "\r")
		line := trimLine(raw)
		switch {
		case raw == "-- " || line == "--" || underscores.MatchString(line):
			return "", false
		case strings.HasPrefix(line, ">"):
			continue
		case originalMessage.MatchString(line), forwarded.MatchString(line):
			return "", false
		case outlookHeader(lines, i):
			return "", false
		}
		if n := attribution(lines, i); n > 0 {
			if !quotedNext(lines, i+n) {
				return "", false
			}
			i += n - 1
			continue
		}
		if line == "" || len(line) > maxCommandLine {
			continue
		}
		for _, w := range replyWords {
			if strings.EqualFold(line, w) {
				return line, true
			}
		}
		if isMove(line) {
			return line, true
		}
	}
	return "", false
}

// trimLine trims spaces, non-breaking spaces and zero-width characters
// that HTML editors leave at a line's ends.
func trimLine(s string) string {
	return strings.TrimFunc(s, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\u00a0' || r == '\u200b' || r == '\ufeff' || r == '\r'
	})
}

var (
	underscores     = regexp.MustCompile(`^_{20,}$`)
	originalMessage = regexp.MustCompile(`(?i)^-{2,}\s*(original message|original message follows|ursprüngliche nachricht|message d'origine|mensaje original|messaggio originale|oorspronkelijk bericht)\s*-{2,}$`)
	forwarded       = regexp.MustCompile(`(?i)^(-{2,}\s*forwarded message\s*-{2,}|begin forwarded message:|-{2,}\s*weitergeleitete nachricht\s*-{2,}|-{2,}\s*message transféré\s*-{2,})$`)
	headerFrom      = regexp.MustCompile(`(?i)^\*?(from|de|von|van|da)\s?:\*?\s`)
	headerSent      = regexp.MustCompile(`(?i)^\*?(sent|date|envoyé|gesendet|enviado|verzonden|inviato|datum)\s?:\*?\s`)
	attributionEnd  = regexp.MustCompile(`(?i)(wrote|a écrit|schrieb|escribió|ha scritto|schreef|skrev|napisał|escreveu)\s?:$`)
	attributionHead = regexp.MustCompile(`(?i)^(on|le|am|el|il|op|den|em|w dniu)\s`)
)

// outlookHeader reports whether line i starts Outlook's quoted header:
// "From: ..." with "Sent: ..." or "Date: ..." within the next lines.
func outlookHeader(lines []string, i int) bool {
	if !headerFrom.MatchString(trimLine(lines[i])) {
		return false
	}
	for j := i + 1; j < len(lines) && j <= i+4; j++ {
		if headerSent.MatchString(trimLine(lines[j])) {
			return true
		}
	}
	return false
}

// attribution is how many lines (1 to 3) starting at i make an
// attribution line, "On ... wrote:", or 0. A single line that ends in
// "wrote:" counts when quoted lines follow it.
func attribution(lines []string, i int) int {
	first := trimLine(lines[i])
	if first == "" || len(first) > 400 {
		return 0
	}
	joined := first
	for n := 1; n <= 3 && i+n <= len(lines); n++ {
		if n > 1 {
			next := trimLine(lines[i+n-1])
			if next == "" || strings.HasPrefix(next, ">") {
				return 0
			}
			joined += " " + next
		}
		if attributionEnd.MatchString(joined) && (attributionHead.MatchString(first) || n == 1 && quotedNext(lines, i+1)) {
			return n
		}
		if !attributionHead.MatchString(first) {
			return 0
		}
	}
	return 0
}

// quotedNext reports whether the first non-blank line from i on is quoted.
func quotedNext(lines []string, i int) bool {
	for ; i < len(lines); i++ {
		if l := trimLine(lines[i]); l != "" {
			return strings.HasPrefix(l, ">")
		}
	}
	return false
}
