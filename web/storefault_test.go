package web

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"tessera"
	"tessera/render"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/boltdb"
	"tessera/svg"
)

// userFaults is a store whose users cannot be read while down is set.
type userFaults struct {
	storage.Store
	down atomic.Bool
}

func (f *userFaults) User(ctx context.Context, id string) (tessera.UserSettings, error) {
	if f.down.Load() {
		return tessera.UserSettings{}, errors.New("store: connection refused")
	}
	return f.Store.User(ctx, id)
}

// TestStoreFaultKeepsThePlayer: while the store cannot be read, a player's
// link and cookie cannot be checked. The answer is then "try again"
// (500), not "your link is not valid" (403), and the cookie is kept, not
// deleted: a passing fault must not sign the player out. Once the store
// is back, the same browser is the player again.
func TestStoreFaultKeepsThePlayer(t *testing.T) {
	bolt, err := boltdb.Open(filepath.Join(t.TempDir(), "t.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bolt.Close() })
	st := &userFaults{Store: bolt}
	s := &site{t: t, now: time.Unix(1700000000, 0).UTC()}
	s.svc = service.New(st, service.Config{Renderer: render.Renderer{}, Seed: func() uint64 { return 1 }, Now: s.clock,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Web:    service.WebConfig{URL: "http://tessera.test", Secret: []byte(strings.Repeat("k", service.MinWebSecret))}})
	s.web, err = New(Config{Service: s.svc, Store: st, SVG: svg.New(), Poll: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	s.srv = httptest.NewServer(s.web.Handler())
	t.Cleanup(func() { s.srv.Close(); s.web.Close() })

	g := s.start("elemental", "borders=RBGY")
	token, err := s.svc.PlayerToken(context.Background(), g, ana.ID)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := s.player(g.ID, ana)
	st.down.Store(true)
	for i, path := range []string{"?t=" + url.QueryEscape(token), "", "?part=position", "/preview?move=a1"} {
		res, body := s.get(c, s.addr(g.ID)+path)
		if res.StatusCode != http.StatusInternalServerError || !strings.Contains(body, "try again") || len(res.Cookies()) != 0 {
			t.Fatalf("fetch %d while the store is down: %d, cookies %v; %.200s", i, res.StatusCode, res.Cookies(), body)
		}
	}
	st.down.Store(false)
	if res, body := s.get(c, s.addr(g.ID)); res.StatusCode != 200 || !strings.Contains(body, "Your hand") {
		t.Fatalf("after the fault: %d, hand shown %v", res.StatusCode, strings.Contains(body, "Your hand"))
	}
}
