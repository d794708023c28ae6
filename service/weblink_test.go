package service_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"tessera"
	"tessera/service"
	"tessera/storage"
)

// webKey is a test key of the minimum length.
var webKey = bytes.Repeat([]byte("k"), service.MinWebSecret)

// newWebHarness is a harness whose pages are on at https://t.example.
func newWebHarness(t testing.TB) *harness {
	return newHarnessWith(t, func(c *service.Config) {
		c.Web = service.WebConfig{URL: "https://t.example", Secret: webKey, LinkTTL: 48 * time.Hour}
	})
}

func TestGameAddressRoundTrip(t *testing.T) {
	h := newWebHarness(t)
	id := h.start()
	ctx := context.Background()
	addr := h.svc.GameAddress(id)
	if !strings.HasPrefix(addr, "1-") || len(addr) != 2+22 {
		t.Fatalf("address %q: want the id, a dash and 22 characters of MAC", addr)
	}
	g, err := h.svc.GameAt(ctx, addr)
	if err != nil || g.ID != id {
		t.Fatalf("GameAt(%q) = %v, %v", addr, g, err)
	}
	if u := h.svc.GameURL(ctx, g); u != "https://t.example/g/"+addr {
		t.Fatalf("GameURL %q", u)
	}
	gaddr := h.svc.GuildAddress("g")
	if gid, err := h.svc.GuildAt(gaddr); err != nil || gid != "g" {
		t.Fatalf("GuildAt(%q) = %q, %v", gaddr, gid, err)
	}
}

// TestGameAtRefuses: every address the service did not make, or that
// names no game, is the same ENOTFOUND, which says nothing of what was
// wrong.
func TestGameAtRefuses(t *testing.T) {
	h := newWebHarness(t)
	id := h.start()
	good := h.svc.GameAddress(id)
	other := newHarnessWith(t, func(c *service.Config) {
		c.Web = service.WebConfig{URL: "https://t.example", Secret: bytes.Repeat([]byte("x"), 32)}
	})
	for _, tc := range []struct{ name, addr string }{
		{"empty", ""},
		{"id alone", "1"},
		{"no dash", strings.Replace(good, "-", "_", 1)},
		{"another id with this MAC (the MAC binds the id)", "2" + good[1:]},
		{"leading zero (only the service's spelling verifies)", "0" + good},
		{"a game that does not exist, properly signed", h.svc.GameAddress(99)},
		{"another key's address", other.svc.GameAddress(id)},
		{"MAC cut short", good[:len(good)-1]},
		{"MAC one character longer", good + "A"},
		{"padding", good + "=="},
		{"a guild's address is not a game's", h.svc.GuildAddress("1")},
		{"very long", strings.Repeat("1", 5000) + good[1:]},
	} {
		if _, err := h.svc.GameAt(context.Background(), tc.addr); tessera.ErrorCode(err) != tessera.ENOTFOUND {
			t.Errorf("%s: GameAt(%q) err %v, want ENOTFOUND", tc.name, tc.addr, err)
		}
	}
}

// TestWebOff: without a URL (or a key) there are no addresses to follow
// and no links to give.
func TestWebOff(t *testing.T) {
	h := newHarness(t)
	id := h.start()
	ctx := context.Background()
	g, _ := h.svc.Store().Game(ctx, id)
	if h.svc.WebOn() || h.svc.GameURL(ctx, g) != "" {
		t.Fatal("pages on without a URL")
	}
	if _, err := h.svc.GameAt(ctx, h.svc.GameAddress(id)); tessera.ErrorCode(err) != tessera.ENOTFOUND {
		t.Fatalf("GameAt with pages off: %v", err)
	}
	if u, err := h.svc.PlayerURL(ctx, g, ana.ID); u != "" || err != nil {
		t.Fatalf("PlayerURL with pages off: %q, %v", u, err)
	}
}

func TestPlayerToken(t *testing.T) {
	ctx := context.Background()
	h := newWebHarness(t)
	id := h.start()
	g, _ := h.svc.Store().Game(ctx, id)
	h.ok(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "elemental", Opponents: []service.User{bo}, Options: "borders=RBGY"}))
	h.ok(h.svc.Click(h.req(bo), "accept:2"))
	g2, _ := h.svc.Store().Game(ctx, 2)
	other := newHarnessWith(t, func(c *service.Config) {
		c.Web = service.WebConfig{URL: "https://t.example", Secret: bytes.Repeat([]byte("x"), 32)}
	})
	other.start()
	og, _ := other.svc.Store().Game(ctx, 1)

	anaTok, err := h.svc.PlayerToken(ctx, g, ana.ID)
	if err != nil {
		t.Fatal(err)
	}
	boTok, _ := h.svc.PlayerToken(ctx, g, bo.ID)
	if user, seat, err := h.svc.CheckPlayerToken(ctx, g, anaTok); err != nil || user != ana.ID || seat != g.Seat(ana.ID) {
		t.Fatalf("fresh token: %q %d %v", user, seat, err)
	}
	if user, seat, err := h.svc.CheckPlayerToken(ctx, g, boTok); err != nil || user != bo.ID || seat != g.Seat(bo.ID) {
		t.Fatalf("Bo's token: %q %d %v", user, seat, err)
	}
	u, err := h.svc.PlayerURL(ctx, g, ana.ID)
	if err != nil || u != h.svc.GameURL(ctx, g)+"?t="+anaTok {
		t.Fatalf("PlayerURL %q, %v", u, err)
	}
	if _, err := h.svc.PlayerToken(ctx, g, cy.ID); tessera.ErrorCode(err) != tessera.EFORBIDDEN {
		t.Fatalf("a token for a spectator: %v", err)
	}

	// otherSeat is Ana's token with the seat byte changed (and the MAC
	// left as it was): the MAC covers the seat.
	raw, _ := base64.RawURLEncoding.DecodeString(anaTok)
	raw[9] ^= 1
	otherSeat := base64.RawURLEncoding.EncodeToString(raw)

	for _, tc := range []struct {
		name  string
		game  *tessera.Game
		token string
		svc   *service.Service
		want  string
	}{
		// The token is bound to its game: another game of the same
		// players does not take it.
		{"other game", g2, anaTok, h.svc, "not valid"},
		{"other seat", g, otherSeat, h.svc, "not valid"},
		// A key's tokens mean nothing to a service with another key.
		{"wrong key", og, anaTok, other.svc, "not valid"},
		{"empty", g, "", h.svc, "not valid"},
		{"garbage", g, "!!!", h.svc, "not valid"},
		{"cut short", g, anaTok[:len(anaTok)-2], h.svc, "not valid"},
	} {
		if _, _, err := tc.svc.CheckPlayerToken(ctx, tc.game, tc.token); tessera.ErrorCode(err) != tessera.EFORBIDDEN || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want EFORBIDDEN %q", tc.name, err, tc.want)
		}
	}

	// Expired: the link lives LinkTTL (48 h here) on the service's clock.
	h.now = h.now.Add(48*time.Hour - time.Second)
	if _, _, err := h.svc.CheckPlayerToken(ctx, g, anaTok); err != nil {
		t.Fatalf("a second before expiry: %v", err)
	}
	h.now = h.now.Add(time.Second)
	if _, _, err := h.svc.CheckPlayerToken(ctx, g, anaTok); err == nil || !strings.Contains(err.Error(), "expired") {
		t.Fatalf("at expiry: %v", err)
	}
	h.now = h.now.Add(-48 * time.Hour)

	// After reset: bumping Ana's epoch revokes her links, not Bo's.
	if _, err := h.svc.Store().UpdateUser(ctx, ana.ID, func(u *tessera.UserSettings, _ storage.Tx) error { u.LinkEpoch++; return nil }); err != nil {
		t.Fatal(err)
	}
	if _, _, err := h.svc.CheckPlayerToken(ctx, g, anaTok); err == nil || !strings.Contains(err.Error(), "revoked") {
		t.Fatalf("after reset: %v", err)
	}
	if _, _, err := h.svc.CheckPlayerToken(ctx, g, boTok); err != nil {
		t.Fatalf("Bo's token after Ana's reset: %v", err)
	}
	fresh, _ := h.svc.PlayerToken(ctx, g, ana.ID)
	if _, _, err := h.svc.CheckPlayerToken(ctx, g, fresh); err != nil {
		t.Fatalf("a new token after reset: %v", err)
	}
}

// FuzzGameAt: the only address that finds a game is the one the service
// made for it; anything else, a flipped character included, is
// ENOTFOUND, and nothing panics.
func FuzzGameAt(f *testing.F) {
	h := newWebHarness(f)
	id := h.start()
	good := h.svc.GameAddress(id)
	f.Add(good)
	f.Add("1-" + strings.Repeat("A", 22))
	f.Add(h.svc.GuildAddress("g"))
	for i := range good {
		f.Add(good[:i] + string(good[i]^1) + good[i+1:])
	}
	f.Fuzz(func(t *testing.T, addr string) {
		g, err := h.svc.GameAt(context.Background(), addr)
		if err == nil && (addr != good || g.ID != id) {
			t.Fatalf("GameAt(%q) found game %d; only %q should", addr, g.ID, good)
		}
		if err != nil && tessera.ErrorCode(err) != tessera.ENOTFOUND {
			t.Fatalf("GameAt(%q): %v, want ENOTFOUND", addr, err)
		}
	})
}

// FuzzCheckPlayerToken: a token verifies only when it is one the service
// made for that game and user (the clock stands still, so each player has
// one); any byte of a good token flipped, in its text or in what the text
// encodes, never verifies.
func FuzzCheckPlayerToken(f *testing.F) {
	ctx := context.Background()
	h := newWebHarness(f)
	id := h.start()
	g, err := h.svc.Store().Game(ctx, id)
	if err != nil {
		f.Fatal(err)
	}
	made := map[string]string{}
	for _, u := range []service.User{ana, bo} {
		tok, err := h.svc.PlayerToken(ctx, g, u.ID)
		if err != nil {
			f.Fatal(err)
		}
		made[tok] = u.ID
		f.Add(tok, 0, byte(0))
		f.Add(tok, 9, byte(1))
		f.Add(tok, len(tok)-1, byte(0x20))
	}
	f.Add("", 0, byte(1))
	f.Fuzz(func(t *testing.T, token string, at int, flip byte) {
		check := func(tok string) {
			user, seat, err := h.svc.CheckPlayerToken(ctx, g, tok)
			if err == nil && (made[tok] != user || g.Seat(user) != seat) {
				t.Fatalf("token %q verified as %q seat %d; the service never made it", tok, user, seat)
			}
			if err != nil && tessera.ErrorCode(err) != tessera.EFORBIDDEN {
				t.Fatalf("token %q: %v, want EFORBIDDEN", tok, err)
			}
		}
		check(token)
		if flip == 0 || len(token) == 0 {
			return
		}
		at = (at%len(token) + len(token)) % len(token)
		b := []byte(token)
		b[at] ^= flip
		check(string(b))
		if made[token] != "" {
			if _, _, err := h.svc.CheckPlayerToken(ctx, g, string(b)); err == nil {
				t.Fatalf("a good token with character %d flipped verified", at)
			}
			raw, _ := base64.RawURLEncoding.DecodeString(token)
			raw[at%len(raw)] ^= flip
			if _, _, err := h.svc.CheckPlayerToken(ctx, g, base64.RawURLEncoding.EncodeToString(raw)); err == nil {
				t.Fatalf("a good token with byte %d flipped verified", at%len(raw))
			}
		}
	})
}
