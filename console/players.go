package console

import (
	"fmt"
	"strconv"
	"strings"

	"tessera/service"
)

// newOpen posts an open challenge: "/new tilingking seats=3 clock=3d".
func (c *Console) newOpen(req service.Request, game string, words []string, clock string) (service.Reply, error) {
	seats := 0
	var opts []string
	for _, w := range words {
		if v, ok := strings.CutPrefix(w, "seats="); ok {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > 4 {
				return service.Reply{Text: "Write seats=N with N the number of players (2 to 4).", Ephemeral: true}, nil
			}
			seats = n
			continue
		}
		opts = append(opts, w)
	}
	return c.svc.NewOpen(req, game, seats, strings.Join(opts, " "), clock)
}

// players runs the commands about finding opponents and past games:
// /join #id, /challenges, /history [user] [game], /export #id,
// /replay #id [from] [to].
func (c *Console) players(req service.Request, cmd, ref string, args []string) (service.Reply, error) {
	switch cmd {
	case "join":
		if ref == "" && len(args) == 1 {
			ref = args[0]
		}
		if ref == "" {
			return service.Reply{Text: "Write /join #id (/challenges lists the open challenges).", Ephemeral: true}, nil
		}
		return c.svc.Click(req, "join:"+strings.TrimPrefix(ref, "#"))
	case "challenges":
		return c.svc.Challenges(req)
	case "history":
		var u service.User
		game := ""
		for _, a := range args {
			if _, isGame := gameID(a); isGame {
				game = a
			} else if name, ok := opponentName(a); ok {
				u = user(name)
			} else {
				return service.Reply{Text: fmt.Sprintf("%q is neither a game nor a player; write /history [player] [game].", clip(a)), Ephemeral: true}, nil
			}
		}
		return c.svc.History(req, u, game)
	case "replay":
		var span []int
		for _, a := range args {
			n, err := strconv.Atoi(a)
			if err != nil || n < 1 || len(span) == 2 {
				return service.Reply{Text: "Write /replay #id [from] [to], with move numbers.", Ephemeral: true}, nil
			}
			span = append(span, n)
		}
		span = append(span, 0, 0)
		return c.svc.ReplayGIF(req, ref, span[0], span[1])
	}
	if ref == "" && len(args) == 1 {
		ref = args[0]
	}
	return c.svc.Export(req, ref)
}

// gameID reports whether a word names a game.
func gameID(word string) (string, bool) {
	for _, g := range service.GameIDs() {
		if strings.EqualFold(word, g.Value) {
			return g.Value, true
		}
	}
	return "", false
}
