// Package tessera holds the domain types shared by the service, the store
// and the transports: game records, players, and user-safe errors. It
// depends only on the engine.
//
// The layout follows the dependency rule: engine/ (rules, pure), render/
// (gg), storage/ (bbolt), bot/ (discordgo), service/ (the commands, free of
// any transport), console/ (a local transport), cmd/tessera (wiring).
package tessera

import (
	"errors"
	"fmt"
	"time"

	"tessera/engine"
)

// Error codes, WTF-dial style: the code says what kind of failure it is,
// the message is safe to show to a player.
const (
	EINVALID   = "invalid"   // the input is wrong; the message says what to do
	ENOTFOUND  = "not_found" // no such game, or none here
	EFORBIDDEN = "forbidden" // not your game, not your turn
	ECONFLICT  = "conflict"  // the position changed meanwhile; try again
	EINTERNAL  = "internal"  // our fault; logged
)

// Error is an error with a code and a message for the user.
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string { return e.Message }

// Errorf returns an *Error.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode is the code of err: the *Error's, EINVALID for an engine
// refusal, EINTERNAL otherwise.
func ErrorCode(err error) string {
	var e *Error
	var ill *engine.IllegalError
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e):
		return e.Code
	case errors.As(err, &ill):
		return EINVALID
	}
	return EINTERNAL
}

// ErrorMessage is the message a user may see for err; internal errors get
// a generic message (the details are logged, never shown).
func ErrorMessage(err error) string {
	var e *Error
	var ill *engine.IllegalError
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e):
		return e.Message
	case errors.As(err, &ill):
		return ill.Msg
	}
	return "Something went wrong on our side; nothing was changed. Please try again."
}

// Status of a game.
type Status string

// Game statuses.
const (
	StatusChallenge Status = "challenge" // waiting for invited players to accept
	StatusPlaying   Status = "playing"
	StatusFinished  Status = "finished"
	StatusDeclined  Status = "declined"
	StatusAborted   Status = "aborted"
)

// Player is a seat's occupant.
type Player struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Accepted bool   `json:"accepted"`
}

// MoveEntry is one entry of a game's record.
type MoveEntry struct {
	Seat int       `json:"seat"` // 0-based
	Text string    `json:"text"` // canonical notation, or "resign"
	At   time.Time `json:"at"`
}

// Game is a stored game: its record (setup + ordered moves; the position
// is derived by replay) and where and by whom it is played.
type Game struct {
	ID        uint64       `json:"id"`
	Version   uint64       `json:"version"` // bumped by every write
	Status    Status       `json:"status"`
	Setup     engine.Setup `json:"setup"`
	Moves     []MoveEntry  `json:"moves"`
	Players   []Player     `json:"players"` // by seat
	GuildID   string       `json:"guild_id,omitempty"`
	ChannelID string       `json:"channel_id"`
	MessageID string       `json:"message_id,omitempty"` // the challenge message
	Created   time.Time    `json:"created"`
	Updated   time.Time    `json:"updated"`
}

// Seat is the seat of a user in the game, or -1.
func (g *Game) Seat(userID string) int {
	for i, p := range g.Players {
		if p.ID == userID {
			return i
		}
	}
	return -1
}

// Names are the players' names by seat.
func (g *Game) Names() []string {
	out := make([]string, len(g.Players))
	for i, p := range g.Players {
		out[i] = p.Name
	}
	return out
}

// Active reports whether the game is waiting for someone (a challenge or a
// game in play).
func (g *Game) Active() bool { return g.Status == StatusChallenge || g.Status == StatusPlaying }
