package delivery_test

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"tessera"
	_ "tessera/engine/games"
	"tessera/render"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/boltdb"
	"tessera/storage/storagetest/watch"
)

// The courier's tests drive a real service on a real store (bbolt in a
// temporary folder) and deliver to fake transports: what the commands
// enqueue is what the courier sends.

var (
	ana = service.User{ID: "1", Name: "Ana"}
	bo  = service.User{ID: "2", Name: "Bo"}
)

type harness struct {
	t     testing.TB
	svc   *service.Service
	store *watch.Store
	n     int
	now   time.Time
}

// newHarnessWith is a service on a new store, its configuration changed
// by tune, its clock fixed.
func newHarnessWith(t testing.TB, tune func(*service.Config)) *harness {
	t.Helper()
	st, err := boltdb.Open(filepath.Join(t.TempDir(), "t.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	h := &harness{t: t, now: time.Unix(1700000000, 0).UTC()}
	cfg := service.Config{Renderer: render.Renderer{},
		Seed: func() uint64 { return 7 },
		Now:  func() time.Time { return h.now },
	}
	tune(&cfg)
	h.store = watch.New(st)
	h.svc = service.New(h.store, cfg)
	return h
}

// req is a request from u in channel "c" of guild "g", a new interaction
// each time.
func (h *harness) req(u service.User) service.Request {
	h.n++
	return service.Request{User: u, GuildID: "g", ChannelID: "c", InteractionID: fmt.Sprint("i", h.n)}
}

// ok fails the test on an error and returns the reply as the fake
// transport shows it.
func (h *harness) ok(r service.Reply, err error) service.Reply {
	h.t.Helper()
	if err != nil {
		h.t.Fatalf("unexpected error: %v", err)
	}
	return service.RenderReply(r, testPresenter{})
}

// newEvent makes a tournament by Ana and returns its id.
func (h *harness) newEvent(r service.NewEventRequest) uint64 {
	h.t.Helper()
	rep := h.ok(h.svc.NewEvent(h.req(ana), r))
	if rep.Event == 0 || rep.Ephemeral {
		h.t.Fatalf("the event's post: %+v", rep)
	}
	return rep.Event
}

// event reads an event from the store.
func (h *harness) event(id uint64) *tessera.Event {
	h.t.Helper()
	e, err := h.svc.Store().Event(h.t.Context(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	return e
}

// enter joins the users to the event.
func (h *harness) enter(id uint64, us ...service.User) {
	h.t.Helper()
	for _, u := range us {
		h.ok(h.svc.Click(h.req(u), fmt.Sprintf("tjoin:%d", id)))
	}
}

// players are n users "p1".."pn" (ids 101...).
func players(n int) []service.User {
	var out []service.User
	for i := 1; i <= n; i++ {
		out = append(out, service.User{ID: fmt.Sprint(100 + i), Name: fmt.Sprintf("p%d", i)})
	}
	return out
}
