package service_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"tessera"
	"tessera/render"
	"tessera/service"
	"tessera/storage"
)

// tickBetween is a store whose first RemindersDue runs the other
// process's whole Tick between reading the index and returning: once the
// index has given the games due, the other tick reminds them, as two
// processes' clock loops on one database interleave.
type tickBetween struct {
	storage.Store
	once  *sync.Once
	other func()
}

func (s tickBetween) RemindersDue(ctx context.Context, now time.Time, max int) ([]uint64, error) {
	due, err := s.Store.RemindersDue(ctx, now, max)
	s.once.Do(s.other)
	return due, err
}

// TestReminderOnceWhenTwoProcessesTick: two processes ticking at the same
// moment write one reminder, not two. Both read from the index a game not reminded
// for a day; the reminder must be decided inside the transaction that
// stamps it, or each process writes its own (what PostgreSQL with several
// processes did).
func TestReminderOnceWhenTwoProcessesTick(t *testing.T) {
	eachAdapter(t, func(t *testing.T, a adapter) {
		now := time.Unix(1700000000, 0).UTC()
		clock := func() time.Time { return now }
		sts := a.Open(t, 2)
		cfg := service.Config{Renderer: render.Renderer{}, Seed: func() uint64 { return 7 }, Now: clock}
		second := service.New(sts[1], cfg)
		var once sync.Once
		first := service.New(tickBetween{sts[0], &once, func() {
			if _, err := second.Tick(t.Context()); err != nil {
				t.Errorf("the second process's tick: %v", err)
			}
		}}, cfg)
		req := service.Request{User: ana, GuildID: "g", ChannelID: "c", InteractionID: "new"}
		if _, err := first.NewGame(req, service.NewGameRequest{Game: "closure", Opponents: []service.User{bo}, Options: "", Clock: "3d"}); err != nil {
			t.Fatal(err)
		}
		if _, err := first.Click(service.Request{User: bo, GuildID: "g", ChannelID: "c", InteractionID: "accept"}, "accept:1"); err != nil {
			t.Fatal(err)
		}
		now = now.Add(25 * time.Hour) // past RemindAfter (a day), within the clock
		if _, err := first.Tick(t.Context()); err != nil {
			t.Fatal(err)
		}
		pending, err := sts[0].Pending(t.Context(), now.Add(time.Hour), 100)
		if err != nil {
			t.Fatal(err)
		}
		reminders := 0
		for _, p := range pending {
			if p.Kind == tessera.AnnounceReminder {
				reminders++
			}
		}
		if reminders != 1 {
			t.Fatalf("%d reminders written by two processes ticking at once, want 1", reminders)
		}
	})
}
