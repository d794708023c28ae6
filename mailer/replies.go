package mailer

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"tessera"
	"tessera/mail"
	"tessera/service"
)

// errRefused is the listener's refusal of a reply (550, without a word
// of why): a bad or revoked token, or a sender who is not the player.
var errRefused = errors.New("mailer: reply refused")

// Handle is the listener's Handler: it plays the move of a player's
// reply, through the command table's /move (or resigns, or mails the
// board), and answers a refusal by mail, through the outbox. nil
// accepts the mail (250); a temporary error (the store) asks the
// sending server to try again (451); errRefused refuses it (550).
//
// A reply is played in the store transaction of /move keyed by its
// Message-ID (the handled interactions), so the same mail received twice
// (a sending server that never saw our 250 because we crashed) plays
// once, and the second is accepted in silence.
func (t *Transport) Handle(ctx context.Context, in mail.Incoming) error {
	r := in.Reply
	if r.Kind == mail.KindAutoReply {
		return nil // RFC 3834: never answered, never read as a move
	}
	var g *tessera.Game
	var who tessera.UserSettings
	tok, err := t.cfg.Tokens.Verify(in.Token, func(gameID uint64, seat int) (mail.Seat, error) {
		game, err := t.cfg.Store.Game(ctx, gameID)
		if err != nil {
			if tessera.ErrorCode(err) == tessera.ENOTFOUND {
				return mail.Seat{}, err
			}
			return mail.Seat{}, mail.Temporary(err)
		}
		if seat >= len(game.Players) {
			return mail.Seat{}, mail.ErrBadToken
		}
		u, err := t.cfg.Store.User(ctx, game.Players[seat].ID)
		if err != nil {
			return mail.Seat{}, mail.Temporary(err)
		}
		g, who = game, u
		return mail.Seat{UserID: game.Players[seat].ID, Epoch: u.LinkEpoch}, nil
	})
	switch {
	case err != nil && mail.IsTemporary(err):
		return err
	case err != nil:
		t.cfg.Log.Info("mail: a reply with a bad or revoked token refused", "remote", in.RemoteAddr)
		return errRefused
	}
	if r.Kind == mail.KindBounce {
		return t.bounced(ctx, tok, who, r.Bounce)
	}
	if who.Email == "" || r.From == nil || !mail.SameAddress(r.From.Address, who.Email) {
		t.cfg.Log.Info("mail: a reply not from the player's linked address refused", "game", tok.GameID)
		return errRefused
	}
	user := service.User{ID: tok.UserID, Name: g.Players[tok.Seat].Name}
	ref := fmt.Sprint(g.ID)
	id := service.MailReplyID(r.MessageID)
	if done, err := t.cfg.Store.Handled(ctx, id); err != nil {
		return mail.Temporary(err)
	} else if done {
		return nil // this very mail, played or answered before
	}
	// An answer goes through the outbox: it is enqueued and the mail
	// marked handled in one transaction, and the courier sends it until
	// the relay takes it, so the same mail received again is answered
	// once, and a relay that refuses for now loses nothing.
	answer := func(text string, board bool) error {
		if _, err := t.cfg.Service.AnswerMail(ctx, tok.UserID, g.ID, id, r.MessageID, text, board); err != nil {
			return mail.Temporary(err)
		}
		return nil
	}
	if r.Kind != mail.KindCommand {
		return answer("I found no move in your mail. Reply with your move alone on the first line (for example \"h1 YGYG\"), "+
			"or \"resign\", or \"board\" for the board again. Quoted text and signatures are not read.", false)
	}
	req := service.Request{User: user, GuildID: g.GuildID, InteractionID: id}.WithContext(ctx)
	line := strings.TrimSpace(r.Line)
	var rep service.Reply
	switch strings.ToLower(line) {
	case "board":
		return answer("", true)
	case string(tessera.EndResign):
		rep, err = t.cfg.Service.ResignConfirm(req, g.ID)
	default:
		move, _ := service.LookupCommand("move")
		rep, err = t.cfg.Service.RunCommand(req, move, service.Args{"notation": line, "game": ref})
	}
	_ = rep // the game's thread, its status and the next notice say the rest
	switch code := tessera.ErrorCode(err); {
	case err == nil:
		return nil
	case code == tessera.ECONFLICT && strings.Contains(tessera.ErrorMessage(err), "already done"):
		return nil // this very mail, played before
	case code == tessera.EINTERNAL:
		return mail.Temporary(err) // the store: the sending server tries again
	default:
		text := tessera.ErrorMessage(err)
		if fit := t.fitting(req, ref, line); fit != "" {
			text += "\n\n" + fit
		}
		return answer(text, false)
	}
}

// fitting lists the legal moves that begin like what was typed (or the
// best ones), for a refusal.
func (t *Transport) fitting(req service.Request, ref, line string) string {
	first, _, _ := strings.Cut(line, " ")
	moves := goodMoves(t.cfg.Service.MoveChoices(req, ref, first))
	if len(moves) == 0 {
		moves = goodMoves(t.cfg.Service.MoveChoices(req, ref, ""))
	}
	if len(moves) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("Legal moves that fit:\n")
	for _, m := range moves {
		fmt.Fprintf(&b, "  %s", m.Move)
		if m.Gain != "" {
			fmt.Fprintf(&b, "  (%s)", m.Gain)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// bounced turns mail off for the player when their address bounced for
// good (RFC 3464: Action failed, a 5.x.x status); a delay is ignored.
func (t *Transport) bounced(ctx context.Context, tok mail.ReplyToken, who tessera.UserSettings, b *mail.Bounce) error {
	if b == nil || !b.Permanent {
		return nil
	}
	addr := who.Email
	if b.Recipient != "" && !mail.SameAddress(b.Recipient, who.Email) {
		return nil // a bounce for an address they no longer have
	}
	off, err := t.cfg.Service.MailBounced(ctx, tok.UserID, addr)
	if err != nil {
		return mail.Temporary(err)
	}
	if off {
		t.cfg.Log.Info("mail: a hard bounce turned mail off for a player", "user", tok.UserID, "status", b.Status)
	}
	return nil
}
