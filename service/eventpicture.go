package service

// The standings picture of a tournament: what its thread shows after
// each game and round, and what /tournament standings answers with; and
// its TRF (tessera tournament trf).

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"tessera"
	"tessera/picture"
	"tessera/tournament"
)

// tieBreakAbbrev is a tie-break's column head, short enough for a
// column of numbers: C.07's acronym, Buchholz cut 1 as BH1; the
// picture's footer spells them out.
func tieBreakAbbrev(code string) string {
	if code == tournament.TBBuchholzCut1 {
		return "BH1"
	}
	return code
}

// StandingsPicture draws an event's standings as they are now: rank,
// player, points, the format's tie-breaks and games played, a player who
// left marked.
func (s *Service) StandingsPicture(e *tessera.Event) (File, error) {
	t, err := StandingsTable(e)
	if err != nil {
		return File{}, err
	}
	png, err := s.renderer.Standings(t)
	if err != nil {
		return File{}, err
	}
	return File{Name: fmt.Sprintf("event-%d-standings.png", e.ID), Data: png}, nil
}

// StandingsTable is what the standings picture of e shows.
func StandingsTable(e *tessera.Event) (picture.Standings, error) {
	st, err := Standings(e) // a knockout's matches read as the library reads them (eventtext.go)
	if err != nil {
		return picture.Standings{}, err
	}
	players := map[string]tournament.Player{}
	for _, p := range e.Pairing.Players {
		players[p.ID] = p
	}
	title := e.Pairing.Name
	if title == "" {
		title = gameName(e.Game) + " " + formatLabel(e.Pairing.Format, false)
	}
	t := picture.Standings{Title: fmt.Sprintf("%s · event #%d", title, e.ID), Subtitle: standingsSubtitle(e)}
	var legend []string
	codes := e.Pairing.TieBreakCodes()
	for _, code := range codes[:min(len(codes), picture.MaxTieBreakColumns)] {
		abbrev := tieBreakAbbrev(code)
		t.Columns = append(t.Columns, abbrev)
		legend = append(legend, abbrev+": "+tournament.TieBreakName(code))
	}
	withdrawn := false
	for _, line := range st {
		p := players[line.ID]
		name := p.Name
		if name == "" {
			name = line.ID
		}
		row := picture.StandingsRow{Rank: strconv.Itoa(line.Rank), Name: name, Points: number(line.Points), Played: line.Games, Withdrawn: p.Withdrawn}
		for _, tb := range line.TieBreaks[:min(len(line.TieBreaks), picture.MaxTieBreakColumns)] {
			row.TieBreaks = append(row.TieBreaks, number(tb.Value))
		}
		withdrawn = withdrawn || p.Withdrawn
		t.Rows = append(t.Rows, row)
	}
	legend = append(legend, "Games: games played")
	if withdrawn {
		legend = append(legend, "(left): no longer paired")
	}
	t.Footer = strings.Join(legend, " · ")
	return t, nil
}

// number is a score or tie-break as the standings show it: at most two
// decimals, none when whole ("2", "1.5", "6.25").
func number(v float64) string {
	return strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64)
}

// standingsSubtitle says where the event stands: entries while it is
// open, the rounds played while it runs, final once finished.
func standingsSubtitle(e *tessera.Event) string {
	switch e.Status {
	case tessera.EventOpen:
		return fmt.Sprintf("Open for entries: %s so far", plural(len(e.Pairing.Players), "player"))
	case tessera.EventFinished:
		return "Final standings"
	case tessera.EventCancelled:
		return "Cancelled"
	}
	t := progressText(e)
	return strings.ToUpper(t[:1]) + t[1:]
}

// WriteTRF writes a two-player event as FIDE's tournament report file
// (tournament.WriteTRF) from the results the standings read: a
// knockout's match of several games is written a game a round, as
// Standings counts it (TRF has one game a player a round). Events at
// tables of three or four have no TRF: the error says so.
func WriteTRF(w io.Writer, e *tessera.Event) error {
	if err := trfRefusal(e); err != nil {
		return err
	}
	return tournament.WriteTRF(w, LibraryView(e))
}

// trfRefusal refuses an event a TRF cannot hold.
func trfRefusal(e *tessera.Event) error {
	if n := e.Pairing.Seats; n > 2 {
		return errorf(tessera.EINVALID, "Tournament #%d is played at tables of %d; a TRF holds two-player events only.", e.ID, n)
	}
	return nil
}

// WriteTRF2026 is WriteTRF in FIDE's TRF-2026 format
// (tournament.WriteTRF2026): the same rounds, and the byes requested for
// rounds not yet paired.
func WriteTRF2026(w io.Writer, e *tessera.Event) error {
	if err := trfRefusal(e); err != nil {
		return err
	}
	return tournament.WriteTRF2026(w, LibraryView(e))
}
