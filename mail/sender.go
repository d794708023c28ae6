package mail

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	"net/mail"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// SenderConfig is the outgoing side of the settings (mail.relay, ...).
type SenderConfig struct {
	// Relay is the submission relay, host:port (e.g. "smtp.example.org:587").
	Relay string
	// PlainLocal allows a relay without STARTTLS: only for a relay on the
	// same host or private network (a local Postfix). Otherwise a relay
	// that offers no STARTTLS is refused, so a stripped STARTTLS cannot
	// send a player's hand in the clear.
	PlainLocal bool
	// UserEnv and PasswordEnv name the environment variables that hold
	// the AUTH PLAIN credentials ("" for a relay that needs none). The
	// values are read once by NewSender and never logged.
	UserEnv, PasswordEnv string
	// HelloName is the EHLO name (default "localhost").
	HelloName string
	// TLSConfig verifies the relay (nil: the system's roots, the relay's
	// host name).
	TLSConfig *tls.Config
	// PerAddress mails at most go to one address in each PerWindow
	// (0: no limit). Past it Send answers ErrRateLimited, a temporary
	// error: the courier tries again later.
	PerAddress int
	PerWindow  time.Duration
	// Timeout bounds one Send when the context has no deadline (default 2m).
	Timeout time.Duration
	// DKIM signs every message when set.
	DKIM *DKIM
	// Now is the clock of the rate limit (default time.Now).
	Now func() time.Time
	// Getenv reads the environment (default os.Getenv).
	Getenv func(string) string
}

// Errors of sending.
var (
	ErrRateLimited = fmt.Errorf("mail: too many mails to this address for now: %w", ErrTemporary)
	ErrNoStartTLS  = fmt.Errorf("mail: the relay offers no STARTTLS and mail.relay is not a plain local relay: %w", ErrTemporary)
	ErrNoRelay     = errors.New("mail: no relay configured (mail.relay)")
	ErrNoPassword  = errors.New("mail: the relay's user or password variable is empty")
)

// Sender hands messages to the relay, one connection per message.
type Sender struct {
	cfg        SenderConfig
	host       string
	user, pass string

	mu   sync.Mutex
	sent map[string][]time.Time // address -> send times within PerWindow
}

// NewSender checks cfg and reads the credentials from the environment.
func NewSender(cfg SenderConfig) (*Sender, error) {
	if cfg.Relay == "" {
		return nil, ErrNoRelay
	}
	host, _, err := net.SplitHostPort(cfg.Relay)
	if err != nil {
		return nil, fmt.Errorf("mail: mail.relay %q: %w", cfg.Relay, err)
	}
	if cfg.Getenv == nil {
		cfg.Getenv = os.Getenv
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 2 * time.Minute
	}
	if cfg.HelloName == "" {
		cfg.HelloName = "localhost"
	}
	s := &Sender{cfg: cfg, host: host, sent: map[string][]time.Time{}}
	if cfg.UserEnv != "" || cfg.PasswordEnv != "" {
		s.user, s.pass = cfg.Getenv(cfg.UserEnv), cfg.Getenv(cfg.PasswordEnv)
		if s.user == "" || s.pass == "" {
			return nil, fmt.Errorf("%w (%s, %s)", ErrNoPassword, cfg.UserEnv, cfg.PasswordEnv)
		}
	}
	return s, nil
}

// Send hands msg to the relay for one recipient, with envelope sender
// from (the notice's reply address, so a bounce comes back to the
// listener with the token that names the player). Its error says, by
// IsTemporary, whether to retry: a 5xx answer is permanent, everything
// else (4xx, the network, TLS, a rate limit) is temporary.
func (s *Sender) Send(ctx context.Context, from, to string, msg []byte) error {
	if _, err := checkAddress(mailAddress(to)); err != nil {
		return err
	}
	if from != "" {
		if _, err := checkAddress(mailAddress(from)); err != nil {
			return err
		}
	}
	if !s.reserve(to) {
		return ErrRateLimited
	}
	err := s.send(ctx, from, to, msg)
	if err != nil {
		s.release(to)
	}
	return err
}

func (s *Sender) send(ctx context.Context, from, to string, msg []byte) (err error) {
	if s.cfg.DKIM != nil {
		if msg, err = s.cfg.DKIM.Sign(msg); err != nil {
			return err
		}
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.cfg.Timeout)
		defer cancel()
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", s.cfg.Relay)
	if err != nil {
		return Temporary(err)
	}
	deadline, _ := ctx.Deadline()
	conn.SetDeadline(deadline)
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()

	var c *smtp.Client
	if s.cfg.PlainLocal {
		c = smtp.NewClient(conn)
		if err := c.Hello(s.cfg.HelloName); err != nil {
			c.Close()
			return classify(err)
		}
	} else {
		tc := s.cfg.TLSConfig.Clone()
		if tc == nil {
			tc = &tls.Config{}
		}
		if tc.ServerName == "" {
			tc.ServerName = s.host
		}
		c, err = smtp.NewClientStartTLS(conn, tc)
		if err != nil {
			conn.Close()
			if strings.Contains(err.Error(), "doesn't support STARTTLS") {
				return ErrNoStartTLS
			}
			return classify(err)
		}
		// The EHLO after STARTTLS is the one the relay goes by.
		if err := c.Hello(s.cfg.HelloName); err != nil {
			c.Close()
			return classify(err)
		}
	}
	defer c.Close()
	if s.user != "" {
		if _, tlsOn := c.TLSConnectionState(); !tlsOn && !isLoopback(s.host) {
			return fmt.Errorf("mail: no password over a plain connection to %s: %w", s.host, ErrTemporary)
		}
		if err := c.Auth(sasl.NewPlainClient("", s.user, s.pass)); err != nil {
			return classify(err)
		}
	}
	if err := c.SendMail(from, []string{to}, bytes.NewReader(msg)); err != nil {
		return classify(err)
	}
	if err := c.Quit(); err != nil {
		// The relay took the message at the final dot: a lost QUIT loses nothing.
		return nil
	}
	return nil
}

// classify turns the library's errors into ours: an SMTP reply keeps its
// code (5xx permanent, 4xx temporary), anything else is temporary.
func classify(err error) error {
	var se *smtp.SMTPError
	if errors.As(err, &se) {
		e := &SMTPError{Code: se.Code, Message: se.Message}
		if se.EnhancedCode != (smtp.EnhancedCode{}) && se.EnhancedCode != smtp.NoEnhancedCode {
			e.Enhanced = fmt.Sprintf("%d.%d.%d", se.EnhancedCode[0], se.EnhancedCode[1], se.EnhancedCode[2])
		}
		if e.Code < 500 || e.Code > 599 {
			return fmt.Errorf("%w: %w", e, ErrTemporary)
		}
		return e
	}
	return Temporary(err)
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func mailAddress(s string) mail.Address { return mail.Address{Address: s} }

// reserve counts one mail to addr if the limit allows it now.
func (s *Sender) reserve(addr string) bool {
	if s.cfg.PerAddress <= 0 {
		return true
	}
	key := strings.ToLower(addr)
	now := s.cfg.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	times := s.sent[key][:0:0]
	for _, t := range s.sent[key] {
		if now.Sub(t) < s.cfg.PerWindow {
			times = append(times, t)
		}
	}
	if len(times) >= s.cfg.PerAddress {
		s.sent[key] = times
		return false
	}
	s.sent[key] = append(times, now)
	if len(s.sent) > 4096 {
		s.prune(now)
	}
	return true
}

// release takes back the newest reservation of addr (the send failed).
func (s *Sender) release(addr string) {
	if s.cfg.PerAddress <= 0 {
		return
	}
	key := strings.ToLower(addr)
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.sent[key]; len(t) > 0 {
		s.sent[key] = t[:len(t)-1]
	}
}

// prune forgets addresses with no send inside the window.
func (s *Sender) prune(now time.Time) {
	for k, times := range s.sent {
		if len(times) == 0 || now.Sub(times[len(times)-1]) >= s.cfg.PerWindow {
			delete(s.sent, k)
		}
	}
}
