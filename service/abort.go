package service

import (
	"fmt"
	"time"

	"tessera"
)

// Abort ends a game without result, before its second move. On a
// challenge, the challenger's /abort withdraws it and an invited player's
// declines it.
func (s *Service) Abort(req Request, ref string) (Reply, error) {
	ctx := req.Context()
	g, err := s.findGame(req, ref, orChallenging)
	if err != nil {
		return Reply{}, err
	}
	seat := g.Seat(req.User.ID)
	if seat < 0 {
		return Reply{}, errorf(tessera.EFORBIDDEN, "You are not playing in game #%d.", g.ID)
	}
	if g.Status == tessera.StatusChallenge {
		if seat == g.ChallengerSeat() {
			return s.Withdraw(req, g.ID)
		}
		return s.Decline(req, g.ID)
	}
	if !g.Active() {
		return Reply{}, errorf(tessera.EINVALID, "Game #%d is over.", g.ID)
	}
	if g.Event != 0 {
		return Reply{}, errorf(tessera.EINVALID, "Game #%d is a tournament game: aborting it would leave its round without a result. Use /resign instead.", g.ID)
	}
	if len(g.Moves) >= 2 {
		return Reply{}, errorf(tessera.EINVALID, "Game #%d has had %d moves; only a game before its second move can be aborted. Use /resign.", g.ID, len(g.Moves))
	}
	_, err = s.store.Update(ctx, g.ID, g.Version, req.InteractionID, func(g *tessera.Game, tx storageTx) error {
		g.Status, g.Deadline, g.Updated = tessera.StatusAborted, time.Time{}, s.now().UTC()
		text := fmt.Sprintf("%s aborted game #%d: no result.", req.User.Name, g.ID)
		return enqueue(ctx, tx, []tessera.Announcement{
			{Kind: tessera.AnnouncePost, Text: text, GameID: g.ID, Moves: len(g.Moves)},
			{Kind: tessera.AnnounceStatus, GameID: g.ID, Moves: len(g.Moves)},
		})
	})
	if err != nil {
		return Reply{}, dup(err)
	}
	s.poke()
	// The game's place says it publicly; from another server only the
	// caller is told.
	return Reply{Text: fmt.Sprintf("Game #%d is aborted, without result.", g.ID), Ephemeral: elsewhere(g, req)}, nil
}
