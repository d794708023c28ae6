package runner_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"tessera/delivery"
	_ "tessera/engine/games"
	"tessera/render"
	"tessera/runner"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/boltdb"
)

// sink records posts and tells a channel about each; refuse makes every
// call fail as a refused token does.
type sink struct {
	mu     sync.Mutex
	posts  []string
	posted chan string
	refuse bool
	n      int
}

func (s *sink) fail() error {
	if s.refuse {
		return delivery.DeliveryFailure(delivery.Refused, errors.New("401 Unauthorized"))
	}
	return nil
}

func (s *sink) Thread(_ context.Context, channelID, _, _ string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
	return fmt.Sprint("thread", s.n), s.fail()
}

func (s *sink) Post(_ context.Context, channelID string, m service.Message, _ string) (string, error) {
	if err := s.fail(); err != nil {
		return "", err
	}
	s.mu.Lock()
	s.n++
	id := fmt.Sprint("m", s.n)
	s.posts = append(s.posts, m.Text)
	s.mu.Unlock()
	s.posted <- m.Text
	return id, nil
}

func (s *sink) Edit(context.Context, string, string, service.Message) error { return s.fail() }
func (s *sink) DM(context.Context, string, service.Message, string) error   { return s.fail() }
func (s *sink) React(context.Context, string, string, string) error         { return s.fail() }

var (
	ana = service.User{ID: "1", Name: "Ana"}
	bo  = service.User{ID: "2", Name: "Bo"}
)

func newService(t *testing.T) *service.Service {
	t.Helper()
	st, err := boltdb.Open(filepath.Join(t.TempDir(), "t.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	now := time.Unix(1700000000, 0).UTC()
	return service.New(st, service.Config{Renderer: render.Renderer{}, Seed: func() uint64 { return 7 }, Now: func() time.Time { return now }})
}

// startGame challenges Bo for Ana and has Bo accept: the game's start is
// in the outbox, and the service has woken the courier.
func startGame(t *testing.T, svc *service.Service) {
	t.Helper()
	r, err := svc.NewGame(service.Request{User: ana, GuildID: "g", ChannelID: "c", InteractionID: "i1"}, service.NewGameRequest{Game: "elemental", Opponents: []service.User{bo}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Click(service.Request{User: bo, GuildID: "g", ChannelID: "c", InteractionID: "i2"}, service.ButtonID("accept", r.Challenge)); err != nil {
		t.Fatal(err)
	}
}

// TestCourierDeliversWhenWoken: a move's announcements go out as soon as
// the service signals them, not at the next retry (an hour away here).
func TestCourierDeliversWhenWoken(t *testing.T) {
	svc := newService(t)
	s := &sink{posted: make(chan string, 100)}
	r := runner.Start(runner.Config{Service: svc, Courier: delivery.New(svc, svc.Store()), Sink: s, RetryEvery: time.Hour, TickEvery: time.Hour, NoWorkers: true})
	defer r.Close()
	startGame(t, svc)
	if text := <-s.posted; text == "" {
		t.Fatal("an empty post")
	}
}

// TestCloseStops: Close returns with the loops stopped, so nothing is
// delivered after it; a second Close is harmless.
func TestCloseStops(t *testing.T) {
	svc := newService(t)
	s := &sink{posted: make(chan string, 100)}
	r := runner.Start(runner.Config{Service: svc, Courier: delivery.New(svc, svc.Store()), Sink: s, RetryEvery: time.Hour, TickEvery: time.Hour})
	r.Close()
	startGame(t, svc)
	r.Close()
	if len(s.posted) != 0 {
		t.Fatalf("%d posts after Close", len(s.posted))
	}
	// The outbox keeps them for the next runner.
	r = runner.Start(runner.Config{Service: svc, Courier: delivery.New(svc, svc.Store()), Sink: s, RetryEvery: time.Hour, TickEvery: time.Hour, NoWorkers: true})
	defer r.Close()
	<-s.posted
}

// TestRefusedTokenStopsTheCourier: a transport that refuses our token
// stops the courier and says so once; everything stays in the outbox.
func TestRefusedTokenStopsTheCourier(t *testing.T) {
	svc := newService(t)
	startGame(t, svc)
	refused := make(chan error, 10)
	s := &sink{posted: make(chan string, 100), refuse: true}
	r := runner.Start(runner.Config{Service: svc, Courier: delivery.New(svc, svc.Store()), Sink: s, RetryEvery: time.Hour, TickEvery: time.Hour, NoWorkers: true,
		Refused: func(err error) { refused <- err }})
	err := <-refused
	r.Close() // returns: the courier has stopped
	if !errors.Is(err, delivery.ErrTokenRefused) || len(refused) != 0 {
		t.Fatalf("refused with %v, and %d more", err, len(refused))
	}
	n, err := svc.Store().Pending(context.Background(), time.Now().Add(time.Hour), 100)
	if err != nil || len(n) == 0 {
		t.Fatalf("the outbox after a refusal: %d, %v", len(n), err)
	}
}

// TestCourierWaitsForReady: the courier delivers nothing before its
// transport is connected (Ready, the bot's Opened), and what waited then
// goes out without another wake.
func TestCourierWaitsForReady(t *testing.T) {
	svc := newService(t)
	s := &sink{posted: make(chan string, 100)}
	ready := make(chan struct{})
	r := runner.Start(runner.Config{Service: svc, Courier: delivery.New(svc, svc.Store()), Sink: s, Ready: ready, RetryEvery: time.Hour, TickEvery: time.Hour, NoWorkers: true})
	defer r.Close()
	startGame(t, svc)
	s.mu.Lock()
	early := len(s.posts)
	s.mu.Unlock()
	if early != 0 {
		t.Fatalf("%d posts before the transport was ready", early)
	}
	close(ready)
	if text := <-s.posted; text == "" {
		t.Fatal("an empty post")
	}
}

// TestCloseBeforeReady: a runner whose transport never connected closes
// at once.
func TestCloseBeforeReady(t *testing.T) {
	svc := newService(t)
	r := runner.Start(runner.Config{Service: svc, Courier: delivery.New(svc, svc.Store()), Sink: &sink{posted: make(chan string, 1)}, Ready: make(chan struct{}), NoWorkers: true})
	r.Close()
}
