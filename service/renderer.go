package service

import (
	"tessera/engine"
	"tessera/picture"
)

// Renderer draws the pictures the service answers with, from the
// descriptions in package picture. cmd/tessera wires render.Renderer (PNG
// and GIF through gg); another renderer (SVG for a web page) is another
// adapter, and the service does not change.
type Renderer interface {
	// Board is a board with its panel below; BoardOn the same drawn on
	// base, a static layer kept between moves.
	Board(sc engine.Scene, p picture.Panel) ([]byte, error)
	BoardOn(base, sc engine.Scene, p picture.Panel) ([]byte, error)
	// Scene is a scene alone (a player's hand).
	Scene(sc engine.Scene) ([]byte, error)
	Leaderboard(t picture.LeaderTable) ([]byte, error)
	Profile(c picture.ProfileCard) ([]byte, error)
	// Standings is an event's standings table.
	Standings(s picture.Standings) ([]byte, error)
	// ReplayGIF is an animated replay, one frame per position.
	ReplayGIF(frames []picture.ReplayFrame) ([]byte, error)
}
