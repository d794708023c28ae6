package service

import (
	"context"
	"fmt"

	"tessera"
	"tessera/storage"
)

// A challenge is posted with buttons (Accept, Decline, Join, Withdraw).
// Once it is settled (the game began, or it was declined, withdrawn or
// expired) those buttons can only be refused, so the courier rewrites the
// challenge's message to say what became of it, with no buttons. The
// message is the one the transport recorded (ChallengeMessage); the
// game's thread, if any, hangs from it.

// settle enqueues the rewrite of g's challenge message, inside the store
// transaction that settled it.
func (s *Service) settle(ctx context.Context, tx storage.Tx, g *tessera.Game, text string) error {
	g.Settled = text
	return tx.Enqueue(ctx, tessera.Announcement{Kind: tessera.AnnounceSettle, GameID: g.ID, Text: text})
}

// begunText is a begun game's challenge message: who plays, and where.
func (s *Service) begunText(g *tessera.Game) string {
	var names []string
	for _, p := range g.Players {
		names = append(names, p.Name)
	}
	return fmt.Sprintf("**%s**, game #%d%s, between %s: accepted; the game is played %s.",
		gameName(g.Setup.Game), g.ID, optionText(g.Setup.Options), joinAnd(names), s.where(g))
}

// endedChallengeText is the message of a challenge that ended unplayed.
func endedChallengeText(g *tessera.Game, what string) string {
	return fmt.Sprintf("**%s**, game #%d%s: %s.", gameName(g.Setup.Game), g.ID, optionText(g.Setup.Options), what)
}

// settledText is what a challenge's message says once g is no longer a
// challenge ("" while it is): for ChallengeMessage, when the challenge
// was settled before its message was recorded.
func (s *Service) settledText(g *tessera.Game) string {
	switch {
	case g.Status == tessera.StatusChallenge:
		return ""
	case g.Settled != "":
		return g.Settled
	}
	switch g.Status { // a record from before Settled
	case tessera.StatusDeclined, tessera.StatusWithdrawn, tessera.StatusExpired:
		return endedChallengeText(g, s.endedText(g))
	}
	return s.begunText(g)
}

// hadButtons reports whether g's challenge was posted with buttons: not a
// game played alone, nor one against the AI alone (both begin at once).
func hadButtons(g *tessera.Game) bool {
	for i, p := range g.Players {
		if i != g.ChallengerSeat() && !p.IsAI() {
			return true
		}
	}
	return g.Open // an open challenge waits for people it does not name
}
