package service

// /history: a player's finished games, newest first, a page at a time
// with Previous and Next buttons that turn the page in place.

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"tessera"
	"tessera/engine"
	"tessera/picture"
	"tessera/storage"
)

const (
	actHistory = "history"
	// HistoryPage is how many games a /history page lists.
	HistoryPage = 6
)

// History lists the finished games of user (the caller when empty) that
// the caller may see, of one game kind when gameID is given.
func (s *Service) History(req Request, user User, gameID string) (Reply, error) {
	if user.ID == "" {
		user = req.User
	}
	if gameID = strings.TrimSpace(gameID); gameID != "" {
		g, ok := engine.Lookup(gameID)
		if !ok {
			return Reply{}, noGame(gameID)
		}
		gameID = g.ID
	}
	return s.history(req, user, gameID, 0, false)
}

// historyPage turns a page: the button's id is "history:PAGE:GAME:USER".
func (s *Service) historyPage(req Request, rest string) (Reply, error) {
	parts := strings.SplitN(rest, ":", 3)
	if len(parts) != 3 {
		return Reply{}, unknownButton()
	}
	page, err := strconv.Atoi(parts[0])
	if _, ok := engine.Lookup(parts[1]); err != nil || page < 0 || page > 1e6 || parts[1] != "" && !ok || parts[2] == "" {
		return Reply{}, unknownButton()
	}
	return s.history(req, User{ID: parts[2]}, parts[1], page, true)
}

func (s *Service) history(req Request, user User, gameID string, page int, turn bool) (Reply, error) {
	ctx := req.Context()
	keep := func(g *tessera.Game) bool {
		return visible(g, req) && (gameID == "" || g.Setup.Game == gameID)
	}
	games, more, err := s.store.Finished(ctx, user.ID, keep, page*HistoryPage, HistoryPage)
	if err != nil {
		return Reply{}, err
	}
	if user.Name == "" { // a page turn knows only the id
		user.Name = user.ID
		for _, g := range games {
			if seat := g.Seat(user.ID); seat >= 0 {
				user.Name = g.Players[seat].Name
			}
		}
	}
	whose := user.Name + "'s"
	if user.ID == req.User.ID {
		whose = "Your"
	}
	kind := "finished games"
	if gameID != "" {
		kind = "finished games of " + gameName(gameID)
	}
	if len(games) == 0 && page == 0 {
		return Reply{Text: fmt.Sprintf("%s %s: none yet.", whose, kind), Ephemeral: true, Update: turn}, nil
	}
	lines := []string{fmt.Sprintf("%s %s, newest first (page %d):", whose, kind, page+1)}
	for _, g := range games {
		lines = append(lines, s.historyLine(g))
	}
	if len(games) == 0 {
		lines = append(lines, "No more games.")
	}
	r := Reply{Text: strings.Join(lines, "\n"), Ephemeral: true, Update: turn}
	id := func(p int) string { return fmt.Sprintf("%s:%d:%s:%s", actHistory, p, gameID, user.ID) }
	if page > 0 {
		r.Buttons = append(r.Buttons, Button{ID: id(page - 1), Label: "Previous", Style: Secondary})
	}
	if more {
		r.Buttons = append(r.Buttons, Button{ID: id(page + 1), Label: "Next", Style: Secondary})
	}
	return r, nil
}

// historyLine is one finished game: number, game, players with their
// scores, the result, the date it ended and a link to its thread. Names
// are clipped so that a page stays within Discord's 2000 characters.
func (s *Service) historyLine(g *tessera.Game) string {
	result := "over"
	var scores []string
	if p, err := s.state(g); err == nil {
		sc := p.state.Scores()
		for i, pl := range g.Players {
			scores = append(scores, fmt.Sprintf("%s %d", clipTo(pl.Name, 20), sc[i]))
		}
		st := picture.Status(picture.NewPanel("", p.state.View(engine.NoSeat), g.Names()).Seats)
		result = strings.TrimPrefix(st, "Game over: ")
	}
	line := fmt.Sprintf("#%d %s · %s · %s · %s", g.ID, gameName(g.Setup.Game), strings.Join(scores, ", "), clipTo(result, 60),
		StampToken(time.Unix(0, storage.Ended(g)).UTC(), time.UTC))
	if g.Place() != "" {
		line += " · " + LinkToken(g.GuildID, g.Place())
	}
	return line
}

// FinishedChoices suggests the caller's finished games for /export's
// game: option, newest first.
func (s *Service) FinishedChoices(req Request, typed string) []Choice {
	ctx := req.Context()
	typed = strings.TrimPrefix(strings.ToLower(strings.TrimSpace(typed)), "#")
	var out []Choice
	games, _, err := s.store.Finished(ctx, req.User.ID, func(g *tessera.Game) bool {
		name := fmt.Sprintf("#%d %s", g.ID, vsText(g, req.User.ID))
		return typed == "" || strings.Contains(strings.ToLower(name), typed)
	}, 0, MaxChoices)
	if err != nil {
		return nil
	}
	for _, g := range games {
		name := fmt.Sprintf("#%d %s", g.ID, vsText(g, req.User.ID))
		out = append(out, Choice{Name: clip(name), Value: fmt.Sprint(g.ID)})
	}
	return out
}
