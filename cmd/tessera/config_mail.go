package main

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	netmail "net/mail"
	"strings"
	"time"

	"tessera/mail"
	"tessera/mailer"
	"tessera/service"
	"tessera/storage"
)

// mailSettings is the mail block: play by email (docs/mail.md). The
// relay's credentials are read from the environment variables it names,
// never from this file.
type mailSettings struct {
	Relay           string `yaml:"relay"`
	PlainLocal      bool   `yaml:"plain_local"`
	UserEnv         string `yaml:"user_env"`
	PasswordEnv     string `yaml:"password_env"`
	From            string `yaml:"from"`
	Domain          string `yaml:"domain"`
	Listen          string `yaml:"listen"`
	MaxMessageBytes int64  `yaml:"max_message_bytes"`
	PerAddress      int    `yaml:"per_address"`
	DKIM            struct {
		Selector string `yaml:"selector"`
		KeyFile  string `yaml:"key_file"`
	} `yaml:"dkim"`
	TLSCert string `yaml:"tls_cert"`
	TLSKey  string `yaml:"tls_key"`
}

// checkMail applies TESSERA_MAIL_RELAY and TESSERA_MAIL_LISTEN and checks
// the block, each error naming its key.
func (c *Config) checkMail(getenv func(string) string) error {
	m := &c.Mail
	for env, dst := range map[string]*string{"TESSERA_MAIL_RELAY": &m.Relay, "TESSERA_MAIL_LISTEN": &m.Listen} {
		if v := getenv(env); v != "" {
			*dst = v
		}
	}
	m.Relay, m.Listen, m.From, m.Domain = strings.TrimSpace(m.Relay), strings.TrimSpace(m.Listen), strings.TrimSpace(m.From), strings.TrimSpace(m.Domain)
	if m.Relay == "" {
		if m.Listen != "" {
			return errors.New("mail.listen: give mail.relay too (the answers and notices leave through it)")
		}
		return nil
	}
	if _, _, err := net.SplitHostPort(m.Relay); err != nil {
		return fmt.Errorf("mail.relay %q: write host:port, like smtp.example.org:587", m.Relay)
	}
	from, err := netmail.ParseAddress(m.From)
	if err != nil {
		return fmt.Errorf("mail.from %q: write an address, like Tessera <tessera@mail.example.org>", m.From)
	}
	if m.Domain == "" {
		m.Domain = from.Address[strings.LastIndexByte(from.Address, '@')+1:]
	}
	if m.Listen != "" {
		if err := checkListen(m.Listen); err != nil {
			return fmt.Errorf("mail.listen %q: %w", m.Listen, err)
		}
	}
	if m.MaxMessageBytes < 0 || m.PerAddress < 0 {
		return errors.New("mail.max_message_bytes and mail.per_address: give a positive number (0 for the default)")
	}
	if (m.DKIM.Selector == "") != (m.DKIM.KeyFile == "") {
		return errors.New("mail.dkim: give both selector and key_file, or neither")
	}
	if (m.TLSCert == "") != (m.TLSKey == "") {
		return errors.New("mail.tls_cert and mail.tls_key: give both, or neither")
	}
	return nil
}

// mailSide is the mail transport as wired: its Letterbox for the courier
// and its listener, when mail.relay is set.
type mailSide struct {
	transport *mailer.Transport
	listener  *mail.Listener
}

// newMail wires mail: the Sender to mail.relay (credentials from the
// variables the block names), the transport, and the listener on
// mail.listen. The reply tokens are signed with the pages' key (web.secret
// or the database's own), so /link reset revokes both. nil when mail is off.
func newMail(ctx context.Context, c *Config, svc *service.Service, st storage.Store, log *slog.Logger) (*mailSide, error) {
	m := c.Mail
	if m.Relay == "" {
		return nil, nil
	}
	key := []byte(c.Web.Secret)
	if len(key) == 0 {
		var err error
		if key, err = st.Secret(ctx, webSecretName, func() ([]byte, error) {
			b := make([]byte, webSecretBytes)
			_, err := rand.Read(b)
			return b, err
		}); err != nil {
			return nil, fmt.Errorf("the reply tokens' key: %w", err)
		}
	}
	tokens, err := mail.NewTokens(key)
	if err != nil {
		return nil, err
	}
	var dkim *mail.DKIM
	if m.DKIM.KeyFile != "" {
		if dkim, err = mail.LoadDKIM(m.Domain, m.DKIM.Selector, m.DKIM.KeyFile); err != nil {
			return nil, fmt.Errorf("mail.dkim: %w", err)
		}
	}
	per := m.PerAddress
	if per == 0 {
		per = 20
	}
	sender, err := mail.NewSender(mail.SenderConfig{Relay: m.Relay, PlainLocal: m.PlainLocal, UserEnv: m.UserEnv, PasswordEnv: m.PasswordEnv,
		HelloName: m.Domain, PerAddress: per, PerWindow: time.Hour, DKIM: dkim})
	if err != nil {
		return nil, err
	}
	from, _ := netmail.ParseAddress(m.From) // checked with the configuration
	tr := mailer.New(mailer.Config{Service: svc, Store: st, Composer: mail.Composer{From: *from, Domain: m.Domain}, Tokens: tokens, Relay: sender, Log: log})
	side := &mailSide{transport: tr}
	if m.Listen == "" {
		return side, nil
	}
	var tlsConf *tls.Config
	if m.TLSCert != "" {
		cert, err := tls.LoadX509KeyPair(m.TLSCert, m.TLSKey)
		if err != nil {
			return nil, fmt.Errorf("mail.tls_cert: %w", err)
		}
		tlsConf = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}
	lis, err := mail.NewListener(mail.ListenerConfig{Addr: m.Listen, Domain: m.Domain, MaxMessageBytes: m.MaxMessageBytes, TLSConfig: tlsConf, IsMove: mailer.IsMove}, tr.Handle)
	if err != nil {
		return nil, err
	}
	side.listener = lis
	go func() {
		if err := lis.ListenAndServe(); err != nil {
			log.Error("mail: the listener stopped", "err", err)
		}
	}()
	return side, nil
}

// Close stops the listener.
func (m *mailSide) Close() {
	if m != nil && m.listener != nil {
		m.listener.Close()
	}
}
