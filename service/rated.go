package service

import (
	"slices"

	"tessera"
)

// ratedText says, for a challenge's post, whether its game will change
// the players' ratings: "rated", "unrated" (rated:false) or "unrated: the
// computer plays" (games with an AI seat never count; Rated).
func ratedText(g *tessera.Game) string {
	switch {
	case slices.ContainsFunc(g.Players, func(p tessera.Player) bool { return p.IsAI() }):
		return "unrated: the computer plays"
	case g.Unrated:
		return "unrated"
	}
	return "rated"
}
