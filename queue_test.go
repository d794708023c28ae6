package tessera_test

import (
	"testing"

	"tessera"
)

// TestQueue: a game's announcements wait in its game's queue, an event's
// in one no game's id reaches.
func TestQueue(t *testing.T) {
	for _, tc := range []struct {
		a    tessera.Announcement
		want int64 // the queue as PostgreSQL's bigint holds it
	}{
		{tessera.Announcement{GameID: 7}, 7},
		{tessera.Announcement{EventID: 7}, -7},
		{tessera.Announcement{GameID: 7, EventID: 3}, 7}, // a game of an event: its game's
		{tessera.Announcement{}, 0},
	} {
		if got := int64(tc.a.Queue()); got != tc.want {
			t.Errorf("%+v: queue %d, want %d", tc.a, got, tc.want)
		}
	}
}
