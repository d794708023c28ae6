package storagetest

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"tessera"
	"tessera/storage"
	"tessera/tournament"
)

func dumper(t *testing.T, s storage.Store) storage.Dumper {
	t.Helper()
	d, ok := s.(storage.Dumper)
	if !ok {
		t.Fatalf("%T does not implement storage.Dumper (Dump and Load): tessera migrate cannot copy to or from it", s)
	}
	return d
}

// Dump collects every record of s.
func Dump(t *testing.T, s storage.Store) []storage.Record {
	t.Helper()
	var out []storage.Record
	if err := dumper(t, s).Dump(t.Context(), func(r storage.Record) error { out = append(out, r); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

// Fill stores one of every kind of data in the empty s: games in every
// state (in play with a deadline, a thread and an AI seat to move, an open
// challenge, finished and rated with a rematch), announcements (one
// waiting for a retry, one attempted), users, ratings, handled
// interactions and events (one open with a start time, one running whose
// round made a game). The last announcement is delivered, so the
// outbox's counter is above every Seq left in it.
func Fill(t *testing.T, s storage.Store) {
	t.Helper()
	t0 := time.Unix(1_000_000, 123).UTC()
	playing := NewGame()
	playing.Deadline, playing.TurnStart = t0.Add(time.Hour), t0
	playing.Banks = []time.Duration{time.Hour, 2 * time.Hour}
	playing.RemindAt = t0.Add(time.Hour) // the store indexes whatever the service decided
	playing.Players[1] = tessera.Player{ID: "bot", Name: "Tessera", AI: "hard", Accepted: true}
	if err := s.CreateWith(t.Context(), playing, "i-create", func(g *tessera.Game, tx storage.Tx) error {
		g.AITurn = true
		g.Moves = []tessera.MoveEntry{{Seat: 0, Text: "d5 RGBY", At: t0}}
		return tx.Enqueue(t.Context(), tessera.Announcement{Kind: "post", GameID: g.ID, Moves: 1, Board: true, Ping: []string{"1"}, Text: "hello"})
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Modify(t.Context(), playing.ID, func(g *tessera.Game, tx storage.Tx) error {
		g.ThreadID, g.StatusID = "thread-1", "status-1"
		if err := tx.Enqueue(t.Context(), tessera.Announcement{Kind: "status", GameID: g.ID, Target: "status-1", Emoji: "✅"}); err != nil {
			return err
		}
		return tx.Enqueue(t.Context(), tessera.Announcement{Kind: "turn", GameID: g.ID, UserID: "1", Rematch: true})
	}); err != nil {
		t.Fatal(err)
	}
	create(t, s, challenge(NewGame(), "g2"))
	done := NewGame()
	create(t, s, done)
	finishAt(t, s, done.ID, 7)
	if err := s.CreateLinked(t.Context(), challenge(NewGame(), "g1"), "i-rematch", done.ID, func(*tessera.Game) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Update(t.Context(), done.ID, game(t, s, done.ID).Version, "i-rate", func(g *tessera.Game, tx storage.Tx) error {
		seq, err := tx.NextRatingSeq(t.Context())
		if err != nil {
			return err
		}
		g.RatingSeq = seq
		if err := tx.PutRating(t.Context(), rating("g1", "elemental", "1", 27.5)); err != nil {
			return err
		}
		return tx.PutRating(t.Context(), rating("g1", "elemental", "2", 22.5))
	}); err != nil {
		t.Fatal(err)
	}
	enqueue(t, s, done.ID, "post", "gone")
	p, err := s.Pending(t.Context(), time.Now(), 100)
	if err != nil || len(p) != 5 {
		t.Fatalf("filling: pending %d (%v)", len(p), err)
	}
	s.Retry(t.Context(), p[1].Seq, t0.Add(time.Minute))
	s.Attempting(t.Context(), t0, p[0].Seq)
	s.Delivered(t.Context(), p[4].Seq)
	if _, err := s.UpdateUser(t.Context(), "1", func(u *tessera.UserSettings, _ storage.Tx) error {
		u.TimeZone, u.VacationUntil, u.VacationUsed = "Europe/Paris", t0, map[int]int{1970: 4}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UpdateUser(t.Context(), "2", func(u *tessera.UserSettings, _ storage.Tx) error { u.NotifyOff = true; return nil }); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkHandled(t.Context(), "i-plain"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UpdateGuild(t.Context(), "g1", func(g *tessera.GuildSettings) error { g.WebOff = true; return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Secret(t.Context(), "web", func() ([]byte, error) { return []byte{0, 1, 2, 0xff}, nil }); err != nil {
		t.Fatal(err)
	}
	open := NewEvent()
	open.Starts = t0.Add(3 * time.Hour)
	if err := s.CreateEvent(t.Context(), open, "i-event"); err != nil {
		t.Fatal(err)
	}
	running := NewEvent()
	running.GuildID = "g2"
	createEvent(t, s, running)
	if _, err := s.UpdateEvent(t.Context(), running.ID, 1, "", func(e *tessera.Event, tx storage.Tx) error {
		g := NewGame()
		g.GuildID, g.Event = "g2", e.ID
		if err := tx.CreateGame(t.Context(), g, nil); err != nil {
			return err
		}
		e.Status = tessera.EventRunning
		e.Pairing.Played = []tournament.Round{{Tables: []tournament.Table{{Seats: []string{"1", "2"}}}, Byes: []string{"3", "bot"}}}
		e.Games = [][]uint64{{g.ID}}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// Canon is r.Canonical(), for comparing two databases' records.
func Canon(r storage.Record) string { return r.Canonical() }

func testDumpLoad(t *testing.T, open func(t *testing.T) storage.Store) {
	src := open(t)
	Fill(t, src)
	before := Dump(t, src)
	dst := open(t)
	if err := dumper(t, dst).Load(t.Context(), func(put func(storage.Record) error) error { return dumper(t, src).Dump(t.Context(), put) }); err != nil {
		t.Fatal(err)
	}
	after := Dump(t, dst)
	if len(after) != len(before) || len(before) == 0 {
		t.Fatalf("%d records loaded from %d", len(after), len(before))
	}
	kinds := map[string]int{}
	for i := range before {
		kinds[before[i].Kind()]++
		if i == 0 {
			b, a := before[0].Counters, after[0].Counters
			if b == nil || a == nil || a.LastGameID < b.LastGameID || a.LastSeq < b.LastSeq || a.LastRatingSeq < b.LastRatingSeq || b.LastRatingSeq == 0 || a.LastEventID < b.LastEventID || b.LastEventID == 0 {
				t.Fatalf("counters %s after loading %s (they come first)", Canon(after[0]), Canon(before[0]))
			}
			continue
		}
		if Canon(after[i]) != Canon(before[i]) {
			t.Errorf("record %d:\nloaded %s\ndumped %s", i, Canon(after[i]), Canon(before[i]))
		}
	}
	if fmt.Sprint(kinds) != "map[announcement:4 counters:1 event:2 game:5 guild:1 handled:5 rating:2 secret:1 user:2]" {
		t.Errorf("records by kind: %v", kinds)
	}
	// Every index is made again from the games.
	same := func(what string, read func(s storage.Store) (any, error)) {
		t.Helper()
		a, errA := read(src)
		b, errB := read(dst)
		if errA != nil || errB != nil || fmt.Sprint(a) != fmt.Sprint(b) {
			t.Errorf("%s: %v (%v) in the copy, %v (%v) in the original", what, b, errB, a, errA)
		}
	}
	t0 := time.Unix(1_000_000, 0)
	same("by player", func(s storage.Store) (any, error) { gs, err := s.ByPlayer(t.Context(), "1"); return ids(gs), err })
	same("by thread", func(s storage.Store) (any, error) {
		gs, err := s.ByChannel(t.Context(), "thread-1")
		return ids(gs), err
	})
	same("open challenges", func(s storage.Store) (any, error) {
		gs, err := s.OpenChallenges(t.Context(), "g1")
		return ids(gs), err
	})
	same("all open challenges", func(s storage.Store) (any, error) { gs, err := s.AllOpenChallenges(t.Context()); return len(gs), err })
	same("finished", func(s storage.Store) (any, error) {
		gs, _, err := s.Finished(t.Context(), "2", nil, 0, 5)
		return ids(gs), err
	})
	same("due", func(s storage.Store) (any, error) { return s.Due(t.Context(), t0.Add(2*time.Hour)) })
	same("next deadline", func(s storage.Store) (any, error) { d, err := s.NextDeadline(t.Context()); return d.UnixNano(), err })
	same("AI turns", func(s storage.Store) (any, error) { return s.AITurns(t.Context()) })
	same("expired challenges", func(s storage.Store) (any, error) {
		gs, err := s.ExpiredChallenges(t.Context(), t0.Add(time.Hour), 10)
		return ids(gs), err
	})
	same("reminders due", func(s storage.Store) (any, error) { return s.RemindersDue(t.Context(), t0.Add(2*time.Hour), 10) })
	same("pending", func(s storage.Store) (any, error) {
		p, err := s.Pending(t.Context(), t0.Add(time.Hour), 10)
		return kinds2(p), err
	})
	same("outbox", func(s storage.Store) (any, error) { return s.Outbox(t.Context()) })
	same("ratings", func(s storage.Store) (any, error) {
		rs, err := s.Ratings(t.Context(), "g1", "elemental")
		return sortedRatings(rs), err
	})
	same("user", func(s storage.Store) (any, error) { u, err := s.User(t.Context(), "1"); return u.TimeZone, err })
	same("handled", func(s storage.Store) (any, error) { return s.Handled(t.Context(), "i-rematch") })
	same("guild", func(s storage.Store) (any, error) { g, err := s.Guild(t.Context(), "g1"); return g.WebOff, err })
	// The secret comes along, so the pages' addresses and players' links
	// signed before the move still verify.
	same("secret", func(s storage.Store) (any, error) {
		return s.Secret(t.Context(), "web", func() ([]byte, error) { return []byte("made anew"), nil })
	})
	same("events", func(s storage.Store) (any, error) {
		es, err := s.GuildEvents(t.Context(), "g2")
		return eventIDs(es), err
	})
	same("events due", func(s storage.Store) (any, error) { return s.EventsDue(t.Context(), t0.Add(4*time.Hour)) })
	// A game keeps its version: a move read from the original applies.
	g := game(t, src, 1)
	if _, err := dst.Update(t.Context(), 1, g.Version, "", noop); err != nil {
		t.Errorf("a move on the copy at the original's version: %v", err)
	}
	if err := dst.MarkHandled(t.Context(), "i-plain"); !errors.Is(err, storage.ErrDuplicate) {
		t.Errorf("a handled interaction handled again in the copy: %v", err)
	}
	// The next game and announcement never reuse an id or a Seq, even the
	// Seq of an announcement delivered before the copy.
	n := NewGame()
	create(t, dst, n)
	if n.ID <= before[0].Counters.LastGameID {
		t.Errorf("a new game in the copy got id %d, the original had given %d", n.ID, before[0].Counters.LastGameID)
	}
	// Nor the number of a rated game's end.
	if _, err := dst.Update(t.Context(), n.ID, n.Version, "", func(g *tessera.Game, tx storage.Tx) error {
		seq, err := tx.NextRatingSeq(t.Context())
		if err == nil && seq <= before[0].Counters.LastRatingSeq {
			t.Errorf("a rated game's end in the copy got RatingSeq %d, the original had given %d", seq, before[0].Counters.LastRatingSeq)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	// Nor the next event its id, and an event keeps its version.
	ne := NewEvent()
	createEvent(t, dst, ne)
	if ne.ID <= before[0].Counters.LastEventID {
		t.Errorf("a new event in the copy got id %d, the original had given %d", ne.ID, before[0].Counters.LastEventID)
	}
	if _, err := dst.UpdateEvent(t.Context(), 1, event(t, src, 1).Version, "", func(*tessera.Event, storage.Tx) error { return nil }); err != nil {
		t.Errorf("an event's change on the copy at the original's version: %v", err)
	}
	enqueue(t, dst, n.ID, "fresh")
	p, _ := dst.Pending(t.Context(), t0.Add(time.Hour), 10)
	if len(p) == 0 || p[len(p)-1].Kind != "fresh" || p[len(p)-1].Seq <= before[0].Counters.LastSeq {
		t.Errorf("a new announcement in the copy: %+v, the original had given Seq %d", p, before[0].Counters.LastSeq)
	}
}

func kinds2(as []tessera.Announcement) string {
	var out []string
	for _, a := range as {
		out = append(out, fmt.Sprintf("%d:%d:%s:%d", a.Seq, a.GameID, a.Kind, a.Tries))
	}
	return fmt.Sprint(out)
}

func testLoadRefusesNonEmpty(t *testing.T, open func(t *testing.T) storage.Store) {
	for name, fill := range map[string]func(s storage.Store) error{
		"a game": func(s storage.Store) error { return s.Create(t.Context(), NewGame(), "") },
		"a user": func(s storage.Store) error {
			_, err := s.UpdateUser(t.Context(), "1", func(*tessera.UserSettings, storage.Tx) error { return nil })
			return err
		},
		"a handled interaction": func(s storage.Store) error { return s.MarkHandled(t.Context(), "x") },
		"an event":              func(s storage.Store) error { return s.CreateEvent(t.Context(), NewEvent(), "") },
		"a rating": func(s storage.Store) error {
			return s.ReplaceRatings(t.Context(), []tessera.Rating{rating("g", "elemental", "1", 25)})
		},
	} {
		s := open(t)
		if err := fill(s); err != nil {
			t.Fatal(err)
		}
		err := dumper(t, s).Load(t.Context(), func(put func(storage.Record) error) error {
			return put(storage.Record{Game: &tessera.Game{ID: 50, Version: 1, Status: tessera.StatusPlaying, ChannelID: "c"}})
		})
		if !errors.Is(err, storage.ErrNotEmpty) {
			t.Errorf("load into a database with %s: %v", name, err)
		}
		if _, err := s.Game(t.Context(), 50); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("a refused load into a database with %s wrote a game: %v", name, err)
		}
	}
}

func testFailedLoad(t *testing.T, open func(t *testing.T) storage.Store) {
	src := open(t)
	Fill(t, src)
	dst := open(t)
	boom := errors.New("boom")
	n := 0
	err := dumper(t, dst).Load(t.Context(), func(put func(storage.Record) error) error {
		return dumper(t, src).Dump(t.Context(), func(r storage.Record) error {
			if n++; n == 8 {
				return boom
			}
			return put(r)
		})
	})
	if !errors.Is(err, boom) {
		t.Fatalf("a load whose source failed: %v", err)
	}
	for _, r := range Dump(t, dst) {
		if r.Counters == nil {
			t.Fatalf("a failed load left %s", Canon(r))
		}
	}
	// It can be loaded again.
	if err := dumper(t, dst).Load(t.Context(), func(put func(storage.Record) error) error { return dumper(t, src).Dump(t.Context(), put) }); err != nil {
		t.Fatalf("loading after a failed load: %v", err)
	}
	// Records a store could not have made are refused.
	for name, r := range map[string]storage.Record{
		"an empty record":             {},
		"a game without an id":        {Game: &tessera.Game{Version: 1}},
		"an announcement with no Seq": {Announcement: &tessera.Announcement{GameID: 1}},
		"an event without an id":      {Event: &tessera.Event{Version: 1}},
	} {
		if err := dumper(t, open(t)).Load(t.Context(), func(put func(storage.Record) error) error { return put(r) }); err == nil {
			t.Errorf("%s was loaded", name)
		}
	}
}
