package service

import (
	"fmt"
	"strings"

	"tessera"
)

// tournamentCommand is /tournament's entry in the table: its subcommands
// (new, list, standings, pairings, start, join, leave, bye, remove, cancel),
// each with its own options and handler.
func tournamentCommand() Command {
	var zero, two, twenty, nine, huge = 0.0, 2.0, float64(maxEventRounds), float64(maxBestOf), 300.0
	return Command{Name: "tournament", Description: "Tournaments in this server: round robins, Swiss events, knockouts", InServer: true, Subcommands: []Command{
		{Name: "new", Description: "Post a tournament that players join with its buttons", InServer: true, Public: true, Run: runTournamentNew, Options: []Option{
			gameOption(true),
			{Type: StringOption, Name: "format", Description: "How it is paired", Required: true, Choices: formatChoices},
			{Type: StringOption, Name: "name", Description: "Its name (default the game and format)", MaxLength: maxEventName},
			{Type: IntegerOption, Name: "rounds", Description: "Rounds of a swiss or swiss-tables event (default enough for the players)", MinValue: &one, MaxValue: twenty},
			{Type: IntegerOption, Name: "seats", Description: "Players a table: 3 or 4 for swiss-tables, or a round robin at one table", MinValue: &two, MaxValue: 4},
			{Type: IntegerOption, Name: "min", Description: "Players needed to start (default 2, or a table's seats)", MinValue: &two, MaxValue: huge},
			{Type: IntegerOption, Name: "max", Description: "Most players it takes (default the format's limit)", MinValue: &two, MaxValue: huge},
			{Type: StringOption, Name: "clock", Description: "Every game's time control (default 3d; none is not allowed)", MaxLength: 60},
			{Type: StringOption, Name: "options", Description: "Game options, e.g. borders=RBGY (see /rules)", MaxLength: 200},
			{Type: StringOption, Name: "starts", Description: "When it starts by itself: a span (2d) or a UTC date and time (2026-12-01 18:00)", MaxLength: 40},
			{Type: BooleanOption, Name: "rated", Description: "Whether its games change ratings (default true; never against me)"},
			{Type: IntegerOption, Name: "best-of", Description: "Games a knockout match (default 1)", MinValue: &one, MaxValue: nine},
			{Type: StringOption, Name: "ai", Description: "Enter me as a house player at this level", Choices: []Choice{
				{Name: "easy", Value: "easy"}, {Name: "normal", Value: "normal"}, {Name: "hard", Value: "hard"}}},
			{Type: StringOption, Name: "tiebreaks", Description: "FIDE tie-breaks in order, e.g. BH-C1,SB,WIN (default by format)", MaxLength: 60},
			{Type: IntegerOption, Name: "half-byes", Description: "Half-point byes a player may ask for (swiss; default 1, 0 none)", MinValue: &zero, MaxValue: twenty},
			{Type: IntegerOption, Name: "zero-byes", Description: "Zero-point byes a player may ask for (swiss; default 1, 0 none)", MinValue: &zero, MaxValue: twenty},
			{Type: IntegerOption, Name: "byes-until", Description: "Last round a bye may be asked for (swiss; default any)", MinValue: &one, MaxValue: twenty},
		}},
		{Name: "list", Description: "This server's tournaments", Run: runTournamentList},
		{Name: "standings", Description: "A tournament's standings, as text and a picture", Run: runTournamentStandings, Options: []Option{eventRef}},
		{Name: "pairings", Description: "A round's tables, players and results", Run: runTournamentPairings, Options: []Option{
			eventRef,
			{Type: IntegerOption, Name: "round", Description: "Which round (default the current one)", MinValue: &one, MaxValue: 1000},
		}},
		{Name: "start", Description: "Start a tournament now (its organiser, or Manage Server)", Run: onEvent((*Service).StartEvent), Options: []Option{eventRef}},
		{Name: "join", Description: "Enter a tournament that takes entries", Run: onEvent((*Service).JoinEvent), Options: []Option{eventRef}},
		{Name: "leave", Description: "Leave a tournament (asks to confirm once it runs)", Run: onEvent((*Service).LeaveEvent), Options: []Option{eventRef}},
		{Name: "bye", Description: "Sit out a round of a Swiss tournament (within the organiser's limits)", Run: runTournamentBye, Options: []Option{
			{Type: IntegerOption, Name: "round", Description: "Which round (default the next to be paired)", MinValue: &one, MaxValue: twenty},
			{Type: StringOption, Name: "kind", Description: "half: half a point (default); zero: no points", Choices: []Choice{
				{Name: "half a point", Value: "half"}, {Name: "no points", Value: "zero"}}},
			{Type: BooleanOption, Name: "cancel", Description: "Take back a bye you asked for"},
			eventRef,
		}},
		{Name: "remove", Description: "Take a player out of a tournament (its organiser, or Manage Server)", Run: runTournamentRemove, Options: []Option{
			{Type: StringOption, Name: "event", Description: eventRef.Description, Complete: completeEvent, Required: true},
			{Type: UserOption, Name: "user", Description: "Whom to remove", Required: true},
		}},
		{Name: "cancel", Description: "Call a tournament off (its organiser, or Manage Server)", Run: runTournamentCancel, Options: []Option{eventRef}},
	}}
}

// eventRef is the optional event: option of the subcommands about one
// tournament.
var eventRef = Option{Type: StringOption, Name: "event", Complete: completeEvent, MaxLength: 100,
	Description: "Which tournament (needed only when several are under way here)"}

// onEvent adapts a subcommand about one tournament, named or found.
func onEvent(do func(s *Service, req Request, id uint64) (Reply, error)) func(*Service, Request, Args) (Reply, error) {
	return func(s *Service, req Request, in Args) (Reply, error) {
		e, err := s.eventByRef(req, in.String("event"))
		if err != nil {
			return Reply{}, err
		}
		return do(s, req, e.ID)
	}
}

func runTournamentNew(s *Service, req Request, in Args) (Reply, error) {
	r := NewEventRequest{Name: in.String("name"), Game: in.String("game"), Format: in.String("format"), Rounds: in.Int("rounds"),
		Seats: in.Int("seats"), Min: in.Int("min"), Max: in.Int("max"), Clock: in.String("clock"), Options: in.String("options"),
		Starts: in.String("starts"), BestOf: in.Int("best-of"), AI: in.String("ai")}
	if rated, given := in.Bool("rated"); given && !rated {
		r.Unrated = true
	}
	r.TieBreaks, r.ByesUntil = in.String("tiebreaks"), in.Int("byes-until")
	if _, given := in["half-byes"]; given {
		n := in.Int("half-byes")
		r.HalfByes = &n
	}
	if _, given := in["zero-byes"]; given {
		n := in.Int("zero-byes")
		r.ZeroByes = &n
	}
	return s.NewEvent(req, r)
}

func runTournamentBye(s *Service, req Request, in Args) (Reply, error) {
	cancel, _ := in.Bool("cancel")
	return s.EventBye(req, in.String("event"), in.Int("round"), in.String("kind"), cancel)
}

func runTournamentList(s *Service, req Request, _ Args) (Reply, error) { return s.ListEvents(req) }

func runTournamentStandings(s *Service, req Request, in Args) (Reply, error) {
	return s.EventStandings(req, in.String("event"))
}

func runTournamentPairings(s *Service, req Request, in Args) (Reply, error) {
	return s.EventPairings(req, in.String("event"), in.Int("round"))
}

func runTournamentRemove(s *Service, req Request, in Args) (Reply, error) {
	u, ok := in.User("user")
	if !ok {
		return Reply{}, errorf(tessera.EINVALID, "Name the player to remove with user:.")
	}
	return s.RemoveFromEvent(req, in.String("event"), u)
}

func runTournamentCancel(s *Service, req Request, in Args) (Reply, error) {
	return s.CancelEvent(req, in.String("event"))
}

// completeEvent suggests the server's tournaments, those under way first,
// matching what was typed (a number or words of the name).
func completeEvent(s *Service, req Request, _ Args, typed string) []Choice {
	events, err := s.store.GuildEvents(req.Context(), req.GuildID)
	if err != nil {
		return nil
	}
	typed = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(typed), "#"))
	var active, ended []Choice
	for i := len(events) - 1; i >= 0; i-- {
		e := events[i]
		name := clipTo(fmt.Sprintf("#%d %s (%s, %s)", e.ID, e.Pairing.Name, gameName(e.Game), e.Status), 100)
		if typed != "" && !strings.Contains(strings.ToLower(name), typed) {
			continue
		}
		c := Choice{Name: name, Value: fmt.Sprint(e.ID)}
		if e.Active() {
			active = append(active, c)
		} else {
			ended = append(ended, c)
		}
	}
	out := append(active, ended...)
	return out[:min(len(out), MaxChoices)]
}
