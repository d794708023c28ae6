package service

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"tessera"
	"tessera/storage"
)

func parseGameRef(ref string) (uint64, bool) {
	ref = strings.TrimPrefix(strings.TrimSpace(ref), "#")
	if ref == "" {
		return 0, false
	}
	// Autocomplete values are the number; a typed "12 elemental" works too.
	if i := strings.IndexAny(ref, " :"); i > 0 {
		ref = ref[:i]
	}
	id, err := strconv.ParseUint(ref, 10, 64)
	return id, err == nil
}

// visible reports whether req may see game g: in its own server (guild),
// or anywhere by its players. A game is never shown to a stranger in
// another server, which would post its board and players' names there.
func visible(g *tessera.Game, req Request) bool {
	return g.GuildID == req.GuildID || g.Seat(req.User.ID) >= 0
}

// elsewhere reports whether req comes from outside g's server: a player
// may see the game there, but only privately.
func elsewhere(g *tessera.Game, req Request) bool { return g.GuildID != req.GuildID }

// lookup says which games a command without a game: option considers.
type lookup int

const (
	inPlay        lookup = iota // games in play in the channel
	toMove                      // the same, preferring the one where it is the caller's turn
	orChallenging               // also the caller's challenges (for /abort)
)

// gameByID loads a game the caller named. A game the caller may not see
// gets the same answer as one that does not exist, so a stranger learns
// nothing, not even that it exists.
func (s *Service) gameByID(req Request, id uint64) (*tessera.Game, error) {
	ctx := req.Context()
	g, err := s.store.Game(ctx, id)
	if errors.Is(err, storage.ErrNotFound) || err == nil && !visible(g, req) {
		return nil, errorf(tessera.ENOTFOUND, "There is no game #%d.", id)
	}
	return g, err
}

// findGame resolves which game a command is about: the game: option when
// given (and visible to the caller), else the caller's only game in this
// channel (for a move, the only one where it is their turn).
func (s *Service) findGame(req Request, ref string, which lookup) (*tessera.Game, error) {
	ctx := req.Context()
	forMove := which == toMove
	if strings.TrimSpace(ref) != "" {
		id, ok := parseGameRef(ref)
		if !ok {
			return nil, errorf(tessera.EINVALID, "%s is not a game number; pick one of your games from the list.", typed(ref))
		}
		return s.gameByID(req, id)
	}
	// The caller's own games here decide most lookups; the channel's
	// other games are read only when the caller has none (a spectator's
	// /board, or to say why nothing was found).
	games, err := s.store.ByChannelPlayer(ctx, req.ChannelID, req.User.ID)
	if err != nil {
		return nil, err
	}
	here, mine, myTurn, ended := s.sortGames(req, games, which)
	if len(mine) == 0 {
		if games, err = s.store.ByChannel(ctx, req.ChannelID); err != nil {
			return nil, err
		}
		here, mine, myTurn, ended = s.sortGames(req, games, which)
	}
	switch {
	case len(mine) == 1:
		return mine[0], nil
	case forMove && len(myTurn) == 1:
		return myTurn[0], nil
	case len(mine) == 0 && len(here) == 1 && !forMove:
		return here[0], nil
	case len(here) == 0 && ended != nil:
		return ended, nil // the command says the game is over, or shows it
	case len(mine) == 0 && len(here) == 0:
		return nil, errorf(tessera.ENOTFOUND, "There is no game in play in %s. Start one with /new.", neutralWording.Channel)
	case len(mine) == 0 && forMove:
		return nil, errorf(tessera.EFORBIDDEN, "You are not playing in any game in %s.", neutralWording.Channel)
	}
	var ids []string
	list := mine
	if len(list) == 0 {
		list = here
	}
	for _, g := range list {
		ids = append(ids, fmt.Sprintf("#%d", g.ID))
	}
	return nil, errorf(tessera.EINVALID, "%s has several games (%s): say which with %s.", capitalToken(neutralWording.Channel), strings.Join(ids, ", "), neutralWording.PickGame)
}

// sortGames sorts the games a lookup read: those in play here (and the
// caller's challenges, for orChallenging), the caller's among them, those
// where it is the caller's turn, and the finished game whose own thread
// this is.
func (s *Service) sortGames(req Request, games []*tessera.Game, which lookup) (here, mine, myTurn []*tessera.Game, ended *tessera.Game) {
	for _, g := range games {
		if !visible(g, req) {
			continue // a channel is in one server; this is only a guard
		}
		if g.Status == tessera.StatusChallenge && which == orChallenging && g.Seat(req.User.ID) >= 0 {
			here = append(here, g)
			mine = append(mine, g)
			continue
		}
		if g.Status != tessera.StatusPlaying {
			if g.ThreadID == req.ChannelID && g.ThreadID != g.ChannelID {
				ended = g
			}
			continue
		}
		here = append(here, g)
		if seat := g.Seat(req.User.ID); seat >= 0 {
			mine = append(mine, g)
			if p, err := s.state(g); err == nil && int(p.state.ToMove()) == seat {
				myTurn = append(myTurn, g)
			}
		}
	}
	return here, mine, myTurn, ended
}
