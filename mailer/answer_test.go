package mailer_test

import (
	netmail "net/mail"
	"strings"
	"testing"

	"tessera/service"
)

// TestMailAnswerThroughOutbox: the notice carries the one-click
// unsubscribe (RFC 8058) as the relay received it. The answer to a reply leaves through the
// outbox and the courier. The relay refuses it for now once, and it
// still arrives, once; the same reply received again is answered no
// more. The board asked for by reply is a mail of its own (its own
// Message-ID, not the turn notice's, which a receiver would drop as a
// double), with the board inline.
func TestMailAnswerThroughOutbox(t *testing.T) {
	w := newWorld(t, nil, nil, nil)
	w.linkAna()
	w.start()
	w.deliver()
	n := w.mails()
	if len(n) != 1 {
		t.Fatalf("%d notices", len(n))
	}
	// RFC 8058: the one-click unsubscribe, on the mail the relay got.
	if u := n[0].Header.Get("List-Unsubscribe"); !strings.HasPrefix(u, "<https://tessera.test"+service.UnsubscribePath) || !strings.HasSuffix(u, ">") ||
		n[0].Header.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" {
		t.Fatalf("the notice's List-Unsubscribe %q, List-Unsubscribe-Post %q", u, n[0].Header.Get("List-Unsubscribe-Post"))
	}
	to, _ := netmail.ParseAddress(n[0].Header.Get("Reply-To"))
	msg := reply(to.Address, "ana@example.org", "<chat@example.org>", "thanks, see you tomorrow")
	if err := send(w.listen, "ana@example.org", to.Address, msg); err != nil {
		t.Fatalf("the reply: %v", err)
	}
	if got := w.mails(); len(got) != 0 {
		t.Fatalf("%d mails sent while the reply was received: the answer must wait for the courier", len(got))
	}
	w.relay.failNext(1) // the answer's first try: 451
	w.deliver()
	got := w.mails()
	if len(got) != 1 || got[0].Header.Get("In-Reply-To") != "<chat@example.org>" || !strings.Contains(body(t, got[0]), "I found no move") {
		t.Fatalf("%d answers after a refusal for now, want 1", len(got))
	}
	if err := send(w.listen, "ana@example.org", to.Address, msg); err != nil {
		t.Fatalf("the same reply again: %v", err)
	}
	w.deliver()
	if got := w.mails(); len(got) != 0 {
		t.Fatalf("the same reply again was answered again (%d mails)", len(got))
	}

	if err := send(w.listen, "ana@example.org", to.Address, reply(to.Address, "ana@example.org", "<board@example.org>", "board")); err != nil {
		t.Fatalf("board: %v", err)
	}
	w.deliver()
	b := w.mails()
	if len(b) != 1 {
		t.Fatalf("%d mails for board, want 1", len(b))
	}
	if id := b[0].Header.Get("Message-ID"); id == n[0].Header.Get("Message-ID") || id == "" {
		t.Fatalf("the board's Message-ID %q is the turn notice's", id)
	}
	if s := body(t, b[0]); !strings.Contains(s, "Content-Type: image/png") {
		t.Fatalf("the board asked for has no picture:\n%s", s)
	}
	if w.moves() != 0 {
		t.Fatal("a reply without a move played one")
	}
}
