package mail_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/tls"
	"encoding/base64"
	"errors"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-msgauth/dkim"

	tmail "tessera/mail"
)

// env stands for the process environment: the password never appears in
// the configuration, only the variable's name.
func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func testSender(t testing.TB, relayAddr string, client *tls.Config, mod func(*tmail.SenderConfig)) *tmail.Sender {
	t.Helper()
	cfg := tmail.SenderConfig{
		Relay: relayAddr, TLSConfig: client, HelloName: "tessera.example",
		UserEnv: "TESSERA_MAIL_USER", PasswordEnv: "TESSERA_MAIL_PASSWORD",
		Getenv: env(map[string]string{"TESSERA_MAIL_USER": "tessera", "TESSERA_MAIL_PASSWORD": "s3cret"}),
	}
	if mod != nil {
		mod(&cfg)
	}
	s, err := tmail.NewSender(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSenderThroughRelay(t *testing.T) {
	srvTLS, cliTLS := testTLS(t)
	r := startRelay(t, srvTLS, "tessera", "s3cret")
	s := testSender(t, r.Addr, cliTLS, nil)
	n := testNotice()
	msg, err := composer.Compose(n)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Send(context.Background(), n.ReplyTo, n.To.Address, msg); err != nil {
		t.Fatal(err)
	}
	got := <-r.Got
	if got.From != n.ReplyTo || got.To != "alice@example.org" || !bytes.Equal(got.Data, msg) {
		t.Fatalf("the relay took %q -> %q (%d bytes, same: %v)", got.From, got.To, len(got.Data), bytes.Equal(got.Data, msg))
	}
	if !got.TLS || got.User != "tessera" {
		t.Fatalf("sent without STARTTLS (%v) or AUTH (%q)", got.TLS, got.User)
	}
}

func TestSenderErrors(t *testing.T) {
	srvTLS, cliTLS := testTLS(t)
	r := startRelay(t, srvTLS, "tessera", "s3cret")
	plain := startRelay(t, nil, "", "")
	closed, _ := net.Listen("tcp", "127.0.0.1:0")
	deadAddr := closed.Addr().String()
	closed.Close()
	msg := []byte("From: a@b\r\nSubject: x\r\n\r\nbody\r\n")
	tests := []struct {
		name      string
		relay     string
		mod       func(*tmail.SenderConfig)
		to        string
		temporary bool
		is        error
	}{
		{"a 4xx is retried", r.Addr, nil, "temp@example.org", true, nil},
		{"a 5xx is not", r.Addr, nil, "perm@example.org", false, nil},
		{"no relay listening: the network, retried", deadAddr, nil, "alice@example.org", true, nil},
		{"a wrong password: the relay's 535, not retried", r.Addr, func(c *tmail.SenderConfig) {
			c.Getenv = env(map[string]string{"TESSERA_MAIL_USER": "tessera", "TESSERA_MAIL_PASSWORD": "wrong"})
		}, "alice@example.org", false, nil},
		{"a relay without STARTTLS is refused", plain.Addr, nil, "alice@example.org", true, tmail.ErrNoStartTLS},
		{"a certificate not trusted", r.Addr, func(c *tmail.SenderConfig) { c.TLSConfig = nil }, "alice@example.org", true, nil},
		{"a recipient with a header smuggled in", r.Addr, nil, "alice@example.org\r\nBcc: x@y", false, tmail.ErrBadAddress},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := testSender(t, tt.relay, cliTLS, tt.mod)
			err := s.Send(context.Background(), "play+x@tessera.example", tt.to, msg)
			if err == nil || tmail.IsTemporary(err) != tt.temporary || tt.is != nil && !errors.Is(err, tt.is) {
				t.Fatalf("Send: %v (temporary %v), want temporary %v, is %v", err, tmail.IsTemporary(err), tt.temporary, tt.is)
			}
		})
	}
	// A plain local relay is allowed when the configuration says so.
	s := testSender(t, plain.Addr, cliTLS, func(c *tmail.SenderConfig) { c.PlainLocal, c.UserEnv, c.PasswordEnv = true, "", "" })
	if err := s.Send(context.Background(), "", "alice@example.org", msg); err != nil {
		t.Fatalf("plain local relay: %v", err)
	}
	if got := <-plain.Got; got.TLS || got.From != "" {
		t.Fatalf("plain relay took %+v", got)
	}
	// A password variable named but empty stops the start, not the first mail.
	_, err := tmail.NewSender(tmail.SenderConfig{Relay: r.Addr, UserEnv: "U", PasswordEnv: "P", Getenv: env(nil)})
	if !errors.Is(err, tmail.ErrNoPassword) {
		t.Fatalf("NewSender with empty variables: %v", err)
	}
}

// fakeClock is a clock the test moves.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func TestSenderRateLimit(t *testing.T) {
	srvTLS, cliTLS := testTLS(t)
	r := startRelay(t, srvTLS, "tessera", "s3cret")
	clock := &fakeClock{now: time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC)}
	s := testSender(t, r.Addr, cliTLS, func(c *tmail.SenderConfig) { c.PerAddress, c.PerWindow, c.Now = 2, time.Hour, clock.Now })
	msg := []byte("From: a@b\r\n\r\nx\r\n")
	send := func(to string) error { return s.Send(context.Background(), "", to, msg) }
	for i := 0; i < 2; i++ {
		if err := send("alice@example.org"); err != nil {
			t.Fatal(err)
		}
	}
	if err := send("ALICE@example.org"); !errors.Is(err, tmail.ErrRateLimited) || !tmail.IsTemporary(err) {
		t.Fatalf("third mail in the hour: %v", err)
	}
	if err := send("bob@example.org"); err != nil {
		t.Fatalf("another address is not limited: %v", err)
	}
	// A failed send gives its place back.
	if err := send("temp@example.org"); !tmail.IsTemporary(err) {
		t.Fatal(err)
	}
	clock.Add(time.Hour)
	if err := send("alice@example.org"); err != nil {
		t.Fatalf("an hour later: %v", err)
	}
}

func TestSenderDKIM(t *testing.T) {
	srvTLS, cliTLS := testTLS(t)
	r := startRelay(t, srvTLS, "tessera", "s3cret")
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	d, err := tmail.NewDKIM("tessera.example", "tessera1", priv)
	if err != nil {
		t.Fatal(err)
	}
	s := testSender(t, r.Addr, cliTLS, func(c *tmail.SenderConfig) { c.DKIM = d })
	n := testNotice()
	msg, _ := composer.Compose(n)
	if err := s.Send(context.Background(), n.ReplyTo, n.To.Address, msg); err != nil {
		t.Fatal(err)
	}
	got := <-r.Got
	record := "v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(pub)
	vs, err := dkim.VerifyWithOptions(bytes.NewReader(got.Data), &dkim.VerifyOptions{LookupTXT: func(domain string) ([]string, error) {
		if domain != "tessera1._domainkey.tessera.example" {
			return nil, errors.New("no such record " + domain)
		}
		return []string{record}, nil
	}})
	if err != nil || len(vs) != 1 || vs[0].Err != nil || vs[0].Domain != "tessera.example" {
		t.Fatalf("DKIM verification: %v %+v", err, vs)
	}
}
