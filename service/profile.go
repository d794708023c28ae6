package service

// /profile: a player's ratings in this server, one block per game with its
// record and course, the games in play, and the games against the
// computer counted by level (they are unrated).

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"

	"tessera"
	"tessera/picture"
)

// profileAIGames bounds how many finished games against the computer a
// profile looks at (each is replayed to find its result).
const profileAIGames = 500

// Profile answers with the picture of user's profile (the caller's when
// user is empty) in the caller's server.
func (s *Service) Profile(req Request, user User) (Reply, error) {
	ctx := req.Context()
	if user.ID == "" {
		user = req.User
	}
	if req.GuildID == "" {
		return Reply{}, errorf(tessera.EINVALID, "Ratings are kept per server: ask for a profile in a server's channel.")
	}
	if bot := s.Bot(); bot.ID != "" && user.ID == bot.ID {
		return Reply{}, errorf(tessera.EINVALID, "%s is the computer: it has no rating; see /profile of a person.", bot.Name)
	}
	card, err := s.ProfileCard(ctx, req.GuildID, user)
	if err != nil {
		return Reply{}, err
	}
	png, err := s.renderer.Profile(card)
	if err != nil {
		return Reply{}, err
	}
	text := fmt.Sprintf("Profile of **%s** in %s: %s, %s in play.", card.Title, neutralWording.Server, plural(ratedGames(card), "rated game"), plural(card.InPlay, "game"))
	return Reply{Text: text, Files: []File{{Name: "profile.png", Data: png}},
		Buttons: s.playersButton(ctx, req.GuildID, "/players/"+url.PathEscape(user.ID), ProfilePageLabel)}, nil
}

func ratedGames(c picture.ProfileCard) int {
	n := 0
	for _, g := range c.Games {
		n += g.Won + g.Lost + g.Shared
	}
	return n
}

// ProfileCard is what /profile draws for user in guild.
func (s *Service) ProfileCard(ctx context.Context, guild string, user User) (picture.ProfileCard, error) {
	card := picture.ProfileCard{Title: user.Name, Note: ProfileNote(cmp.Or(s.cfg.Provisional, Provisional))}
	mine, err := s.store.PlayerRatings(ctx, guild, user.ID)
	if err != nil {
		return card, err
	}
	slices.SortFunc(mine, func(a, b tessera.Rating) int {
		return cmp.Or(cmp.Compare(b.Games, a.Games), strings.Compare(a.Game, b.Game))
	})
	for _, r := range mine {
		if card.Title == "" || card.Title == user.ID {
			card.Title = r.Name
		}
		place, rated, err := s.store.RatingRank(ctx, guild, r.Game, user.ID)
		if err != nil {
			return card, err
		}
		course := []int{DisplayRating(tessera.Rating{Mu: 25, Sigma: 25.0 / 3})}
		best := course[0]
		for _, p := range r.History {
			v := DisplayRating(tessera.Rating{Mu: p.Mu, Sigma: p.Sigma})
			course = append(course, v)
			best = max(best, v)
		}
		card.Games = append(card.Games, picture.ProfileGame{Name: gameName(r.Game), Rating: DisplayRating(r), Provisional: s.provisional(r),
			Won: r.Won, Lost: r.Lost, Shared: r.Shared, Course: course, Best: best, Place: place, Rated: rated})
	}
	if card.Title == "" {
		card.Title = user.ID
	}

	games, err := s.store.ByPlayer(ctx, user.ID)
	if err != nil {
		return card, err
	}
	for _, g := range games {
		if g.Status == tessera.StatusPlaying && g.GuildID == guild && g.Seat(user.ID) >= 0 {
			card.InPlay++
		}
	}

	vsAI := func(g *tessera.Game) bool {
		return g.GuildID == guild && g.Seat(user.ID) >= 0 && slices.ContainsFunc(g.Players, tessera.Player.IsAI)
	}
	finished, _, err := s.store.Finished(ctx, user.ID, vsAI, 0, profileAIGames)
	if err != nil {
		return card, err
	}
	byLevel := map[string]*picture.ProfileAI{}
	for _, g := range finished {
		st, err := Replay(g)
		if err != nil || !st.Over() {
			continue // a record that does not replay is tessera check's to report
		}
		places := Places(g, st)
		seat := g.Seat(user.ID)
		first := 0
		for _, p := range places {
			if p == 0 {
				first++
			}
		}
		var levels []string
		for _, p := range g.Players {
			if p.IsAI() && !slices.Contains(levels, p.AI) {
				levels = append(levels, p.AI)
			}
		}
		for _, l := range levels { // a game against two levels counts for each
			a := byLevel[l]
			if a == nil {
				a = &picture.ProfileAI{Level: l}
				byLevel[l] = a
			}
			switch {
			case places[seat] != 0:
				a.Lost++
			case first > 1:
				a.Shared++
			default:
				a.Won++
			}
		}
	}
	for _, l := range aiLevelOrder {
		if a := byLevel[l]; a != nil {
			card.AI = append(card.AI, *a)
			delete(byLevel, l)
		}
	}
	for _, l := range slices.Sorted(maps.Keys(byLevel)) { // levels this version does not know
		card.AI = append(card.AI, *byLevel[l])
	}
	return card, nil
}

// ProfileNote is the foot of a profile when n games make a rating more
// than provisional.
func ProfileNote(n int) string {
	return fmt.Sprintf("Ratings: 1000 + 40 x (mu - 3 sigma), Weng-Lin; ? provisional: fewer than %d rated games.", n)
}

// aiLevelOrder is the order the profile lists the AI's levels in.
var aiLevelOrder = []string{"easy", "normal", "hard"}
