package delivery

import (
	"context"
	"errors"

	"tessera"
	"tessera/service"
)

// Letterbox is a transport that reaches a player at an address of their
// own rather than in a place (mail). The courier sends it, besides the
// Sink's direct message or instead of it as the player chose
// (/settings notify:), their turn notices, reminders and game ends, and
// an address's confirmation code. Its messages are rendered through its
// own presenter.
//
// Letter sends one letter. nonce is unique per letter and the same on
// every try, so a transport can make a letter sent again after a crash
// the same message (mail: the same Message-ID, which receivers collapse).
// An error wrapped with Permanent is dropped (a 5xx from the relay);
// any other is retried with back-off (a 4xx, the network).
type Letterbox interface {
	Presenting
	Letter(ctx context.Context, l Letter, nonce string) error
}

// Letter is what the courier asks a Letterbox to send.
type Letter struct {
	// Kind is the announcement's: tessera.AnnounceTurn, AnnounceReminder,
	// AnnouncePost (a game's end), AnnounceMailConfirm, AnnounceMailAnswer
	// (the answer to a reply: Message.Text, or the board when
	// Message.Files holds it).
	Kind   string
	UserID string
	// To is the address: the player's linked one, or for a confirmation
	// the address that waits for it.
	To   string
	Name string // the player's name in the game ("" for a confirmation)
	// Game is the game a notice is about (nil for a confirmation); Seat
	// is the player's in it, Epoch their link epoch (a reply token names
	// both).
	Game  *tessera.Game
	Seat  int
	Epoch uint32
	// Message is the notice as the Sink would show it, rendered in the
	// Letterbox's words, with the board's picture.
	Message service.Message
	// Link is the player's private page ("" when the pages are off).
	Link string
	// Code is a confirmation's code.
	Code string
	// InReplyTo is, for an answer (AnnounceMailAnswer), the Message-ID
	// of the player's reply it answers.
	InReplyTo string
}

// letter sends l when the courier has a Letterbox: a permanent refusal
// is logged and dropped, anything else returned for a retry.
func (s *Courier) letter(ctx context.Context, l Letter, nonce string) error {
	if s.letterbox == nil {
		return nil
	}
	var p service.Presenter = service.Plain{}
	if lp := s.letterbox.Presenter(); lp != nil {
		p = lp
	}
	l.Message = service.RenderMessage(l.Message, p)
	err := s.letterbox.Letter(ctx, l, nonce)
	var perm *PermanentError
	if errors.As(err, &perm) {
		s.log.Info("a letter was refused for good; not sending it again", "user", l.UserID, "kind", l.Kind, "err", err)
		return nil
	}
	return err
}

// mailAnswer mails a player the answer to their reply (a refusal with
// the moves that fit, or the board asked for) to their linked address of
// now: nothing when they unlinked it since, or left the game.
func (s *Courier) mailAnswer(ctx context.Context, g *tessera.Game, a tessera.Announcement) error {
	seat := g.Seat(a.UserID)
	if s.letterbox == nil || seat < 0 {
		return nil
	}
	u, err := s.store.User(ctx, a.UserID)
	if err != nil {
		return err
	}
	if u.Email == "" {
		return nil
	}
	m := service.Message{Text: a.Text}
	link := ""
	if a.Board {
		pic, err := s.svc.Picture(g)
		if err != nil {
			return Permanent(err)
		}
		m.Files = []service.File{pic}
		buttons, err := s.svc.LinkButtons(ctx, g, a.UserID)
		if err != nil {
			return err
		}
		link = privateLink(buttons)
	}
	return s.letter(ctx, Letter{Kind: a.Kind, UserID: a.UserID, To: u.Email, Name: g.Players[seat].Name, Game: g, Seat: seat,
		Epoch: u.LinkEpoch, Message: m, Link: link, InReplyTo: a.Target}, nonce(a))
}

// WithLetterbox makes the courier send letters through l too (mail).
func (s *Courier) WithLetterbox(l Letterbox) *Courier {
	s.letterbox = l
	return s
}

// privateLink is the URL of userID's private link button on g, or "".
func privateLink(buttons []service.Button) string {
	for _, b := range buttons {
		if b.URL != "" {
			return b.URL
		}
	}
	return ""
}
