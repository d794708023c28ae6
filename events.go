package tessera

import (
	"time"

	"tessera/tournament"
)

// EventStatus is where a tournament stands.
type EventStatus string

// Event statuses.
const (
	EventOpen      EventStatus = "open"      // taking entries (Join, Leave) until it starts
	EventRunning   EventStatus = "running"   // rounds are being played
	EventFinished  EventStatus = "finished"  // every round played; the standings are final
	EventCancelled EventStatus = "cancelled" // called off by its organiser or a manager
)

// Event is a stored tournament: where it was posted and by whom, what
// its games are played with, and its pairing state (tournament.Event:
// players, rounds, tables, results and lot), with the game made for
// each table. Every change goes through the store's version check
// (storage.Events.UpdateEvent, or Tx.PutEvent in a game's transaction),
// so a round is paired once however many processes try.
type Event struct {
	ID      uint64      `json:"id"`
	Version uint64      `json:"version"` // bumped by every write
	Status  EventStatus `json:"status"`

	GuildID   string `json:"guild_id"`
	ChannelID string `json:"channel_id"`           // where it was posted
	MessageID string `json:"message_id,omitempty"` // its post, with Join, Leave and Start
	ThreadID  string `json:"thread_id,omitempty"`  // its thread: standings and pairings
	Organiser string `json:"organiser"`            // the user who made it

	// What every game of the event is played with.
	Game    string    `json:"game"`              // the engine's id
	Options []string  `json:"options,omitempty"` // the /new options' words
	Clock   Clock     `json:"clock"`
	Rated   bool      `json:"rated,omitempty"`
	Min     int       `json:"min,omitempty"`     // players needed to start
	Max     int       `json:"max,omitempty"`     // entries taken at most (0: no limit)
	BestOf  int       `json:"best_of,omitempty"` // a knockout match's games
	Starts  time.Time `json:"starts,omitempty"`  // zero: when the organiser presses Start
	// AI is the level ("easy", "normal", "hard") of each entrant the
	// computer plays, by the entrant's id in Pairing.Players.
	AI map[string]string `json:"ai,omitempty"`

	// Pairing is the event as the pairing library sees it.
	Pairing tournament.Event `json:"pairing"`
	// Games is the game made for each table: Games[r][t] is the game of
	// Pairing.Played[r].Tables[t] (0 until it is made). A knockout
	// match's several games are each a table of the round, appended as
	// the match goes on (the decider too), so every game has one table
	// and a game's end finds its result's place from its EventRound and
	// EventTable alone.
	Games [][]uint64 `json:"games,omitempty"`

	// Note says why the event ended early (called off at its start for
	// too few players, no more pairings possible), for its post.
	Note string `json:"note,omitempty"`

	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
}

// Active reports whether the event still takes entries or plays rounds.
func (e *Event) Active() bool { return e.Status == EventOpen || e.Status == EventRunning }
