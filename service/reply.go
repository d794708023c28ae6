package service

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// User is a person on the transport.
type User struct {
	ID   string
	Name string
}

// Request is who asks, and where.
type Request struct {
	User          User
	GuildID       string
	ChannelID     string
	InteractionID string // repeated ids are applied once; "" for none
	// Unrated is /new's rated:false: the game it makes changes no rating.
	Unrated bool
	// ManageServer: the caller may manage the server (Discord's Manage
	// Server permission, 0x20; the console's owner always may). Server
	// settings (/settings web:) need it.
	ManageServer bool
	// Seen is the game's version the player chose on (a web page's): a
	// move or a resignation is then played only on that version, in the
	// same transaction that checks it, never on a position the player
	// did not see. 0: whatever the game's version is (Discord's /move
	// names its move in words checked against the position it meets).
	Seen uint64
	ctx  context.Context // see Context
}

// ButtonStyle is the look of a button.
type ButtonStyle int

// Button styles.
const (
	Primary ButtonStyle = iota
	Secondary
	Success
	Danger
)

// Button is a clickable action; ID is what the click sends back (at most
// 100 characters). A link button has a URL instead of an ID: it opens
// the URL (a game's page) and sends nothing back; its Style is ignored.
type Button struct {
	ID    string
	Label string
	Style ButtonStyle
	URL   string
}

// File is an attachment: a picture (a board, a hand, a replay) or a
// record to keep (an export).
type File struct {
	Name string
	Data []byte
}

// MediaType is the file's type by its name: board pictures are PNG,
// replays GIF, and the records /export answers with JSON and text.
func (f File) MediaType() string {
	switch {
	case strings.HasSuffix(f.Name, ".json"):
		return "application/json"
	case strings.HasSuffix(f.Name, ".txt"):
		return "text/plain; charset=utf-8"
	case strings.HasSuffix(f.Name, ".gif"):
		return "image/gif"
	}
	return "image/png"
}

// Reply is what a command answers, in no transport's shape: text (with
// the bold and code marks of Markdown), files, buttons, and who sees it.
// The bot makes it a Discord message, the console prints it, a web page
// could render it.
type Reply struct {
	Text      string
	Ephemeral bool // only the caller sees it
	Files     []File
	Buttons   []Button
	// Mentions are the user ids this reply pings; no one else is pinged.
	Mentions []string
	// Challenge is the game a challenge reply is for: the transport tells
	// ChallengeMessage the channel and id of the message it posted, which
	// the game's thread will start from (when it is in the game's channel)
	// and which is rewritten without its buttons once the challenge is
	// settled.
	Challenge uint64
	// Event is the tournament an event's post is for (/tournament new):
	// the transport tells EventMessage the channel and id of the message
	// it posted, which carries the Join, Leave and Start buttons, is
	// edited as entries come and go, and starts the event's thread.
	Event uint64
	// Update replaces the message whose button was clicked (a page turn)
	// instead of answering with a new one.
	Update bool
}

// Choice is one autocomplete suggestion.
type Choice struct {
	Name  string
	Value string
}

// Answered is what a transport reports after it posted a reply: the
// message that carries it, in channelID. It records what the reply
// carries, so that the courier edits that message and starts the thread
// from it: a challenge (ChallengeMessage), a tournament's post
// (EventMessage). A reply that carries neither records nothing. One call
// for every kind, so that a transport cannot forget one.
func (s *Service) Answered(ctx context.Context, r Reply, channelID, messageID string) error {
	var errs []error
	if r.Challenge != 0 {
		if err := s.ChallengeMessage(ctx, r.Challenge, channelID, messageID); err != nil {
			errs = append(errs, fmt.Errorf("recording the challenge's message: %w", err))
		}
	}
	if r.Event != 0 {
		if err := s.EventMessage(ctx, r.Event, channelID, messageID); err != nil {
			errs = append(errs, fmt.Errorf("recording the tournament's post: %w", err))
		}
	}
	return errors.Join(errs...)
}
