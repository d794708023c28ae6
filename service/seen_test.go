package service_test

import (
	"testing"

	"tessera"
)

// A move chosen on a web page names the game's version it was chosen on
// (Request.Seen). The service plays it only on that version, checked in
// the move's own transaction: the page's own check reads the game before
// the service does, and a move from Discord can come between the two.
func TestMoveOnTheVersionSeen(t *testing.T) {
	h := newHarness(t)
	id := h.start()
	g, err := h.svc.Store().Game(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	seen := g.Version

	move := func(seen uint64) error {
		req := h.req(ana)
		req.Seen = seen
		_, err := h.svc.Move(req, "", "d5 "+handOf(t, h, ana)[0])
		return err
	}
	resign := func(seen uint64) error {
		req := h.req(ana)
		req.Seen = seen
		_, err := h.svc.ResignConfirm(req, id)
		return err
	}
	tests := []struct {
		name string
		seen uint64
		play func(seen uint64) error
		code string // "" when the move is played
	}{
		// Another version than the one seen: the move was chosen for a
		// position that is not the game's, and nothing is played.
		{"an older version", seen - 1, move, tessera.ECONFLICT},
		{"a version not made yet", seen + 7, move, tessera.ECONFLICT},
		{"resigning from an older page", seen - 1, resign, tessera.ECONFLICT},
		// The version seen is the game's: played.
		{"the version seen", seen, move, ""},
		// Now the game is past that version: the same page's second
		// submit is refused, not played on Bo's turn or again.
		{"the same page again", seen, move, tessera.ECONFLICT},
	}
	for _, tt := range tests {
		err := tt.play(tt.seen)
		if got := tessera.ErrorCode(err); (tt.code == "" && err != nil) || (tt.code != "" && got != tt.code) {
			t.Fatalf("%s: got %v (%s), want code %q", tt.name, err, got, tt.code)
		}
	}
	after, err := h.svc.Store().Game(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if len(after.Moves) != len(g.Moves)+1 || after.Status != tessera.StatusPlaying {
		t.Fatalf("exactly one move played and nobody resigned: %d moves then %d, status %s", len(g.Moves), len(after.Moves), after.Status)
	}
}
