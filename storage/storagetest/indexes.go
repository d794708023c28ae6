package storagetest

// The indexes that keep everyday answers proportional to what they return
// (issue #44): the reminders' index (Clocks.RemindersDue) and the place
// index behind ByChannel, which holds the games active in a channel and
// each thread's own game, not every game ever played there.

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"tessera"
	"tessera/storage"
)

// remindAt sets a game's RemindAt through Modify, as the service's tick
// does.
func remindAt(t *testing.T, s storage.Store, id uint64, at time.Time) {
	t.Helper()
	if _, err := s.Modify(t.Context(), id, func(g *tessera.Game, _ storage.Tx) error { g.RemindAt = at; return nil }); err != nil {
		t.Fatal(err)
	}
}

func due(t *testing.T, s storage.Store, now time.Time, max int) string {
	t.Helper()
	ids, err := s.RemindersDue(t.Context(), now, max)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(ids)
}

func testRemindersDue(t *testing.T, open func(t *testing.T) storage.Store) {
	s := open(t)
	t0 := time.Unix(1_700_000_000, 0).UTC()
	// Four games in play: reminders at t0+3h, t0+1h, t0+1h (a tie: by
	// id) and none; a challenge and a finished game with a RemindAt are
	// not in play, so never due.
	a := NewGame()
	a.RemindAt = t0.Add(3 * time.Hour)
	create(t, s, a)
	b := NewGame()
	b.RemindAt = t0.Add(time.Hour)
	create(t, s, b)
	c := NewGame()
	c.RemindAt = t0.Add(time.Hour)
	create(t, s, c)
	none := create(t, s, NewGame())
	ch := challenge(NewGame(), "g1")
	ch.RemindAt = t0
	create(t, s, ch)
	fin := NewGame()
	fin.Status, fin.RemindAt = tessera.StatusFinished, t0
	create(t, s, fin)

	if got := due(t, s, t0, 10); got != "[]" {
		t.Fatalf("due at t0: %s, want none", got)
	}
	if got, want := due(t, s, t0.Add(time.Hour), 10), fmt.Sprint([]uint64{b.ID, c.ID}); got != want {
		t.Fatalf("due at t0+1h: %s, want %s (earliest first, then by id)", got, want)
	}
	if got, want := due(t, s, t0.Add(5*time.Hour), 10), fmt.Sprint([]uint64{b.ID, c.ID, a.ID}); got != want {
		t.Fatalf("due at t0+5h: %s, want %s", got, want)
	}
	if got, want := due(t, s, t0.Add(5*time.Hour), 2), fmt.Sprint([]uint64{b.ID, c.ID}); got != want {
		t.Fatalf("at most 2: %s, want %s", got, want)
	}
	if got := due(t, s, t0.Add(5*time.Hour), 0); got != "[]" {
		t.Fatalf("at most 0: %s", got)
	}
	// A reminder moved later leaves its old time; one cleared leaves the
	// index; one set on a game that had none enters it.
	remindAt(t, s, b.ID, t0.Add(4*time.Hour))
	remindAt(t, s, c.ID, time.Time{})
	remindAt(t, s, none, t0.Add(2*time.Hour))
	if got, want := due(t, s, t0.Add(5*time.Hour), 10), fmt.Sprint([]uint64{none, a.ID, b.ID}); got != want {
		t.Fatalf("after the changes: %s, want %s", got, want)
	}
	// A failed change leaves the index as it was.
	boom := errors.New("boom")
	if _, err := s.Modify(t.Context(), a.ID, func(g *tessera.Game, _ storage.Tx) error { g.RemindAt = t0; return boom }); !errors.Is(err, boom) {
		t.Fatal(err)
	}
	if got, want := due(t, s, t0.Add(3*time.Hour), 10), fmt.Sprint([]uint64{none, a.ID}); got != want {
		t.Fatalf("after a failed change: %s, want %s", got, want)
	}
	// The game's end takes it out in the same change, whatever its
	// RemindAt says; so does a version-checked Update.
	if _, err := s.Update(t.Context(), a.ID, 1, "", func(g *tessera.Game, _ storage.Tx) error { g.Status = tessera.StatusFinished; return nil }); err != nil {
		t.Fatal(err)
	}
	if got, want := due(t, s, t0.Add(5*time.Hour), 10), fmt.Sprint([]uint64{none, b.ID}); got != want {
		t.Fatalf("after a's end: %s, want %s", got, want)
	}
	// A time before 1970 is due at once, never lost.
	remindAt(t, s, none, time.Date(1960, 1, 1, 0, 0, 0, 0, time.UTC))
	if got, want := due(t, s, time.Unix(0, 0), 10), fmt.Sprint([]uint64{none}); got != want {
		t.Fatalf("a reminder before 1970: %s, want %s", got, want)
	}
	if errs := s.Check(t.Context()); len(errs) != 0 {
		t.Fatalf("check after the reminders' changes: %v", errs)
	}
}

func byChannel(t *testing.T, s storage.Store, place string) string {
	t.Helper()
	gs, err := s.ByChannel(t.Context(), place)
	if err != nil {
		t.Fatal(err)
	}
	return ids(gs)
}

func testPlaces(t *testing.T, open func(t *testing.T) storage.Store) {
	s := open(t)
	// In channel c1: a game in play with its thread, an open challenge,
	// a direct challenge, and a game in play without a thread of its own
	// (threads off: its thread is the channel).
	played := create(t, s, NewGame())
	if _, err := s.Modify(t.Context(), played, func(g *tessera.Game, _ storage.Tx) error { g.ThreadID = "th1"; return nil }); err != nil {
		t.Fatal(err)
	}
	open1 := create(t, s, challenge(NewGame(), "g1"))
	direct := NewGame()
	direct.Status = tessera.StatusChallenge
	create(t, s, direct)
	here := NewGame()
	here.ThreadID = "c1"
	create(t, s, here)
	other := NewGame()
	other.ChannelID = "c2"
	create(t, s, other)

	if got, want := byChannel(t, s, "c1"), fmt.Sprint([]uint64{played, open1, direct.ID, here.ID}); got != want {
		t.Fatalf("channel c1: %s, want %s (the challenges and games in play there)", got, want)
	}
	if got, want := byChannel(t, s, "th1"), fmt.Sprint([]uint64{played}); got != want {
		t.Fatalf("thread th1: %s, want %s", got, want)
	}
	// The challenges appear in their server's list too.
	if got, _ := s.OpenChallenges(t.Context(), "g1"); ids(got) != fmt.Sprint([]uint64{open1}) {
		t.Fatalf("open challenges: %s", ids(got))
	}
	// A game's end takes it out of its channel in the same change; its
	// own thread still finds it (a command typed there says it is over).
	finishAt(t, s, played, 5)
	if got, want := byChannel(t, s, "c1"), fmt.Sprint([]uint64{open1, direct.ID, here.ID}); got != want {
		t.Fatalf("channel c1 after #%d ended: %s, want %s", played, got, want)
	}
	if got, want := byChannel(t, s, "th1"), fmt.Sprint([]uint64{played}); got != want {
		t.Fatalf("the finished game's thread: %s, want %s", got, want)
	}
	// A game without a thread of its own leaves the channel at its end.
	if _, err := s.Update(t.Context(), here.ID, 1, "", func(g *tessera.Game, _ storage.Tx) error { g.Status = tessera.StatusAborted; return nil }); err != nil {
		t.Fatal(err)
	}
	// Challenges leave when declined, withdrawn or expired; an open one
	// that begins stays, in play.
	if _, err := s.Modify(t.Context(), direct.ID, func(g *tessera.Game, _ storage.Tx) error { g.Status = tessera.StatusDeclined; return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Modify(t.Context(), open1, func(g *tessera.Game, _ storage.Tx) error { g.Status = tessera.StatusPlaying; return nil }); err != nil {
		t.Fatal(err)
	}
	if got, want := byChannel(t, s, "c1"), fmt.Sprint([]uint64{open1}); got != want {
		t.Fatalf("channel c1 after the challenges were settled: %s, want %s", got, want)
	}
	if got, _ := s.OpenChallenges(t.Context(), "g1"); len(got) != 0 {
		t.Fatalf("a begun challenge is still open: %s", ids(got))
	}
	// A game that moves to a new thread is found there, no longer in the
	// old one.
	for _, th := range []string{"th2", "th3"} {
		if _, err := s.Modify(t.Context(), open1, func(g *tessera.Game, _ storage.Tx) error { g.ThreadID = th; return nil }); err != nil {
			t.Fatal(err)
		}
	}
	for place, want := range map[string]string{"th2": "[]", "th3": fmt.Sprint([]uint64{open1}), "c1": fmt.Sprint([]uint64{open1}), "c2": fmt.Sprint([]uint64{other.ID}), "": "[]"} {
		if got := byChannel(t, s, place); got != want {
			t.Errorf("place %q: %s, want %s", place, got, want)
		}
	}
	// A player's own games of a place.
	for _, c := range []struct{ place, player, want string }{
		{"c1", "3", fmt.Sprint([]uint64{open1})},
		{"c1", "9", "[]"},
		{"th1", "1", fmt.Sprint([]uint64{played})},
		{"th1", "3", "[]"},
		{"c2", "2", fmt.Sprint([]uint64{other.ID})},
		{"c2", "3", "[]"},
	} {
		gs, err := s.ByChannelPlayer(t.Context(), c.place, c.player)
		if err != nil || ids(gs) != c.want {
			t.Errorf("player %s in %q: %s %v, want %s", c.player, c.place, ids(gs), err, c.want)
		}
	}
	if errs := s.Check(t.Context()); len(errs) != 0 {
		t.Fatalf("check after the places' changes: %v", errs)
	}
}

// testByChannelPlayer: a player's games of a busy channel, among others'
// and among their own elsewhere and ended, oldest first.
func testByChannelPlayer(t *testing.T, open func(t *testing.T) storage.Store) {
	s := open(t)
	var want []uint64
	for i := range 30 {
		g := NewGame()
		g.ChannelID = []string{"busy", "elsewhere"}[i%5/4] // four in five in busy
		if i%3 == 0 {
			g.Players[1].ID = "p"
		}
		id := create(t, s, g)
		if i%7 == 6 {
			finishAt(t, s, id, i)
			continue
		}
		if g.ChannelID == "busy" && i%3 == 0 {
			want = append(want, id)
		}
	}
	gs, err := s.ByChannelPlayer(t.Context(), "busy", "p")
	if err != nil || ids(gs) != fmt.Sprint(want) {
		t.Fatalf("p's games in busy: %s %v, want %v", ids(gs), err, want)
	}
	all, _ := s.ByChannel(t.Context(), "busy")
	var mine []uint64
	for _, g := range all {
		if g.HasPlayer("p") {
			mine = append(mine, g.ID)
		}
	}
	if fmt.Sprint(mine) != fmt.Sprint(want) {
		t.Fatalf("ByChannel's games of p: %v, ByChannelPlayer's %v", mine, want)
	}
	if gs, _ := s.ByChannelPlayer(t.Context(), "busy", "nobody"); len(gs) != 0 {
		t.Fatalf("a player with no game: %s", ids(gs))
	}
}

func testExpiredChallenges(t *testing.T, open func(t *testing.T) storage.Store) {
	s := open(t)
	t0 := time.Unix(1_700_000_000, 5).UTC()
	at := func(g *tessera.Game, d time.Duration) *tessera.Game { g.Created = t0.Add(d); return g }
	a := create(t, s, at(challenge(NewGame(), "g1"), 2*time.Hour))
	b := create(t, s, at(challenge(NewGame(), "g2"), time.Hour))
	c := create(t, s, at(challenge(NewGame(), "g1"), time.Hour))
	direct := at(NewGame(), 0)
	direct.Status = tessera.StatusChallenge // not open: it does not expire
	create(t, s, direct)
	create(t, s, at(NewGame(), 0)) // in play
	expired := func(cutoff time.Time, max int) string {
		t.Helper()
		gs, err := s.ExpiredChallenges(t.Context(), cutoff, max)
		if err != nil {
			t.Fatal(err)
		}
		return ids(gs)
	}
	if got := expired(t0.Add(time.Hour-1), 10); got != "[]" {
		t.Fatalf("expired just before the first: %s", got)
	}
	if got, want := expired(t0.Add(time.Hour), 10), fmt.Sprint([]uint64{b, c}); got != want {
		t.Fatalf("expired at t0+1h: %s, want %s (oldest first, then by id, whatever the server)", got, want)
	}
	if got, want := expired(t0.Add(3*time.Hour), 2), fmt.Sprint([]uint64{b, c}); got != want {
		t.Fatalf("at most 2: %s, want %s", got, want)
	}
	// One that begins, one withdrawn and one that expired leave the index.
	for id, st := range map[uint64]tessera.Status{b: tessera.StatusPlaying, c: tessera.StatusWithdrawn} {
		if _, err := s.Modify(t.Context(), id, func(g *tessera.Game, _ storage.Tx) error { g.Status = st; return nil }); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := expired(t0.Add(3*time.Hour), 10), fmt.Sprint([]uint64{a}); got != want {
		t.Fatalf("after two were settled: %s, want %s", got, want)
	}
	if _, err := s.Update(t.Context(), a, 1, "", func(g *tessera.Game, _ storage.Tx) error { g.Status = tessera.StatusExpired; return nil }); err != nil {
		t.Fatal(err)
	}
	if got := expired(t0.Add(3*time.Hour), 10); got != "[]" {
		t.Fatalf("after the last expired: %s", got)
	}
	if errs := s.Check(t.Context()); len(errs) != 0 {
		t.Fatalf("check after the challenges' changes: %v", errs)
	}
}
