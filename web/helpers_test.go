package web

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"tessera"
	"tessera/engine"
	_ "tessera/engine/games"
	"tessera/render"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/boltdb"
	"tessera/svg"
)

var (
	ana = service.User{ID: "1", Name: "Ana"}
	bo  = service.User{ID: "2", Name: "Bo"}
)

// site is a web server on a fresh store with one service.
type site struct {
	t     testing.TB
	svc   *service.Service
	store storage.Store // the service's
	web   *Server
	srv   *httptest.Server
	n     int

	mu  sync.Mutex
	now time.Time
}

func newSite(t testing.TB) *site {
	t.Helper()
	st, err := boltdb.Open(filepath.Join(t.TempDir(), "t.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	s := &site{t: t, store: st, now: time.Unix(1700000000, 0).UTC()}
	s.svc = service.New(st, service.Config{Renderer: render.Renderer{}, Seed: func() uint64 { return 0x5eed5eed5eed5eed }, Now: s.clock,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Web:    service.WebConfig{URL: "http://tessera.test", Secret: []byte(strings.Repeat("k", service.MinWebSecret))}})
	s.web, err = New(Config{Service: s.svc, Store: st, SVG: svg.New(), Poll: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	s.srv = httptest.NewServer(s.web.Handler())
	t.Cleanup(func() { s.srv.Close(); s.web.Close() })
	return s
}

func (s *site) clock() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.now
}

func (s *site) req(u service.User) service.Request {
	s.n++
	return service.Request{User: u, GuildID: "g", ChannelID: "c", InteractionID: fmt.Sprint("i", s.n)}
}

// start begins a 2-player game of kind (options as /new takes them)
// between Ana and Bo and returns it.
func (s *site) start(kind, options string) *tessera.Game {
	s.t.Helper()
	if _, err := s.svc.NewGame(s.req(ana), service.NewGameRequest{Game: kind, Opponents: []service.User{bo}, Options: options}); err != nil {
		s.t.Fatal(err)
	}
	var id uint64
	s.svc.Store().All(context.Background(), func(g *tessera.Game) error { id = max(id, g.ID); return nil })
	if _, err := s.svc.Accept(s.req(bo), id); err != nil {
		s.t.Fatal(err)
	}
	return s.game(id)
}

func (s *site) game(id uint64) *tessera.Game {
	s.t.Helper()
	g, err := s.svc.Store().Game(context.Background(), id)
	if err != nil {
		s.t.Fatal(err)
	}
	return g
}

// addr is a game's page path.
func (s *site) addr(id uint64) string { return "/g/" + s.svc.GameAddress(id) }

// get fetches a path with the client c (nil: a fresh one, no cookies).
func (s *site) get(c *http.Client, path string) (*http.Response, string) {
	s.t.Helper()
	if c == nil {
		c = s.client()
	}
	res, err := c.Get(s.srv.URL + path)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		s.t.Fatal(err)
	}
	return res, string(body)
}

// client is a browser that keeps cookies and does not follow redirects.
func (s *site) client() *http.Client {
	jar := newJar()
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func newJar() http.CookieJar {
	j, _ := cookiejar.New(nil)
	return j
}

func itoa(v uint64) string { return strconv.FormatUint(v, 10) }

// turn is game g's position, its player to move and the other player
// (Ana and Bo's two-seat games).
func (s *site) turn(g *tessera.Game) (st engine.State, mover, other service.User) {
	s.t.Helper()
	st, err := service.Replay(g)
	if err != nil {
		s.t.Fatal(err)
	}
	if st.ToMove() == 1 {
		return st, bo, ana
	}
	return st, ana, bo
}
