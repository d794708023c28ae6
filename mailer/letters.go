package mailer

import (
	"context"
	"fmt"
	"strings"

	"tessera"
	"tessera/delivery"
	"tessera/mail"
	"tessera/service"
)

// Letter sends what the courier owes a player by mail. A permanent
// refusal of the relay (5xx) is delivery.Permanent; anything else is
// retried by the courier.
func (t *Transport) Letter(ctx context.Context, l delivery.Letter, nonce string) error {
	var msg []byte
	var from string
	var err error
	switch {
	case l.Kind == tessera.AnnounceMailConfirm:
		from = t.cfg.Composer.From.Address
		msg, err = t.cfg.Composer.ComposeLetter(&mail.Letter{To: address("", l.To), Subject: "Your Tessera confirmation code",
			Text: fmt.Sprintf("Your code is %s.\n\nGive it in Discord with /settings code:%s within a day to link this address to your games' turn notices.\n"+
				"If you did not ask for it, ignore this mail: nothing more will be sent here.\n", l.Code, l.Code),
			Key: "confirm." + nonce, Date: t.cfg.Now()})
	case l.Game == nil:
		return delivery.Permanent(fmt.Errorf("mailer: a %s letter without its game", l.Kind))
	default:
		if from, err = t.replyAddress(l.Game.ID, l.Seat, l.UserID, l.Epoch); err != nil {
			return delivery.Permanent(err)
		}
		switch {
		case l.Kind == tessera.AnnounceMailAnswer && len(l.Message.Files) == 0:
			// The answer to a reply: in the game's thread, under the reply.
			msg, err = t.cfg.Composer.ComposeLetter(&mail.Letter{To: address(l.Name, l.To), Subject: "Re: " + subject(l.Game, l.UserID),
				Text: plain(l.Message.Text) + "\n", GameID: l.Game.ID, InReplyTo: l.InReplyTo, ReplyTo: from, Key: "answer." + nonce, Date: t.cfg.Now()})
		case l.Kind == tessera.AnnouncePost:
			msg, err = t.cfg.Composer.ComposeLetter(&mail.Letter{To: address(l.Name, l.To), Subject: subject(l.Game, l.UserID),
				Text: plain(l.Message.Text) + "\n", GameID: l.Game.ID, Key: "post." + nonce, Date: t.cfg.Now(),
				Unsubscribe: t.cfg.Service.UnsubscribeURL(l.UserID, l.Epoch, l.To)})
		default: // a turn notice, its reminder, or the board asked for by reply
			msg, err = t.notice(ctx, l, from, nonce)
		}
	}
	if err != nil {
		return delivery.Permanent(err)
	}
	return t.send(ctx, from, l.To, msg)
}

// send hands msg to the relay; a permanent refusal is delivery.Permanent.
func (t *Transport) send(ctx context.Context, from, to string, msg []byte) error {
	err := t.cfg.Relay.Send(ctx, from, to, msg)
	if err != nil && !mail.IsTemporary(err) {
		return delivery.Permanent(err)
	}
	return err
}

// subject is the one subject of a game's mails to userID.
func subject(g *tessera.Game, userID string) string {
	return mail.GameSubject(gameTitle(g), strings.Join(g.Opponents(userID), ", "))
}

func gameTitle(g *tessera.Game) string {
	return fmt.Sprintf("%s #%d", service.GameName(g.Setup.Game), g.ID)
}

// notice composes a turn notice (or its reminder) for l: the service's
// words and the game's status, the board inline, the player's hand, a
// few good moves, the private link, and how to reply.
func (t *Transport) notice(ctx context.Context, l delivery.Letter, replyTo, nonce string) ([]byte, error) {
	g := l.Game
	n := &mail.Notice{To: address(l.Name, l.To), GameID: g.ID, GameName: gameTitle(g), Opponent: strings.Join(g.Opponents(l.UserID), ", "),
		Move: len(g.Moves) + 1, Link: l.Link, ReplyTo: replyTo, Date: t.cfg.Now(),
		Unsubscribe: t.cfg.Service.UnsubscribeURL(l.UserID, l.Epoch, l.To)}
	switch l.Kind {
	case tessera.AnnounceReminder:
		n.Reminder = 1
	case tessera.AnnounceMailAnswer:
		n.Key = "board." + nonce // the board asked for: a mail of its own
	}
	if len(l.Message.Files) > 0 {
		n.Board = l.Message.Files[0].Data
	}
	note := plain(l.Message.Text)
	if st, err := t.cfg.Service.StatusMessage(g); err == nil {
		note += "\n" + plain(st.Text)
	}
	n.Note = note
	req := service.Request{User: service.User{ID: l.UserID, Name: l.Name}}.WithContext(ctx)
	ref := fmt.Sprint(g.ID)
	if hand, err := t.cfg.Service.HandWords(req, ref); err == nil {
		n.Hand = hand
	}
	n.GoodMoves = goodMoves(t.cfg.Service.MoveChoices(req, ref, ""))
	return t.cfg.Composer.Compose(n)
}

// goodMoves are the first legal moves of a list (best first), with what
// each gains as the list names it.
func goodMoves(cs []service.Choice) []mail.GoodMove {
	var out []mail.GoodMove
	for _, c := range cs {
		if c.Value == "" || c.Value == "?" || len(out) == 5 { // "?" is a hint, no move
			continue
		}
		gain := strings.TrimSpace(strings.TrimPrefix(c.Name, c.Value))
		gain = strings.TrimLeft(gain, " ·-—:()")
		out = append(out, mail.GoodMove{Move: c.Value, Gain: strings.TrimRight(gain, ")")})
	}
	return out
}
