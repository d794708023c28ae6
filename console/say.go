package console

import (
	"fmt"
	"strconv"
	"strings"

	"tessera"
	"tessera/service"
)

// say is a plain message in a game's place, as a player types one in a
// game's thread on Discord: a move when it is the speaker's turn and it
// reads as one (a move typed as text), chatter otherwise.
//
// The console always reads such moves: moves.plain_text is Discord's
// setting (it needs the gateway's message content), and /say is typed
// on purpose. It used to speak in the console's channel, while each game
// is in its own thread: no game was ever found there, and every move
// said was "(chatter: ignored)".
func (c *Console) say(req service.Request, ref string, args []string) (service.Reply, error) {
	c.n++
	text := strings.Join(args, " ")
	place, err := c.sayPlace(req, ref)
	if err != nil {
		return service.Reply{}, err
	}
	if place != "" {
		req.ChannelID = place
	}
	if !c.svc.PlainMove(req, fmt.Sprint("said", c.n), text) {
		return *private("(chatter: not taken as a move; a move is said in your game on your turn, as in /say h8 BGGY)"), nil
	}
	return *private("(plain-text move)"), nil
}

// sayPlace is where /say speaks: the thread of the game named with #id,
// else of the speaker's only game in play; "" when they have none.
func (c *Console) sayPlace(req service.Request, ref string) (string, error) {
	ctx := req.Context()
	if ref != "" {
		id, err := strconv.ParseUint(strings.TrimPrefix(ref, "#"), 10, 64)
		if err != nil {
			return "", tessera.Errorf(tessera.EINVALID, "%q is not a game's number; write /say #id text.", clip(ref))
		}
		g, err := c.svc.GameOf(ctx, id)
		if err != nil || g.Seat(req.User.ID) < 0 {
			return "", tessera.Errorf(tessera.ENOTFOUND, "You play no game #%d.", id)
		}
		return g.Place(), nil
	}
	games, err := c.svc.GamesOf(ctx, req.User.ID)
	if err != nil {
		return "", err
	}
	var playing []*tessera.Game
	for _, g := range games {
		if g.Status == tessera.StatusPlaying {
			playing = append(playing, g)
		}
	}
	switch len(playing) {
	case 0:
		return "", nil
	case 1:
		return playing[0].Place(), nil
	}
	return "", tessera.Errorf(tessera.EINVALID, "You play %d games: say which with #id after the command, as in /say #%d h8 BGGY.", len(playing), playing[len(playing)-1].ID)
}
