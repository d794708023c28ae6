package mail_test

import (
	"errors"
	"strings"
	"testing"

	"tessera/mail"
)

var testSecret = []byte("0123456789abcdef0123456789abcdef")

func testTokens(t testing.TB) *mail.Tokens {
	t.Helper()
	tk, err := mail.NewTokens(testSecret)
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

// seats is a Lookup over a fixed table: game 7 has alice (epoch 3) in
// seat 0 and bob (epoch 0) in seat 1.
func seats(gameID uint64, seat int) (mail.Seat, error) {
	if gameID != 7 {
		return mail.Seat{}, errors.New("no such game")
	}
	switch seat {
	case 0:
		return mail.Seat{UserID: "alice", Epoch: 3}, nil
	case 1:
		return mail.Seat{UserID: "bob"}, nil
	}
	return mail.Seat{}, errors.New("no such seat")
}

func TestReplyToken(t *testing.T) {
	tk := testTokens(t)
	good, err := tk.Make(mail.ReplyToken{GameID: 7, Seat: 0, UserID: "alice", Epoch: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(good) != mail.TokenLen || len("play+"+good) > 64 {
		t.Fatalf("token %q: %d characters; a local part holds 64", good, len(good))
	}
	other, _ := mail.NewTokens([]byte("another secret, 32 bytes or more!"))
	forgedKey, _ := other.Make(mail.ReplyToken{GameID: 7, Seat: 0, UserID: "alice", Epoch: 3})
	oldEpoch, _ := tk.Make(mail.ReplyToken{GameID: 7, Seat: 0, UserID: "alice", Epoch: 2})
	// Signed for bob but naming seat 0: the MAC covers who sits there.
	otherUser, _ := tk.Make(mail.ReplyToken{GameID: 7, Seat: 0, UserID: "bob", Epoch: 3})
	noGame, _ := tk.Make(mail.ReplyToken{GameID: 8, Seat: 0, UserID: "alice", Epoch: 3})
	flipped := []byte(good)
	flipped[20] ^= 1 // 'a'<->'b' etc.: still base32, the MAC must catch it
	if flipped[20] < 'a' || flipped[20] > 'z' {
		flipped[20] = 'q'
	}
	tests := []struct {
		name  string
		token string
		want  error
	}{
		{"the token as made", good, nil},
		{"upper-cased by a mail system: base32 reads either case", strings.ToUpper(good), nil},
		{"signed with another key", forgedKey, mail.ErrBadToken},
		{"one character changed", string(flipped), mail.ErrBadToken},
		{"an epoch before /link reset", oldEpoch, mail.ErrTokenRevoked},
		{"signed for another user than the seat's", otherUser, mail.ErrBadToken},
		{"a game that does not exist", noGame, mail.ErrBadToken},
		{"too short", good[:len(good)-1], mail.ErrBadToken},
		{"empty", "", mail.ErrBadToken},
		{"outside the alphabet", strings.Repeat("1", mail.TokenLen), mail.ErrBadToken},
		{"padding", good[:len(good)-1] + "=", mail.ErrBadToken},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tk.Verify(tt.token, seats)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Verify: %v, want %v", err, tt.want)
			}
			if err == nil && (got.GameID != 7 || got.Seat != 0 || got.UserID != "alice" || got.Epoch != 3) {
				t.Fatalf("Verify = %+v", got)
			}
		})
	}
}

// A store outage during the lookup is retried, not read as a forgery.
func TestReplyTokenLookupTemporary(t *testing.T) {
	tk := testTokens(t)
	good, _ := tk.Make(mail.ReplyToken{GameID: 7, Seat: 0, UserID: "alice", Epoch: 3})
	_, err := tk.Verify(good, func(uint64, int) (mail.Seat, error) { return mail.Seat{}, mail.Temporary(errors.New("store down")) })
	if !mail.IsTemporary(err) {
		t.Fatalf("Verify: %v, want a temporary error", err)
	}
}

func TestShortSecret(t *testing.T) {
	if _, err := mail.NewTokens(make([]byte, mail.MinSecret-1)); !errors.Is(err, mail.ErrShortSecret) {
		t.Fatalf("NewTokens: %v", err)
	}
}

func TestSplitReplyAddress(t *testing.T) {
	tk := testTokens(t)
	good, _ := tk.Make(mail.ReplyToken{GameID: 7, Seat: 1, UserID: "bob"})
	tests := []struct {
		addr string
		ok   bool
		why  string
	}{
		{"play+" + good + "@tessera.example", true, "the reply form"},
		{"PLAY+" + strings.ToUpper(good) + "@Tessera.Example", true, "case changed on the way"},
		{"play+" + good + "@other.example", false, "another domain"},
		{"play+" + good + "@tessera.example.evil", false, "a longer domain"},
		{"post+" + good + "@tessera.example", false, "another prefix"},
		{"play-" + good + "@tessera.example", false, "another separator"},
		{"play@tessera.example", false, "no token"},
		{"play+" + good + "x@tessera.example", false, "a longer token"},
		{"", false, "empty"},
	}
	for _, tt := range tests {
		tok, ok := mail.SplitReplyAddress(tt.addr, "play", "tessera.example")
		if ok != tt.ok || ok && !strings.EqualFold(tok, good) {
			t.Errorf("%s: SplitReplyAddress(%q) = %q, %v", tt.why, tt.addr, tok, ok)
		}
	}
}
