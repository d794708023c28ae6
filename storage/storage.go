// Package storage is the port through which Tessera keeps its games: the
// interfaces Store and Tx, each composed of small roles (Games, GameLists,
// Challenges, Clocks, AIQueue, Outbox, Users, Guilds, Secrets,
// Interactions, Ratings, Events, Analyses,
// Admin; RatingsTx, EventsTx), and the types every adapter shares (Options, the
// errors, Ended). It imports no driver. The adapters are
// storage/boltdb (one embedded file, the default) and storage/postgres
// (a shared server for several processes); storage/database opens the one
// a configured database names, and storage/storagetest is the conformance
// suite both pass.
//
// Every promise below is the adapter's to keep, whatever the number of
// processes: a change is one transaction (all of it or nothing, durable
// once acknowledged), Update's version check makes racing moves give one
// success and ErrConflict to the others, an interaction id is handled at
// most once (ErrDuplicate), and a game's announcements leave the outbox in
// the order they were enqueued.
package storage

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"time"

	"tessera"
)

// Store is an open database: every role below, which is what an adapter
// implements. A consumer asks only for the roles it uses (the courier:
// Games, Users and Outbox; the ratings tools: GameLists and Ratings), so
// a fake in a test implements only those.
//
// Every method that reaches the database takes the caller's context
// first (Created and Close do not: one reads a flag, the other is
// io.Closer's). PostgreSQL runs each query on it, so a cancelled or
// expired ctx ends a call under way with an error wrapping ctx's;
// bbolt cannot cancel a transaction once started and checks ctx only
// before starting one (a call on a done ctx returns ctx.Err()).
type Store interface {
	Games
	GameLists
	Challenges
	Clocks
	AIQueue
	Outbox
	Users
	Guilds
	Secrets
	Interactions
	Ratings
	Events
	Analyses
	Admin
}

// Games keeps the games themselves. Each change is one transaction:
// Update's version check makes racing moves give one success and
// ErrConflict to the others, and an interaction id marks the change it
// made as handled (ErrDuplicate when it already was).
type Games interface {
	// Create stores a new game, giving it the next id (and Version 1), and
	// marks the interaction that created it as handled (ErrDuplicate if it
	// already was; "" marks nothing).
	Create(ctx context.Context, g *tessera.Game, interactionID string) error
	// CreateWith is Create with a change made in the same transaction once
	// the game has its id (a game against the AI starts at once: its first
	// announcements need the id). An error from change aborts everything.
	CreateWith(ctx context.Context, g *tessera.Game, interactionID string, change func(g *tessera.Game, tx Tx) error) error
	// CreateLinked stores a new game made from another one (a rematch) and
	// records its id in that one's Rematch, in one transaction; link sees
	// the other game first and may refuse (an error aborts both), so two
	// clicks never make two rematches.
	CreateLinked(ctx context.Context, g *tessera.Game, interactionID string, fromID uint64, link func(from *tessera.Game) error) error
	// Game loads a game (ErrGameNotFound when there is none).
	Game(ctx context.Context, id uint64) (*tessera.Game, error)
	// Update changes a game in one transaction: it loads the game, checks
	// that its version is still version (else ErrConflict, nothing
	// written), marks the interaction handled (else ErrDuplicate), calls
	// change, bumps the version and writes. An error from change aborts
	// everything, including what it enqueued.
	Update(ctx context.Context, id, version uint64, interactionID string, change func(g *tessera.Game, tx Tx) error) (*tessera.Game, error)
	// Modify changes what a game's record does not derive from (its place,
	// status message, reminders) without a version check or bump: the
	// position is unchanged, so no move in flight needs to retry.
	Modify(ctx context.Context, id uint64, change func(g *tessera.Game, tx Tx) error) (*tessera.Game, error)
}

// GameLists lists games: all of them, a player's, a channel's, and a
// player's finished ones (their history).
type GameLists interface {
	// All calls fn for every game in id order.
	All(ctx context.Context, fn func(g *tessera.Game) error) error
	// ByPlayer lists a player's games, oldest first (by id).
	ByPlayer(ctx context.Context, userID string) ([]*tessera.Game, error)
	// ByChannel lists the challenges and games in play of a channel or
	// thread, and the game whose own thread it is whatever its state,
	// oldest first. A game leaves its channel's list in the transaction
	// that ends it (and a place it moved from when it moves), so the
	// answer grows with the games active there, never with those ever
	// played there; a thread is one game's, so it holds one.
	ByChannel(ctx context.Context, channelID string) ([]*tessera.Game, error)
	// ByChannelPlayer lists the games of ByChannel(channelID) in which
	// userID has a seat, oldest first, decoding only those: the place
	// and player indexes are joined on their keys, so a chat line by
	// someone who plays nothing there reads no game at all.
	ByChannelPlayer(ctx context.Context, channelID, userID string) ([]*tessera.Game, error)
	// Finished lists a player's finished games, newest first (by Ended,
	// then by id), keeping those keep accepts (nil: all): skip of them are
	// passed over and at most limit returned; more reports whether others
	// follow.
	Finished(ctx context.Context, playerID string, keep func(*tessera.Game) bool, skip, limit int) (page []*tessera.Game, more bool, err error)
}

// Challenges lists the open challenges (anyone may join them).
type Challenges interface {
	// OpenChallenges lists the open challenges of a server, oldest first.
	OpenChallenges(ctx context.Context, guildID string) ([]*tessera.Game, error)
	// NewestChallenges lists a server's open challenges newest first
	// (by id), at most max, and says how many it has in all: what a list
	// shows, read from the index without decoding the ones it leaves out.
	NewestChallenges(ctx context.Context, guildID string, max int) (page []*tessera.Game, total int, err error)
	// AllOpenChallenges lists every server's open challenges.
	AllOpenChallenges(ctx context.Context) ([]*tessera.Game, error)
	// ExpiredChallenges lists the open challenges made at or before
	// cutoff, oldest first (then by id), at most max: read from an index
	// by creation time, so a tick with none to expire reads one key.
	ExpiredChallenges(ctx context.Context, cutoff time.Time, max int) ([]*tessera.Game, error)
}

// Clocks finds the games whose turn deadline has passed.
type Clocks interface {
	// Due lists the games in play whose deadline is at or before now,
	// earliest first.
	Due(ctx context.Context, now time.Time) ([]uint64, error)
	// NextDeadline is the earliest deadline of a game in play (zero if
	// none).
	NextDeadline(ctx context.Context) (time.Time, error)
	// RemindersDue lists the games in play whose RemindAt is set and at
	// or before now, earliest first (then by id), at most max: read from
	// an index of the games in play, so a tick with nothing due reads
	// nothing else.
	RemindersDue(ctx context.Context, now time.Time, max int) ([]uint64, error)
}

// AIQueue is the AI's pending moves, and the leases that make one
// process think about each.
type AIQueue interface {
	// AITurns lists the games in play where an AI seat is to move (AITurn
	// set), by id: the AI's pending moves, which survive a restart.
	AITurns(ctx context.Context) ([]uint64, error)
	// ClaimAITurn leases game id's AI turn to owner until now+lease unless
	// another owner holds a live lease on it, and reports whether owner
	// holds it now. Processes sharing a database so think about an AI
	// turn once (the version check already makes the move once); a
	// killed process's lease expires and another takes the turn over.
	ClaimAITurn(ctx context.Context, id uint64, owner string, now time.Time, lease time.Duration) (bool, error)
	// ReleaseAITurn ends owner's lease on game id's AI turn; another
	// owner's lease is left alone.
	ReleaseAITurn(ctx context.Context, id uint64, owner string) error
}

// Outbox is the announcements owed to the transport, enqueued by
// changes (Tx.Enqueue) and delivered by couriers under leases; a game's
// announcements leave in the order they were enqueued.
//
// "A game" below is an announcement's queue (tessera.Announcement.Queue):
// a game's id, or for a tournament's announcements (GameID 0) its
// event's, kept apart from every game's. An event's announcements are
// ordered, held back and leased together as a game's are; Release takes
// queues as Queue gives them.
type Outbox interface {
	// Pending lists the announcements due at now, oldest first (at most
	// max). An announcement waiting for a retry holds back the later ones
	// of its game, so a game's messages are never delivered out of order.
	// It ignores claims: tools and single-process tests use it.
	Pending(ctx context.Context, now time.Time, max int) ([]tessera.Announcement, error)
	// Claim leases to owner up to max games that have due announcements
	// (Next <= now) and no live lease held by another owner (a lease lives
	// until now+lease), and returns those games' pending announcements in
	// order (as Pending would list them). A game's lease is renewed by
	// claiming it again. A killed process's leases expire and another
	// owner takes the games over.
	Claim(ctx context.Context, now time.Time, owner string, lease time.Duration, max int) ([]tessera.Announcement, error)
	// Release ends owner's leases on the given games (after delivering
	// them); another owner's lease is left alone.
	Release(ctx context.Context, owner string, games ...uint64) error
	// Outbox counts the announcements not yet delivered.
	Outbox(ctx context.Context) (int, error)
	// Delivered removes delivered (or abandoned) announcements, in one
	// transaction.
	Delivered(ctx context.Context, seqs ...uint64) error
	// Retry records a failed delivery attempt (Tries+1); it is tried again
	// after next.
	Retry(ctx context.Context, seq uint64, next time.Time) error
	// Attempting records that delivery of these announcements starts at
	// (for each, only its first attempt counts), in one transaction: a
	// post whose first attempt is older than Discord's nonce window may
	// have arrived, and is looked for before it is sent again.
	Attempting(ctx context.Context, at time.Time, seqs ...uint64) error
	// RetryNow makes every announcement waiting for a retry due now (a
	// permission came back) and returns how many there were.
	RetryNow(ctx context.Context) (int, error)
}

// Users keeps each user's settings.
type Users interface {
	// User reads a user's settings (defaults when none are stored).
	User(ctx context.Context, id string) (tessera.UserSettings, error)
	// UpdateUser changes a user's settings in one transaction; the change
	// may also change that user's games through tx (vacation).
	UpdateUser(ctx context.Context, id string, change func(u *tessera.UserSettings, tx Tx) error) (tessera.UserSettings, error)
}

// Guilds keeps each server's own settings (tessera.GuildSettings).
type Guilds interface {
	// Guild reads a server's settings (defaults when none are stored).
	Guild(ctx context.Context, id string) (tessera.GuildSettings, error)
	// UpdateGuild changes a server's settings in one transaction; two
	// updates of one server apply one after the other, in any number of
	// processes. An error from change writes nothing.
	UpdateGuild(ctx context.Context, id string, change func(g *tessera.GuildSettings) error) (tessera.GuildSettings, error)
}

// Secrets keeps the database's own secrets by name (the key that signs
// the game pages' addresses and links), so every process on one database
// uses the same.
type Secrets interface {
	// Secret reads the secret name, or stores the one make returns when
	// there is none, in one transaction: processes racing to make it all
	// get the one stored first. An error from make stores nothing.
	Secret(ctx context.Context, name string, make func() ([]byte, error)) ([]byte, error)
}

// Interactions remembers the interaction ids handled, so that a
// repeated one changes nothing.
//
// An id that begins with LongHandled is a mail's Message-ID, which a
// sending server may deliver again days or weeks later: PruneHandled
// leaves it, and PruneLongHandled forgets it after its own, longer
// cutoff (the runner's KeepMailHandled, 90 days).
type Interactions interface {
	// Handled reports whether an interaction id was already handled.
	Handled(ctx context.Context, interactionID string) (bool, error)
	// MarkHandled records an interaction id that changed nothing in a game
	// (ErrDuplicate if it was already recorded).
	MarkHandled(ctx context.Context, interactionID string) error
	// PruneHandled forgets interaction ids handled before the cutoff
	// (Discord never resends an interaction after 15 minutes), except
	// those that begin with LongHandled.
	PruneHandled(ctx context.Context, before time.Time) (int, error)
	// PruneLongHandled forgets the ids that begin with LongHandled
	// handled before the cutoff, and no other.
	PruneLongHandled(ctx context.Context, before time.Time) (int, error)
}

// LongHandled begins the interaction ids kept past PruneHandled's
// cutoff, until PruneLongHandled's: the mail transport's reply ids
// ("mail:" and a hash of the Message-ID).
const LongHandled = "mail:"

// Ratings reads and rebuilds the ratings (a game's end changes them
// through Tx). The reads a player causes cost in proportion to what they
// return, whatever the number of ratings stored: PlayerRating is a point
// read, PlayerRatings reads one player's rows, Leaders reads the rows
// shown in the leaderboard's order (CompareRank) and RatingRank counts
// from an ordered index (see each adapter for the cost). A rating's
// History is kept apart from the row those read: only PlayerRatings,
// RatingHistory and the tools' reads (Ratings, AllRatings) return it.
type Ratings interface {
	// Ratings are the ratings of everyone who played a rated game of game
	// in guild, with their history, in no particular order: every row of
	// the game, for tools and tests (the service reads Leaders).
	Ratings(ctx context.Context, guild, game string) ([]tessera.Rating, error)
	// PlayerRatings are user's ratings in guild, one per game played
	// rated, with their history.
	PlayerRatings(ctx context.Context, guild, user string) ([]tessera.Rating, error)
	// PlayerRating is user's rating for game in guild without its
	// History; ok false when the player has none.
	PlayerRating(ctx context.Context, guild, game, user string) (r tessera.Rating, ok bool, err error)
	// RatingHistory is user's rating for game in guild after each of
	// their rated games, oldest first (nil when none).
	RatingHistory(ctx context.Context, guild, game, user string) ([]tessera.RatingPoint, error)
	// Leaders are the ratings of game in guild in the leaderboard's
	// order (CompareRank: best first), without their History: skip of
	// them passed over, at most limit returned; rated is how many players
	// have a rating of game in guild.
	Leaders(ctx context.Context, guild, game string, skip, limit int) (rs []tessera.Rating, rated int, err error)
	// RatingRank is user's place for game in guild in the leaderboard's
	// order (1 the best; every player has a place of their own, equal
	// ratings ordered as CompareRank says) and how many players are
	// rated; place 0 when user has no rating.
	RatingRank(ctx context.Context, guild, game, user string) (place, rated int, err error)
	// AllRatings are every stored rating.
	AllRatings(ctx context.Context) ([]tessera.Rating, error)
	// ReplaceRatings replaces every stored rating by rs in one
	// transaction.
	ReplaceRatings(ctx context.Context, rs []tessera.Rating) error
}

// Events keeps the tournaments (tessera.Event). Each change is one
// transaction with UpdateEvent's version check, as Games.Update's: of
// two processes pairing the same round from the same version, one
// succeeds and the other gets ErrConflict, so a round is paired once. A
// change that also touches games (a game's end records its result, pairs
// the next round and makes its games) is made in the game's own
// transaction through Tx (EventsTx).
type Events interface {
	// CreateEvent stores a new event, giving it the next event id (and
	// Version 1), and marks the interaction that created it as handled
	// (ErrDuplicate if it already was; "" marks nothing).
	CreateEvent(ctx context.Context, e *tessera.Event, interactionID string) error
	// Event loads an event (ErrEventNotFound when there is none).
	Event(ctx context.Context, id uint64) (*tessera.Event, error)
	// UpdateEvent changes an event in one transaction: it loads the
	// event, checks that its version is still version (else ErrConflict,
	// nothing written), marks the interaction handled (else
	// ErrDuplicate), calls change, bumps the version and writes. change
	// may make the round's games (tx.CreateGame) and enqueue their
	// announcements; an error from it aborts everything.
	UpdateEvent(ctx context.Context, id, version uint64, interactionID string, change func(e *tessera.Event, tx Tx) error) (*tessera.Event, error)
	// GuildEvents lists a server's events, oldest first (by id), whatever
	// their status.
	GuildEvents(ctx context.Context, guildID string) ([]*tessera.Event, error)
	// EventsDue lists the open events whose Starts is set and at or
	// before now, earliest first (then by id): the ones to start.
	EventsDue(ctx context.Context, now time.Time) ([]uint64, error)
}

// Analyses keeps finished games' analyses (/analyze), one per game, and
// the queue of those not done: a restart finds the unfinished ones
// there. An analysis is derived from its game, so it is not copied by
// Dump (asking again makes it anew).
type Analyses interface {
	// Analysis reads a game's analysis (ErrAnalysisNotFound when there is
	// none).
	Analysis(ctx context.Context, gameID uint64) (*tessera.Analysis, error)
	// CreateAnalysis stores a game's first analysis; ErrDuplicate (and
	// nothing written) when the game has one already, so of two
	// requests racing, one queues it.
	CreateAnalysis(ctx context.Context, a *tessera.Analysis) error
	// UpdateAnalysis changes a game's analysis in one transaction
	// (ErrAnalysisNotFound when there is none): the worker adding positions and
	// the courier recording its progress message do not lose each
	// other's writes. An error from change writes nothing.
	UpdateAnalysis(ctx context.Context, gameID uint64, change func(a *tessera.Analysis) error) (*tessera.Analysis, error)
	// AnalysisQueue lists the games whose analysis is queued
	// (tessera.AnalysisQueued), in the order they were asked for
	// (Requested, then game id).
	AnalysisQueue(ctx context.Context) ([]uint64, error)
}

// Admin is the database as a whole: how it was opened, its own check,
// and closing it.
type Admin interface {
	// Created reports whether opening made a new, empty database.
	Created() bool
	// Check verifies the database's own structure (not the games: see
	// tessera check) and returns every problem found; a *DamagedError
	// among them means the data cannot be read.
	Check(ctx context.Context) []error
	// Close closes the database.
	Close() error
}

// Tx is what a change may do besides changing the game, in the same
// transaction. Its methods take the context of the Store call that
// opened the transaction (or one derived from it).
type Tx interface {
	// Enqueue adds an announcement to the outbox, giving it the next Seq
	// (and its Enqueued time, when zero, from the machine's clock); it is
	// delivered after the transaction commits, and survives a crash.
	Enqueue(ctx context.Context, a tessera.Announcement) error
	// MarkHandled records an interaction id in the transaction
	// (ErrDuplicate if it was already recorded, and the whole change is
	// then refused by the caller's returning it): what it enqueues is
	// written once, whoever asks again.
	MarkHandled(ctx context.Context, interactionID string) error
	// User reads a user's settings.
	User(ctx context.Context, id string) (tessera.UserSettings, error)
	// ModifyGame changes a game inside a user update (see
	// Store.UpdateUser); like Store.Modify it neither checks nor bumps the
	// version.
	ModifyGame(ctx context.Context, id uint64, change func(g *tessera.Game) error) error
	// Games lists a user's games.
	Games(ctx context.Context, userID string) ([]*tessera.Game, error)
	// OpenChallenges lists the open challenges of a server as the
	// transaction sees them, oldest first. Transactions that ask it for
	// one server run one after the other (in any number of processes),
	// so a limit counted here and then created holds.
	OpenChallenges(ctx context.Context, guildID string) ([]*tessera.Game, error)
	RatingsTx
	EventsTx
}

// RatingsTx is what a game's end needs to change its players' ratings
// in the game's own transaction.
type RatingsTx interface {
	// Rating is the stored rating of user for game in guild; ok false when
	// the player has none yet.
	Rating(ctx context.Context, guild, game, user string) (r tessera.Rating, ok bool, err error)
	// PutRating stores r, replacing the rating of the same guild, game
	// and user.
	PutRating(ctx context.Context, r tessera.Rating) error
	// NextRatingSeq gives the next number of the order in which games
	// change ratings (1, 2, ...; the game's RatingSeq). A game's end
	// takes it after reading its players' ratings (Rating), so two games
	// of one player ending at once are numbered in the order in which
	// their changes were made, whatever their moves' times: the order
	// tessera ratings replays them in.
	NextRatingSeq(ctx context.Context) (uint64, error)
}

// EventsTx is what a game's change needs to carry its tournament on in
// the same transaction: a game's end records its result in its event,
// pairs the next round and makes that round's games, all or nothing, so a
// crash in the middle leaves the round unpaired and the next try pairs it
// once.
type EventsTx interface {
	// Event reads an event as the transaction sees it (ErrEventNotFound
	// when there is none). In a store shared by several processes it holds the
	// event until the transaction ends, so a change read here and then
	// written with PutEvent is not lost to another's.
	Event(ctx context.Context, id uint64) (*tessera.Event, error)
	// PutEvent writes e, which must have been read at its current version
	// (ErrConflict when another change wrote it since), and bumps
	// e.Version.
	PutEvent(ctx context.Context, e *tessera.Event) error
	// CreateGame stores a new game, giving it the next game id and Version
	// 1 as Games.Create does, in this transaction (rolled back with it:
	// the id is given again). As in Games.CreateWith, change (when not
	// nil) is called once g has its id and before g is written, so that a
	// game that begins as it is made (a tournament's) is written once; an
	// error from change is returned, g is not written, and the transaction
	// must fail with it.
	CreateGame(ctx context.Context, g *tessera.Game, change func(g *tessera.Game) error) error
}

// Backuper is a Store that can write a consistent copy of itself while
// the bot goes on (bbolt: the file). A PostgreSQL database is backed up
// with pg_dump instead.
type Backuper interface {
	Backup(ctx context.Context, w io.Writer) (int64, error)
}

// Options tune opening a database.
type Options struct {
	// LockTimeout is how long to wait for another process's lock on the
	// file (default 1s), so a second bot fails at once with a clear
	// message (bbolt only: PostgreSQL waits for the URL's connect_timeout,
	// default 10 s).
	LockTimeout time.Duration
	// NoSync turns fsync off: for tests and benchmarks only.
	NoSync bool
	// Timeout is the longest one statement may run (0: no limit), so that
	// a query stuck behind a lock or on a sick server ends with an error
	// instead of holding a courier worker or an interaction for ever. On
	// PostgreSQL it is the session's statement_timeout; bbolt ignores it
	// (its file is local, and a transaction cannot be interrupted).
	Timeout time.Duration
	// ReadOnly opens an existing database without writing anything: a
	// missing or empty database is an error (*NotFoundError) instead of a
	// new one.
	ReadOnly bool
	// Log receives what opening has to say, such as an upgrade of an
	// older database's indexes (nil: slog.Default()).
	Log *slog.Logger
}

// ErrConflict is returned when a game changed since it was read.
var ErrConflict = tessera.Errorf(tessera.ECONFLICT, "The position changed while you were moving; look at the board and try again.")

// ErrDuplicate is returned when an interaction id was already handled.
var ErrDuplicate = errors.New("storage: interaction already handled")

// Missing records: one error per kind of record (bbolt style), each
// with its own message, safe to show (code tessera.ENOTFOUND). Each is
// also ErrNotFound (errors.Is), which no store returns itself: a caller
// that asks only "is it missing?" need not know which record it was.
var (
	// ErrNotFound is the parent of every missing record's error.
	ErrNotFound = tessera.Errorf(tessera.ENOTFOUND, "There is no such record.")

	// ErrGameNotFound is returned for a missing game (Game, Update,
	// Modify, CreateLinked's game to link from, Tx.ModifyGame).
	ErrGameNotFound error = notFound("There is no such game.")
	// ErrEventNotFound is returned for a missing tournament (Event,
	// UpdateEvent, Tx.Event, Tx.PutEvent).
	ErrEventNotFound error = notFound("There is no such tournament.")
	// ErrAnalysisNotFound is returned for a game without an analysis
	// (Analysis, UpdateAnalysis).
	ErrAnalysisNotFound error = notFound("There is no analysis of that game.")
)

// notFoundError is a missing record's error: its message and code are
// the *tessera.Error it wraps (so tessera.ErrorMessage shows it), and it
// is ErrNotFound too.
type notFoundError struct{ err *tessera.Error }

func notFound(msg string) *notFoundError {
	return &notFoundError{tessera.Errorf(tessera.ENOTFOUND, "%s", msg)}
}

func (e *notFoundError) Error() string { return e.err.Message }

// Unwrap gives the user-safe error, which tessera.ErrorCode and
// tessera.ErrorMessage look for.
func (e *notFoundError) Unwrap() error { return e.err }

// Is makes every missing record's error ErrNotFound as well.
func (e *notFoundError) Is(target error) bool { return target == ErrNotFound }

// Ended is when a finished game ended: the time of its last record entry
// (a move, resignation or time-out), which never changes afterwards.
// Finished orders by it.
func Ended(g *tessera.Game) int64 {
	if n := len(g.Moves); n > 0 {
		return g.Moves[n-1].At.UnixNano()
	}
	return g.Updated.UnixNano()
}
