package render

import (
	"testing"

	"tessera/engine"
)

// Item 21 of issue 24: a seat's line reads "ana – wins", with one space
// each side of the dash; it read "ana  - wins".
func TestSeatTitle(t *testing.T) {
	for _, c := range []struct {
		seat Seat
		want string
	}{
		{Seat{Name: "ana"}, "ana"},
		{Seat{Name: "ana", SeatView: engine.SeatView{Winner: true}}, "ana – wins"},
		{Seat{Name: "bo", SeatView: engine.SeatView{Label: "Red", Resigned: true}}, "bo (Red) – resigned"},
	} {
		if got := SeatTitle(c.seat); got != c.want {
			t.Errorf("%+v: %q, want %q", c.seat, got, c.want)
		}
	}
}
