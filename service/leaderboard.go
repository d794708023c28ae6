package service

// /leaderboard: a server's best players of one game, as a picture.

import (
	"cmp"
	"fmt"
	"math"
	"strings"

	"tessera"
	"tessera/engine"
	"tessera/picture"
	"tessera/rating"
)

// LeaderboardSize is how many players /leaderboard shows.
const LeaderboardSize = 20

// DisplayRating is the number players see: the ordinal mu - 3 sigma (a
// skill the player has with 99.7% belief) scaled to an Elo-like range,
// 1000 + 40 x ordinal, rounded. A new player shows 1000; one new player's
// first win over another gives 1138 and 927. The ordinal, unlike mu, is
// cautious: early on it can rise after a loss, because the belief grows
// surer.
func DisplayRating(r tessera.Rating) int {
	return int(math.Round(1000 + 40*rating.Rating{Mu: r.Mu, Sigma: r.Sigma}.Ordinal()))
}

// leaderRow is r's line at place.
func (s *Service) leaderRow(r tessera.Rating, place int, me bool) picture.LeaderRow {
	return picture.LeaderRow{Place: place, Name: r.Name, Rating: DisplayRating(r), Games: r.Games, Wins: r.Won + r.Shared,
		Provisional: s.provisional(r), Me: me}
}

// provisional reports whether r has too few games to be shown unmarked
// (Config.Provisional).
func (s *Service) provisional(r tessera.Rating) bool {
	n := s.cfg.Provisional
	if n == 0 {
		n = Provisional
	}
	return r.Games < n
}

// LeaderNote is the foot of a leaderboard when n games make a rating
// more than provisional.
func LeaderNote(n int) string {
	return fmt.Sprintf("? provisional: fewer than %d rated games. Wins count shared first places.", n)
}

// Leaderboard answers with the picture of the server's top players of a
// game, and the caller's own place when they are not among them.
func (s *Service) Leaderboard(req Request, gameID string) (Reply, error) {
	ctx := req.Context()
	g, ok := engine.Lookup(strings.TrimSpace(gameID))
	if !ok {
		return Reply{}, noGame(gameID)
	}
	if req.GuildID == "" {
		return Reply{}, errorf(tessera.EINVALID, "Ratings are kept per server: ask for the leaderboard in a server's channel.")
	}
	// The rows shown, read in the leaderboard's order (storage.CompareRank),
	// and the caller's own place when it is not among them: reads of what
	// the picture shows, whatever the number of rated players.
	rs, rated, err := s.store.Leaders(ctx, req.GuildID, g.ID, 0, LeaderboardSize)
	if err != nil {
		return Reply{}, err
	}
	t := picture.LeaderTable{Title: g.Name + ": leaderboard", Note: LeaderNote(cmp.Or(s.cfg.Provisional, Provisional))}
	var mine string
	youAre := func(r tessera.Rating, place int) string {
		return fmt.Sprintf(" You are %s with %d%s after %s.", ordinal(place), DisplayRating(r), s.provisionalMark(r), plural(r.Games, "rated game"))
	}
	for i, r := range rs {
		me := r.UserID == req.User.ID
		t.Rows = append(t.Rows, s.leaderRow(r, i+1, me))
		if me {
			mine = youAre(r, i+1)
		}
	}
	if mine == "" {
		r, ok, err := s.store.PlayerRating(ctx, req.GuildID, g.ID, req.User.ID)
		if err != nil {
			return Reply{}, err
		}
		place := 0
		if ok {
			if place, _, err = s.store.RatingRank(ctx, req.GuildID, g.ID, req.User.ID); err != nil {
				return Reply{}, err
			}
		}
		if place > 0 {
			row := s.leaderRow(r, place, true)
			t.Own = &row
			mine = youAre(r, place)
		} else {
			mine = " You have no rated game of it here yet."
		}
	}
	png, err := s.renderer.Leaderboard(t)
	if err != nil {
		return Reply{}, err
	}
	text := fmt.Sprintf("**%s** leaderboard of %s: %s.%s", g.Name, neutralWording.Server, plural(rated, "rated player"), mine)
	return Reply{Text: text, Files: []File{{Name: "leaderboard.png", Data: png}},
		Buttons: s.playersButton(ctx, req.GuildID, "/leaderboard/"+g.ID, LeaderboardPageLabel)}, nil
}

func (s *Service) provisionalMark(r tessera.Rating) string {
	if s.provisional(r) {
		return " (provisional)"
	}
	return ""
}

// ordinal is 1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, 21st.
func ordinal(n int) string {
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return fmt.Sprint(n, suffix)
}
