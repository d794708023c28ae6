package service

// What the tournaments' pages of a server show (package web draws them):
// its events, and one event's standings, as its thread and /tournament
// standings show them anyone in the server.

import (
	"context"
	"errors"

	"tessera"
	"tessera/picture"
	"tessera/storage"
)

// WebEvent is one event in a server's list of tournaments.
type WebEvent struct {
	ID      uint64
	Name    string
	Game    string // the game's name
	Format  string // "Swiss, 4 rounds"
	Status  string // "open", "round 2 of 4", "finished", "cancelled"
	Players int
}

// WebEventPage is a tournament's page: what it is and its standings.
type WebEventPage struct {
	WebEvent
	Standings picture.Standings // the table its thread's picture shows
}

var errNoEvent = tessera.Errorf(tessera.ENOTFOUND, "There is no such tournament in this server; the server's tournaments are listed on its page.")

// WebEvents lists a server's tournaments, newest first.
func (s *Service) WebEvents(ctx context.Context, guild string) ([]WebEvent, error) {
	es, err := s.store.GuildEvents(ctx, guild)
	if err != nil {
		return nil, err
	}
	out := make([]WebEvent, 0, len(es))
	for i := len(es) - 1; i >= 0; i-- {
		out = append(out, webEvent(es[i]))
	}
	return out, nil
}

// WebEventOf is a server's tournament id for its page (ENOTFOUND when the
// server has no such event).
func (s *Service) WebEventOf(ctx context.Context, guild string, id uint64) (WebEventPage, error) {
	e, err := s.store.Event(ctx, id)
	if errors.Is(err, storage.ErrNotFound) || err == nil && e.GuildID != guild {
		return WebEventPage{}, errNoEvent
	}
	if err != nil {
		return WebEventPage{}, err
	}
	t, err := StandingsTable(e)
	if err != nil {
		return WebEventPage{}, err
	}
	return WebEventPage{WebEvent: webEvent(e), Standings: t}, nil
}

func webEvent(e *tessera.Event) WebEvent {
	status := eventStatusWord(e)
	if e.Status == tessera.EventRunning {
		status = roundText(e)
	}
	return WebEvent{ID: e.ID, Name: e.Pairing.Name, Game: gameName(e.Game), Format: formatText(e), Status: status, Players: len(e.Pairing.Players)}
}
