package storagetest

import (
	"fmt"
	"testing"
	"time"

	"tessera"
	"tessera/storage"
)

// A tournament's announcements have GameID 0 and their EventID: the
// outbox keeps each event's in a queue of its own (tessera.Announcement.
// Queue), apart from every game's, the game with the event's number
// included, and from every other event's.

// enqueueEvent writes an event's announcements in one UpdateEvent.
func enqueueEvent(t *testing.T, s storage.Store, id uint64, kinds ...string) {
	t.Helper()
	e := event(t, s, id)
	if _, err := s.UpdateEvent(t.Context(), id, e.Version, "", func(e *tessera.Event, tx storage.Tx) error {
		for _, k := range kinds {
			if err := tx.Enqueue(t.Context(), tessera.Announcement{Kind: k, EventID: e.ID, Text: k}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// queues is each announcement as "g<game>:kind" or "e<event>:kind".
func queues(as []tessera.Announcement) string {
	var out []string
	for _, a := range as {
		if a.GameID == 0 {
			out = append(out, fmt.Sprintf("e%d:%s", a.EventID, a.Kind))
		} else {
			out = append(out, fmt.Sprintf("g%d:%s", a.GameID, a.Kind))
		}
	}
	return fmt.Sprint(out)
}

func testEventOutbox(t *testing.T, open func(t *testing.T) storage.Store) {
	s := open(t)
	g := create(t, s, NewGame())
	e1, e2 := createEvent(t, s, NewEvent()), createEvent(t, s, NewEvent())
	if g != e1 {
		t.Fatalf("game %d and event %d: the test wants the same number for both", g, e1)
	}
	enqueueEvent(t, s, e1, "event-thread", "event-post")
	enqueue(t, s, g, "post")
	enqueueEvent(t, s, e2, "event-status")
	enqueueEvent(t, s, e1, "event-status")
	now := time.Unix(1_000_000, 0)

	// In the order enqueued, with their EventID and no GameID.
	p, err := s.Pending(t.Context(), now, 10)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("[e%d:event-thread e%d:event-post g%d:post e%d:event-status e%d:event-status]", e1, e1, g, e2, e1)
	if queues(p) != want || p[0].Text != "event-thread" {
		t.Fatalf("pending %s, want %s", queues(p), want)
	}
	// Event 1's first waits for a retry: its later ones wait behind it,
	// game 1's and event 2's do not.
	if err := s.Retry(t.Context(), p[0].Seq, now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if p2, _ := s.Pending(t.Context(), now, 10); queues(p2) != fmt.Sprintf("[g%d:post e%d:event-status]", g, e2) {
		t.Fatalf("pending while event %d's first waits: %s", e1, queues(p2))
	}
	if got, _ := s.Claim(t.Context(), now, "one", time.Minute, 10); queues(got) != fmt.Sprintf("[g%d:post e%d:event-status]", g, e2) {
		t.Fatalf("claimed %s while event %d's first waits", queues(got), e1)
	}
	s.Release(t.Context(), "one", tessera.Announcement{GameID: g}.Queue(), tessera.Announcement{EventID: e2}.Queue())

	// Claims lease an event as they lease a game: owner one's lease on
	// event 1 keeps owner two off it, not off game 1 or event 2.
	later := now.Add(2 * time.Minute)
	got, err := s.Claim(t.Context(), later, "one", time.Minute, 1)
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("[e%d:event-thread e%d:event-post e%d:event-status]", e1, e1, e1); queues(got) != want {
		t.Fatalf("one claimed %s, want %s", queues(got), want)
	}
	if got, _ := s.Claim(t.Context(), later, "two", time.Minute, 10); queues(got) != fmt.Sprintf("[g%d:post e%d:event-status]", g, e2) {
		t.Fatalf("two claimed %s while one holds event %d", queues(got), e1)
	}
	// Released by its queue, event 1 is free for another owner.
	if err := s.Release(t.Context(), "one", got[0].Queue(), tessera.Announcement{EventID: e1}.Queue()); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Claim(t.Context(), later, "three", time.Minute, 10); queues(got) != fmt.Sprintf("[e%d:event-thread e%d:event-post e%d:event-status]", e1, e1, e1) {
		t.Fatalf("three claimed %s after one released event %d", queues(got), e1)
	}

	// A copy of the store (tessera migrate) keeps the queues apart.
	dst := open(t)
	if err := dumper(t, dst).Load(t.Context(), func(put func(storage.Record) error) error { return dumper(t, s).Dump(t.Context(), put) }); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Claim(t.Context(), later, "four", time.Minute, 10); len(got) != 0 {
		t.Fatalf("four claimed %s with everything leased", queues(got))
	}
	got, err = dst.Claim(t.Context(), later, "four", time.Minute, 1)
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("[e%d:event-thread e%d:event-post e%d:event-status]", e1, e1, e1); queues(got) != want {
		t.Fatalf("the copy's first claim %s, want %s", queues(got), want)
	}
	if got, _ := dst.Claim(t.Context(), later, "five", time.Minute, 10); queues(got) != fmt.Sprintf("[g%d:post e%d:event-status]", g, e2) {
		t.Fatalf("the copy's second owner claimed %s", queues(got))
	}
}
