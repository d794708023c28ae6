package mail

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"time"

	"github.com/emersion/go-smtp"
)

// ListenerConfig is the incoming side of the settings (mail.listen, ...).
type ListenerConfig struct {
	// Addr is where to listen, mail.listen (e.g. ":25", behind the MX).
	Addr string
	// Domain and Prefix make the reply addresses, Prefix+"+"+token@Domain;
	// no other recipient is accepted.
	Domain string
	Prefix string // default "play"
	// Hostname is the greeting's name (default Domain).
	Hostname string
	// MaxMessageBytes refuses larger mail at DATA (552; default 10 MiB).
	MaxMessageBytes int64
	// MaxRecipients per message (default 5).
	MaxRecipients int
	// ReadTimeout and WriteTimeout bound each command (default 5m, RFC 5321's).
	ReadTimeout, WriteTimeout time.Duration
	// TLSConfig offers STARTTLS when set.
	TLSConfig *tls.Config
	// IsMove says whether a line is a move (the engine's parser).
	IsMove func(line string) bool
	// Limits bound the reading of each message (default DefaultLimits
	// with MaxBytes = MaxMessageBytes).
	Limits Limits
}

// Incoming is one accepted message for one of our reply addresses.
type Incoming struct {
	// EnvelopeFrom is MAIL FROM: "" for a bounce (the null sender). The
	// caller checks the linked address against Reply.From and this.
	EnvelopeFrom string
	// Recipient is the reply address; Token is its token, of the right
	// form but not yet verified (Tokens.Verify).
	Recipient, Token string
	// RemoteAddr is the sending server's address.
	RemoteAddr string
	// Reply is the message as read; Reply.MessageID is there to drop a
	// message already handled (the same mail sent twice plays once).
	Reply *Reply
	// Size is the message's size in bytes.
	Size int
}

// Handler handles one Incoming. nil accepts the message (250); an error
// that IsTemporary asks the sender to try again (451); any other error
// refuses it (550), without a word of why.
type Handler func(ctx context.Context, in Incoming) error

// Listener is the SMTP server for replies.
type Listener struct {
	cfg    ListenerConfig
	handle Handler
	server *smtp.Server
	ctx    context.Context
	cancel context.CancelFunc
	limits Limits
}

// Replies of the listener; none says more than needed.
var (
	errNoSuchUser  = &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "No such recipient here"}
	errRefused     = &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 7, 1}, Message: "Message refused"}
	errTryLater    = &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "Temporary failure, please try again later"}
	errUnreadable  = &smtp.SMTPError{Code: 554, EnhancedCode: smtp.EnhancedCode{5, 6, 0}, Message: "Message unreadable"}
	errNoRecipient = &smtp.SMTPError{Code: 503, EnhancedCode: smtp.EnhancedCode{5, 5, 1}, Message: "No valid recipients"}
	// ErrListenerConfig is a ListenerConfig without Domain or IsMove.
	ErrListenerConfig = errors.New("mail: the listener needs mail.domain and a move parser")
)

// NewListener returns a Listener handing messages to h.
func NewListener(cfg ListenerConfig, h Handler) (*Listener, error) {
	if cfg.Domain == "" || cfg.IsMove == nil || h == nil {
		return nil, ErrListenerConfig
	}
	if cfg.Prefix == "" {
		cfg.Prefix = "play"
	}
	if cfg.Hostname == "" {
		cfg.Hostname = cfg.Domain
	}
	if cfg.MaxMessageBytes <= 0 {
		cfg.MaxMessageBytes = 10 << 20
	}
	if cfg.MaxRecipients <= 0 {
		cfg.MaxRecipients = 5
	}
	if cfg.ReadTimeout <= 0 {
		cfg.ReadTimeout = 5 * time.Minute
	}
	if cfg.WriteTimeout <= 0 {
		cfg.WriteTimeout = 5 * time.Minute
	}
	lim := cfg.Limits
	if lim.MaxBytes <= 0 {
		lim = DefaultLimits
	}
	lim.MaxBytes = cfg.MaxMessageBytes
	l := &Listener{cfg: cfg, handle: h, limits: lim}
	l.ctx, l.cancel = context.WithCancel(context.Background())
	s := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &session{l: l, remote: c.Conn().RemoteAddr().String()}, nil
	}))
	s.Addr = cfg.Addr
	s.Domain = cfg.Hostname
	s.MaxMessageBytes = cfg.MaxMessageBytes
	s.MaxRecipients = cfg.MaxRecipients
	s.ReadTimeout = cfg.ReadTimeout
	s.WriteTimeout = cfg.WriteTimeout
	s.TLSConfig = cfg.TLSConfig
	s.ErrorLog = quietLog{}
	l.server = s
	return l, nil
}

// Serve accepts connections on ln until Close or Shutdown.
func (l *Listener) Serve(ln net.Listener) error {
	err := l.server.Serve(ln)
	if errors.Is(err, smtp.ErrServerClosed) {
		return nil
	}
	return err
}

// ListenAndServe listens on Addr and serves.
func (l *Listener) ListenAndServe() error {
	ln, err := net.Listen("tcp", l.cfg.Addr)
	if err != nil {
		return err
	}
	return l.Serve(ln)
}

// Shutdown stops accepting and waits for the sessions to end (or ctx).
func (l *Listener) Shutdown(ctx context.Context) error {
	err := l.server.Shutdown(ctx)
	l.cancel()
	return err
}

// Close stops at once, cancelling the handlers' context.
func (l *Listener) Close() error {
	l.cancel()
	return l.server.Close()
}

// session is one SMTP conversation.
type session struct {
	l      *Listener
	remote string
	from   string
	rcpts  []string // accepted reply addresses
	tokens []string
}

func (s *session) Reset() { s.from, s.rcpts, s.tokens = "", nil, nil }

func (s *session) Logout() error { return nil }

func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	s.Reset()
	s.from = from
	return nil
}

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	token, ok := SplitReplyAddress(to, s.l.cfg.Prefix, s.l.cfg.Domain)
	if !ok {
		return errNoSuchUser
	}
	s.rcpts, s.tokens = append(s.rcpts, to), append(s.tokens, token)
	return nil
}

func (s *session) Data(r io.Reader) error {
	if len(s.rcpts) == 0 {
		return errNoRecipient
	}
	raw, err := io.ReadAll(r)
	if err != nil {
		return err // the library's 552 for a message over MaxMessageBytes
	}
	rep, err := ParseReply(bytes.NewReader(raw), s.l.cfg.IsMove, s.l.limits)
	if err != nil {
		return errUnreadable
	}
	// One handler call per reply address; the first temporary failure
	// asks for the whole message again (the handler drops what it has
	// already taken by Reply.MessageID and the recipient).
	refused := 0
	for i, rcpt := range s.rcpts {
		err := s.l.handle(s.l.ctx, Incoming{
			EnvelopeFrom: s.from, Recipient: rcpt, Token: s.tokens[i],
			RemoteAddr: s.remote, Reply: rep, Size: len(raw),
		})
		switch {
		case err == nil:
		case IsTemporary(err) || errors.Is(err, context.Canceled):
			return errTryLater
		default:
			refused++
		}
	}
	if refused == len(s.rcpts) {
		return errRefused
	}
	return nil
}

// quietLog drops the library's log lines: they may quote addresses.
type quietLog struct{}

func (quietLog) Printf(string, ...any) {}
func (quietLog) Println(...any)        {}
