// The companion pages' addresses and the players' private links: a game's
// page lives at an address nobody can guess without the secret, and a
// player's link carries a signed token bound to the game, the seat, the
// user's link epoch (which /link reset:true bumps) and an expiry. Tokens
// are checked in constant time and never logged.

package service

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"strconv"
	"time"

	"tessera"
)

// WebConfig is Config.Web: the companion pages (zero: off).
type WebConfig struct {
	// URL is the pages' public base URL, e.g. "https://tessera.example.org"
	// (no trailing slash); "" turns the pages off.
	URL string
	// Secret is the HMAC key (at least MinWebSecret bytes) for addresses
	// and tokens. cmd/tessera takes it from the configuration (web.secret)
	// or the store's own, made once.
	Secret []byte
	// LinkTTL is a private link's life (default DefaultLinkTTL).
	LinkTTL time.Duration
}

// Bounds of the pages' settings.
const (
	MinWebSecret   = 32 // bytes of HMAC key
	DefaultLinkTTL = 30 * day
	MaxLinkTTL     = 366 * day
)

// macLen is how many bytes of HMAC-SHA256 an address or a token keeps:
// 128 bits, 22 characters of base64url.
const macLen = 16

// addressMACLen is the length of an address's MAC in base64url.
var addressMACLen = base64.RawURLEncoding.EncodedLen(macLen)

// tokenVersion is the first byte of every token, so that a later format
// can be told apart (and this one refused) without guessing.
const tokenVersion = 1

// maxAddress bounds what GameAt and GuildAt read before any work.
const maxAddress = 128

// maxToken bounds what CheckPlayerToken reads: a token is at most 41
// bytes of fields, 255 of user id and the MAC, in base64url.
var maxToken = base64.RawURLEncoding.EncodedLen(tokenFixed + 255 + macLen)

// tokenFixed is the token's fixed part: version, game id, seat, epoch,
// expiry, the user id's length.
const tokenFixed = 1 + 8 + 1 + 4 + 8 + 1

// Refusals of addresses and links; none says which part was wrong.
var (
	errNoPage      = tessera.Errorf(tessera.ENOTFOUND, "There is no such game page; ask in the game's thread for its link.")
	errBadLink     = tessera.Errorf(tessera.EFORBIDDEN, "This private link is not valid for this game; ask for a new one with /link.")
	errLinkExpired = tessera.Errorf(tessera.EFORBIDDEN, "This private link has expired; ask for a new one with /link.")
	errLinkRevoked = tessera.Errorf(tessera.EFORBIDDEN, "This private link was revoked by /link reset; use your newest link, or ask for one with /link.")
	errWebOff      = tessera.Errorf(tessera.EINVALID, "The game pages are off here, so there is no link to give; the game is played with the commands.")
)

// WebOn reports whether the pages are configured: a public URL and a key.
func (s *Service) WebOn() bool {
	return s.cfg.Web.URL != "" && len(s.cfg.Web.Secret) >= MinWebSecret
}

// mac is the first macLen bytes of HMAC-SHA256(Secret, kind+":"+data).
func (s *Service) mac(kind string, data []byte) []byte {
	h := hmac.New(sha256.New, s.cfg.Web.Secret)
	h.Write([]byte(kind))
	h.Write([]byte{':'})
	h.Write(data)
	return h.Sum(nil)[:macLen]
}

// GameAddress is the unguessable part of a game page's path:
// "<id>-<mac>", mac = 128 bits of HMAC-SHA256(Secret, "game:"+id) in
// base64url (22 characters).
func (s *Service) GameAddress(id uint64) string {
	n := strconv.FormatUint(id, 10)
	return n + "-" + base64.RawURLEncoding.EncodeToString(s.mac("game", []byte(n)))
}

// GuildAddress is the unguessable part of a server's players' pages'
// path ("/s/" + address): "<guild id>-<mac>", the mac over
// "guild:"+guildID.
func (s *Service) GuildAddress(guildID string) string {
	return guildID + "-" + base64.RawURLEncoding.EncodeToString(s.mac("guild", []byte(guildID)))
}

// splitAddress checks "<name>-<mac>" made by kind's MAC and returns name;
// false for anything the service did not make. The MAC is compared in
// constant time.
func (s *Service) splitAddress(kind, address string) (string, bool) {
	if !s.WebOn() || len(address) > maxAddress || len(address) < addressMACLen+2 {
		return "", false
	}
	cut := len(address) - addressMACLen - 1
	if address[cut] != '-' {
		return "", false
	}
	name, enc := address[:cut], address[cut+1:]
	got, err := decode64(enc)
	if err != nil || len(got) != macLen {
		return "", false
	}
	return name, hmac.Equal(got, s.mac(kind, []byte(name)))
}

// decode64 reads base64url without padding, strictly: Go's decoder skips
// CR and LF even in Strict mode, so "AB\rCD" would read as "ABCD" and a
// token or an address would have many spellings (FuzzCheckPlayerToken
// found one). Only the alphabet's 64 characters are taken.
func decode64(s string) ([]byte, error) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return nil, errNotBase64
		}
	}
	return base64.RawURLEncoding.Strict().DecodeString(s)
}

// errNotBase64 is a token or address with a character outside base64url.
var errNotBase64 = errors.New("not base64url")

// GameAt is the game at a page's address. An address the service did not
// make, a game that is gone, or a server that turned its pages off are
// all ENOTFOUND, alike.
func (s *Service) GameAt(ctx context.Context, address string) (*tessera.Game, error) {
	n, ok := s.splitAddress("game", address)
	if !ok {
		return nil, errNoPage
	}
	id, err := strconv.ParseUint(n, 10, 64)
	if err != nil || strconv.FormatUint(id, 10) != n {
		return nil, errNoPage
	}
	g, err := s.store.Game(ctx, id)
	if tessera.ErrorCode(err) == tessera.ENOTFOUND {
		return nil, errNoPage
	}
	if err != nil {
		return nil, err
	}
	on, err := s.GuildWebOn(ctx, g.GuildID)
	if err != nil {
		return nil, err
	}
	if !on {
		return nil, errNoPage
	}
	return g, nil
}

// GuildAt is the server whose players' pages an address names (ENOTFOUND
// for one the service did not make). Whether the server turned its pages
// off is GuildWebOn's to say.
func (s *Service) GuildAt(address string) (guildID string, err error) {
	id, ok := s.splitAddress("guild", address)
	if !ok || id == "" {
		return "", errNoPage
	}
	return id, nil
}

// GameURL is Web.URL + "/g/" + GameAddress(id): the game's page, for the
// link buttons of its thread. It is "" when the pages are off, or the
// game's server turned them off, or its settings cannot be read now (the
// post then goes without its button rather than wait).
func (s *Service) GameURL(ctx context.Context, g *tessera.Game) string {
	u, err := s.gameURL(ctx, g)
	if err != nil {
		s.log.Warn("web: cannot read the server's settings; no page link", "game", g.ID, "err", err)
	}
	return u
}

// gameURL is GameURL, with the store's error when the server's settings
// cannot be read (the courier retries the announcement then).
func (s *Service) gameURL(ctx context.Context, g *tessera.Game) (string, error) {
	on, err := s.GuildWebOn(ctx, g.GuildID)
	if err != nil || !on {
		return "", err
	}
	return s.cfg.Web.URL + "/g/" + s.GameAddress(g.ID), nil
}

// PlayerURL is GameURL + "?t=" + a token for userID's seat: the player's
// private link. It is "" (and no error) when there is no page to link.
func (s *Service) PlayerURL(ctx context.Context, g *tessera.Game, userID string) (string, error) {
	u, err := s.gameURL(ctx, g)
	if err != nil || u == "" {
		return "", err
	}
	t, err := s.PlayerToken(ctx, g, userID)
	if err != nil {
		return "", err
	}
	return u + "?t=" + t, nil
}

// PlayerToken signs (game id, seat, the user's link epoch, expiry, user
// id) for userID's seat in g: version byte, fields, then 128 bits of
// HMAC-SHA256(Secret, "player:"+fields), in base64url. The token is a
// secret of its owner's: never log it.
func (s *Service) PlayerToken(ctx context.Context, g *tessera.Game, userID string) (string, error) {
	if !s.WebOn() {
		return "", errWebOff
	}
	seat := g.Seat(userID)
	if seat < 0 || seat > 255 || len(userID) > 255 {
		return "", errorf(tessera.EFORBIDDEN, "Only the game's players get a private link to it.")
	}
	u, err := s.store.User(ctx, userID)
	if err != nil {
		return "", err
	}
	ttl := s.linkTTL()
	b := make([]byte, tokenFixed, tokenFixed+len(userID)+macLen)
	b[0] = tokenVersion
	binary.BigEndian.PutUint64(b[1:9], g.ID)
	b[9] = byte(seat)
	binary.BigEndian.PutUint32(b[10:14], u.LinkEpoch)
	binary.BigEndian.PutUint64(b[14:22], uint64(s.now().Add(ttl).Unix()))
	b[22] = byte(len(userID))
	b = append(b, userID...)
	b = append(b, s.mac("player", b)...)
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// CheckPlayerToken verifies a token for game g: its MAC in constant time,
// then the game, the seat (still the user's), the expiry on the service's
// clock and the user's current link epoch. It returns the user's id and
// seat; every refusal is EFORBIDDEN with a message that says what to do.
func (s *Service) CheckPlayerToken(ctx context.Context, g *tessera.Game, token string) (userID string, seat int, err error) {
	if !s.WebOn() || len(token) > maxToken {
		return "", -1, errBadLink
	}
	b, derr := decode64(token)
	if derr != nil || len(b) < tokenFixed+macLen || b[0] != tokenVersion || len(b) != tokenFixed+int(b[22])+macLen {
		return "", -1, errBadLink
	}
	body, sum := b[:len(b)-macLen], b[len(b)-macLen:]
	if !hmac.Equal(sum, s.mac("player", body)) {
		return "", -1, errBadLink
	}
	id := binary.BigEndian.Uint64(body[1:9])
	seat = int(body[9])
	epoch := binary.BigEndian.Uint32(body[10:14])
	expiry := int64(binary.BigEndian.Uint64(body[14:22]))
	userID = string(body[tokenFixed:])
	if id != g.ID || seat >= len(g.Players) || g.Seat(userID) != seat {
		return "", -1, errBadLink
	}
	if !s.now().Before(time.Unix(expiry, 0)) {
		return "", -1, errLinkExpired
	}
	u, err := s.store.User(ctx, userID)
	if err != nil {
		return "", -1, err
	}
	if u.LinkEpoch != epoch {
		return "", -1, errLinkRevoked
	}
	return userID, seat, nil
}

// GuildWebOn reports whether a server's pages are on: configured, and not
// turned off by /settings web:off.
func (s *Service) GuildWebOn(ctx context.Context, guildID string) (bool, error) {
	if !s.WebOn() {
		return false, nil
	}
	g, err := s.store.Guild(ctx, guildID)
	if err != nil {
		return false, err
	}
	return !g.WebOff, nil
}
