// The one-click unsubscribe of the mail notices (RFC 8058): every notice
// carries List-Unsubscribe: <URL> and List-Unsubscribe-Post:
// List-Unsubscribe=One-Click, and a POST to the URL switches that
// player's mail off. The URL carries a token signed with the pages'
// secret (a kind of its own, "unsubscribe"), naming the user and their
// link epoch and bound to the address it was mailed to, so it cannot be
// made for another user, /link reset:true revokes it, and a link of an
// address since unlinked or replaced does nothing.

package service

import (
	"context"
	"crypto/hmac"
	"encoding/base64"
	"encoding/binary"
	"strings"

	"tessera"
)

// unsubscribeVersion is the first byte of an unsubscribe token.
const unsubscribeVersion = 1

// unsubscribeFixed is the token's fixed part: version, epoch, the user
// id's length.
const unsubscribeFixed = 1 + 4 + 1

// maxUnsubscribeToken bounds what is read of a token before any work.
var maxUnsubscribeToken = base64.RawURLEncoding.EncodedLen(unsubscribeFixed + 255 + macLen)

// UnsubscribePath is where the pages serve the one-click unsubscribe:
// UnsubscribePath + token.
const UnsubscribePath = "/mail/unsubscribe/"

// errBadUnsubscribe is every refusal of an unsubscribe link: a forgery,
// another user's, a revoked one, one of an address no longer linked.
var errBadUnsubscribe = errorf(tessera.ENOTFOUND, "This unsubscribe link is not valid (any more). /settings email:off in Discord stops every mail.")

// UnsubscribeURL is the one-click unsubscribe URL of the notices mailed
// to address for userID at link epoch epoch; "" when the pages are off
// (the notices then carry no List-Unsubscribe). The URL is a secret of
// its owner's: never log it.
func (s *Service) UnsubscribeURL(userID string, epoch uint32, address string) string {
	if !s.WebOn() || userID == "" || len(userID) > 255 || address == "" {
		return ""
	}
	b := make([]byte, unsubscribeFixed, unsubscribeFixed+len(userID)+macLen)
	b[0] = unsubscribeVersion
	binary.BigEndian.PutUint32(b[1:5], epoch)
	b[5] = byte(len(userID))
	b = append(b, userID...)
	b = append(b, s.unsubscribeMAC(b, address)...)
	return s.cfg.Web.URL + UnsubscribePath + base64.RawURLEncoding.EncodeToString(b)
}

// unsubscribeMAC signs the token's fields and the address (in lower
// case: mail systems may change its case), which the token does not
// carry.
func (s *Service) unsubscribeMAC(fields []byte, address string) []byte {
	data := make([]byte, 0, len(fields)+1+len(address))
	data = append(append(append(data, fields...), 0), strings.ToLower(address)...)
	return s.mac("unsubscribe", data)
}

// checkUnsubscribe reads a token: its form, then the MAC in constant
// time against u's linked address, then the epoch. It returns the user
// id; every refusal is errBadUnsubscribe.
func (s *Service) checkUnsubscribe(token string, user func(id string) (tessera.UserSettings, error)) (string, tessera.UserSettings, error) {
	if !s.WebOn() || len(token) > maxUnsubscribeToken {
		return "", tessera.UserSettings{}, errBadUnsubscribe
	}
	b, err := decode64(token)
	if err != nil || len(b) < unsubscribeFixed+macLen || b[0] != unsubscribeVersion || len(b) != unsubscribeFixed+int(b[5])+macLen {
		return "", tessera.UserSettings{}, errBadUnsubscribe
	}
	fields, sum := b[:len(b)-macLen], b[len(b)-macLen:]
	id := string(fields[unsubscribeFixed:])
	if id == "" {
		return "", tessera.UserSettings{}, errBadUnsubscribe
	}
	u, err := user(id)
	if err != nil {
		return "", tessera.UserSettings{}, err
	}
	if u.Email == "" || !hmac.Equal(sum, s.unsubscribeMAC(fields, u.Email)) || binary.BigEndian.Uint32(fields[1:5]) != u.LinkEpoch {
		return "", tessera.UserSettings{}, errBadUnsubscribe
	}
	return id, u, nil
}

// UnsubscribeCheck verifies an unsubscribe token without changing
// anything (the page a GET shows): whether the player's notices still go
// by mail. A bad token is ENOTFOUND.
func (s *Service) UnsubscribeCheck(ctx context.Context, token string) (mailOn bool, err error) {
	_, u, err := s.checkUnsubscribe(token, func(id string) (tessera.UserSettings, error) { return s.store.User(ctx, id) })
	if err != nil {
		return false, err
	}
	return u.ByMail(), nil
}

// Unsubscribe switches the token's player's mail off (RFC 8058's
// one-click POST): their notices go by direct message instead, as after
// a hard bounce, the address stays linked (/settings notify:mail turns
// mail on again without a new code), and a direct message tells them
// so. It reports whether it changed anything: a second POST changes
// nothing and is no error. A bad token is ENOTFOUND and changes nothing.
func (s *Service) Unsubscribe(ctx context.Context, token string) (changed bool, err error) {
	userID := s.unsubscribeUser(token)
	if userID == "" || !s.WebOn() {
		return false, errBadUnsubscribe
	}
	// The token is checked inside the transaction that changes the
	// settings, against what it reads there: a refusal writes nothing.
	_, err = s.store.UpdateUser(ctx, userID, func(u *tessera.UserSettings, tx storageTx) error {
		id, cur, err := s.checkUnsubscribe(token, func(string) (tessera.UserSettings, error) { return *u, nil })
		if err != nil {
			return err
		}
		if !cur.ByMail() {
			return nil
		}
		changed = true
		u.Notify, u.NotifyOff = tessera.NotifyDM, false
		return tx.Enqueue(ctx, tessera.Announcement{Kind: tessera.AnnounceNote, UserID: id,
			Text: "Mail is off: the unsubscribe link of a notice was used. Turn notices come by direct message; /settings notify:mail turns mail on again."})
	})
	if err != nil {
		return false, err
	}
	if changed {
		s.log.Info("mail: switched off by a notice's unsubscribe link", "user", userID)
		s.poke()
	}
	return changed, nil
}

// unsubscribeUser is the user id a token names, unchecked ("" for a
// token that names none, which UpdateUser's change then refuses).
func (s *Service) unsubscribeUser(token string) string {
	if len(token) > maxUnsubscribeToken {
		return ""
	}
	b, err := decode64(token)
	if err != nil || len(b) < unsubscribeFixed+macLen || len(b) != unsubscribeFixed+int(b[5])+macLen {
		return ""
	}
	return string(b[unsubscribeFixed : len(b)-macLen])
}
