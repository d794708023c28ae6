package service

// Rematch: the post that ends a game carries a Rematch button for its
// players. It makes a new challenge to the same players with the seats
// rotated (seat 2 moves first), the same options and clock; the player who
// clicked has accepted, the others accept as usual.

import (
	"fmt"
	"strings"

	"tessera"
	"tessera/engine"
)

const actRematch = "rematch"

func rematchButtons(g *tessera.Game) []Button {
	return []Button{{ID: buttonID(actRematch, g.ID), Label: "Rematch", Style: Primary}}
}

// Rematch challenges the players of a finished game again.
func (s *Service) Rematch(req Request, id uint64) (Reply, error) {
	ctx := req.Context()
	old, err := s.gameByID(req, id)
	if err != nil {
		return Reply{}, err
	}
	if old.Seat(req.User.ID) < 0 {
		return Reply{}, errorf(tessera.EFORBIDDEN, "Only the players of game #%d can ask for its rematch; start your own game with /new.", id)
	}
	if old.Status != tessera.StatusFinished {
		return Reply{}, errorf(tessera.EINVALID, "Game #%d is not over; a rematch comes after the end.", id)
	}
	if old.Rematch != 0 {
		return Reply{}, s.rematchTaken(old)
	}
	if solo(old) { // its post has no Rematch button; nobody would accept
		return Reply{}, errorf(tessera.EINVALID, "Game #%d was played alone: start another with /puzzle.", id)
	}
	n := len(old.Players)
	players := make([]tessera.Player, n)
	for i := range players {
		p := old.Players[(i+1)%n] // the seats rotate: seat 2 moves first
		players[i] = tessera.Player{ID: p.ID, Name: p.Name, Accepted: p.ID == req.User.ID}
	}
	setup := engine.Setup{Game: old.Setup.Game, Players: n, Options: old.Setup.Options} // the seed is drawn when it begins
	if _, err := engine.New(setup); err != nil {
		return Reply{}, err
	}
	now := s.now().UTC()
	rec := &tessera.Game{Status: tessera.StatusChallenge, Setup: setup, Players: players, GuildID: old.GuildID, ChannelID: old.ChannelID,
		Challenger: req.User.ID, Created: now, Updated: now, Clock: old.Clock, NoThread: old.NoThread, Unrated: old.Unrated}
	err = s.store.CreateLinked(ctx, rec, req.InteractionID, old.ID, func(from *tessera.Game) error {
		if from.Rematch != 0 {
			return s.rematchTaken(from)
		}
		return nil
	})
	if err != nil {
		return Reply{}, dup(err)
	}
	var names, mentions, seats []string
	for i, p := range players {
		seats = append(seats, fmt.Sprintf("%s (seat %d)", p.Name, i+1))
		if p.ID != req.User.ID {
			names = append(names, s.mention(User{p.ID, p.Name}))
			mentions = append(mentions, p.ID)
		}
	}
	text := fmt.Sprintf("**%s** asks %s for a rematch of game #%d: **%s** (game #%d)%s, %s, %s. Seats rotated: %s. Accept or decline below; the game starts when everyone has accepted.",
		req.User.Name, joinAnd(names), old.ID, gameName(setup.Game), rec.ID, optionText(setup.Options), ClockText(rec.Clock), ratedText(rec), strings.Join(seats, ", "))
	r := Reply{Text: text, Mentions: mentions, Buttons: []Button{
		{ID: buttonID(actAccept, rec.ID), Label: "Accept", Style: Success},
		{ID: buttonID(actDecline, rec.ID), Label: "Decline", Style: Danger},
		{ID: buttonID(actWithdraw, rec.ID), Label: "Withdraw", Style: Secondary},
	}}
	// Asked for in the old game's thread, the message is in the thread:
	// ChallengeMessage keeps its channel, so that it is rewritten there,
	// and the game gets a thread of its own (a thread can start only from
	// a message in the channel itself).
	r.Challenge = rec.ID
	return r, nil
}

func (s *Service) rematchTaken(g *tessera.Game) error {
	return errorf(tessera.EINVALID, "A rematch of game #%d was already asked for: game #%d.", g.ID, g.Rematch)
}
