package mailer

import (
	"context"
	"log/slog"
	netmail "net/mail"
	"strings"
	"time"

	"tessera"
	"tessera/mail"
	"tessera/service"
)

// Store is what the transport reads: a game (who sits where), a
// player's settings (their address and link epoch), and the handled
// interactions, where a reply's Message-ID is kept once it was played or
// answered (service.MailReplyID; the service writes it, in the move's
// or the answer's transaction).
type Store interface {
	Game(ctx context.Context, id uint64) (*tessera.Game, error)
	User(ctx context.Context, id string) (tessera.UserSettings, error)
	Handled(ctx context.Context, interactionID string) (bool, error)
}

// Relay sends one composed message (mail.Sender).
type Relay interface {
	Send(ctx context.Context, from, to string, msg []byte) error
}

// Config wires a Transport.
type Config struct {
	Service Service
	Store   Store
	// Composer writes the mails (From, Domain); Prefix makes the reply
	// addresses, Prefix+"+"+token@Composer.Domain (default "play").
	Composer mail.Composer
	Prefix   string
	// Tokens sign the reply addresses (the web pages' secret).
	Tokens *mail.Tokens
	Relay  Relay
	Now    func() time.Time
	Log    *slog.Logger
}

// Transport is the mail transport.
type Transport struct {
	cfg Config
}

// New returns the mail transport.
func New(cfg Config) *Transport {
	if cfg.Prefix == "" {
		cfg.Prefix = "play"
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.Composer.Domain == "" {
		if at := strings.LastIndexByte(cfg.Composer.From.Address, '@'); at >= 0 {
			cfg.Composer.Domain = cfg.Composer.From.Address[at+1:]
		}
	}
	return &Transport{cfg: cfg}
}

// Domain is the reply addresses' domain (the listener's).
func (t *Transport) Domain() string { return t.cfg.Composer.Domain }

// Prefix is the reply addresses' local part before the '+'.
func (t *Transport) Prefix() string { return t.cfg.Prefix }

// IsMove is the listener's test of a line (service.LooksLikeMove).
func IsMove(line string) bool { return service.LooksLikeMove(line) }

// Presenter is mail's: people by name, a game's place as words (a mail
// reader is not in Discord), moments written out in the reader's zone,
// and the words of a reply.
type Presenter struct{}

// Mention is the name.
func (Presenter) Mention(u service.User) string { return u.Name }

// Link names the place: a link to Discord means nothing in a mail.
func (Presenter) Link(_, _ string) string { return "the game's thread" }

// Stamp is the moment in loc, with its year.
func (Presenter) Stamp(t time.Time, loc *time.Location) string {
	return t.In(loc).Format("Mon 2 Jan 2006 15:04 MST")
}

// Wording is how a mail names what to do.
func (Presenter) Wording() service.Wording {
	return service.Wording{PickGame: "a reply to that game's own notice", MoveList: "notice's", Channel: "this mail", Server: "Tessera"}
}

// Presenter makes the courier render letters in mail's words.
func (t *Transport) Presenter() service.Presenter { return Presenter{} }

// plain is a service text as a mail shows it: tokens rendered, Discord's
// markdown (bold, code) taken out.
func plain(text string) string {
	return strings.NewReplacer("**", "", "`", "").Replace(service.Render(text, Presenter{}))
}

// replyAddress is the reply address of a player's seat in a game.
func (t *Transport) replyAddress(gameID uint64, seat int, userID string, epoch uint32) (string, error) {
	tok, err := t.cfg.Tokens.Make(mail.ReplyToken{GameID: gameID, Seat: seat, UserID: userID, Epoch: epoch})
	if err != nil {
		return "", err
	}
	return mail.ReplyAddress(t.cfg.Prefix, tok, t.cfg.Composer.Domain), nil
}

// address is a mail.Address of a name and an address.
func address(name, addr string) netmail.Address { return netmail.Address{Name: name, Address: addr} }
