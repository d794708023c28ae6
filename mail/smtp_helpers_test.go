package mail_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"io"
	"math/big"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// testTLS is a self-signed certificate for 127.0.0.1 and localhost, and
// a client config that trusts it.
func testTLS(t testing.TB) (server, client *tls.Config) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "relay.test"},
		DNSNames:     []string{"localhost"},
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1")},
		NotBefore:    time.Unix(0, 0),
		NotAfter:     time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}},
		&tls.Config{RootCAs: pool}
}

// sent is one message the test relay took.
type sent struct {
	From, To string
	Data     []byte
	TLS      bool
	User     string
}

// relay is a go-smtp server standing for the host's relay: it records
// what it took; a recipient "temp@..." gets 451, "perm@..." 550.
type relay struct {
	Addr string
	Got  chan sent
	srv  *smtp.Server
	done chan struct{}
}

func startRelay(t testing.TB, tlsConf *tls.Config, user, pass string) *relay {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &relay{Addr: ln.Addr().String(), Got: make(chan sent, 1024), done: make(chan struct{})}
	r.srv = smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &relaySession{r: r, c: c, user: user, pass: pass}, nil
	}))
	r.srv.Domain = "relay.test"
	r.srv.TLSConfig = tlsConf
	r.srv.AllowInsecureAuth = tlsConf == nil
	r.srv.ErrorLog = nopLog{}
	go func() { defer close(r.done); r.srv.Serve(ln) }()
	t.Cleanup(func() { r.srv.Close(); <-r.done })
	return r
}

type nopLog struct{}

func (nopLog) Printf(string, ...any) {}
func (nopLog) Println(...any)        {}

type relaySession struct {
	r          *relay
	c          *smtp.Conn
	user, pass string
	authed     string
	from       string
	to         []string
}

func (s *relaySession) AuthMechanisms() []string {
	if s.user == "" {
		return nil
	}
	return []string{sasl.Plain}
}

func (s *relaySession) Auth(mech string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if user != s.user || pass != s.pass {
			return smtp.ErrAuthFailed
		}
		s.authed = user
		return nil
	}), nil
}

func (s *relaySession) Reset()        { s.from, s.to = "", nil }
func (s *relaySession) Logout() error { return nil }
func (s *relaySession) Mail(from string, _ *smtp.MailOptions) error {
	if s.user != "" && s.authed == "" {
		return smtp.ErrAuthRequired
	}
	s.from = from
	return nil
}

func (s *relaySession) Rcpt(to string, _ *smtp.RcptOptions) error {
	switch {
	case strings.HasPrefix(to, "temp@"):
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 2, 1}, Message: "Mailbox busy"}
	case strings.HasPrefix(to, "perm@"):
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "No such user"}
	}
	s.to = append(s.to, to)
	return nil
}

func (s *relaySession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	_, tlsOn := s.c.TLSConnectionState()
	for _, to := range s.to {
		s.r.Got <- sent{From: s.from, To: to, Data: b, TLS: tlsOn, User: s.authed}
	}
	return nil
}
