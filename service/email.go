package service

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"net/mail"
	"strings"
	"time"

	"tessera"
	"tessera/storage"
)

// EmailCodeLife is how long a confirmation code is good for.
const EmailCodeLife = 24 * time.Hour

// Email links the caller's mail address (double opt-in): the address
// waits, and a code is mailed to it (AnnounceMailConfirm, through the
// outbox) which the caller gives back with /settings code:. "off"
// unlinks the address and stops every mail. The address is shown to the
// caller alone.
func (s *Service) Email(req Request, address string) (Reply, error) {
	ctx := req.Context()
	address = strings.TrimSpace(address)
	if !s.cfg.Mail {
		return Reply{}, errorf(tessera.EINVALID, "This bot sends no mail.")
	}
	if strings.EqualFold(address, "off") {
		u, err := s.store.UpdateUser(ctx, req.User.ID, func(u *tessera.UserSettings, _ storageTx) error {
			u.Email, u.EmailPending, u.EmailCode, u.EmailCodeUntil = "", "", "", time.Time{}
			if m := u.NotifyMode(); m == tessera.NotifyMail || m == tessera.NotifyBoth {
				u.Notify = tessera.NotifyDM
			}
			return nil
		})
		if err != nil {
			return Reply{}, err
		}
		return Reply{Text: "Your address is unlinked: no more mail. " + notifyText(u), Ephemeral: true}, nil
	}
	addr, err := CheckAddress(address)
	if err != nil {
		return Reply{}, err
	}
	code, err := newEmailCode()
	if err != nil {
		return Reply{}, err
	}
	now := s.now().UTC()
	_, err = s.store.UpdateUser(ctx, req.User.ID, func(u *tessera.UserSettings, tx storageTx) error {
		u.EmailPending, u.EmailCode, u.EmailCodeUntil = addr, emailCodeHash(req.User.ID, addr, code), now.Add(EmailCodeLife)
		return tx.Enqueue(ctx, tessera.Announcement{Kind: tessera.AnnounceMailConfirm, UserID: req.User.ID, Target: addr, Text: code})
	})
	if err != nil {
		return Reply{}, err
	}
	s.poke()
	return Reply{Text: fmt.Sprintf("A code is on its way to %s. Give it with /settings code: within a day to link the address (until then nothing else is mailed there).", addr), Ephemeral: true}, nil
}

// ConfirmEmail links the waiting address when code is the one mailed to
// it, and sends the caller's turn notices by mail from then on (notify
// "mail", or "both" when they had direct messages on).
func (s *Service) ConfirmEmail(req Request, code string) (Reply, error) {
	ctx := req.Context()
	code = strings.TrimSpace(code)
	now := s.now().UTC()
	u, err := s.store.UpdateUser(ctx, req.User.ID, func(u *tessera.UserSettings, _ storageTx) error {
		if u.EmailPending == "" {
			return errorf(tessera.EINVALID, "No address waits for a code; give one with /settings email:you@example.org.")
		}
		if now.After(u.EmailCodeUntil) {
			return errorf(tessera.EINVALID, "That code has expired; ask for a new one with /settings email: again.")
		}
		want := emailCodeHash(req.User.ID, u.EmailPending, code)
		if subtle.ConstantTimeCompare([]byte(want), []byte(u.EmailCode)) != 1 {
			return errorf(tessera.EINVALID, "That is not the code sent to %s; look for the newest mail from us, or ask again with /settings email:.", u.EmailPending)
		}
		u.Email, u.EmailPending, u.EmailCode, u.EmailCodeUntil = u.EmailPending, "", "", time.Time{}
		switch u.NotifyMode() {
		case tessera.NotifyDM:
			u.Notify = tessera.NotifyBoth
		case tessera.NotifyNone:
			u.Notify = tessera.NotifyMail
		}
		u.NotifyOff = false
		return nil
	})
	if err != nil {
		return Reply{}, err
	}
	return Reply{Text: "Your address is linked. " + notifyText(u) + " Reply to a turn notice with your move to play it; /settings notify: changes where notices go.", Ephemeral: true}, nil
}

// MailBounced switches mail off for userID when address, their linked
// one, bounced for good (a DSN with a permanent failure), and tells them
// by direct message. It reports whether it did.
func (s *Service) MailBounced(ctx context.Context, userID, address string) (bool, error) {
	off := false
	_, err := s.store.UpdateUser(ctx, userID, func(u *tessera.UserSettings, tx storageTx) error {
		off = u.Email != "" && strings.EqualFold(u.Email, address)
		if !off {
			return nil
		}
		u.Email = ""
		if m := u.NotifyMode(); m == tessera.NotifyMail || m == tessera.NotifyBoth {
			u.Notify, u.NotifyOff = tessera.NotifyDM, false
		}
		return tx.Enqueue(ctx, tessera.Announcement{Kind: tessera.AnnounceNote, UserID: userID,
			Text: "Mail to your address bounced (its server refused it for good), so I stopped mailing it; turn notices come by direct message. /settings email: links an address again."})
	})
	if err == nil && off {
		s.poke()
	}
	return off, err
}

// CheckAddress is address as a bare mailbox ("ana@example.org"), or a
// refusal saying what is wrong: it must be one address, without a name,
// of at most 254 characters.
func CheckAddress(address string) (string, error) {
	a, err := mail.ParseAddress(address)
	if err != nil || a.Name != "" || a.Address != address || len(address) > 254 ||
		!strings.Contains(address[strings.LastIndexByte(address, '@')+1:], ".") ||
		strings.ContainsAny(address, " \t\r\n<>\"") {
		return "", errorf(tessera.EINVALID, "%s is not a mail address; give one like ana@example.org.", typed(address))
	}
	return address, nil
}

// newEmailCode is six random digits.
func newEmailCode() (string, error) {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%06d", n.Int64()), nil
}

// emailCodeHash is what is stored of a code: its hash bound to the user
// and the address (a leaked settings record gives no code).
func emailCodeHash(userID, address, code string) string {
	sum := sha256.Sum256([]byte("tessera-mail-code:" + userID + "\x00" + strings.ToLower(address) + "\x00" + code))
	return hex.EncodeToString(sum[:])
}

// MailReplyID is the handled-interaction id of a mail reply: a hash of
// its Message-ID under storage.LongHandled, so the store keeps it for
// the runner's KeepMailHandled (90 days), not a day: a sending server
// that delivers the same reply again weeks later plays it once.
func MailReplyID(messageID string) string {
	sum := sha256.Sum256([]byte(messageID))
	return storage.LongHandled + hex.EncodeToString(sum[:16])
}

// AnswerMail owes userID, by mail in game gameID's thread, the answer
// to their reply messageID (handled id replyID, MailReplyID): text (a
// refusal and the moves that fit), or the board again when board. The
// answer is enqueued (the courier's Letterbox sends it, retried until
// the relay takes it) and the reply marked handled, in one transaction,
// so a reply received again is answered once. It reports false when
// the reply was handled already.
func (s *Service) AnswerMail(ctx context.Context, userID string, gameID uint64, replyID, messageID, text string, board bool) (bool, error) {
	_, err := s.store.UpdateUser(ctx, userID, func(_ *tessera.UserSettings, tx storageTx) error {
		if err := tx.MarkHandled(ctx, replyID); err != nil {
			return err
		}
		return tx.Enqueue(ctx, tessera.Announcement{Kind: tessera.AnnounceMailAnswer, GameID: gameID, UserID: userID,
			Target: messageID, Text: text, Board: board})
	})
	if errors.Is(err, storage.ErrDuplicate) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	s.poke()
	return true, nil
}
