package mail

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

var fuzzMoveRE = regexp.MustCompile(`^[a-zA-Z][0-9]{1,2}\s+[RGBYrgby]{4}$`)

func fuzzIsMove(s string) bool { return fuzzMoveRE.MatchString(s) }

// FuzzParseReply: whatever arrives, ParseReply does not panic, gives the
// same Reply for the same bytes, and a command it finds is one line of
// the decoded text, outside quotes, that is a move or a reply word: a
// command is never made up, joined from two lines, or read from a quote.
func FuzzParseReply(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "replies", "*.eml"))
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("From: a@b\r\n\r\n> h1 YGYG\r\nboard\r\n"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		lim := Limits{MaxBytes: 64 << 10, MaxParts: 16, MaxDepth: 4, MaxText: 16 << 10}
		r1, err1 := ParseReply(bytes.NewReader(raw), fuzzIsMove, lim)
		r2, err2 := ParseReply(bytes.NewReader(raw), fuzzIsMove, lim)
		if err1 != err2 || !reflect.DeepEqual(r1, r2) {
			t.Fatalf("two readings differ: %+v %v / %+v %v", r1, err1, r2, err2)
		}
		if err1 != nil || r1.Kind != KindCommand {
			return
		}
		if r1.Line == "" || strings.ContainsAny(r1.Line, "\r\n") || strings.HasPrefix(r1.Line, ">") || len(r1.Line) > maxCommandLine {
			t.Fatalf("command %q", r1.Line)
		}
		if !fuzzIsMove(r1.Line) && !strings.EqualFold(r1.Line, "resign") && !strings.EqualFold(r1.Line, "board") {
			t.Fatalf("%q is neither a move nor a reply word", r1.Line)
		}
		text := decodedText(t, raw, lim)
		found := false
		for _, l := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
			if l = trimLine(l); l == r1.Line {
				found = true
				break
			}
		}
		if !found {
			t.Fatalf("command %q is no line of the text %q", r1.Line, text)
		}
	})
}

// decodedText is the text ParseReply searched, found again.
func decodedText(t *testing.T, raw []byte, lim Limits) string {
	msg, err := readMessage(raw)
	if err != nil {
		t.Fatal(err)
	}
	w := &walker{lim: lim}
	w.walk(msg.header, msg.body, 0)
	if !w.havePlain && w.haveHTML {
		return htmlToText(w.html)
	}
	return w.plain
}

// FuzzFirstCommand: on any text, the command found is a line of the text
// that is not quoted, and what isMove never saw cannot be returned.
func FuzzFirstCommand(f *testing.F) {
	f.Add("h1 YGYG\n\nOn Mon wrote:\n> c3 RRBB")
	f.Add("On Mon,\nBob wrote:\n> x\nboard\n-- \nresign")
	f.Add("From: x\nSent: y\nh1 YGYG")
	f.Fuzz(func(t *testing.T, text string) {
		var asked []string
		line, ok := firstCommand(text, func(s string) bool { asked = append(asked, s); return fuzzIsMove(s) })
		if !ok {
			return
		}
		if strings.HasPrefix(line, ">") {
			t.Fatalf("quoted line %q", line)
		}
		for _, l := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
			if trimLine(l) == line {
				return
			}
		}
		t.Fatalf("%q is no line of %q", line, text)
	})
}
