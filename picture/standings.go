package picture

import (
	"fmt"

	"tessera/engine"
)

// StandingsRow is one player's line of an event's standings.
type StandingsRow struct {
	Rank      string   // "1" for the first
	Name      string   //
	Points    string   // as shown: "3.5"
	TieBreaks []string // one per Standings.Columns, as shown
	Played    int      // games played (byes not counted)
	Withdrawn bool     // left or removed: no longer paired
}

// Standings is an event's standings table: rank, player, points, the
// format's tie-breaks in the order they count, and games played.
type Standings struct {
	Title    string         // e.g. "Closure Swiss · event #3"
	Subtitle string         // e.g. "After round 2 of 4"
	Columns  []string       // the tie-breaks' short names (their heads)
	Rows     []StandingsRow // first place first
	Footer   string         // a line at the foot (what the heads mean)
}

// MaxTieBreakColumns is how many tie-break columns a standings picture
// draws (every format has at most two): with more, the names would have
// no room.
const MaxTieBreakColumns = 2

// Heads are the heads of the standings' number columns, left to right:
// points, the tie-breaks (at most MaxTieBreakColumns) and games played.
func (s Standings) Heads() []string {
	tbs := s.Columns
	if len(tbs) > MaxTieBreakColumns {
		tbs = tbs[:MaxTieBreakColumns]
	}
	return append(append([]string{"Pts"}, tbs...), "Games")
}

// Cells are a row's number cells, as Heads heads them (a missing
// tie-break is blank).
func (s Standings) Cells(r StandingsRow) []string {
	heads := s.Heads()
	cells := []string{r.Points}
	for i := range len(heads) - 2 {
		v := ""
		if i < len(r.TieBreaks) {
			v = r.TieBreaks[i]
		}
		cells = append(cells, v)
	}
	return append(cells, fmt.Sprint(r.Played))
}

// Label is a row's name as drawn: marked when the player left.
func (r StandingsRow) Label() string {
	if r.Withdrawn {
		return r.Name + " (left)"
	}
	return r.Name
}

// The standings' layout, shared by render/ and svg/ as the panel's is.
const (
	StandingsRowH = 40 // a player's row
	// The number columns are right-aligned from the right edge: points
	// in standingsPointsW, a tie-break ("3012.25", a Sonneborn-Berger of
	// a long round robin) in standingsTieW, games (its head is the
	// widest) in standingsGamesW.
	standingsPointsW   = 90
	standingsTieW      = 112
	standingsGamesW    = 100
	standingsTitleSize = 30
)

// StandingsShade is the colour of every other row.
var StandingsShade = engine.Hex("#ebe4d4")

// StandingsLayout is everything a standings picture draws, placed.
type StandingsLayout struct {
	H      float64   // the picture's height
	Lines  []Line    //
	Shades []float64 // the tops of the shaded rows, each StandingsRowH high from pad/2 to the width less pad/2
}

// LayoutStandings places s's texts on a picture width pixels wide with
// margins of pad, measuring texts with m: the title, where the event
// stands, the heads, a row per player (the leader's name in bold, a
// player who left in grey) and the footer, wrapped.
func LayoutStandings(m Measure, s Standings, width, pad float64) StandingsLayout {
	at := func(px float64, bold bool) func(string) float64 {
		return func(t string) float64 { return m(t, px, bold) }
	}
	var l StandingsLayout
	line := func(text string, px float64, bold bool, x, y float64, align engine.Align, c engine.Color) {
		if text != "" {
			l.Lines = append(l.Lines, Line{text, px, bold, x, y, align, c})
		}
	}
	line(Fit(at(standingsTitleSize, true), s.Title, width-2*pad), standingsTitleSize, true, pad, 32, engine.Left, engine.Ink)
	headY := 80.0
	if s.Subtitle != "" {
		line(Fit(at(TextSize, false), s.Subtitle, width-2*pad), TextSize, false, pad, 72, engine.Left, PanelGrey)
		headY = 112
	}
	heads := s.Heads()
	right := make([]float64, len(heads))
	x := width - pad
	for i := len(heads) - 1; i >= 0; i-- {
		right[i] = x
		switch i {
		case len(heads) - 1:
			x -= standingsGamesW
		case 0:
			x -= standingsPointsW
		default:
			x -= standingsTieW
		}
	}
	nameW := x + 12 - (pad + 64)
	line("#", TextSize, true, pad+44, headY, engine.Right, PanelGrey)
	line("Player", TextSize, true, pad+64, headY, engine.Left, PanelGrey)
	for i, h := range heads {
		line(h, TextSize, true, right[i], headY, engine.Right, PanelGrey)
	}
	top := headY + 24
	if len(s.Rows) == 0 {
		line("No players yet.", TextSize, false, pad+64, top+StandingsRowH/2, engine.Left, PanelGrey)
	}
	for i, r := range s.Rows {
		y := top + float64(i*StandingsRowH)
		if i%2 == 1 {
			l.Shades = append(l.Shades, y)
		}
		ink := engine.Ink
		if r.Withdrawn {
			ink = PanelGrey
		}
		cy := y + StandingsRowH/2
		strong := i == 0 && !r.Withdrawn
		line(r.Rank, TextSize, false, pad+44, cy, engine.Right, ink)
		line(Fit(at(TextSize, strong), r.Label(), nameW), TextSize, strong, pad+64, cy, engine.Left, ink)
		for j, v := range s.Cells(r) {
			line(v, TextSize, j == 0, right[j], cy, engine.Right, ink)
		}
	}
	y := top + float64(max(1, len(s.Rows))*StandingsRowH) + 12
	for _, t := range Wrap(at(TextSize, false), s.Footer, width-2*pad) {
		line(t, TextSize, false, pad, y+TextLineH/2, engine.Left, PanelGrey)
		y += TextLineH
	}
	l.H = y + 8
	return l
}
