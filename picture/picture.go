// Package picture describes the pictures Tessera draws, without drawing
// them: the panel below a board, a leaderboard, a profile card, the frames
// of a replay, an event's standings. The service fills them in; a renderer (render/, PNG and GIF
// through gg; a web page's SVG one day) draws them. It depends only on the
// engine.
package picture

import (
	"fmt"
	"strings"

	"tessera/engine"
)

// Seat is one row of the panel.
type Seat struct {
	Name string
	engine.SeatView
}

// Panel is everything the picture shows besides the board.
type Panel struct {
	Title  string // e.g. "Elemental Connection · game 12"
	Status string // e.g. "Ana to move"
	Seats  []Seat
	Legend []string
}

// NewPanel builds the panel from a game's view and the players' names.
func NewPanel(title string, v engine.View, names []string) Panel {
	p := Panel{Title: title, Status: v.Status, Legend: v.Legend}
	for i, s := range v.Seats {
		name := fmt.Sprintf("Seat %d", i+1)
		if i < len(names) && names[i] != "" {
			name = names[i]
		}
		p.Seats = append(p.Seats, Seat{Name: name, SeatView: s})
	}
	if p.Status == "" {
		p.Status = Status(p.Seats)
	}
	return p
}

// SeatTitle is a seat's line in a panel: "ana (Red) – wins", with one
// space around the dash.
func SeatTitle(s Seat) string {
	name := s.Name
	if s.Label != "" {
		name += " (" + s.Label + ")"
	}
	if s.Winner {
		name += " – wins"
	}
	if s.Resigned {
		name += " – resigned"
	}
	return name
}

// Status says whose turn it is, or who won.
func Status(seats []Seat) string {
	var win []string
	for _, s := range seats {
		if s.ToMove {
			return s.Name + " to move"
		}
		if s.Winner {
			win = append(win, s.Name)
		}
	}
	switch len(win) {
	case 0:
		return "Game over"
	case 1:
		return "Game over: " + win[0] + " wins"
	}
	return "Game over: " + strings.Join(win[:len(win)-1], ", ") + " and " + win[len(win)-1] + " share the win"
}

// LeaderRow is one player's line of a leaderboard.
type LeaderRow struct {
	Place       int    // 1 for the best
	Name        string //
	Rating      int    // as displayed (see service.DisplayRating)
	Games, Wins int    //
	Provisional bool   // too few games for the rating to mean much yet
	Me          bool   // the caller's own row, highlighted
}

// LeaderTable is a whole leaderboard.
type LeaderTable struct {
	Title string      // e.g. "Elemental Connection: leaderboard"
	Rows  []LeaderRow // the top, best first
	Own   *LeaderRow  // the caller's row when not in Rows
	Note  string      // a line at the foot (what the marks mean)
}

// ProfileGame is one game's block of a profile.
type ProfileGame struct {
	Name               string // the game's name
	Rating             int    // as displayed
	Provisional        bool
	Won, Lost, Shared  int
	Course             []int // the displayed rating before the first game and after each, oldest first
	Best, Place, Rated int   // best rating reached; place in the server of Rated players
}

// ProfileAI is the record against the computer at one level.
type ProfileAI struct {
	Level             string
	Won, Lost, Shared int
}

// ProfileCard is a whole profile.
type ProfileCard struct {
	Title  string // the player's name
	InPlay int    // games in play now
	Games  []ProfileGame
	AI     []ProfileAI
	Note   string
}

// ReplayFrame is one position of an animated replay.
type ReplayFrame struct {
	Scene   engine.Scene
	Panel   Panel
	Caption string // e.g. "Move 12 of 64 · Ana: d4 RGBY"
}
