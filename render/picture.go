package render

import (
	"tessera/engine"
	"tessera/picture"
)

// The descriptions of pictures live in package picture, which the service
// fills in without importing this package; these names keep render's own
// code and tests short.
type (
	Seat         = picture.Seat
	Panel        = picture.Panel
	LeaderRow    = picture.LeaderRow
	LeaderTable  = picture.LeaderTable
	ProfileGame  = picture.ProfileGame
	ProfileAI    = picture.ProfileAI
	ProfileCard  = picture.ProfileCard
	ReplayFrame  = picture.ReplayFrame
	Standings    = picture.Standings
	StandingsRow = picture.StandingsRow
)

// NewPanel is picture.NewPanel.
func NewPanel(title string, v engine.View, names []string) Panel {
	return picture.NewPanel(title, v, names)
}

// SeatTitle is picture.SeatTitle.
func SeatTitle(s Seat) string { return picture.SeatTitle(s) }

// Status is picture.Status.
func Status(seats []Seat) string { return picture.Status(seats) }

// Renderer draws pictures as PNG (and replays as GIF) with gg: the
// service's renderer, wired in cmd/tessera.
type Renderer struct{}

// Board is Board.
func (Renderer) Board(sc engine.Scene, p Panel) ([]byte, error) { return Board(sc, p) }

// BoardOn is BoardOn.
func (Renderer) BoardOn(base, sc engine.Scene, p Panel) ([]byte, error) { return BoardOn(base, sc, p) }

// Scene is Scene.
func (Renderer) Scene(sc engine.Scene) ([]byte, error) { return Scene(sc) }

// Leaderboard is Leaderboard.
func (Renderer) Leaderboard(t LeaderTable) ([]byte, error) { return Leaderboard(t) }

// Profile is Profile.
func (Renderer) Profile(c ProfileCard) ([]byte, error) { return Profile(c) }

// Standings is Standings.
func (Renderer) Standings(s Standings) ([]byte, error) { return DrawStandings(s) }

// ReplayGIF is ReplayGIF.
func (Renderer) ReplayGIF(frames []ReplayFrame) ([]byte, error) { return ReplayGIF(frames) }
