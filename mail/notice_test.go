package mail_test

import (
	"bytes"
	"io"
	"mime"
	"mime/multipart"
	"net/mail"
	"strings"
	"testing"
	"time"

	tmail "tessera/mail"
)

var composer = &tmail.Composer{From: mail.Address{Name: "Tessera", Address: "tessera@tessera.example"}}

// pngBytes is a stand-in PNG: the composer does not read it.
var pngBytes = []byte("\x89PNG\r\n\x1a\nnot really a picture, but bytes that must survive base64")

func testNotice() *tmail.Notice {
	return &tmail.Notice{
		To:       mail.Address{Name: "Alice", Address: "alice@example.org"},
		GameID:   12,
		GameName: "Glorieta #12",
		Opponent: "Bob",
		Move:     14,
		Board:    pngBytes,
		Scores:   []tmail.Score{{"Alice", 31}, {"Bob", 28}},
		Clock:    "2 days 4 hours left",
		LastMove: "Bob placed YGYG at h1 for 6 points",
		Hand:     "YGYG, RRBB, GGGY",
		Link:     "https://tessera.example/g/12-abc?t=secret",
		GoodMoves: []tmail.GoodMove{
			{"c3 RRBB", "+9 points"}, {"h2 GGGY", "+5 points"},
		},
		ReplyTo:     "play+token@tessera.example",
		Unsubscribe: "https://tessera.example/unsubscribe?u=x",
		Date:        time.Date(2026, 12, 2, 14, 5, 0, 0, time.UTC),
	}
}

// parts walks a message's MIME tree and returns its leaves by type.
func parts(t *testing.T, msg *mail.Message) map[string]*bytes.Buffer {
	t.Helper()
	out := map[string]*bytes.Buffer{}
	var walk func(ct string, h map[string][]string, body io.Reader)
	walk = func(ct string, h map[string][]string, body io.Reader) {
		mt, params, err := mime.ParseMediaType(ct)
		if err != nil {
			t.Fatalf("Content-Type %q: %v", ct, err)
		}
		if strings.HasPrefix(mt, "multipart/") {
			r := multipart.NewReader(body, params["boundary"])
			for {
				p, err := r.NextPart() // decodes quoted-printable
				if err == io.EOF {
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				walk(p.Header.Get("Content-Type"), p.Header, p)
			}
		}
		var b bytes.Buffer
		if len(h["Content-Transfer-Encoding"]) > 0 && h["Content-Transfer-Encoding"][0] == "base64" {
			body = base64Reader(body)
		}
		io.Copy(&b, body)
		out[mt] = &b
		if id := h["Content-Id"]; len(id) > 0 {
			out["cid:"+strings.Trim(id[0], "<>")] = &b
		}
	}
	walk(msg.Header.Get("Content-Type"), map[string][]string(msg.Header), msg.Body)
	return out
}

func TestComposeNotice(t *testing.T) {
	n := testNotice()
	raw, err := composer.Compose(n)
	if err != nil {
		t.Fatal(err)
	}
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	subject, _ := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	thread := composer.ThreadID(12)
	for k, want := range map[string]string{
		"Subject":               "Glorieta #12 against Bob",
		"Reply-To":              "<play+token@tessera.example>",
		"In-Reply-To":           thread,
		"References":            thread,
		"Auto-Submitted":        "auto-generated",
		"List-Unsubscribe":      "<https://tessera.example/unsubscribe?u=x>",
		"List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
		"Message-Id":            composer.MessageID(n),
	} {
		got := msg.Header.Get(k)
		if k == "Subject" {
			got = subject
		}
		if got != want {
			t.Errorf("%s: %q, want %q", k, got, want)
		}
	}
	if mt, _, _ := mime.ParseMediaType(msg.Header.Get("Content-Type")); mt != "multipart/alternative" {
		t.Errorf("top type %q", mt)
	}
	p := parts(t, msg)
	plain, html := p["text/plain"].String(), p["text/html"].String()
	for _, want := range []string{"move 14", "Bob placed YGYG", "Alice 31", "Bob 28", "2 days 4 hours", "YGYG, RRBB, GGGY", "c3 RRBB  (+9 points)", "https://tessera.example/g/12-abc?t=secret", "reply to this mail"} {
		if !strings.Contains(plain, want) {
			t.Errorf("the text part lacks %q:\n%s", want, plain)
		}
	}
	// The HTML shows the board by its Content-ID, and that part holds the PNG.
	i := strings.Index(html, `src="cid:`)
	if i < 0 {
		t.Fatalf("the HTML shows no inline picture:\n%s", html)
	}
	cid := html[i+len(`src="cid:`):]
	cid = cid[:strings.IndexByte(cid, '"')]
	if got := p["cid:"+cid]; got == nil || !bytes.Equal(got.Bytes(), pngBytes) {
		t.Fatalf("the part %q does not hold the board's PNG", cid)
	}
	// Retries compose the same bytes (the courier may send twice after a crash).
	again, _ := composer.Compose(n)
	if !bytes.Equal(raw, again) {
		t.Error("Compose is not deterministic")
	}
	for _, line := range strings.Split(string(raw), "\r\n") {
		if len(line) > 998 {
			t.Errorf("a line of %d octets (RFC 5322 allows 998)", len(line))
		}
	}
}

// Every mail of one game has the same thread root, and each its own id.
func TestNoticeThreading(t *testing.T) {
	a, b := testNotice(), testNotice()
	b.Move, b.Reminder = 16, 1
	c := testNotice()
	c.GameID = 13
	if composer.MessageID(a) == composer.MessageID(b) {
		t.Error("two notices of one game share a Message-ID")
	}
	if composer.ThreadID(a.GameID) != composer.ThreadID(b.GameID) || composer.ThreadID(a.GameID) == composer.ThreadID(c.GameID) {
		t.Error("thread roots are not one per game")
	}
	// One subject for the game's every mail, or Gmail splits the thread.
	if b.Subject() != a.Subject() {
		t.Errorf("a reminder's subject %q differs from the notice's %q", b.Subject(), a.Subject())
	}
}

// Names come from players: none may add a header or a recipient.
func TestNoticeHeaderInjection(t *testing.T) {
	evil := "Eve\r\nBcc: victim@example.org\r\n\r\nbody"
	n := testNotice()
	n.To.Name, n.Opponent, n.GameName = evil, evil, evil
	raw, err := composer.Compose(n)
	if err != nil {
		t.Fatal(err)
	}
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if msg.Header.Get("Bcc") != "" || bytes.Contains(raw, []byte("\nBcc:")) {
		t.Fatalf("a name added a Bcc header:\n%s", raw)
	}
	if to, err := msg.Header.AddressList("To"); err != nil || len(to) != 1 || to[0].Address != "alice@example.org" {
		t.Fatalf("To: %v, %v", to, err)
	}
	for _, bad := range []string{"alice@example.org\r\nBcc: x@y", "a@b, c@d", "<a@b>", "not an address", "a@b>\r\n"} {
		n := testNotice()
		n.To.Address = bad
		if _, err := composer.Compose(n); err == nil {
			t.Errorf("Compose took the address %q", bad)
		}
	}
	n = testNotice()
	n.Unsubscribe = "javascript:alert(1)"
	if _, err := composer.Compose(n); err == nil {
		t.Error("Compose took a javascript: unsubscribe URL")
	}
}
