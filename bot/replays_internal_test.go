package bot

import (
	"fmt"
	"testing"
	"time"
)

// TestEndpointRefusesReplays: a request Discord signed can be sent again
// by whoever recorded it, and passes the signature and timestamp checks
// for up to MaxInteractionAge. An autocomplete is not recorded as
// handled by the store, so a replayed one was answered again with the
// recorded player's legal moves (before: 200 and dispatched twice). Every
// kind of interaction is refused the second time (401), whatever its
// timestamp's age within the window, and only that id.
func TestEndpointRefusesReplays(t *testing.T) {
	for _, c := range []struct {
		name string
		body []byte
	}{
		{"an autocomplete (a mover's legal moves)", []byte(`{"type":4,"id":"11","application_id":"1","token":"t","version":1,"data":{"name":"move","options":[{"name":"notation","type":3,"value":"d","focused":true}]}}`)},
		{"a command", slashBody("12")},
		{"a button", []byte(`{"type":3,"id":"13","application_id":"1","token":"t","version":1,"data":{"custom_id":"accept:1","component_type":2}}`)},
		{"a PING", pingBody},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newRecorder(nil)
			now := testNow
			r.h.now = func() time.Time { return now }
			ts := stamp(testNow)
			sig := sign(testKey, ts, c.body)
			first := r.post(c.body, ts, sig)
			if first.Code == 401 {
				t.Fatalf("the first delivery was refused: %s", first.Body)
			}
			dispatched := r.count()
			// Replayed at once, and again 4 minutes later: the timestamp
			// is still fresh both times.
			for _, after := range []time.Duration{0, 4 * time.Minute} {
				now = testNow.Add(after)
				if rec := r.post(c.body, ts, sig); rec.Code != 401 || r.count() != dispatched {
					t.Fatalf("replayed %v later: %d %q, %d dispatched, want 401 and %d", after, rec.Code, rec.Body, r.count(), dispatched)
				}
			}
			// Another interaction is still taken.
			other := slashBody("99")
			if rec := r.post(other, stamp(now), sign(testKey, stamp(now), other)); rec.Code == 401 {
				t.Fatalf("another interaction after the replay: %d", rec.Code)
			}
		})
	}
}

// TestReplaysMemoryIsBounded: an id is forgotten once a replay of it
// would be refused as stale anyway (2×MaxInteractionAge after it came),
// and past max ids the oldest goes first.
func TestReplaysMemoryIsBounded(t *testing.T) {
	r := newReplays(3)
	at := testNow
	for i := range 3 {
		if !r.first(fmt.Sprint(i), at) {
			t.Fatalf("id %d refused the first time", i)
		}
	}
	if r.first("1", at) {
		t.Fatal("id 1 taken twice")
	}
	// A fourth id: the oldest (0) is forgotten, the others kept.
	if !r.first("3", at) || r.len() != 3 {
		t.Fatalf("the fourth id: %d remembered", r.len())
	}
	if r.first("2", at) || !r.first("0", at) {
		t.Fatal("want 2 remembered and 0 forgotten")
	}
	// Just before the window ends they are kept, at its end forgotten.
	if r.first("3", at.Add(2*MaxInteractionAge-time.Nanosecond)) {
		t.Fatal("id 3 forgotten within the window")
	}
	if !r.first("3", at.Add(2*MaxInteractionAge)) || r.len() != 1 {
		t.Fatalf("after the window: %d remembered, want only the id just taken", r.len())
	}
	// Many ids in a row: never more than max.
	big := newReplays(100)
	for i := range 100_000 {
		big.first(fmt.Sprint(i), at)
	}
	if big.len() != 100 || len(big.queue)-big.head != 100 || cap(big.queue) > 400 {
		t.Fatalf("%d remembered, queue %d (cap %d), want 100", big.len(), len(big.queue)-big.head, cap(big.queue))
	}
}
