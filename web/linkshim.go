package web

// TEMPORARY: until service/weblink.go (ops) lands, the server signs
// addresses and tokens here, to the contract's shapes, with a key drawn
// at start. links() prefers the service's own methods as soon as they
// exist; this file goes once main has them.

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"tessera"
	"tessera/storage"
)

// links is the service's part that makes and checks the pages' addresses
// and the players' tokens (service/weblink.go).
type links interface {
	GameAddress(id uint64) string
	GameAt(ctx context.Context, address string) (*tessera.Game, error)
	PlayerToken(ctx context.Context, g *tessera.Game, userID string) (string, error)
	CheckPlayerToken(ctx context.Context, g *tessera.Game, token string) (userID string, seat int, err error)
}

func (s *Server) links() links {
	if l, ok := any(s.svc).(links); ok {
		return l
	}
	return s.shim
}

type shimLinks struct {
	key   []byte
	store storage.Store
	now   func() time.Time
}

func newShimLinks(store storage.Store, now func() time.Time) *shimLinks {
	key := make([]byte, 32)
	rand.Read(key)
	return &shimLinks{key: key, store: store, now: now}
}

func (l *shimLinks) mac(msg string, n int) string {
	h := hmac.New(sha256.New, l.key)
	h.Write([]byte(msg))
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil)[:n])
}

func (l *shimLinks) GameAddress(id uint64) string {
	return fmt.Sprintf("%d-%s", id, l.mac(fmt.Sprint("game:", id), 16))
}

func (l *shimLinks) GameAt(ctx context.Context, address string) (*tessera.Game, error) {
	notFound := tessera.Errorf(tessera.ENOTFOUND, "There is no game at this address.")
	ids, _, ok := strings.Cut(address, "-")
	id, err := strconv.ParseUint(ids, 10, 64)
	if !ok || err != nil || !hmac.Equal([]byte(address), []byte(l.GameAddress(id))) {
		return nil, notFound
	}
	g, err := l.store.Game(ctx, id)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, notFound
	}
	return g, err
}

func (l *shimLinks) PlayerToken(ctx context.Context, g *tessera.Game, userID string) (string, error) {
	seat := g.Seat(userID)
	if seat < 0 {
		return "", tessera.Errorf(tessera.EFORBIDDEN, "You are not playing in game #%d.", g.ID)
	}
	body := fmt.Sprintf("%d.%s.%d.%d", g.ID, userID, seat, l.now().Add(30*24*time.Hour).Unix())
	return base64.RawURLEncoding.EncodeToString([]byte(body)) + "." + l.mac("token:"+body, 16), nil
}

func (l *shimLinks) CheckPlayerToken(ctx context.Context, g *tessera.Game, token string) (string, int, error) {
	bad := tessera.Errorf(tessera.EFORBIDDEN, "This link is not valid any more; ask for a new one with /link.")
	b64, mac, ok := strings.Cut(token, ".")
	raw, err := base64.RawURLEncoding.DecodeString(b64)
	if !ok || err != nil || !hmac.Equal([]byte(mac), []byte(l.mac("token:"+string(raw), 16))) {
		return "", 0, bad
	}
	f := strings.Split(string(raw), ".")
	if len(f) != 4 {
		return "", 0, bad
	}
	id, _ := strconv.ParseUint(f[0], 10, 64)
	seat, _ := strconv.Atoi(f[2])
	exp, _ := strconv.ParseInt(f[3], 10, 64)
	if id != g.ID || g.Seat(f[1]) != seat || l.now().Unix() > exp {
		return "", 0, bad
	}
	return f[1], seat, nil
}
