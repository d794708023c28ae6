package service

import (
	"tessera"
	"tessera/engine"
)

// baseScene is the board the renderer keeps as a game's static layer
// (Renderer.BoardOn): the start position of its kind, player count and
// options, always dealt from the same seed. A fixed seed makes one layer
// serve every game of a kind: Elemental's borders, drawn at random per
// game, then differ only in their four bands, which are drawn again with
// the tiles. Any base gives the same picture; a closer one only saves
// more drawing.
func baseScene(g *tessera.Game) (engine.Scene, bool) {
	setup := g.Setup
	setup.Seed = 1
	st, err := engine.New(setup)
	if err != nil {
		return engine.Scene{}, false
	}
	return st.Board(), true
}
