package delivery_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"tessera/delivery"
	"tessera/service"
)

// The courier delivering a tournament's announcements (delivery/events.go)
// through the fake transport: the thread made from the event's post, the
// posts there, the edits of the post; once each through a crash, and with
// the post's id recorded late.

// threadOnce is the fake transport as Discord is about threads: a message
// starts at most one thread, and starting another from it gives the same
// thread back (the bot's sink answers so to Discord's refusal). lose,
// when set, picks calls that fail after they were carried out: the
// transport did it, the courier does not know, as when the process is
// killed between the two.
type threadOnce struct {
	*fakeSink
	mu      sync.Mutex
	threads map[string]string                         // starter message -> thread
	lose    func(kind, place, from, text string) bool // place: a post's channel, an edit's message
	wait    time.Duration                             // StarterWait, when waits is set
	waits   chan struct{}                             // signalled each time the courier starts waiting for a post's id
}

func newThreadOnce() *threadOnce {
	return &threadOnce{fakeSink: newSink(), threads: map[string]string{}}
}

var errLost = errors.New("the connection was lost before the answer")

// lost reports whether a call just carried out must look failed.
func (k *threadOnce) lost(kind, place, from, text string) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.lose != nil && k.lose(kind, place, from, text)
}

func (k *threadOnce) Thread(ctx context.Context, channel, from, name string) (string, error) {
	k.mu.Lock()
	id, ok := k.threads[from]
	k.mu.Unlock()
	if !ok || from == "" {
		var err error
		if id, err = k.fakeSink.Thread(ctx, channel, from, name); err != nil {
			return "", err
		}
		if from != "" {
			k.mu.Lock()
			k.threads[from] = id
			k.mu.Unlock()
		}
	}
	if k.lost("thread", channel, from, name) {
		return "", errLost
	}
	return id, nil
}

func (k *threadOnce) Post(ctx context.Context, channel string, m service.Message, nonce string) (string, error) {
	id, err := k.fakeSink.Post(ctx, channel, m, nonce)
	if err == nil && k.lost("post", channel, "", m.Text) {
		return "", errLost
	}
	return id, err
}

func (k *threadOnce) Edit(ctx context.Context, channel, id string, m service.Message) error {
	err := k.fakeSink.Edit(ctx, channel, id, m)
	if err == nil && k.lost("edit", id, "", m.Text) {
		return errLost
	}
	return err
}

// recorder is threadOnce as a transport that records the messages it
// answers with (delivery.StarterRecorder).
type recorder struct{ *threadOnce }

func (r recorder) StarterWait() time.Duration {
	r.waits <- struct{}{}
	return r.wait
}

// eventHarness is a harness whose courier retries at once, with a
// knockout of two players (p1 and p2) entered; recorded says whether
// its post's id is recorded ("c", "m-post").
func eventHarness(t *testing.T, recorded bool) (*harness, uint64) {
	return eventHarnessWith(t, recorded, func(*service.Config) {})
}

func eventHarnessWith(t *testing.T, recorded bool, tune func(*service.Config)) (*harness, uint64) {
	h := newHarnessWith(t, func(c *service.Config) { c.RetryBase = time.Nanosecond; tune(c) })
	id := h.newEvent(service.NewEventRequest{Name: "Cup", Game: "glorieta", Format: "knockout"})
	if recorded {
		if err := h.svc.EventMessage(t.Context(), id, "c", "m-post"); err != nil {
			t.Fatal(err)
		}
	}
	h.enter(id, players(2)...)
	return h, id
}

// deliverTo runs the courier through sink until nothing is left to
// deliver (a failed try is retried at once, RetryBase being 1 ns), and
// returns what the transport received.
func (h *harness) deliverTo(sink delivery.Sink, log *fakeSink) []sent {
	h.t.Helper()
	c := delivery.New(h.svc, h.svc.Store())
	for range 20 {
		c.Deliver(context.Background(), sink)
		if n, err := h.svc.Store().Outbox(h.t.Context()); err != nil {
			h.t.Fatal(err)
		} else if n == 0 {
			return log.Take()
		}
	}
	h.t.Fatal("the outbox is not empty after 20 rounds")
	return nil
}

// TestCourierEventKinds: each of an event's announcements reaches the
// transport: entries edit the post (with its buttons), the start makes
// the thread from the post and records it, and the round's pairings and
// the final places are posted there with the standings picture.
func TestCourierEventKinds(t *testing.T) {
	h, id := eventHarness(t, true)
	sink := newThreadOnce()
	got := h.deliverTo(sink, sink.fakeSink)
	edits := of(got, "edit")
	if len(edits) != 3 || len(got) != 3 {
		t.Fatalf("before the start, want the post edited after its id and each of two entries:\n%s", texts(got))
	}
	last := edits[2]
	if last.Channel != "c" || last.ID != "m-post" || !strings.Contains(last.Msg.Text, "p1, p2") || len(last.Msg.Buttons) != 3 {
		t.Fatalf("the post's last edit: %+v", last)
	}

	h.ok(h.svc.StartEvent(h.req(ana), id))
	got = h.deliverTo(sink, sink.fakeSink)
	e := h.event(id)
	threads, posts := eventThreads(got), of(got, "post")
	if len(threads) != 1 || threads[0].Channel != "c" || threads[0].From != "m-post" || threads[0].Msg.Text != h.svc.EventThreadName(e) {
		t.Fatalf("the event's thread: %+v\n%s", threads, texts(got))
	}
	if e.ThreadID != threads[0].ID {
		t.Fatalf("thread %q recorded, %q made", e.ThreadID, threads[0].ID)
	}
	var round []sent // the event's posts (the game's own go to its thread)
	for _, p := range posts {
		if p.Channel == e.ThreadID {
			round = append(round, p)
		}
	}
	if len(round) != 1 || !strings.Contains(round[0].Msg.Text, "**Round 1**") || len(round[0].Msg.Files) != 1 ||
		round[0].Msg.Files[0].Name != "event-1-standings.png" || !strings.Contains(round[0].Msg.Marker, "event 1 · ") {
		t.Fatalf("the round's post in the event's thread: %+v\n%s", round, texts(got))
	}
	if edits := of(got, "edit"); len(edits) == 0 || edits[0].ID != "m-post" || len(edits[0].Msg.Buttons) != 0 {
		t.Fatalf("the post's edit at the start, without its buttons: %+v", edits)
	}

	h.ok(h.svc.ResignConfirm(h.req(players(2)[1]), e.Games[0][0]))
	got = h.deliverTo(sink, sink.fakeSink)
	var final []sent
	for _, p := range of(got, "post") {
		if p.Channel == e.ThreadID {
			final = append(final, p)
		}
	}
	if len(final) != 1 || !strings.Contains(final[0].Msg.Text, "Winner: **p1**") || len(final[0].Msg.Files) != 1 {
		t.Fatalf("the final post: %+v\n%s", final, texts(got))
	}
	if len(eventThreads(got)) != 0 {
		t.Fatalf("a second thread:\n%s", texts(got))
	}
}

// TestCourierEventCrash: the transport carried out the thread, a post
// and an edit but the courier never learnt it (a process killed between
// the two); delivered again, there is still one thread, recorded, and
// one post of each announcement (the nonce).
func TestCourierEventCrash(t *testing.T) {
	h, id := eventHarness(t, true)
	sink := newThreadOnce()
	h.deliverTo(sink, sink.fakeSink)
	h.ok(h.svc.StartEvent(h.req(ana), id))
	lost := map[string]bool{}
	sink.lose = func(kind, place, from, text string) bool {
		event := kind == "thread" && from == "m-post" || kind == "post" && strings.Contains(text, "**Round 1**") || kind == "edit" && place == "m-post"
		if !event || lost[kind] {
			return false
		}
		lost[kind] = true // once each
		return true
	}
	got := h.deliverTo(sink, sink.fakeSink)
	e := h.event(id)
	if threads := eventThreads(got); len(threads) != 1 || e.ThreadID != threads[0].ID || len(lost) != 3 {
		t.Fatalf("threads %+v, recorded %q (lost %v)", threads, e.ThreadID, lost)
	}
	seen := map[string]int{}
	for _, p := range of(got, "post") {
		seen[p.Nonce]++
		if seen[p.Nonce] > 1 {
			t.Fatalf("posted twice: %+v\n%s", p, texts(got))
		}
	}
	if n := strings.Count(texts(got), "**Round 1**"); n != 1 {
		t.Fatalf("the round posted %d times:\n%s", n, texts(got))
	}
}

// TestCourierEventPostRecordedLate: the event starts before the
// transport recorded its post's id (EventMessage comes a moment after
// the answer): its thread waits for the id and starts from the post, and
// the post is edited once its id is known. A transport that records no
// post makes the thread on its own, and edits nothing.
func TestCourierEventPostRecordedLate(t *testing.T) {
	// The games stay in the channel: only the event's thread waits.
	h, id := eventHarnessWith(t, false, func(c *service.Config) { c.NoThreads = true })
	h.ok(h.svc.StartEvent(h.req(ana), id))
	sink := recorder{newThreadOnce()}
	sink.wait, sink.waits = time.Minute, make(chan struct{}, 1)
	done := make(chan []sent)
	go func() { done <- h.deliverTo(sink, sink.fakeSink) }()
	select {
	case <-sink.waits:
	case <-time.After(time.Minute):
		t.Fatal("the courier did not wait for the post's id")
	}
	if err := h.svc.EventMessage(context.Background(), id, "c", "m-late"); err != nil {
		t.Fatal(err)
	}
	var got []sent
	select {
	case got = <-done:
	case <-time.After(time.Minute):
		t.Fatal("the courier did not go on once the post's id was recorded")
	}
	if threads := eventThreads(got); len(threads) != 1 || threads[0].From != "m-late" {
		t.Fatalf("the thread: %+v\n%s", threads, texts(got))
	}
	if edits := of(got, "edit"); len(edits) == 0 || edits[len(edits)-1].ID != "m-late" {
		t.Fatalf("the post is not edited once recorded:\n%s", texts(got))
	}

	h, id = eventHarnessWith(t, false, func(c *service.Config) { c.NoThreads = true })
	h.ok(h.svc.StartEvent(h.req(ana), id))
	plain := newThreadOnce()
	got = h.deliverTo(plain, plain.fakeSink)
	e := h.event(id)
	if threads := eventThreads(got); len(threads) != 1 || threads[0].From != "" || threads[0].Channel != "c" || e.ThreadID != threads[0].ID {
		t.Fatalf("the thread on its own: %+v (recorded %q)\n%s", threads, e.ThreadID, texts(got))
	}
	if edits := of(got, "edit"); len(edits) != 0 {
		t.Fatalf("edits of a post never recorded: %+v", edits)
	}
	if n := strings.Count(texts(got), "**Round 1**"); n != 1 {
		t.Fatalf("the round posted %d times:\n%s", n, texts(got))
	}
}

// eventThreads are the threads made for events (a game's is named with
// its event and round, "Cup R1 #1: p1 v p2").
func eventThreads(log []sent) []sent {
	var out []sent
	for _, t := range of(log, "thread") {
		if strings.HasPrefix(t.Msg.Text, "🏆") {
			out = append(out, t)
		}
	}
	return out
}
