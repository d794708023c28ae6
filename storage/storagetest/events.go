package storagetest

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"tessera"
	"tessera/storage"
	"tessera/tournament"
)

// NewEvent is an open Swiss event of four players in server g1 (not
// stored).
func NewEvent() *tessera.Event {
	return &tessera.Event{
		Status:    tessera.EventOpen,
		GuildID:   "g1",
		ChannelID: "c1",
		MessageID: "m1",
		Organiser: "1",
		Game:      "elemental",
		Options:   []string{"variant:short"},
		Clock:     tessera.Clock{Kind: tessera.ClockMove, PerMove: 72 * time.Hour},
		Rated:     true,
		Min:       4,
		AI:        map[string]string{"bot": "normal"},
		Pairing: tournament.Event{
			Name:   "autumn",
			Format: tournament.FormatSwiss,
			Rounds: 3,
			Seed:   42,
			Players: []tournament.Player{
				{ID: "1", Name: "ana", Rating: 1600}, {ID: "2", Name: "bo", Rating: 1500},
				{ID: "3", Name: "cy", Rating: 1400}, {ID: "bot", Name: "Tessera", Rating: 1500},
			},
		},
		Created: time.Unix(1000, 0).UTC(),
		Updated: time.Unix(1000, 0).UTC(),
	}
}

func createEvent(t *testing.T, s storage.Store, e *tessera.Event) uint64 {
	t.Helper()
	if err := s.CreateEvent(t.Context(), e, ""); err != nil {
		t.Fatal(err)
	}
	return e.ID
}

func event(t *testing.T, s storage.Store, id uint64) *tessera.Event {
	t.Helper()
	e, err := s.Event(t.Context(), id)
	if err != nil {
		t.Fatalf("event %d: %v", id, err)
	}
	return e
}

func eventIDs(es []*tessera.Event) string {
	out := []uint64{}
	for _, e := range es {
		out = append(out, e.ID)
	}
	return fmt.Sprint(out)
}

// pairRound is what the service does when a round starts: it pairs the
// round (here: a fixed one of two tables) and makes a game for each
// table through tx, in the transaction that writes the event.
func pairRound(t *testing.T, e *tessera.Event, tx storage.Tx) error {
	round := tournament.Round{Tables: []tournament.Table{{Seats: []string{"1", "2"}}, {Seats: []string{"3", "bot"}}}}
	e.Pairing.Played = append(e.Pairing.Played, round)
	r := len(e.Pairing.Played) - 1
	e.Games = append(e.Games, make([]uint64, len(round.Tables)))
	for i, table := range round.Tables {
		g := NewGame()
		g.Players = []tessera.Player{{ID: table.Seats[0]}, {ID: table.Seats[1]}}
		g.Event, g.EventRound, g.EventTable = e.ID, r, i
		if err := tx.CreateGame(t.Context(), g, nil); err != nil {
			return err
		}
		e.Games[r][i] = g.ID
		if err := tx.Enqueue(t.Context(), tessera.Announcement{Kind: tessera.AnnounceThread, GameID: g.ID}); err != nil {
			return err
		}
	}
	e.Status = tessera.EventRunning
	return nil
}

// testEvents: an event is stored whole with an id and Version 1, an
// interaction id creates it once, and UpdateEvent has Update's promises:
// a stale version or a handled interaction writes nothing, and an error
// from change writes nothing.
func testEvents(t *testing.T, open func(t *testing.T) storage.Store) {
	s := open(t)
	e := NewEvent()
	e.Starts = time.Unix(5000, 0).UTC()
	if err := s.CreateEvent(t.Context(), e, "i1"); err != nil {
		t.Fatal(err)
	}
	if e.ID == 0 || e.Version != 1 {
		t.Fatalf("created: id %d version %d, want an id and 1", e.ID, e.Version)
	}
	got := event(t, s, e.ID)
	if !reflect.DeepEqual(got, e) {
		t.Fatalf("read back:\n%+v\nwant\n%+v", got, e)
	}
	if err := s.CreateEvent(t.Context(), NewEvent(), "i1"); !errors.Is(err, storage.ErrDuplicate) {
		t.Fatalf("the same interaction again: %v, want ErrDuplicate", err)
	}
	if es, _ := s.GuildEvents(t.Context(), "g1"); len(es) != 1 {
		t.Fatalf("%d events after a repeated create, want 1", len(es))
	}
	if _, err := s.Event(t.Context(), e.ID+100); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("a missing event: %v, want ErrNotFound", err)
	}
	if _, err := s.UpdateEvent(t.Context(), e.ID+100, 1, "", func(*tessera.Event, storage.Tx) error { return nil }); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("updating a missing event: %v, want ErrNotFound", err)
	}

	up, err := s.UpdateEvent(t.Context(), e.ID, 1, "i2", func(e *tessera.Event, tx storage.Tx) error {
		e.Pairing.Players = append(e.Pairing.Players, tournament.Player{ID: "4", Name: "di"})
		return nil
	})
	if err != nil || up.Version != 2 || len(up.Pairing.Players) != 5 {
		t.Fatalf("update: %+v %v", up, err)
	}
	cases := []struct {
		name    string
		version uint64
		inter   string
		change  func(e *tessera.Event, tx storage.Tx) error
		want    error
	}{
		// Two clicks of Join read version 1: the second must read again.
		{"stale version", 1, "i3", func(e *tessera.Event, _ storage.Tx) error { e.Status = tessera.EventCancelled; return nil }, storage.ErrConflict},
		// Discord resent the interaction that made version 2.
		{"handled interaction", 2, "i2", func(e *tessera.Event, _ storage.Tx) error { e.Status = tessera.EventCancelled; return nil }, storage.ErrDuplicate},
		// The service refused the change halfway (and had made a game).
		{"change fails", 2, "i4", func(e *tessera.Event, tx storage.Tx) error {
			e.Status = tessera.EventCancelled
			if err := tx.CreateGame(t.Context(), NewGame(), nil); err != nil {
				return err
			}
			return errBoom
		}, errBoom},
	}
	for _, c := range cases {
		if _, err := s.UpdateEvent(t.Context(), e.ID, c.version, c.inter, c.change); !errors.Is(err, c.want) {
			t.Fatalf("%s: %v, want %v", c.name, err, c.want)
		}
		if got := event(t, s, e.ID); got.Version != 2 || got.Status != tessera.EventOpen {
			t.Fatalf("%s wrote: version %d status %s", c.name, got.Version, got.Status)
		}
	}
	if n := countGames(t, s); n != 0 {
		t.Fatalf("a failed change left %d games", n)
	}
	if ok, _ := s.Handled(t.Context(), "i4"); ok {
		t.Fatal("a failed change marked its interaction handled")
	}
}

var errBoom = errors.New("boom")

func countGames(t *testing.T, s storage.Store) int {
	t.Helper()
	n := 0
	if err := s.All(t.Context(), func(*tessera.Game) error { n++; return nil }); err != nil {
		t.Fatal(err)
	}
	return n
}

// testGuildEvents: a server's events, oldest first, whatever their
// status, and no other server's (g10 starts with g1's bytes).
func testGuildEvents(t *testing.T, open func(t *testing.T) storage.Store) {
	s := open(t)
	var made []uint64
	for _, guild := range []string{"g1", "g10", "g1", "g2", "g1"} {
		e := NewEvent()
		e.GuildID = guild
		made = append(made, createEvent(t, s, e))
	}
	if _, err := s.UpdateEvent(t.Context(), made[0], 1, "", func(e *tessera.Event, _ storage.Tx) error { e.Status = tessera.EventFinished; return nil }); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ guild, want string }{
		{"g1", fmt.Sprint([]uint64{made[0], made[2], made[4]})},
		{"g10", fmt.Sprint([]uint64{made[1]})},
		{"g2", fmt.Sprint([]uint64{made[3]})},
		{"g3", "[]"},
	} {
		es, err := s.GuildEvents(t.Context(), c.guild)
		if err != nil || eventIDs(es) != c.want {
			t.Fatalf("%s: %s %v, want %s", c.guild, eventIDs(es), err, c.want)
		}
	}
}

// testEventsDue: the open events whose start time has come, earliest
// first; one without a start time waits for its organiser, and one that
// started (or was cancelled) or whose start was moved leaves the list.
func testEventsDue(t *testing.T, open func(t *testing.T) storage.Store) {
	s := open(t)
	t0 := time.Unix(100000, 0).UTC()
	at := func(minutes int, status tessera.EventStatus) uint64 {
		e := NewEvent()
		e.Status = status
		if minutes >= 0 {
			e.Starts = t0.Add(time.Duration(minutes) * time.Minute)
		}
		return createEvent(t, s, e)
	}
	late := at(3, tessera.EventOpen)
	early := at(1, tessera.EventOpen)
	at(-1, tessera.EventOpen) // the organiser starts it
	at(0, tessera.EventRunning)
	cancelled := at(2, tessera.EventOpen)
	if _, err := s.UpdateEvent(t.Context(), cancelled, 1, "", func(e *tessera.Event, _ storage.Tx) error { e.Status = tessera.EventCancelled; return nil }); err != nil {
		t.Fatal(err)
	}
	due := func(minutes int) string {
		t.Helper()
		ids, err := s.EventsDue(t.Context(), t0.Add(time.Duration(minutes)*time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(ids)
	}
	for _, c := range []struct {
		minutes int
		want    string
	}{
		{0, "[]"},
		{1, fmt.Sprint([]uint64{early})}, // at its time exactly
		{5, fmt.Sprint([]uint64{early, late})},
	} {
		if got := due(c.minutes); got != c.want {
			t.Fatalf("due at +%dm: %s, want %s", c.minutes, got, c.want)
		}
	}
	// The early one starts; the late one is moved later.
	if _, err := s.UpdateEvent(t.Context(), early, 1, "", func(e *tessera.Event, tx storage.Tx) error { return pairRound(t, e, tx) }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UpdateEvent(t.Context(), late, 1, "", func(e *tessera.Event, _ storage.Tx) error { e.Starts = t0.Add(time.Hour); return nil }); err != nil {
		t.Fatal(err)
	}
	if got := due(5); got != "[]" {
		t.Fatalf("due after one started and one moved: %s", got)
	}
	if got, want := due(60), fmt.Sprint([]uint64{late}); got != want {
		t.Fatalf("due at its new time: %s, want %s", got, want)
	}
}

// testEventRoundInGameTx: a game's end records its result, pairs the
// next round and makes its games in the game's own transaction: all of
// it is written together, and an error from change leaves none of it
// (the event, the games, their announcements; the games' ids are given
// again by the next create, in both adapters).
func testEventRoundInGameTx(t *testing.T, open func(t *testing.T) storage.Store) {
	s := open(t)
	eid := createEvent(t, s, NewEvent())
	first, err := s.UpdateEvent(t.Context(), eid, 1, "", func(e *tessera.Event, tx storage.Tx) error { return pairRound(t, e, tx) })
	if err != nil {
		t.Fatal(err)
	}
	g := game(t, s, first.Games[0][0])
	if g.Event != eid || g.EventRound != 0 || g.EventTable != 0 || g.Version != 1 {
		t.Fatalf("a round's game: event %d round %d table %d version %d", g.Event, g.EventRound, g.EventTable, g.Version)
	}
	if g := game(t, s, first.Games[0][1]); g.Event != eid || g.EventTable != 1 {
		t.Fatalf("the second table's game: event %d table %d", g.Event, g.EventTable)
	}
	outbox, _ := s.Outbox(t.Context())

	// The game ends and the service pairs round two with it.
	end := func(fail error) (*tessera.Game, []uint64, error) {
		var made []uint64
		out, err := s.Update(t.Context(), g.ID, g.Version, "", func(g *tessera.Game, tx storage.Tx) error {
			g.Status = tessera.StatusFinished
			e, err := tx.Event(t.Context(), g.Event)
			if err != nil {
				return err
			}
			e.Pairing.Played[g.EventRound].Tables[g.EventTable].Places = []int{1, 2}
			if err := pairRound(t, e, tx); err != nil {
				return err
			}
			made = e.Games[1]
			if err := tx.PutEvent(t.Context(), e); err != nil {
				return err
			}
			return fail
		})
		return out, made, err
	}
	_, rolledBack, err := end(errBoom)
	if !errors.Is(err, errBoom) {
		t.Fatalf("a failed end: %v", err)
	}
	if e := event(t, s, eid); e.Version != 2 || len(e.Pairing.Played) != 1 || e.Pairing.Played[0].Tables[0].Played() {
		t.Fatalf("a failed end wrote the event: version %d, %d rounds", e.Version, len(e.Pairing.Played))
	}
	for _, id := range rolledBack {
		if _, err := s.Game(t.Context(), id); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("a failed end left game %d: %v", id, err)
		}
	}
	if n, _ := s.Outbox(t.Context()); n != outbox {
		t.Fatalf("a failed end left %d announcements, want %d", n, outbox)
	}
	if got := game(t, s, g.ID); got.Status != tessera.StatusPlaying || got.Version != 1 {
		t.Fatalf("a failed end wrote the game: %s version %d", got.Status, got.Version)
	}
	ended, made, err := end(nil)
	if err != nil {
		t.Fatal(err)
	}
	e := event(t, s, eid)
	if e.Version != 3 || len(e.Pairing.Played) != 2 || !reflect.DeepEqual(e.Pairing.Played[0].Tables[0].Places, []int{1, 2}) {
		t.Fatalf("the end's event: version %d, %d rounds, places %v", e.Version, len(e.Pairing.Played), e.Pairing.Played[0].Tables[0].Places)
	}
	if ended.Status != tessera.StatusFinished || ended.Version != 2 {
		t.Fatalf("the ended game: %s version %d", ended.Status, ended.Version)
	}
	if !reflect.DeepEqual(made, rolledBack) {
		t.Fatalf("round two's games are %v; the rolled-back ones had %v, which a rollback gives back", made, rolledBack)
	}
	for i, id := range made {
		if g := game(t, s, id); g.EventRound != 1 || g.EventTable != i || g.Status != tessera.StatusPlaying {
			t.Fatalf("round two's game %d: round %d table %d %s", id, g.EventRound, g.EventTable, g.Status)
		}
	}
	if n, _ := s.Outbox(t.Context()); n != outbox+2 {
		t.Fatalf("%d announcements, want %d", n, outbox+2)
	}
}

// testPutEventStale: PutEvent refuses an event read before another change
// wrote it (the game's transaction then writes nothing), and a missing
// one.
func testPutEventStale(t *testing.T, open func(t *testing.T) storage.Store) {
	s := open(t)
	eid := createEvent(t, s, NewEvent())
	stale := event(t, s, eid)
	if _, err := s.UpdateEvent(t.Context(), eid, 1, "", func(e *tessera.Event, _ storage.Tx) error { e.Status = tessera.EventRunning; return nil }); err != nil {
		t.Fatal(err)
	}
	gid := create(t, s, NewGame())
	for _, c := range []struct {
		name string
		put  *tessera.Event
		want error
	}{
		{"read before the update", stale, storage.ErrConflict},
		{"no such event", &tessera.Event{ID: eid + 100, Version: 1}, storage.ErrNotFound},
	} {
		_, err := s.Update(t.Context(), gid, 1, "", func(g *tessera.Game, tx storage.Tx) error {
			g.Status = tessera.StatusFinished
			e := *c.put
			e.Status = tessera.EventCancelled
			return tx.PutEvent(t.Context(), &e)
		})
		if !errors.Is(err, c.want) {
			t.Fatalf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	if e := event(t, s, eid); e.Version != 2 || e.Status != tessera.EventRunning {
		t.Fatalf("the event after refused puts: version %d %s", e.Version, e.Status)
	}
	if g := game(t, s, gid); g.Version != 1 || g.Status != tessera.StatusPlaying {
		t.Fatalf("the game after refused puts: version %d %s", g.Version, g.Status)
	}
}

// testRacingRoundPairedOnce: racers pairing the same round from the same
// version: one succeeds, the others get ErrConflict, and only the
// winner's games exist.
func testRacingRoundPairedOnce(t *testing.T, open func(t *testing.T) storage.Store) {
	s := open(t)
	sharedRoundPairedOnce(t, s, s)
}

// sharedRoundPairedOnce is testRacingRoundPairedOnce through two handles
// (two processes on one database).
func sharedRoundPairedOnce(t *testing.T, a, b storage.Store) {
	eid := createEvent(t, a, NewEvent())
	const racers = 8
	errs := make([]error, racers)
	race(a, b, racers, func(i int, s storage.Store) {
		_, errs[i] = s.UpdateEvent(t.Context(), eid, 1, fmt.Sprint("start", i), func(e *tessera.Event, tx storage.Tx) error { return pairRound(t, e, tx) })
	})
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case !errors.Is(err, storage.ErrConflict):
			t.Fatal(err)
		}
	}
	e := event(t, b, eid)
	if ok != 1 || e.Version != 2 || len(e.Pairing.Played) != 1 {
		t.Fatalf("%d successes, version %d, %d rounds: want 1, 2, 1", ok, e.Version, len(e.Pairing.Played))
	}
	if n := countGames(t, b); n != 2 {
		t.Fatalf("%d games, want the winner's 2", n)
	}
	if n, _ := b.Outbox(t.Context()); n != 2 {
		t.Fatalf("%d announcements, want the winner's 2", n)
	}
}

// sharedResultsAllKept: the games of one round ending at once, each
// recording its result in the event in its own transaction (Tx.Event then
// PutEvent): every result is kept, one change after the other, none lost
// and none refused.
func sharedResultsAllKept(t *testing.T, a, b storage.Store) {
	eid := createEvent(t, a, NewEvent())
	const tables = 6
	var games []uint64
	if _, err := a.UpdateEvent(t.Context(), eid, 1, "", func(e *tessera.Event, tx storage.Tx) error {
		round := tournament.Round{}
		e.Games = [][]uint64{nil}
		for i := range tables {
			round.Tables = append(round.Tables, tournament.Table{Seats: []string{fmt.Sprint("p", 2*i), fmt.Sprint("p", 2*i+1)}})
			g := NewGame()
			g.Event, g.EventTable = e.ID, i
			if err := tx.CreateGame(t.Context(), g, nil); err != nil {
				return err
			}
			e.Games[0] = append(e.Games[0], g.ID)
			games = append(games, g.ID)
		}
		e.Pairing.Played = []tournament.Round{round}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	errs := map[int]error{}
	race(a, b, tables, func(i int, s storage.Store) {
		_, err := s.Update(t.Context(), games[i], 1, "", func(g *tessera.Game, tx storage.Tx) error {
			g.Status = tessera.StatusFinished
			e, err := tx.Event(t.Context(), g.Event)
			if err != nil {
				return err
			}
			e.Pairing.Played[g.EventRound].Tables[g.EventTable].Places = []int{1, 2}
			return tx.PutEvent(t.Context(), e)
		})
		mu.Lock()
		errs[i] = err
		mu.Unlock()
	})
	for i, err := range errs {
		if err != nil {
			t.Fatalf("game %d's end: %v", i, err)
		}
	}
	e := event(t, b, eid)
	for i, table := range e.Pairing.Played[0].Tables {
		if !table.Played() {
			t.Fatalf("table %d's result was lost", i)
		}
	}
	if e.Version != 2+tables {
		t.Fatalf("version %d, want %d: one per result", e.Version, 2+tables)
	}
}
