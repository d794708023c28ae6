package mail_test

import (
	"context"
	"errors"
	"net"
	"net/smtp"
	"net/textproto"
	"os"
	"os/exec"
	"strings"
	"testing"

	tmail "tessera/mail"
)

const domain = "tessera.example"

// listener runs a Listener on 127.0.0.1:0 whose handler is h.
func startListener(t testing.TB, h tmail.Handler, mod func(*tmail.ListenerConfig)) string {
	t.Helper()
	cfg := tmail.ListenerConfig{Domain: domain, IsMove: isMove}
	if mod != nil {
		mod(&cfg)
	}
	l, err := tmail.NewListener(cfg, h)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- l.Serve(ln) }()
	t.Cleanup(func() {
		l.Close()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return ln.Addr().String()
}

// collect is a handler that passes each Incoming to a channel and
// answers with what answer returns.
func collect(answer func(tmail.Incoming) error) (tmail.Handler, chan tmail.Incoming) {
	ch := make(chan tmail.Incoming, 64)
	return func(_ context.Context, in tmail.Incoming) error {
		ch <- in
		if answer != nil {
			return answer(in)
		}
		return nil
	}, ch
}

func replyAddress(t testing.TB, gameID uint64, seat int, user string, epoch uint32) string {
	tok, err := testTokens(t).Make(tmail.ReplyToken{GameID: gameID, Seat: seat, UserID: user, Epoch: epoch})
	if err != nil {
		t.Fatal(err)
	}
	return tmail.ReplyAddress("play", tok, domain)
}

func replyMail(to, messageID, body string) string {
	return "From: Alice <alice@example.org>\r\nTo: " + to + "\r\nSubject: Re: Your move\r\nMessage-ID: " + messageID + "\r\n\r\n" + body
}

// smtpCode is the reply code of a net/smtp error, 0 for none.
func smtpCode(err error) int {
	var te *textproto.Error
	if errors.As(err, &te) {
		return te.Code
	}
	return 0
}

// send is net/smtp's SendMail: a real client over TCP.
func send(addr, from, to, msg string) error {
	return smtp.SendMail(addr, nil, from, []string{to}, []byte(msg))
}

func TestListenerReceivesReply(t *testing.T) {
	h, got := collect(nil)
	addr := startListener(t, h, nil)
	to := replyAddress(t, 7, 0, "alice", 3)
	if err := send(addr, "alice@example.org", to, replyMail(to, "<r1@example.org>", "h1 YGYG\r\n\r\nOn Wed wrote:\r\n> c3 RRBB\r\n")); err != nil {
		t.Fatal(err)
	}
	in := <-got
	if in.Reply.Kind != tmail.KindCommand || in.Reply.Line != "h1 YGYG" || in.EnvelopeFrom != "alice@example.org" || !strings.EqualFold(in.Recipient, to) {
		t.Fatalf("handler got %+v, reply %+v", in, in.Reply)
	}
	tok, err := testTokens(t).Verify(in.Token, seats)
	if err != nil || tok.UserID != "alice" {
		t.Fatalf("the token handed over does not verify: %v", err)
	}
}

// Each bad input gets one clear answer, at the step where it is known.
func TestListenerRefusals(t *testing.T) {
	tokens := testTokens(t)
	// The handler verifies the token as the service will: a forgery is
	// refused (550) like any other permanent error.
	h, got := collect(func(in tmail.Incoming) error {
		_, err := tokens.Verify(in.Token, seats)
		return err
	})
	addr := startListener(t, h, nil) // 10 MiB at most, the default
	good := replyAddress(t, 7, 0, "alice", 3)
	other, _ := tmail.NewTokens([]byte("not the server's secret, 32 bytes"))
	forgedTok, _ := other.Make(tmail.ReplyToken{GameID: 7, Seat: 0, UserID: "alice", Epoch: 3})
	forged := tmail.ReplyAddress("play", forgedTok, domain)
	tests := []struct {
		name    string
		to, msg string
		code    int
		handled bool
	}{
		{"another address of the domain: refused at RCPT", "postmaster@" + domain, replyMail("x", "<a@b>", "h1 YGYG"), 550, false},
		{"another domain: refused at RCPT", "play+" + strings.Repeat("a", tmail.TokenLen) + "@other.example", replyMail("x", "<a@b>", "h1 YGYG"), 550, false},
		{"a forged token: the handler refuses, the answer says no more", forged, replyMail(forged, "<f@b>", "h1 YGYG"), 550, true},
		{"headers that are no headers: unreadable", good, "this is not a header line\r\nnor this\r\n\r\nh1 YGYG\r\n", 554, false},
		{"25 MB: refused at DATA", good, replyMail(good, "<big@b>", "h1 YGYG\r\n"+strings.Repeat(strings.Repeat("x", 78)+"\r\n", 25<<20/80)), 552, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := send(addr, "alice@example.org", tt.to, tt.msg)
			if smtpCode(err) != tt.code {
				t.Fatalf("answer %v, want %d", err, tt.code)
			}
			if tt.handled {
				<-got
			}
			select {
			case in := <-got:
				t.Fatalf("the handler was called: %+v", in)
			default:
			}
		})
	}
	// Broken MIME inside good headers is read as far as it goes.
	if err := send(addr, "alice@example.org", good, "From: a@b\r\nContent-Type: multipart/mixed; boundary=\"x\"\r\n\r\n--x\r\nContent-Type: text/plain\r\n\r\nboard\r\n"); err != nil {
		t.Fatalf("an unclosed multipart: %v", err)
	}
	if in := <-got; in.Reply.Line != "board" {
		t.Fatalf("an unclosed multipart read as %+v", in.Reply)
	}
}

func TestListenerTemporaryHandlerError(t *testing.T) {
	h, got := collect(func(tmail.Incoming) error { return tmail.Temporary(errors.New("store down")) })
	addr := startListener(t, h, nil)
	to := replyAddress(t, 7, 0, "alice", 3)
	if err := send(addr, "alice@example.org", to, replyMail(to, "<t@b>", "h1 YGYG")); smtpCode(err) != 451 {
		t.Fatalf("a temporary handler error: %v, want 451", err)
	}
	<-got
}

// The same mail sent twice (a sender's retry after a lost 250) reaches
// the handler twice with the same Message-ID, so the caller plays once.
func TestListenerDuplicateMessageID(t *testing.T) {
	h, got := collect(nil)
	addr := startListener(t, h, nil)
	to := replyAddress(t, 7, 0, "alice", 3)
	msg := replyMail(to, "<same@example.org>", "h1 YGYG")
	for i := 0; i < 2; i++ {
		if err := send(addr, "alice@example.org", to, msg); err != nil {
			t.Fatal(err)
		}
	}
	a, b := <-got, <-got
	if a.Reply.MessageID != "<same@example.org>" || b.Reply.MessageID != a.Reply.MessageID {
		t.Fatalf("ids %q and %q", a.Reply.MessageID, b.Reply.MessageID)
	}
	// Without a Message-ID the id made from the bytes is the same too.
	noID := "From: alice@example.org\r\nSubject: x\r\n\r\nh1 YGYG\r\n"
	for i := 0; i < 2; i++ {
		if err := send(addr, "alice@example.org", to, noID); err != nil {
			t.Fatal(err)
		}
	}
	if a, b := <-got, <-got; a.Reply.MessageID != b.Reply.MessageID || !strings.HasSuffix(a.Reply.MessageID, "@missing>") {
		t.Fatalf("made ids %q and %q", a.Reply.MessageID, b.Reply.MessageID)
	}
}

// A bounce comes with the null sender to the notice's envelope sender,
// the reply address: the handler learns whose address failed.
func TestListenerBounce(t *testing.T) {
	h, got := collect(nil)
	addr := startListener(t, h, nil)
	to := replyAddress(t, 7, 0, "alice", 3)
	raw, err := os.ReadFile("testdata/replies/bounce-hard.eml")
	if err != nil {
		t.Fatal(err)
	}
	if err := send(addr, "", to, string(raw)); err != nil {
		t.Fatal(err)
	}
	in := <-got
	if in.EnvelopeFrom != "" || in.Reply.Kind != tmail.KindBounce || !in.Reply.Bounce.Permanent || in.Reply.Bounce.Recipient != "alice@example.org" {
		t.Fatalf("bounce handed over as %+v %+v", in, in.Reply.Bounce)
	}
}

// TestSwaks sends a reply with swaks, a mail client other than Go's,
// end to end. Under CI it must run: .ci/run installs swaks.
func TestSwaks(t *testing.T) {
	path, err := exec.LookPath("swaks")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("swaks is not installed (.ci/run installs it from Debian's packages)")
		}
		t.Skip("swaks is not installed")
	}
	h, got := collect(nil)
	addr := startListener(t, h, nil)
	host, port, _ := net.SplitHostPort(addr)
	to := replyAddress(t, 7, 0, "alice", 3)
	cmd := exec.Command(path, "--silent", "2", "--server", host, "--port", port,
		"--from", "alice@example.org", "--to", to, "--helo", "client.example.org",
		"--header", "Subject: Re: Your move",
		"--body", "e5 BYBY\n\nOn Wed, Dec 2, 2026, Tessera wrote:\n> h1 YGYG\n")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("swaks: %v\n%s", err, out)
	}
	in := <-got
	if in.Reply.Kind != tmail.KindCommand || in.Reply.Line != "e5 BYBY" || in.Reply.From == nil || in.Reply.From.Address != "alice@example.org" {
		t.Fatalf("swaks's reply read as %+v", in.Reply)
	}
}

// With a certificate the listener offers STARTTLS, and a Sender (here
// standing for a player's mail server) delivers over it.
func TestListenerSTARTTLS(t *testing.T) {
	srvTLS, cliTLS := testTLS(t)
	h, got := collect(nil)
	addr := startListener(t, h, func(c *tmail.ListenerConfig) { c.TLSConfig = srvTLS })
	s, err := tmail.NewSender(tmail.SenderConfig{Relay: addr, TLSConfig: cliTLS, HelloName: "mx.example.org"})
	if err != nil {
		t.Fatal(err)
	}
	to := replyAddress(t, 7, 1, "bob", 0)
	if err := s.Send(context.Background(), "bob@example.org", to, []byte(replyMail(to, "<tls@example.org>", "resign\r\n"))); err != nil {
		t.Fatal(err)
	}
	if in := <-got; in.Reply.Line != "resign" || in.EnvelopeFrom != "bob@example.org" {
		t.Fatalf("read %+v", in.Reply)
	}
}
