package mail_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	tmail "tessera/mail"
)

// isMove stands for the engine's parser: a cell and four tiles.
var moveRE = regexp.MustCompile(`^[a-zA-Z][0-9]{1,2}\s+[RGBYrgby]{4}$`)

func isMove(line string) bool { return moveRE.MatchString(line) }

func parseFile(t *testing.T, name string) *tmail.Reply {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "replies", name))
	if err != nil {
		t.Fatal(err)
	}
	r, err := tmail.ParseReply(bytes.NewReader(raw), isMove, tmail.DefaultLimits)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return r
}

// TestReplyCorpus reads one mail of each client's habit. Every quoted
// original in the corpus holds "h1 YGYG" alone on a line, so a parser
// that reads quotes, signatures, forwards or attachments plays it.
func TestReplyCorpus(t *testing.T) {
	tests := []struct {
		file string
		kind tmail.Kind
		line string
		why  string
	}{
		{"gmail-top.eml", tmail.KindCommand, "h2 GGGY", "top posting above a wrapped 'On ... wrote:' and '>' lines"},
		{"gmail-html-only.eml", tmail.KindCommand, "board", "HTML only (quoted-printable): gmail_quote's blockquote is a quote"},
		{"thunderbird-bottom.eml", tmail.KindCommand, "c3 RRBB", "bottom posting below the quote; the signature's move is not read"},
		{"thunderbird-html.eml", tmail.KindCommand, "e7 BBRR", "blockquote type=cite, &nbsp; between the words, pre signature"},
		{"apple-ios.eml", tmail.KindCommand, "Resign", "base64 body, a reply word in any case, the attribution itself quoted"},
		{"apple-macos.eml", tmail.KindCommand, "k9 YYGG", "Apple Mail's plain part is read before its HTML"},
		{"outlook-desktop.eml", tmail.KindCommand, "c3 RRBB", "windows-1252 quoted-printable, underscores and a From/Sent block"},
		{"outlook-original.eml", tmail.KindNoCommand, "", "-----Original Message----- ends the reading"},
		{"outlook-web-html.eml", tmail.KindCommand, "f4 RGRG", "HTML only: div#divRplyFwdMsg ends the reading; ISO-8859-1"},
		{"gmail-forward.eml", tmail.KindNoCommand, "", "a forwarded message is someone else's text"},
		{"thunderbird-forward.eml", tmail.KindCommand, "a1 GGGG", "a move above a forward is read"},
		{"apple-forward.eml", tmail.KindNoCommand, "", "Begin forwarded message:"},
		{"attachments.eml", tmail.KindCommand, "b2 RBRB", "the body, not the attached text, picture or message"},
		{"attachment-only.eml", tmail.KindNoCommand, "", "an attached text file is never read"},
		{"latin1.eml", tmail.KindCommand, "d4 GYGY", "ISO-8859-1 and a trailing no-break space"},
		{"vacation.eml", tmail.KindAutoReply, "", "RFC 3834 Auto-Submitted: auto-replied"},
		{"outlook-ooo.eml", tmail.KindAutoReply, "", "Exchange's 'Automatic reply:' subject"},
		{"precedence-bulk.eml", tmail.KindAutoReply, "", "Precedence: bulk"},
		{"bounce-hard.eml", tmail.KindBounce, "", "a DSN whose text part holds a move: a bounce first"},
		{"bounce-delayed.eml", tmail.KindBounce, "", "a delay is a bounce too, not a hard one"},
		{"no-move.eml", tmail.KindNoCommand, "", "chatter, and the move only in the quote"},
		{"bare.eml", tmail.KindCommand, "board", "no MIME headers at all, bare LF"},
		{"broken-mime.eml", tmail.KindCommand, "h1 YGYG", "an unknown charset read as it is, a bad base64 tail dropped, an unclosed multipart: what was read counts"},
	}
	seen := map[string]bool{}
	for _, tt := range tests {
		seen[tt.file] = true
		t.Run(tt.file, func(t *testing.T) {
			r := parseFile(t, tt.file)
			if r.Kind != tt.kind || r.Line != tt.line {
				t.Fatalf("%s: got %v %q, want %v %q", tt.why, r.Kind, r.Line, tt.kind, tt.line)
			}
			if r.MessageID == "" {
				t.Error("no Message-ID, not even a made one")
			}
		})
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "replies", "*.eml"))
	for _, f := range files {
		if !seen[filepath.Base(f)] {
			t.Errorf("%s has no expectation in the table", f)
		}
	}
}

func TestReplyHeaders(t *testing.T) {
	r := parseFile(t, "latin1.eml")
	if r.Subject != "Réponse" {
		t.Errorf("Subject %q", r.Subject)
	}
	if r.From == nil || r.From.Address != "alice@example.org" {
		t.Errorf("From %v", r.From)
	}
	if r := parseFile(t, "gmail-html-only.eml"); !r.HTMLOnly {
		t.Error("the HTML-only reply is not marked so")
	}
	if r := parseFile(t, "gmail-top.eml"); r.MessageID != "<CAGmail1@mail.gmail.com>" || r.InReplyTo != "<tessera.game-12.move-14.r0.abc@tessera.example>" {
		t.Errorf("ids %q %q", r.MessageID, r.InReplyTo)
	}
}

func TestBounce(t *testing.T) {
	hard := parseFile(t, "bounce-hard.eml").Bounce
	if hard == nil || !hard.Permanent || hard.Recipient != "alice@example.org" || hard.Status != "5.1.1" || hard.Action != "failed" {
		t.Fatalf("hard bounce read as %+v", hard)
	}
	if !strings.Contains(hard.Diagnostic, "User unknown") {
		t.Errorf("diagnostic %q", hard.Diagnostic)
	}
	soft := parseFile(t, "bounce-delayed.eml").Bounce
	if soft == nil || soft.Permanent || soft.Status != "4.4.7" {
		t.Fatalf("delay read as %+v", soft)
	}
}

// The notice's own text, quoted without marks by a careless client, must
// not play a move: no line of it is a move alone.
func TestNoticeTextHoldsNoMove(t *testing.T) {
	raw, err := composer.Compose(testNotice())
	if err != nil {
		t.Fatal(err)
	}
	r, err := tmail.ParseReply(bytes.NewReader(raw), isMove, tmail.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	// The notice is auto-generated: read as an auto-reply, ignored.
	if r.Kind != tmail.KindAutoReply {
		t.Fatalf("our own notice read as %v %q", r.Kind, r.Line)
	}
	// And its body, pasted unquoted under a reply, holds no move line.
	body := string(raw[bytes.Index(raw, []byte("\r\n\r\n")):])
	plain := "From: a@b\r\nContent-Type: multipart/alternative; boundary=\"" + boundaryOf(t, raw) + "\"\r\n" + body
	r, _ = tmail.ParseReply(strings.NewReader(plain), isMove, tmail.DefaultLimits)
	if r.Kind != tmail.KindNoCommand {
		t.Fatalf("the notice's text read as %v %q", r.Kind, r.Line)
	}
}

func boundaryOf(t *testing.T, raw []byte) string {
	m := regexp.MustCompile(`boundary="([^"]+)"`).FindSubmatch(raw)
	if m == nil {
		t.Fatal("no boundary")
	}
	return string(m[1])
}

func TestReplyLimits(t *testing.T) {
	big := "From: a@b\r\nSubject: x\r\n\r\nh1 YGYG\r\n" + strings.Repeat("x", 1<<20)
	_, err := tmail.ParseReply(strings.NewReader(big), isMove, tmail.Limits{MaxBytes: 1 << 20, MaxParts: 4, MaxDepth: 2, MaxText: 1024})
	if !errors.Is(err, tmail.ErrTooLarge) {
		t.Fatalf("a message over the limit: %v", err)
	}
	// Deep nesting past MaxDepth is not read (and does not recurse).
	var b strings.Builder
	b.WriteString("From: a@b\r\nContent-Type: multipart/mixed; boundary=\"b0\"\r\n\r\n")
	for i := 1; i < 20; i++ {
		b.WriteString("--b" + strconv.Itoa(i-1) + "\r\nContent-Type: multipart/mixed; boundary=\"b" + strconv.Itoa(i) + "\"\r\n\r\n")
	}
	b.WriteString("--b19\r\nContent-Type: text/plain\r\n\r\nh1 YGYG\r\n")
	r, err := tmail.ParseReply(strings.NewReader(b.String()), isMove, tmail.DefaultLimits)
	if err != nil || r.Kind != tmail.KindNoCommand {
		t.Fatalf("20 levels deep: %v %v %q", err, r.Kind, r.Line)
	}
	if _, err := tmail.ParseReply(strings.NewReader("no header at all"), isMove, tmail.DefaultLimits); !errors.Is(err, tmail.ErrMalformed) {
		t.Fatalf("no headers: %v", err)
	}
}

func TestSameAddress(t *testing.T) {
	tests := []struct {
		a, b string
		same bool
	}{
		{"alice@example.org", "alice@example.org", true},
		{"Alice@Example.ORG", "alice@example.org", true},
		{"alice+x@example.org", "alice@example.org", false},
		{"a.lice@example.org", "alice@example.org", false},
		{"", "", false},
		{"alice", "alice", false},
	}
	for _, tt := range tests {
		if got := tmail.SameAddress(tt.a, tt.b); got != tt.same {
			t.Errorf("SameAddress(%q, %q) = %v", tt.a, tt.b, got)
		}
	}
}
