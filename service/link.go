package service

import (
	"fmt"
	"time"

	"tessera"
)

// Link answers /link: the caller's private link to one of their games,
// in a reply only they see. reset first revokes every link they were
// given before (to any game) by bumping their link epoch. It is refused,
// saying why, when the pages are off.
func (s *Service) Link(req Request, ref string, reset bool) (Reply, error) {
	ctx := req.Context()
	if !s.WebOn() {
		return Reply{}, errorf(tessera.EINVALID, "The game pages are not set up on this bot, so there are no links; play with the commands as usual.")
	}
	g, err := s.findGame(req, ref, inPlay)
	if err != nil {
		return Reply{}, err
	}
	if g.Seat(req.User.ID) < 0 {
		return Reply{}, errorf(tessera.EFORBIDDEN, "You are not playing in game #%d; its page's link is on the game's posts.", g.ID)
	}
	if g.Status != tessera.StatusPlaying && g.Status != tessera.StatusFinished {
		return Reply{}, errorf(tessera.EINVALID, "Game #%d is not in play; there is no page to open.", g.ID)
	}
	on, err := s.GuildWebOn(ctx, g.GuildID)
	if err != nil {
		return Reply{}, err
	}
	if !on {
		return Reply{}, errorf(tessera.EINVALID, "%s turned its game pages off (/settings web:on turns them back on, for members with Manage Server).", capitalToken(neutralWording.Server))
	}
	if reset {
		if _, err := s.store.UpdateUser(ctx, req.User.ID, func(u *tessera.UserSettings, _ storageTx) error {
			u.LinkEpoch++
			return nil
		}); err != nil {
			return Reply{}, err
		}
	}
	u, err := s.PlayerURL(ctx, g, req.User.ID)
	if err != nil {
		return Reply{}, err
	}
	life := plural(int(s.linkTTL()/day), "day")
	text := fmt.Sprintf("Your private link to game #%d: it shows your hand and lets you move, so keep it to yourself. It works for %s.", g.ID, life)
	if reset {
		text = fmt.Sprintf("Every link you were given before no longer works. Your new private link to game #%d: keep it to yourself. It works for %s.", g.ID, life)
	}
	return Reply{Text: text, Ephemeral: true, Buttons: []Button{{Label: fmt.Sprintf("Open game #%d", g.ID), URL: u}}}, nil
}

// linkTTL is how long a private link lives (Web.LinkTTL, or the default).
func (s *Service) linkTTL() time.Duration {
	if ttl := s.cfg.Web.LinkTTL; ttl > 0 && ttl <= MaxLinkTTL {
		return ttl
	}
	return DefaultLinkTTL
}
