package web

import (
	"fmt"
	"strings"

	"tessera"
	"tessera/service"
)

// describe says a position in words, for whoever cannot see the board:
// words is the board's text alternative (the scores, whose turn, the last
// move, and where each player has played so far, from the record: every
// move's notation names its cells), said is the short line the page's
// live region announces when it shows this position (the move that made
// it and the status line above the board).
func describe(v service.GameView, status string) (words, said string) {
	var b strings.Builder
	if v.Moves == 0 {
		b.WriteString("The start of the game, before any move. ")
	} else {
		fmt.Fprintf(&b, "The board after move %d of %d. ", v.Moves, v.Total)
	}
	if status != "" {
		b.WriteString(sentence(status))
	}
	var scores []string
	for _, s := range v.Seats {
		scores = append(scores, fmt.Sprintf("%s %d", s.Name, s.Score))
	}
	if len(scores) > 0 {
		b.WriteString("Scores: " + strings.Join(scores, ", ") + ". ")
	}
	var last *service.WebMove
	if v.Moves > 0 && v.Moves <= len(v.Record) {
		last = &v.Record[v.Moves-1]
		fmt.Fprintf(&b, "Last move: %s. ", moveWords(*last))
	}
	// Where each player has played: their moves in order, by seat.
	for seat, s := range v.Seats {
		var played []string
		for _, m := range v.Record[:min(v.Moves, len(v.Record))] {
			if m.Seat == seat && tessera.EndOf(m.Text) == "" {
				played = append(played, m.Text)
			}
		}
		if len(played) == 0 {
			fmt.Fprintf(&b, "%s has not played yet. ", s.Name)
			continue
		}
		fmt.Fprintf(&b, "%s has played %s. ", s.Name, strings.Join(played, "; "))
	}
	words = strings.TrimSpace(b.String())

	said = sentence(status)
	if last != nil {
		said = fmt.Sprintf("Move %d: %s. %s", last.N, moveWords(*last), said)
	}
	return words, strings.TrimSpace(said)
}

// moveWords is one record entry: "Bo played h5 YRRY, scoring 6".
func moveWords(m service.WebMove) string {
	switch tessera.EndOf(m.Text) {
	case tessera.EndResign:
		return m.Player + " resigned"
	case tessera.EndTimeout:
		return m.Player + " ran out of time"
	}
	out := m.Player + " played " + m.Text
	switch {
	case m.Points > 0:
		out += fmt.Sprintf(", scoring %d", m.Points)
	case m.Points < 0:
		out += fmt.Sprintf(", losing %d", -m.Points)
	}
	return out
}

// sentence ends s with a full stop and a space, unless it has one.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	if !strings.ContainsAny(s[len(s)-1:], ".!?") {
		s += "."
	}
	return s + " "
}
