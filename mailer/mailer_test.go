package mailer_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	netmail "net/mail"
	"net/smtp"
	"net/textproto"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"tessera"
	"tessera/delivery"
	_ "tessera/engine/games"
	"tessera/mail"
	"tessera/mailer"
	"tessera/render"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/boltdb"
)

var (
	ana = service.User{ID: "1", Name: "Ana"}
	bo  = service.User{ID: "2", Name: "Bo"}
)

const domain = "mail.test"

// world is one process of the bot with mail wired: a service on a real
// store, the mail transport sending through a real Sender to the test
// relay, and a real listener on a TCP port.
type world struct {
	t      testing.TB
	st     storage.Store
	svc    *service.Service
	tr     *mailer.Transport
	relay  *testRelay
	lis    *mail.Listener
	listen string
	sink   *nullSink
	n      int
}

var secret = []byte("a secret of the web pages, 32 by")

// newWorld starts a process on st (nil: a new store); handle, when set,
// wraps the transport's handler (a crash injected).
func newWorld(t testing.TB, st storage.Store, relay *testRelay, handle func(tr *mailer.Transport) mail.Handler) *world {
	t.Helper()
	if st == nil {
		var err error
		if st, err = boltdb.Open(filepath.Join(t.TempDir(), "t.db"), storage.Options{NoSync: true}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
	}
	if relay == nil {
		relay = startRelay(t)
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc := service.New(st, service.Config{Renderer: render.Renderer{}, Mail: true, RetryBase: time.Nanosecond, Seed: func() uint64 { return 7 }, Logger: quiet,
		Web: service.WebConfig{URL: "https://tessera.test", Secret: secret}})
	tokens, err := mail.NewTokens(secret)
	if err != nil {
		t.Fatal(err)
	}
	sender, err := mail.NewSender(mail.SenderConfig{Relay: relay.Addr, PlainLocal: true, HelloName: "tessera.test"})
	if err != nil {
		t.Fatal(err)
	}
	tr := mailer.New(mailer.Config{Service: svc, Store: st, Composer: mail.Composer{From: netmail.Address{Name: "Tessera", Address: "tessera@" + domain}},
		Tokens: tokens, Relay: sender, Log: quiet})
	h := tr.Handle
	if handle != nil {
		h = handle(tr)
	}
	lis, err := mail.NewListener(mail.ListenerConfig{Domain: domain, IsMove: mailer.IsMove}, h)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go lis.Serve(ln)
	t.Cleanup(func() { lis.Close() })
	return &world{t: t, st: st, svc: svc, tr: tr, relay: relay, lis: lis, listen: ln.Addr().String(), sink: &nullSink{}}
}

func (w *world) req(u service.User) service.Request {
	w.n++
	return service.Request{User: u, GuildID: "g", ChannelID: "c", InteractionID: fmt.Sprint("i", w.n, time.Now().UnixNano())}.WithContext(w.t.Context())
}

func (w *world) ok(_ service.Reply, err error) {
	w.t.Helper()
	if err != nil {
		w.t.Fatal(err)
	}
}

// deliver runs the courier, with the mail transport as its Letterbox,
// until the outbox is empty (a try refused for now is retried at once).
func (w *world) deliver() {
	w.t.Helper()
	c := delivery.New(w.svc, w.svc.Store()).WithLetterbox(w.tr)
	for range 50 {
		c.Deliver(w.t.Context(), w.sink)
		if n, err := w.st.Outbox(w.t.Context()); err != nil {
			w.t.Fatal(err)
		} else if n == 0 {
			return
		}
	}
	w.t.Fatal("the outbox is not empty after 50 rounds")
}

// mails takes what the relay received so far.
func (w *world) mails() []*netmail.Message {
	w.t.Helper()
	var out []*netmail.Message
	for {
		select {
		case r := <-w.relay.Got:
			m, err := netmail.ReadMessage(strings.NewReader(r.Data))
			if err != nil {
				w.t.Fatalf("the relay got an unreadable mail: %v\n%s", err, r.Data)
			}
			out = append(out, m)
		default:
			return out
		}
	}
}

func body(t testing.TB, m *netmail.Message) string {
	t.Helper()
	b, err := io.ReadAll(m.Body)
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(string(b), "=\r\n", "")
}

// linkAna links ana@example.org, by the code mailed to it, and chooses
// mail only.
func (w *world) linkAna() {
	w.t.Helper()
	w.ok(w.svc.Email(w.req(ana), "ana@example.org"))
	w.deliver()
	got := w.mails()
	if len(got) != 1 || got[0].Header.Get("To") != "<ana@example.org>" {
		w.t.Fatalf("confirmation mails %d", len(got))
	}
	code := regexp.MustCompile(`code is (\d{6})`).FindStringSubmatch(body(w.t, got[0]))
	if code == nil {
		w.t.Fatal("no code in the confirmation mail")
	}
	w.ok(w.svc.ConfirmEmail(w.req(ana), code[1]))
	w.ok(w.svc.Settings(w.req(ana), "mail", ""))
}

// start makes game #1, Ana against Bo, Ana to move.
func (w *world) start() {
	w.t.Helper()
	w.ok(w.svc.NewGame(w.req(ana), service.NewGameRequest{Game: "elemental", Opponents: []service.User{bo}, Options: "borders=RBGY"}))
	w.ok(w.svc.Click(w.req(bo), "accept:1"))
}

func (w *world) moves() int {
	w.t.Helper()
	g, err := w.st.Game(w.t.Context(), 1)
	if err != nil {
		w.t.Fatal(err)
	}
	return len(g.Moves)
}

// reply is a player's reply as a mail client writes it: the move on top,
// the notice quoted below.
func reply(to, from, id, line string) []byte {
	return []byte("From: Ana <" + from + ">\r\nTo: " + to + "\r\nSubject: Re: your move\r\nMessage-ID: " + id +
		"\r\nDate: Wed, 02 Dec 2026 17:00:00 +0000\r\n\r\n" + line + "\r\n\r\nOn Wed, Dec 2, 2026, Tessera wrote:\r\n> h1 YGYG\r\n> it is your move\r\n")
}

// send sends a reply to the listener with Go's own SMTP client.
func send(addr, from, to string, msg []byte) error {
	return smtp.SendMail(addr, nil, from, []string{to}, msg)
}

func smtpCode(err error) int {
	var te *textproto.Error
	if errors.As(err, &te) {
		return te.Code
	}
	return 0
}

// TestMailEndToEnd: a player links an address by the mailed code, gets
// her turn notice by mail through the relay (once, though the relay
// refused it for now at first), replies with her move over SMTP, and the
// move is stored before the listener answers; the same mail again plays
// nothing; another sender is refused; a move out of turn is answered by
// mail with the reason.
func TestMailEndToEnd(t *testing.T) {
	w := newWorld(t, nil, nil, nil)
	w.linkAna()
	w.relay.failNext(1) // the notice's first try: 451
	w.start()
	w.deliver()
	got := w.mails()
	if len(got) != 1 {
		t.Fatalf("%d mails, want Ana's one turn notice", len(got))
	}
	n := got[0]
	for k, want := range map[string]string{"To": "\"Ana\" <ana@example.org>", "Auto-Submitted": "auto-generated", "Subject": "Elemental Connection #1 against Bo",
		"References": "<tessera.game-1@" + domain + ">"} {
		if v := n.Header.Get(k); v != want {
			t.Errorf("the notice's %s is %q, want %q", k, v, want)
		}
	}
	replyTo := n.Header.Get("Reply-To")
	to, err := netmail.ParseAddress(replyTo)
	if err != nil || !strings.HasPrefix(to.Address, "play+") || !strings.HasSuffix(to.Address, "@"+domain) {
		t.Fatalf("Reply-To %q", replyTo)
	}
	if b := body(t, n); !strings.Contains(b, "Your move (move 1)") || !strings.Contains(b, "Content-Type: image/png") {
		t.Fatalf("the notice's body:\n%s", b)
	}

	move := w.svc.MoveChoices(w.req(ana), "1", "")[0].Value
	msg := reply(to.Address, "ana@example.org", "<r1@example.org>", move)
	if err := send(w.listen, "ana@example.org", to.Address, msg); err != nil {
		t.Fatalf("the reply: %v", err)
	}
	if m := w.moves(); m != 1 {
		t.Fatalf("%d moves once the listener answered, want 1", m)
	}
	if err := send(w.listen, "ana@example.org", to.Address, msg); err != nil {
		t.Fatalf("the same reply again: %v", err)
	}
	if m := w.moves(); m != 1 {
		t.Fatalf("%d moves after the same reply twice, want 1", m)
	}
	if err := send(w.listen, "eve@example.org", to.Address, reply(to.Address, "eve@example.org", "<e1@example.org>", "resign")); smtpCode(err) != 550 {
		t.Fatalf("another sender: %v, want 550", err)
	}
	if g, _ := w.st.Game(t.Context(), 1); g.Status != tessera.StatusPlaying {
		t.Fatalf("the game after another sender's resign: %s", g.Status)
	}
	if err := send(w.listen, "ana@example.org", to.Address, reply(to.Address, "ana@example.org", "<r2@example.org>", move)); err != nil {
		t.Fatalf("a move out of turn: %v", err)
	}
	w.deliver() // the answer leaves through the outbox
	got = w.mails()
	if len(got) != 1 || got[0].Header.Get("In-Reply-To") != "<r2@example.org>" || got[0].Header.Get("Auto-Submitted") != "auto-replied" {
		for _, m := range got {
			t.Logf("%v\n%s", m.Header, body(t, m))
		}
		t.Fatalf("answers %d, want one to the move out of turn", len(got))
	}
	if b := body(t, got[0]); !strings.Contains(b, "It is Bo's turn") {
		t.Fatalf("the answer says:\n%s", b)
	}
	w.deliver() // Bo's turn: he chose no mail, so nothing is mailed
	if got := w.mails(); len(got) != 0 {
		t.Fatalf("%d mails for Bo's turn", len(got))
	}
}

// TestMailCrashBetweenReceiptAndAnswer: the process dies after a reply
// arrived and before the sending server heard 250, once before the move
// was stored and once after. The sending server sends the same mail
// again to the restarted process: the move is played once, never lost,
// never twice.
func TestMailCrashBetweenReceiptAndAnswer(t *testing.T) {
	for _, c := range []struct {
		why   string
		first bool // the dying process stored the move first
	}{
		{"killed before the move was stored", false},
		{"killed after the move was stored", true},
	} {
		t.Run(c.why, func(t *testing.T) {
			var once sync.Once
			crashed := make(chan struct{})
			w := newWorld(t, nil, nil, func(tr *mailer.Transport) mail.Handler {
				return func(ctx context.Context, in mail.Incoming) error {
					var err error
					died := false
					once.Do(func() {
						died = true
						if c.first {
							err = tr.Handle(ctx, in)
						}
						close(crashed)
					})
					if died {
						// The process dies here: no 250 reaches the sender.
						return mail.Temporary(fmt.Errorf("killed (handled: %v)", err))
					}
					return tr.Handle(ctx, in)
				}
			})
			w.linkAna()
			w.start()
			w.deliver()
			n := w.mails()
			if len(n) != 1 {
				t.Fatalf("%d notices", len(n))
			}
			to, _ := netmail.ParseAddress(n[0].Header.Get("Reply-To"))
			move := w.svc.MoveChoices(w.req(ana), "1", "")[0].Value
			msg := reply(to.Address, "ana@example.org", "<crash@example.org>", move)
			if err := send(w.listen, "ana@example.org", to.Address, msg); smtpCode(err) != 451 {
				t.Fatalf("the reply to the dying process: %v", err)
			}
			<-crashed
			w.lis.Close()
			// The restarted process, on the same store.
			w2 := newWorld(t, w.st, w.relay, nil)
			if err := send(w2.listen, "ana@example.org", to.Address, msg); err != nil {
				t.Fatalf("the same reply sent again: %v", err)
			}
			if m := w2.moves(); m != 1 {
				t.Fatalf("%d moves, want 1", m)
			}
			if err := send(w2.listen, "ana@example.org", to.Address, msg); err != nil || w2.moves() != 1 {
				t.Fatalf("a third time: %v, %d moves", err, w2.moves())
			}
		})
	}
}

// nullSink is Discord for these tests: it takes everything.
type nullSink struct {
	mu sync.Mutex
	n  int
}

func (s *nullSink) id() string { s.mu.Lock(); defer s.mu.Unlock(); s.n++; return fmt.Sprint("m", s.n) }
func (s *nullSink) Thread(context.Context, string, string, string) (string, error) {
	return s.id(), nil
}
func (s *nullSink) Post(context.Context, string, service.Message, string) (string, error) {
	return s.id(), nil
}
func (s *nullSink) Edit(context.Context, string, string, service.Message) error { return nil }
func (s *nullSink) DM(context.Context, string, service.Message, string) error   { return nil }
func (s *nullSink) React(context.Context, string, string, string) error         { return nil }

// dsn is a hard bounce (RFC 3464) of a mail to rcpt, as a receiving
// server sends it back to the notice's envelope sender, the reply address.
func dsn(to, rcpt, status string) []byte {
	return []byte("From: MAILER-DAEMON@mx.example.org\r\nTo: " + to + "\r\nSubject: Undelivered Mail Returned to Sender\r\n" +
		"Auto-Submitted: auto-replied\r\nMIME-Version: 1.0\r\nMessage-ID: <dsn-" + status + "@mx.example.org>\r\n" +
		"Content-Type: multipart/report; report-type=delivery-status; boundary=\"dsn\"\r\n\r\n" +
		"--dsn\r\nContent-Type: text/plain\r\n\r\nYour message could not be delivered.\r\n\r\n" +
		"--dsn\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.example.org\r\n\r\n" +
		"Final-Recipient: rfc822; " + rcpt + "\r\nAction: failed\r\nStatus: " + status + "\r\n\r\n--dsn--\r\n")
}

// TestMailBounceAndEnd: the game's end is mailed to the player who chose
// mail; a reply to the finished game is answered with why nothing was
// played; a delay (4.x.x) changes nothing, and a hard bounce of her
// address switches her mail off and leaves her a direct message saying
// so.
func TestMailBounceAndEnd(t *testing.T) {
	w := newWorld(t, nil, nil, nil)
	w.linkAna()
	w.start()
	w.deliver()
	n := w.mails()
	if len(n) != 1 {
		t.Fatalf("%d notices", len(n))
	}
	to, _ := netmail.ParseAddress(n[0].Header.Get("Reply-To"))
	w.ok(w.svc.ResignConfirm(w.req(bo), 1))
	w.deliver()
	end := w.mails()
	// One subject for the game's every mail: Gmail threads by it too.
	if len(end) != 1 || end[0].Header.Get("References") != "<tessera.game-1@"+domain+">" || end[0].Header.Get("Subject") != n[0].Header.Get("Subject") ||
		!strings.Contains(body(t, end[0]), "resign") {
		t.Fatalf("the game's end: %d mails", len(end))
	}
	if end[0].Header.Get("List-Unsubscribe") == "" || end[0].Header.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" {
		t.Fatal("the game's end carries no one-click unsubscribe")
	}
	if err := send(w.listen, "ana@example.org", to.Address, reply(to.Address, "ana@example.org", "<late@example.org>", "h1 YGYG")); err != nil {
		t.Fatalf("a reply to the finished game: %v", err)
	}
	w.deliver()
	if a := w.mails(); len(a) != 1 || !strings.Contains(body(t, a[0]), "over") && !strings.Contains(body(t, a[0]), "finished") && !strings.Contains(body(t, a[0]), "ended") {
		for _, m := range a {
			t.Logf("%s", body(t, m))
		}
		t.Fatalf("the answer to a reply to the finished game: %d mails", len(a))
	}

	if err := send(w.listen, "", to.Address, dsn(to.Address, "ana@example.org", "4.2.2")); err != nil {
		t.Fatalf("a delay notice: %v", err)
	}
	if u, _ := w.st.User(t.Context(), ana.ID); u.Email != "ana@example.org" {
		t.Fatalf("a delay unlinked the address: %+v", u)
	}
	if err := send(w.listen, "", to.Address, dsn(to.Address, "ana@example.org", "5.1.1")); err != nil {
		t.Fatalf("a hard bounce: %v", err)
	}
	u, _ := w.st.User(t.Context(), ana.ID)
	if u.Email != "" || u.ByMail() || !u.ByDM() {
		t.Fatalf("after the hard bounce: %+v", u)
	}
	list, _ := w.st.Pending(t.Context(), time.Now().Add(time.Hour), 100)
	if len(list) == 0 || list[len(list)-1].Kind != tessera.AnnounceNote || list[len(list)-1].UserID != ana.ID {
		t.Fatalf("no direct message owed about the bounce: %+v", list)
	}
}
