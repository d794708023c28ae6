package service

import (
	"slices"
	"testing"

	"tessera"
	"tessera/engine"
)

// stepState is a position that answers only whether the game is over and
// who is to move: stepAnnouncements must need nothing more (any other
// method panics on the nil State).
type stepState struct {
	engine.State
	over bool
	to   engine.Seat
}

func (s stepState) Over() bool          { return s.over }
func (s stepState) ToMove() engine.Seat { return s.to }

// TestStepAnnouncements: what one step of a game announces, decided from
// the step alone (issue #45: turnPassed returns its announcements rather
// than enqueueing them itself).
func TestStepAnnouncements(t *testing.T) {
	two := &tessera.Game{ID: 7, Setup: engine.Setup{Players: 2}, Players: []tessera.Player{{ID: "ana"}, {ID: "bo"}},
		Moves: make([]tessera.MoveEntry, 3)}
	alone := &tessera.Game{ID: 8, Setup: engine.Setup{Players: 1}, Players: []tessera.Player{{ID: "ana"}}}
	post := tessera.Announcement{Kind: tessera.AnnouncePost, Text: "ana plays h1"}
	type ann struct {
		kind    string
		user    string
		rematch bool
		text    string
	}
	for _, tc := range []struct {
		name   string
		g      *tessera.Game
		st     stepState
		aiNext bool
		posts  []tessera.Announcement
		line   string
		want   []ann
	}{
		// A move in a game going on: the post, the status edit after it,
		// then the next player's turn notice.
		{"move", two, stepState{to: 1}, false, []tessera.Announcement{post}, "",
			[]ann{{tessera.AnnouncePost, "", false, "ana plays h1"}, {tessera.AnnounceStatus, "", false, ""}, {tessera.AnnounceTurn, "bo", false, ""}}},
		// The game's first step makes its thread, which posts the status
		// message itself: no status edit.
		{"start", two, stepState{to: 0}, false, []tessera.Announcement{{Kind: tessera.AnnounceThread}, post}, "",
			[]ann{{tessera.AnnounceThread, "", false, ""}, {tessera.AnnouncePost, "", false, "ana plays h1"}, {tessera.AnnounceTurn, "ana", false, ""}}},
		// The computer is to move: it gets no notice.
		{"ai next", two, stepState{to: 1}, true, []tessera.Announcement{post}, "",
			[]ann{{tessera.AnnouncePost, "", false, "ana plays h1"}, {tessera.AnnounceStatus, "", false, ""}}},
		// A player alone knows it is their turn.
		{"alone", alone, stepState{to: 0}, false, []tessera.Announcement{post}, "",
			[]ann{{tessera.AnnouncePost, "", false, "ana plays h1"}, {tessera.AnnounceStatus, "", false, ""}}},
		// The game ends: the rating line joins the post that ends it,
		// which offers a rematch, and nobody has a turn.
		{"over", two, stepState{over: true, to: engine.NoSeat}, false, []tessera.Announcement{post}, "Ratings: ana 1516",
			[]ann{{tessera.AnnouncePost, "", true, "ana plays h1\nRatings: ana 1516"}, {tessera.AnnounceStatus, "", false, ""}}},
		// Alone, the end offers no rematch (/puzzle starts another).
		{"puzzle over", alone, stepState{over: true, to: engine.NoSeat}, false, []tessera.Announcement{post}, "",
			[]ann{{tessera.AnnouncePost, "", false, "ana plays h1"}, {tessera.AnnounceStatus, "", false, ""}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			given := slices.Clone(tc.posts)
			out := stepAnnouncements(tc.g, tc.st, tc.aiNext, tc.posts, tc.line)
			if !slices.EqualFunc(given, tc.posts, func(a, b tessera.Announcement) bool {
				return a.Text == b.Text && a.Kind == b.Kind && a.GameID == b.GameID && a.Rematch == b.Rematch
			}) {
				t.Fatalf("the posts given were changed: %+v", tc.posts)
			}
			var got []ann
			for _, a := range out {
				if a.GameID != tc.g.ID || a.Moves != len(tc.g.Moves) {
					t.Errorf("%v carries game %d, %d moves; want %d, %d", a.Kind, a.GameID, a.Moves, tc.g.ID, len(tc.g.Moves))
				}
				got = append(got, ann{a.Kind, a.UserID, a.Rematch, a.Text})
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("announcements:\n got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}
