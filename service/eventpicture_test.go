package service_test

import (
	"bytes"
	"image/png"
	"reflect"
	"testing"

	"tessera"
	"tessera/picture"
	"tessera/render"
	"tessera/service"
	"tessera/tournament"
)

// threeAfterRoundOne is a round robin of three after its first round:
// Ana beat Bo, Cy had the bye (worth nothing in a round robin) and has
// left since.
func threeAfterRoundOne() *tessera.Event {
	return &tessera.Event{ID: 7, Status: tessera.EventRunning, Game: "closure",
		Pairing: tournament.Event{Format: tournament.FormatRoundRobin, Rounds: 3,
			Players: []tournament.Player{{ID: "1", Name: "Ana", Rating: 1600}, {ID: "2", Name: "Bo", Rating: 1500}, {ID: "3", Name: "Cy", Rating: 1400, Withdrawn: true}},
			Played:  []tournament.Round{{Tables: []tournament.Table{{Seats: []string{"1", "2"}, Places: []int{1, 2}}}, Byes: []string{"3"}}}}}
}

// TestStandingsTable: the picture's data comes from the library's
// standings, with the players' names, the format's tie-breaks by their
// short names (spelt out in the footer), numbers without useless
// decimals, and where the event stands.
func TestStandingsTable(t *testing.T) {
	e := threeAfterRoundOne()
	got, err := service.StandingsTable(e)
	if err != nil {
		t.Fatal(err)
	}
	want := picture.Standings{
		Title:    "Closure Round Robin · event #7",
		Subtitle: "After round 1 of 3",
		Columns:  []string{"SB", "DE"}, // the picture's two; the text has WIN too
		// Bo and Cy are equal on everything: the lot drawn from the
		// event's seed (0) puts Cy first.
		Rows: []picture.StandingsRow{
			{Rank: "1", Name: "Ana", Points: "1", TieBreaks: []string{"0", "0"}, Played: 1},
			{Rank: "2", Name: "Cy", Points: "0", TieBreaks: []string{"0", "0"}, Played: 0, Withdrawn: true},
			{Rank: "3", Name: "Bo", Points: "0", TieBreaks: []string{"0", "0"}, Played: 1},
		},
		Footer: "SB: Sonneborn-Berger · DE: direct encounter · Games: games played · (left): no longer paired",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	for _, tc := range []struct {
		status tessera.EventStatus
		played int // rounds of the pairing kept
		want   string
	}{
		{tessera.EventOpen, 0, "Open for entries: 3 players so far"},
		{tessera.EventRunning, 0, "Round 1 of 3 in play"},
		{tessera.EventFinished, 1, "Final standings"},
		{tessera.EventCancelled, 1, "Cancelled"},
	} {
		e := threeAfterRoundOne()
		e.Status, e.Pairing.Played = tc.status, e.Pairing.Played[:tc.played]
		got, err := service.StandingsTable(e)
		if err != nil {
			t.Fatal(err)
		}
		if got.Subtitle != tc.want {
			t.Errorf("%s with %d rounds: subtitle %q, want %q", tc.status, tc.played, got.Subtitle, tc.want)
		}
	}
}

// TestStandingsPicture: the service draws the table through its renderer,
// as a PNG named after the event.
func TestStandingsPicture(t *testing.T) {
	h := newHarness(t)
	e := threeAfterRoundOne()
	f, err := h.svc.StandingsPicture(e)
	if err != nil {
		t.Fatal(err)
	}
	if f.Name != "event-7-standings.png" || f.MediaType() != "image/png" {
		t.Errorf("file %q (%s)", f.Name, f.MediaType())
	}
	img, err := png.Decode(bytes.NewReader(f.Data))
	if err != nil {
		t.Fatal(err)
	}
	table, _ := service.StandingsTable(e)
	want, err := render.DrawStandings(table)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(f.Data, want) || img.Bounds().Dx() != render.Width {
		t.Errorf("the picture is not the table drawn by render (%v)", img.Bounds())
	}
}
