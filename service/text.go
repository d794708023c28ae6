package service

import (
	"fmt"
	"sort"
	"strings"

	"tessera"
	"tessera/engine"
)

// capital is text with its first letter in upper case.
func capital(text string) string {
	if text == "" {
		return ""
	}
	return strings.ToUpper(text[:1]) + text[1:]
}

func (s *Service) user(g *tessera.Game, seat int) User {
	p := g.Players[seat]
	return User{ID: p.ID, Name: p.Name}
}

func gameName(id string) string {
	if g, ok := engine.Lookup(id); ok {
		return g.Name
	}
	return id
}

// scoreLine is "Ana 12 · Bo 9".
func scoreLine(g *tessera.Game, st engine.State) string {
	if solo(g) { // alone, the score means little: the puzzle's progress
		if v := st.View(engine.NoSeat).Status; v != "" {
			return v
		}
	}
	var parts []string
	sc := st.Scores()
	for i, p := range g.Players {
		parts = append(parts, fmt.Sprintf("%s %d", p.Name, sc[i]))
	}
	return "Scores: " + strings.Join(parts, " · ")
}

// eventLines writes the engine's events with the players' names.
func eventLines(g *tessera.Game, evs []engine.Event) []string {
	var out []string
	for _, e := range evs {
		if e.Seat == engine.NoSeat || int(e.Seat) >= len(g.Players) {
			out = append(out, e.Text)
		} else {
			out = append(out, g.Players[e.Seat].Name+" "+e.Text)
		}
	}
	return out
}

// deltaText is "+4 (2 connections +3, border +1)" for one seat, plus lines
// for other seats' changes.
func deltaText(g *tessera.Game, o engine.Outcome) string {
	bySeat := map[engine.Seat][]string{}
	var order []engine.Seat
	for _, d := range o.Deltas {
		if _, ok := bySeat[d.Seat]; !ok {
			order = append(order, d.Seat)
		}
		bySeat[d.Seat] = append(bySeat[d.Seat], fmt.Sprintf("%s %+d", d.Reason, d.Points))
	}
	sort.SliceStable(order, func(i, j int) bool { return order[i] == o.Seat && order[j] != o.Seat })
	var parts []string
	for _, s := range order {
		who := g.Players[s].Name
		parts = append(parts, fmt.Sprintf("%s %+d (%s)", who, o.Points(s), strings.Join(bySeat[s], ", ")))
	}
	return strings.Join(parts, "; ")
}

// clockLine says on the picture until when the player to move has (in
// UTC: a picture cannot show each reader's own time), and the banks.
func clockLine(g *tessera.Game, st engine.State, n int) string {
	if g.Clock.Kind == tessera.ClockNone || g.Clock.Kind == "" || st.Over() || n != len(g.Moves) || g.Deadline.IsZero() {
		return ""
	}
	line := fmt.Sprintf("Clock: %s to move by %s", g.Players[st.ToMove()].Name, g.Deadline.UTC().Format("Mon 2 Jan 15:04 UTC"))
	if g.Clock.Kind == tessera.ClockBank {
		var banks []string
		for i, b := range g.Banks {
			banks = append(banks, fmt.Sprintf("%s %s", g.Players[i].Name, Span(b)))
		}
		line += " · banks: " + strings.Join(banks, ", ")
	}
	return line
}
