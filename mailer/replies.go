package mailer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
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
// board), and answers a refusal by mail. nil accepts the mail (250); a
// temporary error (the store) asks the sending server to try again
// (451); errRefused refuses it (550).
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
	sum := sha256.Sum256([]byte(r.MessageID))
	id := "mail:" + hex.EncodeToString(sum[:16])
	if done, err := t.cfg.Store.Handled(ctx, id); err != nil {
		return mail.Temporary(err)
	} else if done {
		return nil // this very mail, played or answered before
	}
	// A refusal is answered, then the mail marked handled: a crash in
	// between answers it twice rather than never.
	answer := func(text string) error {
		if err := t.answer(ctx, g, tok, who, r, text); err != nil {
			return err
		}
		if err := t.cfg.Store.MarkHandled(ctx, id); err != nil {
			return mail.Temporary(err)
		}
		return nil
	}
	if r.Kind != mail.KindCommand {
		return answer("I found no move in your mail. Reply with your move alone on the first line (for example \"h1 YGYG\"), " +
			"or \"resign\", or \"board\" for the board again. Quoted text and signatures are not read.")
	}
	req := service.Request{User: user, GuildID: g.GuildID, InteractionID: id}.WithContext(ctx)
	line := strings.TrimSpace(r.Line)
	var rep service.Reply
	switch strings.ToLower(line) {
	case "board":
		if err := t.board(ctx, g, tok, who, r); err != nil {
			return err
		}
		if err := t.cfg.Store.MarkHandled(ctx, id); err != nil {
			return mail.Temporary(err)
		}
		return nil
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
		text := plain(tessera.ErrorMessage(err))
		if fit := t.fitting(req, ref, line); fit != "" {
			text += "\n\n" + fit
		}
		return answer(text)
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

// answer mails text back to the player, in the game's thread, as an
// answer to their reply. It is sent while the reply is received: a
// relay that fails is logged, and the reply is still accepted (its move,
// if any, stands).
func (t *Transport) answer(ctx context.Context, g *tessera.Game, tok mail.ReplyToken, who tessera.UserSettings, r *mail.Reply, text string) error {
	from, err := t.replyAddress(g.ID, tok.Seat, tok.UserID, tok.Epoch)
	if err != nil {
		return err
	}
	msg, err := t.cfg.Composer.ComposeLetter(&mail.Letter{To: address(g.Players[tok.Seat].Name, who.Email), Subject: "Re: " + subject(g, tok.UserID),
		Text: text + "\n", GameID: g.ID, InReplyTo: r.MessageID, ReplyTo: from, Key: "answer." + r.MessageID, Date: t.cfg.Now()})
	if err != nil {
		return err
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), t.cfg.SendTimeout)
	defer cancel()
	if err := t.cfg.Relay.Send(sctx, from, who.Email, msg); err != nil {
		t.cfg.Log.Warn("mail: an answer to a reply was not sent", "game", g.ID, "err", err)
	}
	return nil
}

// board mails the board again, as a turn notice (with the hand and the
// good moves when it is the player's turn).
func (t *Transport) board(ctx context.Context, g *tessera.Game, tok mail.ReplyToken, who tessera.UserSettings, r *mail.Reply) error {
	pic, err := t.cfg.Service.Picture(g)
	if err != nil {
		return t.answer(ctx, g, tok, who, r, "I could not draw the board; try again later.")
	}
	from, err := t.replyAddress(g.ID, tok.Seat, tok.UserID, tok.Epoch)
	if err != nil {
		return err
	}
	l := letterFor(g, tok, who, pic)
	msg, err := t.notice(ctx, l, from)
	if err != nil {
		return err
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), t.cfg.SendTimeout)
	defer cancel()
	if err := t.cfg.Relay.Send(sctx, from, who.Email, msg); err != nil {
		t.cfg.Log.Warn("mail: the board asked for was not sent", "game", g.ID, "err", err)
	}
	return nil
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
