package service

// What the players' pages of the web companion show of a server (web's
// players.go draws them): its leaderboards, a player's profile with the
// games they play and played there, and its open challenges. These are
// the data of /leaderboard, /profile, /history and /challenges, for a
// page rather than a picture; what they show is what those commands show
// anyone in the server, nothing of a game's hidden information.

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"tessera"
	"tessera/engine"
	"tessera/picture"
	"tessera/storage"
)

// WebGuild is the server whose players' pages an address names: ENOTFOUND
// for an address the service did not make and for a server that turned
// its pages off, alike.
func (s *Service) WebGuild(ctx context.Context, address string) (string, error) {
	guild, err := s.GuildAt(address)
	if err != nil {
		return "", err
	}
	on, err := s.GuildWebOn(ctx, guild)
	if err != nil {
		return "", err
	}
	if !on {
		return "", errNoPage
	}
	return guild, nil
}

// PlayersURL is the address of a server's players' pages (Web.URL +
// "/s/" + GuildAddress), for /leaderboard's and /profile's answers to
// link; "" when the pages are off, or the server turned them off, or its
// settings cannot be read now.
func (s *Service) PlayersURL(ctx context.Context, guildID string) string {
	if !s.WebOn() || guildID == "" {
		return ""
	}
	if on, err := s.GuildWebOn(ctx, guildID); err != nil || !on {
		return ""
	}
	return s.cfg.Web.URL + "/s/" + s.GuildAddress(guildID)
}

// Labels of the link buttons to the players' pages.
const (
	LeaderboardPageLabel = "Open the leaderboard page"
	ProfilePageLabel     = "Open the profile page"
	ChallengesPageLabel  = "Open the challenges page"
)

// playersButton is a link button to one of the server's players' pages
// (path after the server's address: "/leaderboard/closure",
// "/players/<id>", "/challenges"), or none when there are no pages.
func (s *Service) playersButton(ctx context.Context, guildID, path, label string) []Button {
	u := s.PlayersURL(ctx, guildID)
	if u == "" {
		return nil
	}
	return []Button{{Label: label, URL: u + path}}
}

// WebLeaderboardSize is how many rows a leaderboard page shows.
const WebLeaderboardSize = 100

// WebLeader is a leaderboard row with the player's id, for a link to
// their page.
type WebLeader struct {
	picture.LeaderRow
	UserID string
}

// WebLeaderboard is the page-th page (from 0) of a server's leaderboard of
// a game, best first (at most WebLeaderboardSize rows), with
// /leaderboard's note, and the number of rated players: an ordered read of
// the rows shown.
func (s *Service) WebLeaderboard(ctx context.Context, guild, gameID string, page int) (rows []WebLeader, note string, rated int, err error) {
	g, ok := engine.Lookup(gameID)
	if !ok {
		return nil, "", 0, noGame(gameID)
	}
	skip := max(page, 0) * WebLeaderboardSize
	rs, rated, err := s.store.Leaders(ctx, guild, g.ID, skip, WebLeaderboardSize)
	if err != nil {
		return nil, "", 0, err
	}
	for i, r := range rs {
		rows = append(rows, WebLeader{LeaderRow: s.leaderRow(r, skip+i+1, false), UserID: r.UserID})
	}
	return rows, LeaderNote(cmp.Or(s.cfg.Provisional, Provisional)), rated, nil
}

// WebGameLine is a game as a player's page lists it.
type WebGameLine struct {
	ID     uint64
	Game   string // its name
	Seats  []WebSeatLine
	Status string    // "Ana to move", "Ana wins"
	When   time.Time // its last move (or its start)
	URL    string    // its page, "" when there is none
}

// WebSeatLine is a seat of a listed game.
type WebSeatLine struct {
	Name   string
	UserID string
	Score  int
}

// WebPlayerPage is a player's page: their profile (ratings and their
// course, record against the computer), the games they play in the server
// now (newest first) and a page of the games they finished there.
type WebPlayerPage struct {
	Card     picture.ProfileCard
	InPlay   []WebGameLine
	Finished []WebGameLine
	More     bool // more finished games on the next page
}

// WebHistoryPage is how many finished games a player's page lists.
const WebHistoryPage = 20

// WebPlayer is userID's page in guild, with the page-th page (from 0) of
// their finished games; ENOTFOUND when they have neither a rating nor a
// game there (the page would say nothing, and would tell who plays where).
func (s *Service) WebPlayer(ctx context.Context, guild, userID string, page int) (WebPlayerPage, error) {
	var p WebPlayerPage
	card, err := s.ProfileCard(ctx, guild, User{ID: userID})
	if err != nil {
		return p, err
	}
	p.Card = card
	games, err := s.store.ByPlayer(ctx, userID)
	if err != nil {
		return p, err
	}
	for _, g := range games {
		if g.Status == tessera.StatusPlaying && g.GuildID == guild && g.Seat(userID) >= 0 {
			p.InPlay = append(p.InPlay, s.webLine(ctx, g))
		}
	}
	slices.SortFunc(p.InPlay, func(a, b WebGameLine) int { return cmp.Compare(b.ID, a.ID) })
	here := func(g *tessera.Game) bool { return g.GuildID == guild }
	finished, more, err := s.store.Finished(ctx, userID, here, max(page, 0)*WebHistoryPage, WebHistoryPage)
	if err != nil {
		return p, err
	}
	for _, g := range finished {
		p.Finished = append(p.Finished, s.webLine(ctx, g))
	}
	p.More = more
	if len(card.Games) == 0 && len(p.InPlay) == 0 && len(p.Finished) == 0 && page == 0 {
		return p, errorf(tessera.ENOTFOUND, "There is no player with that id in this server's games.")
	}
	if p.Card.Title == userID { // no rating to name them: a game does
		for _, g := range append(p.InPlay, p.Finished...) {
			for _, seat := range g.Seats {
				if seat.UserID == userID {
					p.Card.Title = seat.Name
				}
			}
		}
	}
	return p, nil
}

// webLine is g as a player's page lists it: what its thread shows anyone.
func (s *Service) webLine(ctx context.Context, g *tessera.Game) WebGameLine {
	l := WebGameLine{ID: g.ID, Game: gameName(g.Setup.Game), When: time.Unix(0, storage.Ended(g)).UTC(), URL: s.GameURL(ctx, g)}
	var scores []int
	if p, err := s.state(g); err == nil {
		scores = p.state.Scores()
		l.Status = picture.Status(picture.NewPanel("", p.state.View(engine.NoSeat), g.Names()).Seats)
		l.Status = strings.TrimPrefix(l.Status, "Game over: ")
	}
	for i, pl := range g.Players {
		seat := WebSeatLine{Name: pl.Name, UserID: pl.ID}
		if i < len(scores) {
			seat.Score = scores[i]
		}
		l.Seats = append(l.Seats, seat)
	}
	return l
}

// WebChallenge is an open challenge as the server's page lists it.
type WebChallenge struct {
	ID       uint64
	Game     string // its name
	By       string // the challenger's name
	Free     int    // seats free
	Seats    int    // seats in all
	Options  string // " with handful=3", "" for none
	Clock    string
	Expires  time.Time
	ByUserID string
	GameID   string
}

// WebChallenges are a server's open challenges, newest first, at most
// WebChallengesShown of them, and how many more it has; a player joins
// one in Discord (/challenges), where they are who they say.
func (s *Service) WebChallenges(ctx context.Context, guild string) (list []WebChallenge, more int, err error) {
	open, total, err := s.store.NewestChallenges(ctx, guild, WebChallengesShown)
	if err != nil {
		return nil, 0, err
	}
	for _, g := range open {
		c := g.ChallengerSeat()
		list = append(list, WebChallenge{ID: g.ID, Game: gameName(g.Setup.Game), GameID: g.Setup.Game, By: g.Players[c].Name, ByUserID: g.Players[c].ID,
			Free: g.Setup.Players - len(g.Players), Seats: g.Setup.Players, Options: optionText(g.Setup.Options), Clock: ClockText(g.Clock),
			Expires: g.Created.Add(s.expireAfter())})
	}
	return list, total - len(list), nil
}

// WebChallengesShown is how many open challenges the web page lists.
const WebChallengesShown = 100
