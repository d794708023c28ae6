package mail

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base32"
	"encoding/binary"
	"errors"
	"strings"
)

// A reply token is what the reply address play+<token>@host carries: the
// game, the seat and the user's link epoch, signed with the same secret
// and the same scheme as the web's private link (service/weblink.go):
// HMAC-SHA256(secret, kind+":"+fields), 128 bits kept. The kind differs
// ("mail-reply", not "player"), so neither token is good for the other,
// and the user id is signed but not carried: an address's local part is
// at most 64 octets (RFC 5321), and the verifier knows whose seat it is.
//
// The token is lower-case base32 without padding, because mail systems
// may change the case of a local part, and base64's alphabet is
// case-sensitive; the verifier accepts either case.
//
// /link reset:true bumps the user's link epoch, which revokes every reply
// address given before it, as it revokes the web links.

// Token sizes.
const (
	// MinSecret is the least key length, the web's MinWebSecret.
	MinSecret = 32
	// tokenMAC is the MAC's length in bytes: 128 bits, as the web's.
	tokenMAC = 16
	// tokenFields: version, game id, seat, epoch.
	tokenFields = 1 + 8 + 1 + 4
	// replyTokenVersion is the first byte, so a later format is told apart.
	replyTokenVersion = 1
	// tokenKind separates these MACs from the web's.
	tokenKind = "mail-reply"
)

// TokenLen is the length of a token in characters (48).
var TokenLen = tokenEncoding.EncodedLen(tokenFields + tokenMAC)

var tokenEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// Errors of tokens. ErrBadToken is every refusal that must not say why
// (a forgery, a wrong game or seat, a wrong user); ErrTokenRevoked is a
// genuine token whose epoch /link reset has passed.
var (
	ErrBadToken     = errors.New("mail: reply token not valid")
	ErrTokenRevoked = errors.New("mail: reply token revoked by a link reset")
	ErrShortSecret  = errors.New("mail: secret shorter than MinSecret bytes")
)

// ReplyToken is what a reply token names.
type ReplyToken struct {
	GameID uint64
	Seat   int
	UserID string // signed, not carried: the verifier's lookup gives it
	Epoch  uint32
}

// Tokens makes and checks reply tokens with one secret (the web's).
type Tokens struct {
	secret []byte
}

// NewTokens returns a Tokens keyed by secret (at least MinSecret bytes).
func NewTokens(secret []byte) (*Tokens, error) {
	if len(secret) < MinSecret {
		return nil, ErrShortSecret
	}
	return &Tokens{secret: append([]byte(nil), secret...)}, nil
}

// mac is HMAC-SHA256(secret, kind+":"+fields+userID), first tokenMAC bytes.
func (t *Tokens) mac(fields []byte, userID string) []byte {
	h := hmac.New(sha256.New, t.secret)
	h.Write([]byte(tokenKind))
	h.Write([]byte{':'})
	h.Write(fields)
	h.Write([]byte(userID))
	return h.Sum(nil)[:tokenMAC]
}

// Make returns the token for tok. The token is a secret of its owner's:
// never log it.
func (t *Tokens) Make(tok ReplyToken) (string, error) {
	if tok.Seat < 0 || tok.Seat > 255 || tok.UserID == "" {
		return "", ErrBadToken
	}
	b := make([]byte, tokenFields, tokenFields+tokenMAC)
	b[0] = replyTokenVersion
	binary.BigEndian.PutUint64(b[1:9], tok.GameID)
	b[9] = byte(tok.Seat)
	binary.BigEndian.PutUint32(b[10:14], tok.Epoch)
	b = append(b, t.mac(b, tok.UserID)...)
	return tokenEncoding.EncodeToString(b), nil
}

// Seat is who sits at a seat now, for Verify: the user's id and current
// link epoch. The caller reads it from the store.
type Seat struct {
	UserID string
	Epoch  uint32
}

// Lookup gives the seat's sitter of a game; an error for no such game or
// seat (Verify then answers ErrBadToken, or the error itself when it is
// temporary, so that a store outage is retried rather than refused).
type Lookup func(gameID uint64, seat int) (Seat, error)

// Verify checks a token: its form, then the MAC (in constant time) over
// the fields and the user now in the named seat, then the epoch. It
// returns what the token names. Every refusal but a revoked epoch is
// ErrBadToken, alike.
func (t *Tokens) Verify(token string, lookup Lookup) (ReplyToken, error) {
	b, ok := decodeToken(token)
	if !ok {
		return ReplyToken{}, ErrBadToken
	}
	fields, sum := b[:tokenFields], b[tokenFields:]
	tok := ReplyToken{
		GameID: binary.BigEndian.Uint64(fields[1:9]),
		Seat:   int(fields[9]),
		Epoch:  binary.BigEndian.Uint32(fields[10:14]),
	}
	who, err := lookup(tok.GameID, tok.Seat)
	if err != nil {
		if IsTemporary(err) {
			return ReplyToken{}, err
		}
		return ReplyToken{}, ErrBadToken
	}
	if !hmac.Equal(sum, t.mac(fields, who.UserID)) {
		return ReplyToken{}, ErrBadToken
	}
	tok.UserID = who.UserID
	if who.Epoch != tok.Epoch {
		return ReplyToken{}, ErrTokenRevoked
	}
	return tok, nil
}

// decodeToken reads a token's bytes: exactly TokenLen characters of the
// alphabet (either case), the known version. It does no crypto.
func decodeToken(token string) ([]byte, bool) {
	if len(token) != TokenLen {
		return nil, false
	}
	for i := 0; i < len(token); i++ {
		c := token[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '2' <= c && c <= '7') {
			return nil, false
		}
	}
	b, err := tokenEncoding.DecodeString(strings.ToLower(token))
	if err != nil || len(b) != tokenFields+tokenMAC || b[0] != replyTokenVersion {
		return nil, false
	}
	return b, true
}

// ReplyAddress is prefix+"+"+token+"@"+domain, e.g. play+<token>@host.
func ReplyAddress(prefix, token, domain string) string {
	return prefix + "+" + token + "@" + domain
}

// SplitReplyAddress returns the token of a reply address of the form
// prefix+<token>@domain (prefix and domain compared without case), or
// false. It checks the token's form only, not its MAC.
func SplitReplyAddress(addr, prefix, domain string) (string, bool) {
	at := strings.LastIndexByte(addr, '@')
	if at < 0 || !strings.EqualFold(addr[at+1:], domain) {
		return "", false
	}
	local := addr[:at]
	if len(local) != len(prefix)+1+TokenLen || !strings.EqualFold(local[:len(prefix)], prefix) || local[len(prefix)] != '+' {
		return "", false
	}
	token := local[len(prefix)+1:]
	if _, ok := decodeToken(token); !ok {
		return "", false
	}
	return token, true
}
