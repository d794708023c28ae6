// Package tessera holds the records that the service, the store and the
// transports share, and nothing that runs: a game's record (Game, with its
// Players, its MoveEntry list and its Clock), the announcements it owes
// (Announcement, the outbox), a player's UserSettings, a Rating in one
// server (ratings.go), a tournament's Event (events.go), and user-safe
// errors (Error, Errorf, ErrorCode, ErrorMessage: the code says what kind
// of failure, the message may be shown to a player). It depends only on the engine and the pairing
// library (tournament).
//
// Where everything else lives, and how a command travels through the
// packages, is told in docs/architecture.md.
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
	code, _ := classify(err)
	return code
}

// ErrorMessage is the message a user may see for err; internal errors get
// a generic message (the details are logged, never shown).
func ErrorMessage(err error) string {
	_, msg := classify(err)
	return msg
}

func classify(err error) (code, msg string) {
	var e *Error
	var ill *engine.IllegalError
	switch {
	case err == nil:
		return "", ""
	case errors.As(err, &e):
		return e.Code, e.Message
	case errors.As(err, &ill):
		return EINVALID, ill.Msg
	}
	return EINTERNAL, "Something went wrong on our side; nothing was changed. Please try again."
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
	StatusWithdrawn Status = "withdrawn" // the challenger called the challenge off

	// StatusExpired is an open challenge that nobody filled in time.
	StatusExpired Status = "expired"
)

// Player is a seat's occupant.
type Player struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Accepted bool   `json:"accepted"`
	// AI is the level ("easy", "normal", "hard") of a seat the bot itself
	// plays; empty for a person. Each AI seat thinks on its own, so one
	// game may have several. ID is then the bot's own user id.
	AI string `json:"ai,omitempty"`
}

// IsAI reports whether the computer plays this seat.
func (p Player) IsAI() bool { return p.AI != "" }

// MoveEntry is one entry of a game's record.
type MoveEntry struct {
	Seat int       `json:"seat"` // 0-based
	Text string    `json:"text"` // canonical notation, or an EndReason
	At   time.Time `json:"at"`
}

// EndReason is a record entry that is no move: its seat left the game.
// It is stored as the entry's Text (and is the export's and the
// analysis's move), so its values never change: old records read alike.
type EndReason string

// End reasons.
const (
	EndResign  EndReason = engine.ResignEntry  // the seat resigned
	EndTimeout EndReason = engine.TimeoutEntry // the seat's clock ran out
)

// EndOf is the EndReason that a record entry's text stands for, "" for
// a move.
func EndOf(text string) EndReason {
	switch r := EndReason(text); r {
	case EndResign, EndTimeout:
		return r
	}
	return ""
}

// End is the entry's EndReason, "" for a move.
func (m MoveEntry) End() EndReason { return EndOf(m.Text) }

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
	// MessageChannel is the challenge message's channel when it is not
	// ChannelID: a rematch asked for in the old game's thread is posted
	// there, and the new game's thread cannot start from it.
	MessageChannel string `json:"message_channel,omitempty"`
	// Settled is what the challenge message says once the challenge is
	// settled (begun, declined, withdrawn, expired), without its buttons.
	Settled string    `json:"settled,omitempty"`
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`

	// ThreadID is where the game is played: its own thread, or the
	// channel itself when threads are off. Empty until the game's place
	// has been made.
	ThreadID string `json:"thread_id,omitempty"`
	// NoThread keeps the game in its channel (setting games.thread false).
	NoThread bool `json:"no_thread,omitempty"`
	// StatusID is the status message, edited in place after every move.
	StatusID string `json:"status_id,omitempty"`
	// Where the game went when Discord took its place away (see
	// delivery/recovery.go): InDMs after its channel was deleted;
	// Relocations counts new places (a new thread, the parent channel of a
	// locked thread, direct messages), so each place's first posts have
	// their own nonces; Notice is the line owed to the new place, saying
	// why; Blocked is when a missing permission began to hold the game's
	// announcements back (the players were told once), zero otherwise.
	InDMs       bool      `json:"in_dms,omitempty"`
	Relocations int       `json:"relocations,omitempty"`
	Notice      string    `json:"notice,omitempty"`
	Blocked     time.Time `json:"blocked,omitempty"`

	// The clock.
	Clock     Clock           `json:"clock"`
	Banks     []time.Duration `json:"banks,omitempty"`  // time left by seat (bank clocks)
	TurnStart time.Time       `json:"turn_start"`       // when the player to move got the turn
	Paused    time.Duration   `json:"paused,omitempty"` // vacation time within the current turn
	Deadline  time.Time       `json:"deadline"`         // zero: no deadline
	Reminded  time.Time       `json:"reminded"`         // last reminder for the current turn
	// RemindAt is when the tick should next look at this game for a
	// reminder (zero: never, e.g. an AI's turn or a game played alone).
	// The service sets it with each turn and each reminder, and decides
	// again when it comes; the store indexes the games in play by it, so
	// a tick reads only the games due. It may be early, never late.
	RemindAt time.Time `json:"remind_at,omitzero"`

	// AITurn says an AI seat is to move in a game in play. It is written
	// with the move that gave it the turn, and the store keeps an index of
	// it, so the AI's pending moves are found in the store after a restart.
	AITurn bool `json:"ai_turn,omitempty"`

	// Open marks an open challenge: anyone in the server may join until
	// Setup.Players seats are taken (service/open.go).
	Open bool `json:"open,omitempty"`

	// Challenger is the user who made the challenge when that is not seat
	// 1 (a rematch rotates the seats); empty means seat 1.
	Challenger string `json:"challenger,omitempty"`

	// Rematch is the challenge made by this game's Rematch button (0: none).
	Rematch uint64 `json:"rematch,omitempty"`

	// Unrated keeps the game out of the ratings (the /new option
	// rated:false); games with an AI seat are unrated anyway.
	Unrated bool `json:"unrated,omitempty"`

	// RatingSeq numbers a rated game's end in the order in which games
	// changed the ratings (storage.Tx.NextRatingSeq), given in the
	// transaction that ends it; 0 for an unrated game, or one that ended
	// before the number existed. tessera ratings replays games in this
	// order.
	RatingSeq uint64 `json:"rating_seq,omitempty"`

	// Event is the tournament this game was made for (0: none), and
	// EventRound and EventTable its table there: 0-based indexes into
	// the event's Pairing.Played and Games, so the transaction that ends
	// the game records its result in the right place.
	Event      uint64 `json:"event,omitempty"`
	EventRound int    `json:"event_round,omitempty"`
	EventTable int    `json:"event_table,omitempty"`
	// EventName is the event's name, which the game's thread is named
	// with (with its round), so the courier needs no second read.
	EventName string `json:"event_name,omitempty"`
}

// Place is where the game's messages go.
func (g *Game) Place() string {
	if g.ThreadID != "" {
		return g.ThreadID
	}
	return g.ChannelID
}

// ClockKind is the kind of a game's time control. It is stored, so its
// values never change.
type ClockKind string

// Clock kinds. A record without one (Kind "") has no clock either.
const (
	ClockNone ClockKind = "none" // no time limit
	ClockMove ClockKind = "move" // PerMove for every move
	// ClockBank is a Fischer bank: Bank to start, Inc added after each
	// move, never above Cap.
	ClockBank ClockKind = "bank"
)

// Clock is a game's time control.
type Clock struct {
	Kind    ClockKind     `json:"kind"`
	PerMove time.Duration `json:"per_move,omitempty"`
	Bank    time.Duration `json:"bank,omitempty"`
	Inc     time.Duration `json:"inc,omitempty"`
	Cap     time.Duration `json:"cap,omitempty"`
}

// Announcement kinds.
const (
	AnnounceThread   = "thread"   // make the game's place (thread) and its status message
	AnnouncePost     = "post"     // a post in the game's place
	AnnounceStatus   = "status"   // edit the status message
	AnnounceTurn     = "turn"     // a direct message: it is your turn
	AnnounceReminder = "reminder" // a direct message: you have not moved
	AnnounceReact    = "react"    // react to a player's message
	AnnounceReply    = "reply"    // answer a player's message (plain-text move refused)
	AnnounceSettle   = "settle"   // rewrite a settled challenge's message, without its buttons
	// AnnounceAnalysis posts, then edits, a game's analysis's progress
	// line in its place; with Board, it posts the result (the chart and
	// the costly moves).
	AnnounceAnalysis = "analysis"

	// A tournament's announcements carry its EventID (and GameID 0).
	AnnounceEventThread = "event-thread" // make the event's thread from its post and post the standings there
	AnnounceEventPost   = "event-post"   // a post in the event's thread (Text; the standings picture when Board)
	AnnounceEventStatus = "event-status" // edit the event's post: its entries, status and buttons

	// A player's own announcements, about no game (GameID and EventID 0:
	// they share queue 0).
	AnnounceMailConfirm = "mail-confirm" // mail Text (the code) to the address Target, for UserID to confirm it
	AnnounceNote        = "note"         // a direct message Text to UserID (mail switched off by a bounce)

	// AnnounceMailAnswer mails UserID, in game GameID's thread, the
	// answer to their reply whose Message-ID is Target: Text (a refusal
	// and the moves that fit), or the board when Board.
	AnnounceMailAnswer = "mail-answer"
)

// Announcement is a message the bot owes Discord. It is written in the
// same transaction as the move that caused it and deleted only when
// Discord accepted it, so a crash or restart delivers it later, once.
type Announcement struct {
	Seq    uint64 `json:"seq"` // set by the store; also the message nonce
	Kind   string `json:"kind"`
	GameID uint64 `json:"game_id"`
	// EventID is the tournament an event announcement is for (its GameID
	// is then 0).
	EventID uint64    `json:"event_id,omitempty"`
	Moves   int       `json:"moves"` // the position it shows: the game after this many record entries
	UserID  string    `json:"user_id,omitempty"`
	Text    string    `json:"text,omitempty"`
	Board   bool      `json:"board,omitempty"`  // attach the board picture
	Ping    []string  `json:"ping,omitempty"`   // user ids pinged
	Target  string    `json:"target,omitempty"` // a message id (react, reply)
	Emoji   string    `json:"emoji,omitempty"`
	Tries   int       `json:"tries,omitempty"`
	Next    time.Time `json:"next,omitempty"` // not before (back-off)
	// Attempted is when a delivery was first tried: after Discord's nonce
	// window the courier looks for the post before sending it again.
	Attempted time.Time `json:"attempted,omitempty"`

	// Rematch puts a Rematch button on a post (the one that ends a game).
	Rematch bool `json:"rematch,omitempty"`

	// Enqueued is when the store took the announcement (Tx.Enqueue stamps
	// it on the machine's clock): the outbox's oldest waiting one's age,
	// which /healthz and /metrics report, is measured from it.
	Enqueued time.Time `json:"enqueued,omitempty"`
}

// Queue is the outbox's queue the announcement waits in: its game's id,
// or for a tournament's announcement (GameID 0) its event's id negated
// (-EventID, as an int64), so that no game's and event's announcements
// share one. The stores keep each queue in order, hold a queue back
// behind a retry and lease queues to couriers by it; the courier
// delivers each queue's announcements one after the other.
func (a Announcement) Queue() uint64 {
	if a.GameID == 0 && a.EventID != 0 {
		return -a.EventID
	}
	return a.GameID
}

// UserSettings are a player's own settings.
type UserSettings struct {
	NotifyOff bool   `json:"notify_off,omitempty"` // no turn direct messages
	TimeZone  string `json:"time_zone,omitempty"`  // IANA name, for displayed deadlines
	// VacationUntil: the player's clocks are paused until then.
	VacationUntil time.Time `json:"vacation_until,omitempty"`
	// VacationUsed counts vacation days taken, by year.
	VacationUsed map[int]int `json:"vacation_used,omitempty"`
	DMFailed     bool        `json:"dm_failed,omitempty"` // a DM failed once (logged once)
	// DMChannel is the transport's direct-message channel with the user
	// (Discord opens it once per user; the bot keeps its id here so a
	// restart does not open it again).
	DMChannel string `json:"dm_channel,omitempty"`
	// LinkEpoch is the generation of the user's private links to game
	// pages: each token carries it, and /link reset:true bumps it, so
	// every older link stops working at once.
	LinkEpoch uint32 `json:"link_epoch,omitempty"`

	// Notify is how turn notices, reminders and game ends reach the
	// player: NotifyDM (also ""), NotifyMail, NotifyBoth or NotifyNone
	// (NotifyOff mirrors NotifyNone, for databases written before).
	Notify string `json:"notify,omitempty"`
	// Email is the player's confirmed address (never shown to anyone
	// else); EmailPending waits for its confirmation code, whose SHA-256
	// is EmailCode, until EmailCodeUntil.
	Email          string    `json:"email,omitempty"`
	EmailPending   string    `json:"email_pending,omitempty"`
	EmailCode      string    `json:"email_code,omitempty"`
	EmailCodeUntil time.Time `json:"email_code_until,omitempty"`
}

// How a player's notices reach them (UserSettings.Notify).
const (
	NotifyDM   = "dm"
	NotifyMail = "mail"
	NotifyBoth = "both"
	NotifyNone = "none"
)

// NotifyMode is u's notice mode, NotifyDM by default, NotifyNone when
// notices were turned off before modes existed.
func (u UserSettings) NotifyMode() string {
	switch {
	case u.Notify != "":
		return u.Notify
	case u.NotifyOff:
		return NotifyNone
	}
	return NotifyDM
}

// ByDM and ByMail say whether u's notices go by direct message and by
// mail (mail only to a confirmed address).
func (u UserSettings) ByDM() bool {
	m := u.NotifyMode()
	return !u.NotifyOff && (m == NotifyDM || m == NotifyBoth)
}

func (u UserSettings) ByMail() bool {
	m := u.NotifyMode()
	return u.Email != "" && (m == NotifyMail || m == NotifyBoth)
}

// GuildSettings are a server's own settings, changed by its members with
// Manage Server.
type GuildSettings struct {
	// WebOff turns the server's game pages off (/settings web:off): no
	// links are given, and its pages answer "not found".
	WebOff bool `json:"web_off,omitempty"`
}

// Seat is the seat of a person in the game, or -1. AI seats are nobody's:
// they carry the bot's own id, and no command may play them for it.
func (g *Game) Seat(userID string) int {
	for i, p := range g.Players {
		if p.ID == userID && !p.IsAI() {
			return i
		}
	}
	return -1
}

// HasPlayer reports whether userID holds a seat of the game, a person's
// or an AI's (Seat finds only a person's): the stores index a game under
// every one of its players.
func (g *Game) HasPlayer(userID string) bool {
	for _, p := range g.Players {
		if p.ID == userID {
			return true
		}
	}
	return false
}

// ChallengerSeat is the seat of the player who made the challenge.
func (g *Game) ChallengerSeat() int {
	if g.Challenger != "" {
		if s := g.Seat(g.Challenger); s >= 0 {
			return s
		}
	}
	return 0
}

// Opponents are the names of the other players of userID.
func (g *Game) Opponents(userID string) []string {
	var out []string
	for _, p := range g.Players {
		if p.ID != userID {
			out = append(out, p.Name)
		}
	}
	return out
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
