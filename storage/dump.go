package storage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"tessera"
)

// Dumper is a Store whose whole content can be copied to another adapter
// (tessera migrate). Both adapters implement it; it is kept out of Store
// so that a new adapter builds before it can be migrated to, and the
// conformance suite (storagetest) says what is missing.
//
// What is copied is the data, not the layout: games, the outbox, users,
// ratings, handled interaction ids, servers' settings, secrets,
// tournaments and the counters. Every index (by player, by channel,
// deadlines, AI turns, open challenges, finished games; a server's
// events, events due) is derived from the games and the events, so Load
// makes it again and two adapters need not agree on how they keep it.
type Dumper interface {
	// Dump calls put for every record of the database, in one consistent
	// read (a snapshot: the bot may go on meanwhile). The order is
	// Counters first, then the games by id, the outbox by Seq, users,
	// ratings, handled interactions, guilds, secrets and the events by id;
	// an error from put stops it.
	Dump(ctx context.Context, put func(Record) error) error
	// Load writes every record src gives (through put) into an empty
	// database, in one transaction: when src or a write fails, nothing is
	// kept. It refuses a database that holds anything (ErrNotEmpty).
	// Games and events keep their ids and versions and announcements
	// their Seq (the message nonce), and the counters end at least at the
	// highest id, Seq and RatingSeq loaded, so that the next game, event,
	// announcement and rated game's end never reuse one.
	Load(ctx context.Context, src func(put func(Record) error) error) error
}

// ErrNotEmpty is Load's answer when the target already holds data.
var ErrNotEmpty = errors.New("storage: the target database is not empty")

// Record is one record of a database, as Dump gives it and Load takes it:
// exactly one field is set.
type Record struct {
	Counters     *Counters
	Game         *tessera.Game         // with its ID and Version
	Announcement *tessera.Announcement // with its Seq
	User         *User
	Rating       *tessera.Rating
	Handled      *Handled
	Guild        *Guild
	Secret       *Secret
	Event        *tessera.Event // with its ID and Version
}

// Guild is a server's stored settings.
type Guild struct {
	ID       string                `json:"id"`
	Settings tessera.GuildSettings `json:"settings"`
}

// Secret is one of the database's secrets (Secrets.Secret), copied so
// that the links it signed still work in the new database.
type Secret struct {
	Name  string `json:"name"`
	Value []byte `json:"value"`
}

// Counters are the database's sequences: the last game id and the last
// announcement Seq given out (the next ones are above them, even when the
// records that had them are gone).
type Counters struct {
	LastGameID uint64 `json:"last_game_id"`
	LastSeq    uint64 `json:"last_seq"`
	// LastRatingSeq is the last Tx.NextRatingSeq given out.
	LastRatingSeq uint64 `json:"last_rating_seq,omitempty"`
	// LastEventID is the last event id given out.
	LastEventID uint64 `json:"last_event_id,omitempty"`
}

// User is a user's stored settings.
type User struct {
	ID       string               `json:"id"`
	Settings tessera.UserSettings `json:"settings"`
}

// Handled is an interaction id already handled, and when (to the second:
// PruneHandled's cutoff needs no more).
type Handled struct {
	ID string    `json:"id"`
	At time.Time `json:"at"`
}

// Kind names the record's kind ("counters", "game", "announcement",
// "user", "rating", "handled", "guild", "secret", "event"; "" for an empty
// record).
func (r Record) Kind() string {
	switch {
	case r.Counters != nil:
		return "counters"
	case r.Game != nil:
		return "game"
	case r.Announcement != nil:
		return "announcement"
	case r.User != nil:
		return "user"
	case r.Rating != nil:
		return "rating"
	case r.Handled != nil:
		return "handled"
	case r.Guild != nil:
		return "guild"
	case r.Secret != nil:
		return "secret"
	case r.Event != nil:
		return "event"
	}
	return ""
}

// Key names the record within its database ("game 12", "user 34",
// "announcement 7", "rating g/elemental/34", "handled i", "event 3",
// "counters"):
// two databases hold the same data when they hold the same keys with the
// same Canonical records.
func (r Record) Key() string {
	switch {
	case r.Counters != nil:
		return "counters"
	case r.Game != nil:
		return fmt.Sprintf("game %d", r.Game.ID)
	case r.Announcement != nil:
		return fmt.Sprintf("announcement %d", r.Announcement.Seq)
	case r.User != nil:
		return "user " + r.User.ID
	case r.Rating != nil:
		return fmt.Sprintf("rating %s/%s/%s", r.Rating.GuildID, r.Rating.Game, r.Rating.UserID)
	case r.Handled != nil:
		return "handled " + r.Handled.ID
	case r.Guild != nil:
		return "guild " + r.Guild.ID
	case r.Secret != nil:
		return "secret " + r.Secret.Name
	case r.Event != nil:
		return fmt.Sprintf("event %d", r.Event.ID)
	}
	return ""
}

// Canonical is the record as JSON, for comparing two databases: a
// handled time to the second in UTC (all PruneHandled needs, and what
// bbolt keeps); everything else exactly.
func (r Record) Canonical() string {
	if r.Handled != nil {
		h := *r.Handled
		h.At = time.Unix(h.At.Unix(), 0).UTC()
		r.Handled = &h
	}
	b, err := json.Marshal(r)
	if err != nil {
		return "unencodable: " + err.Error()
	}
	return string(b)
}
