package service

// Open challenges: /new with no opponent posts a challenge anyone in the
// server may join; it starts when its seats are taken, and expires after
// Config.ChallengeExpire with a note in its channel.

import (
	"context"
	"fmt"
	"strings"
	"time"

	"tessera"
	"tessera/engine"
	"tessera/storage"
)

// Open-challenge settings.
const (
	DefaultChallengeExpire = 7 * day
	MinChallengeExpire     = time.Hour
	MaxChallengeExpire     = 90 * day
	// maxOpenPerUser bounds the open challenges one player keeps in a
	// server, so that /challenges stays readable.
	maxOpenPerUser = 5
	// maxListed is how many open challenges /challenges shows: one Join
	// button each, and Discord allows 5 rows of 5 buttons.
	maxListed = 25
)

const actJoin = "join"

// ParseSpan reads a duration as the clocks do ("7d", "36h", "1d12h").
func ParseSpan(s string) (time.Duration, error) { return parseSpan(s) }

// expireAfter is the open challenges' lifetime.
func (s *Service) expireAfter() time.Duration {
	if s.cfg.ChallengeExpire <= 0 {
		return DefaultChallengeExpire
	}
	return s.cfg.ChallengeExpire
}

// gameSetup checks a game id, reads the options (with the server's
// defaults for those not given) and the clock, as /new does.
func (s *Service) gameSetup(gameID, options, clock string) (engine.Game, map[string]string, tessera.Clock, error) {
	g, ok := engine.Lookup(gameID)
	if !ok {
		return g, nil, tessera.Clock{}, noGame(gameID)
	}
	opts, err := s.options(g, options)
	if err != nil {
		return g, nil, tessera.Clock{}, err
	}
	clk, err := s.clockOf(clock)
	if err != nil {
		return g, nil, tessera.Clock{}, err
	}
	return g, opts, clk, nil
}

// options are a new game's options: the "name=value" words given (space
// or comma between them), then the configured defaults of its game for
// those not given.
func (s *Service) options(g engine.Game, options string) (map[string]string, error) {
	opts, err := engine.ParseOptions(strings.FieldsFunc(options, func(r rune) bool { return r == ' ' || r == ',' }))
	if err != nil {
		return nil, err
	}
	if def := s.defs[g.ID]; def != "" {
		defs, err := engine.ParseOptions(strings.Fields(def))
		if err != nil {
			return nil, err
		}
		for k, v := range defs {
			if _, given := opts[k]; !given {
				opts[k] = v
			}
		}
	}
	return opts, nil
}

// clockOf is a new game's time control: the one given, else the
// configured default.
func (s *Service) clockOf(clock string) (tessera.Clock, error) {
	if strings.TrimSpace(clock) == "" {
		return s.clock, nil
	}
	return ParseClock(clock)
}

// NewOpen posts an open challenge for r.Seats players (0: the fewest the
// game allows with these options); r.Opponents and r.Level are not used. A game whose options make it a game
// for one (a Knotwork puzzle) starts at once instead.
func (s *Service) NewOpen(req Request, r NewGameRequest) (Reply, error) {
	gameID, seats, options, clock := r.Game, r.Seats, r.Options, r.Clock
	ctx := req.Context()
	g, opts, clk, err := s.gameSetup(gameID, options, clock)
	if err != nil {
		return Reply{}, err
	}
	if seats == 0 {
		for n := g.MinPlayers; n <= g.MaxPlayers && seats == 0; n++ {
			if _, err := engine.New(engine.Setup{Game: g.ID, Players: n, Options: opts, Seed: 1}); err == nil {
				seats = n
			}
		}
		if seats == 0 {
			seats = g.MinPlayers // the error below says what is wrong
		}
	} else if seats < g.MinPlayers || seats > g.MaxPlayers {
		if g.MinPlayers == g.MaxPlayers {
			return Reply{}, errorf(tessera.EINVALID, "%s is for exactly %d players; leave seats: out.", g.Name, g.MinPlayers)
		}
		return Reply{}, errorf(tessera.EINVALID, "%s is for %d to %d players; give seats: in that range.", g.Name, g.MinPlayers, g.MaxPlayers)
	}
	setup := engine.Setup{Game: g.ID, Players: seats, Options: opts} // the seed is drawn when it begins
	if _, err := engine.New(setup); err != nil {
		return Reply{}, err
	}
	now := s.now().UTC()
	rec := &tessera.Game{Status: tessera.StatusChallenge, Open: seats > 1, Setup: setup, GuildID: req.GuildID, ChannelID: req.ChannelID,
		Players: []tessera.Player{{ID: req.User.ID, Name: req.User.Name, Accepted: true}},
		Created: now, Updated: now, Clock: clk, NoThread: s.cfg.NoThreads, Unrated: req.Unrated}
	var limit func(g *tessera.Game, tx storage.Tx) error
	if seats > 1 {
		// Counted in the creating transaction: requests at once (in any
		// process) count one after the other, each seeing the others'.
		limit = func(g *tessera.Game, tx storage.Tx) error {
			open, err := tx.OpenChallenges(ctx, g.GuildID)
			if err != nil {
				return err
			}
			mine := 0
			for _, o := range open {
				if o.Players[o.ChallengerSeat()].ID == req.User.ID {
					mine++
				}
			}
			if mine >= maxOpenPerUser {
				return errorf(tessera.EINVALID, "You already have %d open challenges in this server; withdraw one (/challenges lists them) before posting another.", mine)
			}
			return nil
		}
	}
	if err := s.store.CreateWith(ctx, rec, req.InteractionID, limit); err != nil {
		return Reply{}, dup(err)
	}
	if seats == 1 {
		return s.startSolo(req, rec)
	}
	text := fmt.Sprintf("**%s** is looking for %s for **%s** (game #%d)%s, %s, %s. Click Join to play; the game starts when %s joined. This open challenge expires %s.",
		req.User.Name, plural(seats-1, "opponent"), g.Name, rec.ID, optionText(opts), ClockText(clk), ratedText(rec), joinedText(seats-1), StampToken(now.Add(s.expireAfter()), time.UTC))
	return Reply{Text: text, Challenge: rec.ID, Buttons: []Button{
		{ID: buttonID(actJoin, rec.ID), Label: "Join", Style: Success},
		{ID: buttonID(actWithdraw, rec.ID), Label: "Withdraw", Style: Secondary},
	}}, nil
}

func joinedText(n int) string {
	if n == 1 {
		return "one player has"
	}
	return fmt.Sprintf("%d players have", n)
}

// startSolo begins a game for one player at once: there is nobody to wait
// for. (The Knotwork puzzles are such games.)
func (s *Service) startSolo(req Request, rec *tessera.Game) (Reply, error) {
	ctx := req.Context()
	now := s.now().UTC()
	g, err := s.store.Update(ctx, rec.ID, rec.Version, "", func(g *tessera.Game, tx storage.Tx) error {
		g.Clock = tessera.Clock{Kind: tessera.ClockNone} // nobody waits for a player alone
		return s.begin(ctx, tx, g, now)
	})
	if err != nil {
		return Reply{}, err
	}
	// No poke, as for a game against the AI alone: the courier makes the
	// thread once the transport has recorded this reply's message
	// (ChallengeMessage), to start it there.
	return Reply{Text: fmt.Sprintf("**%s**, game #%d, for %s alone, begins %s.", gameName(g.Setup.Game), g.ID, req.User.Name, s.where(g)), Challenge: g.ID}, nil
}

func (s *Service) where(g *tessera.Game) string {
	if g.NoThread {
		return "here"
	}
	return "in its own thread"
}

// Join takes a seat in an open challenge; the last seat starts the game.
func (s *Service) Join(req Request, id uint64) (Reply, error) {
	ctx := req.Context()
	g, err := s.gameByID(req, id)
	if err != nil {
		return Reply{}, err
	}
	switch {
	case !g.Open && g.Seat(req.User.ID) >= 0 && g.Status == tessera.StatusChallenge:
		return Reply{}, errorf(tessera.EINVALID, "Game #%d is a challenge to you: use Accept or Decline.", id)
	case !g.Open:
		return Reply{}, errorf(tessera.EFORBIDDEN, "Game #%d is not an open challenge; start your own with /new.", id)
	case g.Status != tessera.StatusChallenge:
		return Reply{}, errorf(tessera.EINVALID, "Game #%d is no longer open (%s).", id, g.Status)
	case elsewhere(g, req):
		return Reply{}, errorf(tessera.EFORBIDDEN, "Game #%d is open to the players of its own server only.", id)
	}
	switch seat := g.Seat(req.User.ID); {
	case seat >= 0 && seat == g.ChallengerSeat():
		return Reply{}, errorf(tessera.EINVALID, "You cannot join your own challenge; wait for others, or withdraw it.")
	case seat >= 0:
		return Reply{}, errorf(tessera.EINVALID, "You have already joined game #%d; waiting for %s.", id, plural(g.Setup.Players-len(g.Players), "more player"))
	case len(g.Players) >= g.Setup.Players:
		return Reply{}, errorf(tessera.EINVALID, "Game #%d is full.", id)
	}
	now := s.now().UTC()
	g, err = s.store.Update(ctx, id, g.Version, req.InteractionID, func(g *tessera.Game, tx storage.Tx) error {
		// Its lifetime is over even if the clock's tick that expires it
		// has not come yet.
		if now.Sub(g.Created) >= s.expireAfter() {
			return errorf(tessera.EINVALID, "Game #%d expired after %s and is no longer open; post your own with /new.", id, Span(s.expireAfter()))
		}
		g.Players = append(g.Players, tessera.Player{ID: req.User.ID, Name: req.User.Name, Accepted: true})
		g.Updated = now
		if len(g.Players) < g.Setup.Players {
			return nil
		}
		if err := s.begin(ctx, tx, g, now); err != nil {
			return err
		}
		return s.settle(ctx, tx, g, s.begunText(g))
	})
	if err != nil {
		return Reply{}, dup(err)
	}
	if g.Status != tessera.StatusPlaying {
		return Reply{Text: fmt.Sprintf("%s joined game #%d; waiting for %s.", req.User.Name, id, plural(g.Setup.Players-len(g.Players), "more player"))}, nil
	}
	s.poke()
	return Reply{Text: fmt.Sprintf("%s joined: **%s**, game #%d, begins %s.", req.User.Name, gameName(g.Setup.Game), g.ID, s.where(g))}, nil
}

// leaveOpen takes a player who joined an open challenge out of it again
// (their Decline or /abort); the challenge stays open for others.
func (s *Service) leaveOpen(req Request, g *tessera.Game, seat int) (Reply, error) {
	ctx := req.Context()
	_, err := s.store.Update(ctx, g.ID, g.Version, req.InteractionID, func(g *tessera.Game, _ storage.Tx) error {
		g.Players = append(g.Players[:seat:seat], g.Players[seat+1:]...)
		g.Updated = s.now().UTC()
		return nil
	})
	if err != nil {
		return Reply{}, dup(err)
	}
	return Reply{Text: fmt.Sprintf("%s left the open challenge #%d; it is open for others to join.", req.User.Name, g.ID)}, nil
}

// Challenges lists the open challenges of the caller's server, each with
// a Join button (at most 25: Discord's 5 rows of 5 buttons; 24 and a
// link to the challenges page when the server has pages).
func (s *Service) Challenges(req Request) (Reply, error) {
	ctx := req.Context()
	open, total, err := s.store.NewestChallenges(ctx, req.GuildID, maxListed)
	if err != nil {
		return Reply{}, err
	}
	if len(open) == 0 {
		return Reply{Text: "There are no open challenges in this server. Post one with /new and no opponent.", Ephemeral: true}, nil
	}
	lines := []string{"Open challenges (click Join to take a seat):"}
	size := len(lines[0])
	page := s.playersButton(ctx, req.GuildID, "/challenges", ChallengesPageLabel)
	var buttons []Button
	for _, g := range open { // newest first
		if len(buttons) == maxListed-len(page) {
			break
		}
		line := clipTo(fmt.Sprintf("#%d **%s** by %s: %d of %d seats free%s, %s",
			g.ID, gameName(g.Setup.Game), g.Players[g.ChallengerSeat()].Name, g.Setup.Players-len(g.Players), g.Setup.Players,
			optionText(g.Setup.Options), ClockText(g.Clock)), maxListLine) + " · expires " + StampToken(g.Created.Add(s.expireAfter()), time.UTC)
		if size+1+len(line) > maxListText {
			break
		}
		size += 1 + len(line)
		lines = append(lines, line)
		label := fmt.Sprintf("Join #%d", g.ID)
		if g.Seat(req.User.ID) >= 0 {
			label = fmt.Sprintf("#%d (yours)", g.ID)
		}
		buttons = append(buttons, Button{ID: buttonID(actJoin, g.ID), Label: label, Style: Success})
	}
	if more := total - len(buttons); more > 0 {
		lines = append(lines, fmt.Sprintf("… and %d more; join one of these, or post your own.", more))
	}
	return Reply{Text: strings.Join(lines, "\n"), Ephemeral: true, Buttons: append(buttons, page...)}, nil
}

// The list's text stays within Discord's 2000 characters, with room for
// its last line: each challenge's line is clipped, and the list stops
// when the next line would not fit.
const (
	maxListLine = 100
	maxListText = 1900
)

// expireOpen ends the open challenges older than the configured lifetime,
// with a note in their channel that pings the challenger. The store's
// index by creation time gives only those (at most remindBatch a tick).
func (s *Service) expireOpen(ctx context.Context, now time.Time) (int, error) {
	open, err := s.store.ExpiredChallenges(ctx, now.Add(-s.expireAfter()), remindBatch)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, g := range open {
		if now.Sub(g.Created) < s.expireAfter() {
			continue
		}
		_, err := s.store.Update(ctx, g.ID, g.Version, "", func(g *tessera.Game, tx storage.Tx) error {
			g.Status, g.Updated = tessera.StatusExpired, now
			ch := g.Players[g.ChallengerSeat()]
			text := fmt.Sprintf("%s, your open challenge for **%s** (game #%d) expired after %s: %s.",
				s.mention(User{ch.ID, ch.Name}), gameName(g.Setup.Game), g.ID, Span(s.expireAfter()), joinedNote(g))
			if err := tx.Enqueue(ctx, tessera.Announcement{Kind: tessera.AnnouncePost, GameID: g.ID, Moves: 0, Text: text, Ping: []string{ch.ID}}); err != nil {
				return err
			}
			return s.settle(ctx, tx, g, endedChallengeText(g, fmt.Sprintf("the open challenge expired after %s; %s", Span(s.expireAfter()), strings.TrimSuffix(joinedNote(g), ". Post it again with /new"))))
		})
		if tessera.ErrorCode(err) == tessera.ECONFLICT {
			continue // someone joined meanwhile: looked at again next tick
		}
		if err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

func joinedNote(g *tessera.Game) string {
	if len(g.Players) == 1 {
		return "nobody joined. Post it again with /new"
	}
	return fmt.Sprintf("only %d of %d seats were taken. Post it again with /new", len(g.Players), g.Setup.Players)
}
