package service

// Tournaments (issue #27): /tournament new posts an event with Join,
// Leave and Start buttons; it starts when its organiser (or a member with
// Manage Server) presses Start, or at its starts: time; its rounds are
// paired by package tournament and played as ordinary games
// (tournamentround.go); the texts are in eventtext.go.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"tessera"
	"tessera/engine"
	"tessera/storage"
	"tessera/tournament"
)

// Button ids of an event: "<action>:<event id>" (tkick adds ":<user id>").
const (
	actEventJoin   = "tjoin"
	actEventLeave  = "tleave"
	actEventStart  = "tstart"
	actEventQuit   = "tquit" // confirms leaving a running event
	actEventKick   = "tkick" // confirms removing a player from a running event
	actEventKeep   = "tkeep" // cancels either
	maxEventName   = 40
	maxEventRounds = 20
	maxBestOf      = 9
	maxStartsAhead = 90 * day
)

// formatChoices are the format: option's values, the name players read
// first. "swiss-tables" is the library's FormatTables.
var formatChoices = []Choice{
	{Name: "round-robin (everyone plays everyone, all games at once)", Value: string(tournament.FormatRoundRobin)},
	{Name: "double-round-robin (each pairing twice, seats swapped)", Value: string(tournament.FormatDoubleRoundRobin)},
	{Name: "swiss (two players, a round at a time)", Value: string(tournament.FormatSwiss)},
	{Name: "knockout (matches, the winner goes through)", Value: string(tournament.FormatKnockout)},
	{Name: "swiss-tables (Swiss for tables of 3 or 4)", Value: formatSwissTables},
}

const formatSwissTables = "swiss-tables"

// maxEntrants bounds an event's players by format: a round robin makes
// all its games at once (20 players: 190 games), a Swiss round is paired
// in seconds up to the library's MaxPlayers.
func maxEntrants(f tournament.Format) int {
	switch f {
	case tournament.FormatRoundRobin:
		return 20
	case tournament.FormatDoubleRoundRobin:
		return 14
	case tournament.FormatKnockout:
		return 128
	}
	return tournament.MaxPlayers
}

// NewEventRequest is what /tournament new asks for.
type NewEventRequest struct {
	Name    string
	Game    string
	Format  string
	Rounds  int
	Seats   int
	Min     int
	Max     int
	Clock   string // "" is 3d; none is refused
	Options string
	Starts  string // a date and time (UTC), or a span from now ("2d")
	Unrated bool
	BestOf  int
	AI      string // a level: the computer enters as a house player
	// TieBreaks are the organiser's tie-breaks by C.07's acronyms
	// ("BH-C1, SB, WIN"); "" is the format's defaults.
	TieBreaks string
	// The limits on the byes a player may ask for (Swiss events only):
	// half-point byes and zero-point absences over the event (nil: the
	// default, DefaultHalfByes and DefaultZeroByes; 0: none), and the last
	// round one may be asked for (0: any).
	HalfByes, ZeroByes *int
	ByesUntil          int
}

// The byes a player of a Swiss event may ask for when the organiser says
// nothing: one of each, as correspondence events run for weeks and
// players go away; the organiser may allow more, or none.
const (
	DefaultHalfByes = 1
	DefaultZeroByes = 1
)

// DefaultEventClock is an event's clock when none is given: a round must
// end, so an event never plays without one.
const DefaultEventClock = "3d"

// NewEvent posts a tournament: its post (the reply, Reply.Event) takes
// entries with Join and Leave until it starts.
func (s *Service) NewEvent(req Request, r NewEventRequest) (Reply, error) {
	ctx := req.Context()
	if req.GuildID == "" {
		return Reply{}, errorf(tessera.EINVALID, "A tournament is held in a server; use /tournament new in a server's channel.")
	}
	g, ok := engine.Lookup(r.Game)
	if !ok {
		return Reply{}, noGame(r.Game)
	}
	format, tableSeries, err := eventFormat(r.Format)
	if err != nil {
		return Reply{}, err
	}
	e := &tessera.Event{Status: tessera.EventOpen, GuildID: req.GuildID, ChannelID: req.ChannelID, Organiser: req.User.ID,
		Game: g.ID, Rated: !r.Unrated, Min: r.Min, Max: r.Max, BestOf: r.BestOf}
	e.Pairing.Format = format
	seats, err := eventSeats(g, format, r.Seats)
	if err != nil {
		return Reply{}, err
	}
	tableSeries = tableSeries && seats > 2
	e.Pairing.Seats = seats
	opts, err := s.options(g, r.Options)
	if err != nil {
		return Reply{}, err
	}
	e.Options = engine.OptionWords(opts)
	sizes := []int{seats}
	if format == tournament.FormatTables || tableSeries {
		// Smaller tables where the game allows them with these options.
		sizes = nil
		for n := seats; n >= max(2, g.MinPlayers); n-- {
			if _, err := engine.New(engine.Setup{Game: g.ID, Players: n, Options: opts, Seed: 1}); err == nil {
				sizes = append(sizes, n)
			}
		}
		if len(sizes) == 0 || sizes[0] != seats {
			_, err := engine.New(engine.Setup{Game: g.ID, Players: seats, Options: opts, Seed: 1})
			return Reply{}, err
		}
		if format == tournament.FormatTables {
			e.Pairing.TableSizes = sizes
		}
	} else if _, err := engine.New(engine.Setup{Game: g.ID, Players: seats, Options: opts, Seed: 1}); err != nil {
		return Reply{}, err
	}
	if err := checkEventNumbers(e, r, tableSeries, sizes); err != nil {
		return Reply{}, err
	}
	e.Pairing.Rounds = r.Rounds
	if err := eventTieBreaksAndByes(e, r); err != nil {
		return Reply{}, err
	}
	clock := r.Clock
	if strings.TrimSpace(clock) == "" {
		clock = DefaultEventClock
	}
	if e.Clock, err = ParseClock(clock); err != nil {
		return Reply{}, err
	}
	if e.Clock.Kind == tessera.ClockNone {
		return Reply{}, errorf(tessera.EINVALID, "A tournament needs a clock, so that no round waits for ever; give clock: e.g. 3d, or leave it out for 3d.")
	}
	now := s.now().UTC()
	if e.Starts, err = s.parseStarts(r.Starts, now); err != nil {
		return Reply{}, err
	}
	name := strings.Join(strings.Fields(r.Name), " ")
	switch {
	case name == "":
		name = fmt.Sprintf("%s %s", g.Name, formatLabel(format, tableSeries))
	case len([]rune(name)) > maxEventName:
		return Reply{}, errorf(tessera.EINVALID, "That name is %d characters long; give one of at most %d.", len([]rune(name)), maxEventName)
	case strings.ContainsAny(name, "`*_~|<>@#"):
		return Reply{}, errorf(tessera.EINVALID, "A tournament's name is plain words; leave out the marks ` * _ ~ | < > @ #.")
	}
	e.Pairing.Name = name
	if strings.TrimSpace(r.AI) != "" {
		lvl, err := aiLevel(r.AI)
		if err != nil {
			return Reply{}, err
		}
		id := aiEntrant(lvl.String())
		e.AI = map[string]string{id: lvl.String()}
		e.Pairing.Players = []tournament.Player{{ID: id, Name: fmt.Sprintf("%s (%s)", s.Bot().Name, lvl)}}
	}
	e.Pairing.Seed = int64(s.seed() >> 1)
	e.Created, e.Updated = now, now
	if err := s.store.CreateEvent(ctx, e, req.InteractionID); err != nil {
		return Reply{}, dup(err)
	}
	m := s.EventPostMessage(e)
	return Reply{Text: m.Text, Buttons: m.Buttons, Event: e.ID}, nil
}

// aiEntrant is the id of the computer's entry at a level: no Discord id
// has a letter, so it meets no person's.
func aiEntrant(level string) string { return "ai-" + level }

// eventFormat reads format:. A round robin of a game for three or four
// whose players fit one table is the series of games rotating every
// seating (tableSeries, decided with seats:).
func eventFormat(f string) (tournament.Format, bool, error) {
	switch strings.ToLower(strings.TrimSpace(f)) {
	case "round-robin", "roundrobin", "rr":
		return tournament.FormatRoundRobin, true, nil
	case "double-round-robin", "double":
		return tournament.FormatDoubleRoundRobin, false, nil
	case "swiss":
		return tournament.FormatSwiss, false, nil
	case "knockout", "ko":
		return tournament.FormatKnockout, false, nil
	case formatSwissTables, "tables":
		return tournament.FormatTables, false, nil
	}
	return "", false, errorf(tessera.EINVALID, "There is no format %s; choose round-robin, double-round-robin, swiss, knockout or swiss-tables.", typed(f))
}

// eventSeats is the players of each game: two for the two-player
// formats, the game's most (at most 4) or seats: for Swiss tables, and
// seats: for a round robin at one table.
func eventSeats(g engine.Game, f tournament.Format, seats int) (int, error) {
	switch f {
	case tournament.FormatTables:
		if seats == 0 {
			seats = min(g.MaxPlayers, 4)
		}
		if seats < 3 || seats > 4 || seats > g.MaxPlayers {
			if g.MaxPlayers < 3 {
				return 0, errorf(tessera.EINVALID, "%s is for two players; swiss-tables is for games of three or four. Use swiss.", g.Name)
			}
			return 0, errorf(tessera.EINVALID, "Swiss tables seat 3 or 4 players, and %s takes at most %d; give seats: 3 or %d.", g.Name, g.MaxPlayers, min(g.MaxPlayers, 4))
		}
		return seats, nil
	case tournament.FormatRoundRobin:
		if seats > 2 {
			if seats > g.MaxPlayers || seats > 4 {
				return 0, errorf(tessera.EINVALID, "%s takes at most %d players at a table; give seats: up to %d.", g.Name, g.MaxPlayers, min(g.MaxPlayers, 4))
			}
			return seats, nil
		}
	}
	if seats != 0 && seats != 2 {
		return 0, errorf(tessera.EINVALID, "A %s event is for games of two; leave seats: out (swiss-tables and round-robin take 3 or 4).", f)
	}
	if g.MinPlayers > 2 || g.MaxPlayers < 2 {
		return 0, errorf(tessera.EINVALID, "%s is not a game for two; use swiss-tables.", g.Name)
	}
	return 2, nil
}

// checkEventNumbers checks rounds:, min:, max: and best-of: against the
// format, and fills in their defaults.
func checkEventNumbers(e *tessera.Event, r NewEventRequest, tableSeries bool, sizes []int) error {
	f := e.Pairing.Format
	if r.Rounds != 0 && f != tournament.FormatSwiss && f != tournament.FormatTables {
		return errorf(tessera.EINVALID, "rounds: is for swiss and swiss-tables events (a %s's rounds follow from its players); leave it out.", f)
	}
	if r.Rounds < 0 || r.Rounds > maxEventRounds {
		return errorf(tessera.EINVALID, "Give rounds: from 1 to %d, or leave it out to fit the players.", maxEventRounds)
	}
	if r.BestOf != 0 && f != tournament.FormatKnockout {
		return errorf(tessera.EINVALID, "best-of: is for knockout events; leave it out.")
	}
	if e.BestOf == 0 && f == tournament.FormatKnockout {
		e.BestOf = 1
	}
	if e.BestOf < 0 || e.BestOf > maxBestOf {
		return errorf(tessera.EINVALID, "Give best-of: from 1 to %d games a match.", maxBestOf)
	}
	limit := maxEntrants(f)
	least := 2
	if tableSeries {
		limit, least = e.Pairing.Seats, sizes[len(sizes)-1]
	}
	if f == tournament.FormatTables {
		least = e.Pairing.Seats
	}
	if e.Max == 0 {
		e.Max = limit
	}
	if e.Min == 0 {
		e.Min = least
	}
	switch {
	case e.Min < least:
		return errorf(tessera.EINVALID, "This event needs at least %d players; give min: %d or more.", least, least)
	case e.Max > limit:
		return errorf(tessera.EINVALID, "This event takes at most %d players; give max: %d or less.", limit, limit)
	case e.Max < e.Min:
		return errorf(tessera.EINVALID, "max: (%d) is below min: (%d); give max: at least min:.", e.Max, e.Min)
	}
	return nil
}

// eventTieBreaksAndByes reads tiebreaks: and the limits on requested
// byes (half-byes:, zero-byes:, byes-until:), which only Swiss events
// take.
func eventTieBreaksAndByes(e *tessera.Event, r NewEventRequest) error {
	f := e.Pairing.Format
	if strings.TrimSpace(r.TieBreaks) != "" {
		tbs, err := tournament.ParseTieBreaks(f, r.TieBreaks)
		if err != nil {
			return errorf(tessera.EINVALID, "%s.", libraryWords(err))
		}
		e.Pairing.TieBreaks = tbs
	}
	swiss := f == tournament.FormatSwiss || f == tournament.FormatTables
	if !swiss {
		if r.HalfByes != nil || r.ZeroByes != nil || r.ByesUntil != 0 {
			return errorf(tessera.EINVALID, "half-byes:, zero-byes: and byes-until: are for swiss and swiss-tables events (a %s pairs every round in advance); leave them out.", f)
		}
		return nil
	}
	limit := func(v *int, def int, name string) (int, error) {
		if v == nil {
			return def, nil
		}
		if *v < 0 || *v > maxEventRounds {
			return 0, errorf(tessera.EINVALID, "Give %s from 0 (none) to %d.", name, maxEventRounds)
		}
		return *v, nil
	}
	var err error
	if e.Pairing.MaxHalfByes, err = limit(r.HalfByes, DefaultHalfByes, "half-byes:"); err != nil {
		return err
	}
	if e.Pairing.MaxZeroByes, err = limit(r.ZeroByes, DefaultZeroByes, "zero-byes:"); err != nil {
		return err
	}
	if r.ByesUntil < 0 || r.ByesUntil > maxEventRounds || (r.Rounds > 0 && r.ByesUntil > r.Rounds) {
		return errorf(tessera.EINVALID, "Give byes-until: a round of the event (1 to %d), or leave it out for any round.", max(r.Rounds, 1))
	}
	e.Pairing.LastByeRound = r.ByesUntil
	return nil
}

// libraryWords is a tournament package error as a sentence for a player:
// without the package's prefix, capitalised.
func libraryWords(err error) string {
	t := strings.TrimPrefix(err.Error(), "tournament: ")
	if t == "" {
		return t
	}
	return strings.ToUpper(t[:1]) + t[1:]
}

// parseStarts reads starts: a span from now ("2d", "36h") or a date and
// time in UTC ("2026-12-01 18:00", "2026-12-01"). "" is no time: the
// organiser presses Start.
func (s *Service) parseStarts(text string, now time.Time) (time.Time, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return time.Time{}, nil
	}
	var at time.Time
	if d, err := parseSpan(text); err == nil {
		at = now.Add(d)
	} else {
		for _, layout := range []string{"2006-01-02 15:04", "2006-01-02T15:04", "2006-01-02T15:04:05Z07:00", "2006-01-02"} {
			if t, err := time.Parse(layout, text); err == nil {
				at = t.UTC()
				break
			}
		}
		if at.IsZero() {
			return time.Time{}, errorf(tessera.EINVALID, "starts: %s is neither a span (2d, 36h) nor a date and time (2026-12-01 18:00, UTC); give one of those.", typed(text))
		}
	}
	switch {
	case !at.After(now):
		return time.Time{}, errorf(tessera.EINVALID, "starts: must be in the future; give a span such as 2d, or a later date.")
	case at.Sub(now) > maxStartsAhead:
		return time.Time{}, errorf(tessera.EINVALID, "starts: is at most %s ahead; give an earlier time.", Span(maxStartsAhead))
	}
	return at, nil
}

// eventByRef finds the event a subcommand is about: the one named
// (event: "#3", "3"), else the one whose thread this is, else the only
// active event of this channel, then of the server. Events of another
// server are not found, as if they did not exist.
func (s *Service) eventByRef(req Request, ref string) (*tessera.Event, error) {
	ctx := req.Context()
	if strings.TrimSpace(ref) != "" {
		id, ok := parseGameRef(ref)
		if !ok {
			return nil, errorf(tessera.EINVALID, "%s is not an event number; pick an event from the list (/tournament list shows them).", typed(ref))
		}
		return s.eventByID(req, id)
	}
	events, err := s.store.GuildEvents(ctx, req.GuildID)
	if err != nil {
		return nil, err
	}
	var active, here []*tessera.Event
	for _, e := range events {
		if e.ThreadID != "" && e.ThreadID == req.ChannelID {
			return e, nil
		}
		if e.Active() {
			active = append(active, e)
			if e.ChannelID == req.ChannelID {
				here = append(here, e)
			}
		}
	}
	switch {
	case len(here) == 1:
		return here[0], nil
	case len(here) == 0 && len(active) == 1:
		return active[0], nil
	case len(active) == 0 && len(events) > 0:
		return events[len(events)-1], nil
	case len(events) == 0:
		return nil, errorf(tessera.ENOTFOUND, "This server has no tournaments; start one with /tournament new.")
	}
	if len(here) > 1 {
		active = here
	}
	var names []string
	for _, e := range active[:min(len(active), 5)] {
		names = append(names, fmt.Sprintf("#%d %s", e.ID, e.Pairing.Name))
	}
	return nil, errorf(tessera.EINVALID, "Several tournaments are under way here (%s); name one with event:.", strings.Join(names, ", "))
}

// eventByID loads an event of the caller's server.
func (s *Service) eventByID(req Request, id uint64) (*tessera.Event, error) {
	e, err := s.store.Event(req.Context(), id)
	if errors.Is(err, storage.ErrNotFound) || err == nil && e.GuildID != req.GuildID {
		return nil, errorf(tessera.ENOTFOUND, "There is no tournament #%d in this server; /tournament list shows them.", id)
	}
	return e, err
}

// changeEvent applies change to the event at its newest version, trying
// again when another change came first (each try reads the event anew,
// so change decides on what it sees); an error of change is returned as
// it is, and nothing is written.
func (s *Service) changeEvent(ctx context.Context, id uint64, interactionID string, change func(e *tessera.Event, tx storage.Tx) error) (*tessera.Event, error) {
	for try := 0; ; try++ {
		e, err := s.store.Event(ctx, id)
		if err != nil {
			return nil, err
		}
		e, err = s.store.UpdateEvent(ctx, id, e.Version, interactionID, change)
		if errors.Is(err, storage.ErrConflict) && try < 20 {
			continue
		}
		return e, dup(err)
	}
}

// mayManage reports whether the caller may start, cancel or remove
// players of e: its organiser, or a member with Manage Server.
func mayManage(req Request, e *tessera.Event) bool {
	return req.User.ID == e.Organiser || req.ManageServer
}

func entrantIndex(e *tessera.Event, id string) int {
	return slices.IndexFunc(e.Pairing.Players, func(p tournament.Player) bool { return p.ID == id })
}

// enqueueEvent writes an event announcement in the transaction.
func enqueueEvent(ctx context.Context, tx storage.Tx, e *tessera.Event, a tessera.Announcement) error {
	a.EventID, a.GameID = e.ID, 0
	return tx.Enqueue(ctx, a)
}

// JoinEvent enters the caller in an open event.
func (s *Service) JoinEvent(req Request, id uint64) (Reply, error) {
	ctx := req.Context()
	if bot := s.Bot(); bot.ID != "" && req.User.ID == bot.ID {
		return Reply{}, errorf(tessera.EINVALID, "The computer enters a tournament through its ai: option, not by joining.")
	}
	e, err := s.changeEvent(ctx, id, req.InteractionID, func(e *tessera.Event, tx storage.Tx) error {
		if e.GuildID != req.GuildID {
			return errorf(tessera.ENOTFOUND, "There is no tournament #%d in this server; /tournament list shows them.", id)
		}
		switch {
		case e.Status != tessera.EventOpen:
			return errorf(tessera.EINVALID, "%s is %s and takes no more entries.", eventTitle(e), eventStatusWord(e))
		case entrantIndex(e, req.User.ID) >= 0:
			return errorf(tessera.EINVALID, "You are already entered in %s; Leave takes you out.", eventTitle(e))
		case len(e.Pairing.Players) >= e.Max:
			return errorf(tessera.EINVALID, "%s is full (%d players).", eventTitle(e), e.Max)
		}
		e.Pairing.Players = append(e.Pairing.Players, tournament.Player{ID: req.User.ID, Name: req.User.Name})
		e.Updated = s.now().UTC()
		return enqueueEvent(ctx, tx, e, tessera.Announcement{Kind: tessera.AnnounceEventStatus})
	})
	if err != nil {
		return Reply{}, s.eventErr(req, id, err)
	}
	s.poke()
	return Reply{Text: fmt.Sprintf("You joined %s (%s entered).", eventTitle(e), plural(len(e.Pairing.Players), "player")), Ephemeral: true}, nil
}

// eventErr says a missing event as one of this server's would be said.
func (s *Service) eventErr(req Request, id uint64, err error) error {
	if errors.Is(err, storage.ErrNotFound) {
		return errorf(tessera.ENOTFOUND, "There is no tournament #%d in this server; /tournament list shows them.", id)
	}
	return err
}

// LeaveEvent takes the caller out of an event: at once while it is open;
// once it runs, after a confirm (their games in play are resigned).
func (s *Service) LeaveEvent(req Request, id uint64) (Reply, error) {
	e, err := s.eventByID(req, id)
	if err != nil {
		return Reply{}, err
	}
	i := entrantIndex(e, req.User.ID)
	switch {
	case i < 0:
		return Reply{}, errorf(tessera.EINVALID, "You are not entered in %s.", eventTitle(e))
	case !e.Active():
		return Reply{}, errorf(tessera.EINVALID, "%s is %s; there is nothing to leave.", eventTitle(e), eventStatusWord(e))
	case e.Pairing.Players[i].Withdrawn:
		return Reply{}, errorf(tessera.EINVALID, "You have already left %s.", eventTitle(e))
	case e.Status == tessera.EventRunning:
		return Reply{
			Text:      fmt.Sprintf("Leave %s? You will not be paired again, and your games in play are resigned. This cannot be undone.", eventTitle(e)),
			Ephemeral: true,
			Buttons: []Button{
				{ID: buttonID(actEventQuit, e.ID), Label: "Leave the tournament", Style: Danger},
				{ID: buttonID(actEventKeep, e.ID), Label: "Stay", Style: Secondary},
			},
		}, nil
	}
	return s.unenter(req, e.ID, req.User.ID, fmt.Sprintf("You left %s.", eventTitle(e)))
}

// unenter takes a player out of an event that has not started.
func (s *Service) unenter(req Request, id uint64, userID, done string) (Reply, error) {
	ctx := req.Context()
	_, err := s.changeEvent(ctx, id, req.InteractionID, func(e *tessera.Event, tx storage.Tx) error {
		i := entrantIndex(e, userID)
		if e.Status != tessera.EventOpen || i < 0 {
			return errorf(tessera.ECONFLICT, "%s changed meanwhile (it started, or the entry is gone); look at its post and try again.", eventTitle(e))
		}
		e.Pairing.Players = slices.Delete(e.Pairing.Players, i, i+1)
		if e.AI[userID] != "" {
			delete(e.AI, userID)
		}
		e.Updated = s.now().UTC()
		return enqueueEvent(ctx, tx, e, tessera.Announcement{Kind: tessera.AnnounceEventStatus})
	})
	if err != nil {
		return Reply{}, err
	}
	s.poke()
	return Reply{Text: done, Ephemeral: true}, nil
}

// RemoveFromEvent takes a player out of an event (the organiser or a
// member with Manage Server): at once before it starts, after a confirm
// once it runs.
func (s *Service) RemoveFromEvent(req Request, ref string, u User) (Reply, error) {
	e, err := s.eventByRef(req, ref)
	if err != nil {
		return Reply{}, err
	}
	if !mayManage(req, e) {
		return Reply{}, errorf(tessera.EFORBIDDEN, "Only the organiser of %s, or a member with Manage Server, may remove players.", eventTitle(e))
	}
	id := u.ID
	if bot := s.Bot(); bot.ID != "" && u.ID == bot.ID {
		for aid := range e.AI {
			id = aid // the computer's entry
		}
	}
	i := entrantIndex(e, id)
	switch {
	case u.ID == "" || i < 0:
		return Reply{}, errorf(tessera.EINVALID, "%s is not entered in %s.", nameOr(u), eventTitle(e))
	case !e.Active():
		return Reply{}, errorf(tessera.EINVALID, "%s is %s; nobody can be removed now.", eventTitle(e), eventStatusWord(e))
	case e.Pairing.Players[i].Withdrawn:
		return Reply{}, errorf(tessera.EINVALID, "%s has already left %s.", e.Pairing.Players[i].Name, eventTitle(e))
	case e.Status == tessera.EventRunning:
		return Reply{
			Text:      fmt.Sprintf("Remove %s from %s? They will not be paired again, and their games in play are resigned. This cannot be undone.", e.Pairing.Players[i].Name, eventTitle(e)),
			Ephemeral: true,
			Buttons: []Button{
				{ID: buttonID(actEventKick, e.ID) + ":" + id, Label: "Remove " + clipTo(e.Pairing.Players[i].Name, 60), Style: Danger},
				{ID: buttonID(actEventKeep, e.ID), Label: "Keep them", Style: Secondary},
			},
		}, nil
	}
	return s.unenter(req, e.ID, id, fmt.Sprintf("%s is no longer entered in %s.", e.Pairing.Players[i].Name, eventTitle(e)))
}

func nameOr(u User) string {
	if u.Name == "" {
		return "That player"
	}
	return u.Name
}

// StartEvent starts an open event now (its organiser or a member with
// Manage Server), if it has its min: players.
func (s *Service) StartEvent(req Request, id uint64) (Reply, error) {
	e, err := s.eventByID(req, id)
	if err != nil {
		return Reply{}, err
	}
	if !mayManage(req, e) {
		return Reply{}, errorf(tessera.EFORBIDDEN, "Only the organiser of %s, or a member with Manage Server, may start it.", eventTitle(e))
	}
	e, err = s.startEvent(req.Context(), id, req.InteractionID, false)
	if err != nil {
		return Reply{}, err
	}
	return Reply{Text: fmt.Sprintf("%s has started: round 1 is paired, each game in its own thread.", eventTitle(e)), Ephemeral: true}, nil
}

// CancelEvent calls an event off (its organiser or a member with Manage
// Server). Games in play go on as ordinary games; nothing more is paired.
func (s *Service) CancelEvent(req Request, ref string) (Reply, error) {
	ctx := req.Context()
	e, err := s.eventByRef(req, ref)
	if err != nil {
		return Reply{}, err
	}
	if !mayManage(req, e) {
		return Reply{}, errorf(tessera.EFORBIDDEN, "Only the organiser of %s, or a member with Manage Server, may cancel it.", eventTitle(e))
	}
	e, err = s.changeEvent(ctx, e.ID, req.InteractionID, func(e *tessera.Event, tx storage.Tx) error {
		if !e.Active() {
			return errorf(tessera.EINVALID, "%s is %s already.", eventTitle(e), eventStatusWord(e))
		}
		running := e.Status == tessera.EventRunning
		e.Status, e.Updated = tessera.EventCancelled, s.now().UTC()
		e.Note = fmt.Sprintf("called off by %s", req.User.Name)
		if running {
			if err := enqueueEvent(ctx, tx, e, tessera.Announcement{Kind: tessera.AnnounceEventPost,
				Text: fmt.Sprintf("%s is cancelled by %s: nothing more is paired; games in play go on as ordinary games.", eventTitle(e), req.User.Name)}); err != nil {
				return err
			}
		}
		return enqueueEvent(ctx, tx, e, tessera.Announcement{Kind: tessera.AnnounceEventStatus})
	})
	if err != nil {
		return Reply{}, err
	}
	s.poke()
	return Reply{Text: fmt.Sprintf("%s is cancelled.", eventTitle(e)), Ephemeral: true}, nil
}

// kickConfirmed removes a player from a running event once its organiser
// has confirmed: the id's rest is "<event id>:<user id>".
func (s *Service) kickConfirmed(req Request, rest string) (Reply, error) {
	num, user, _ := strings.Cut(rest, ":")
	eid, err := strconv.ParseUint(num, 10, 64)
	if err != nil || user == "" {
		return Reply{}, unknownButton()
	}
	e, err := s.eventByID(req, eid)
	if err != nil {
		return Reply{}, err
	}
	if !mayManage(req, e) {
		return Reply{}, errorf(tessera.EFORBIDDEN, "Only the organiser of %s, or a member with Manage Server, may remove players.", eventTitle(e))
	}
	return s.withdrawConfirmed(req, eid, user)
}

// ListEvents lists the server's events, newest first.
func (s *Service) ListEvents(req Request) (Reply, error) {
	events, err := s.store.GuildEvents(req.Context(), req.GuildID)
	if err != nil {
		return Reply{}, err
	}
	if len(events) == 0 {
		return Reply{Text: "This server has no tournaments yet. Start one with /tournament new.", Ephemeral: true}, nil
	}
	lines := []string{"Tournaments of this server:"}
	size := len(lines[0])
	for i := len(events) - 1; i >= 0; i-- {
		line := eventListLine(events[i])
		if size+1+len(line) > maxListText {
			lines = append(lines, fmt.Sprintf("… and %d older.", i+1))
			break
		}
		size += 1 + len(line)
		lines = append(lines, line)
	}
	return Reply{Text: strings.Join(lines, "\n"), Ephemeral: true}, nil
}

// defaultRounds are a Swiss event's rounds when rounds: was not given:
// enough to find a winner among n (log2 n, rounded up; at tables of k,
// log_k n plus one), at least 3 and never more than the pairings allow.
func defaultRounds(f tournament.Format, n, seats int) int {
	r := int(math.Ceil(math.Log2(float64(max(n, 2)))))
	if f == tournament.FormatTables {
		r = int(math.Ceil(math.Log(float64(max(n, 2)))/math.Log(float64(seats)))) + 1
	}
	r = max(r, 3)
	if f == tournament.FormatSwiss {
		r = min(r, max(n-1, 1))
	}
	return min(r, maxEventRounds)
}
