package service_test

import (
	"testing"
	"time"

	"tessera"
	"tessera/render"
	"tessera/service"
	"tessera/storage"
)

// reminders counts the reminders waiting in the outbox.
func reminders(t *testing.T, st storage.Store, now time.Time) int {
	t.Helper()
	pending, err := st.Pending(t.Context(), now.Add(time.Hour), 1000)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range pending {
		if p.Kind == tessera.AnnounceReminder {
			n++
		}
	}
	return n
}

// TestRemindersThroughTheIndex: a turn's start sets when its reminder is
// due (RemindAt: the turn's start plus RemindAfter), which the store
// indexes; a tick before it reminds nobody, one after it reminds once and
// sets the next a day later. A game stored before RemindAt existed, given
// the start of its turn by the store's upgrade, is looked at by the first
// tick, which sets its real time instead of reminding early; a game
// against the AI upgraded alike leaves the index.
func TestRemindersThroughTheIndex(t *testing.T) {
	eachAdapter(t, func(t *testing.T, a adapter) {
		now := time.Unix(1700000000, 0).UTC()
		st := a.Open(t, 1)[0]
		svc := service.New(st, service.Config{Renderer: render.Renderer{}, Seed: func() uint64 { return 7 }, Now: func() time.Time { return now }})
		req := service.Request{User: ana, GuildID: "g", ChannelID: "c", InteractionID: "new"}
		if _, err := svc.NewGame(req, service.NewGameRequest{Game: "closure", Opponents: []service.User{bo}, Clock: "3d"}); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Click(service.Request{User: bo, GuildID: "g", ChannelID: "c", InteractionID: "accept"}, "accept:1"); err != nil {
			t.Fatal(err)
		}
		g, err := st.Game(t.Context(), 1)
		if err != nil || !g.RemindAt.Equal(g.TurnStart.Add(24*time.Hour)) {
			t.Fatalf("the first turn's reminder at %s, want a day after %s (%v)", g.RemindAt, g.TurnStart, err)
		}
		tick := func(at time.Time) {
			t.Helper()
			now = at
			if _, err := svc.Tick(t.Context()); err != nil {
				t.Fatal(err)
			}
		}
		start := g.TurnStart
		tick(start.Add(23 * time.Hour))
		if n := reminders(t, st, now); n != 0 {
			t.Fatalf("%d reminders before a day without a move", n)
		}
		tick(start.Add(25 * time.Hour))
		g, _ = st.Game(t.Context(), 1)
		if n := reminders(t, st, now); n != 1 || !g.RemindAt.Equal(start.Add(49*time.Hour)) {
			t.Fatalf("after a day: %d reminders, next at %s; want 1 and a day later", n, g.RemindAt)
		}
		tick(start.Add(30 * time.Hour))
		if n := reminders(t, st, now); n != 1 {
			t.Fatalf("%d reminders within a day of the first", n)
		}

		// As the upgrade leaves a game stored before: due at its turn's
		// start, its reminder not sent for a day.
		if _, err := st.Modify(t.Context(), 1, func(g *tessera.Game, _ storage.Tx) error {
			g.RemindAt, g.Reminded, g.TurnStart = start.Add(30*time.Hour), time.Time{}, start.Add(30*time.Hour)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		tick(start.Add(31 * time.Hour))
		g, _ = st.Game(t.Context(), 1)
		if n := reminders(t, st, now); n != 1 || !g.RemindAt.Equal(start.Add(54*time.Hour)) {
			t.Fatalf("an upgraded game: %d reminders, next at %s; want none more, and a day after its turn began (%s)", n, g.RemindAt, start.Add(54*time.Hour))
		}
		if due, _ := st.RemindersDue(t.Context(), now, 10); len(due) != 0 {
			t.Fatalf("still due after the tick looked: %v", due)
		}
		tick(start.Add(54 * time.Hour))
		if n := reminders(t, st, now); n != 2 {
			t.Fatalf("%d reminders when the upgraded game's came, want 2", n)
		}

		// A game against the AI whose AI is to move, upgraded alike,
		// leaves the index.
		if _, err := st.Modify(t.Context(), 1, func(g *tessera.Game, _ storage.Tx) error {
			g.Players[0].AI, g.Players[1].AI = "easy", "easy" // whoever is to move is the AI
			g.RemindAt = now
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		tick(now.Add(time.Minute))
		g, _ = st.Game(t.Context(), 1)
		if n := reminders(t, st, now); n != 2 || !g.RemindAt.IsZero() {
			t.Fatalf("the AI to move: %d reminders, remind at %s; want 2 and none", n, g.RemindAt)
		}
	})
}
