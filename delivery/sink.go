package delivery

import (
	"context"
	"errors"
	"time"

	"tessera/service"
)

// Sink delivers announcements to a transport (Discord, the console).
// nonce is unique per announcement: a transport that supports it makes a
// repeated delivery (after a crash between sending and recording) a no-op.
// An error wrapped with Permanent is not retried.
//
// The courier delivers several games at once (courier.workers, a game
// to each worker), so a Sink's methods are called from several
// goroutines at once and must be safe for that.
type Sink interface {
	// Thread makes a game's thread under channelID, started from the
	// message fromID when it is not empty; it returns the thread's id.
	Thread(ctx context.Context, channelID, fromID, name string) (string, error)
	// Post sends a message to a channel and returns its id.
	Post(ctx context.Context, channelID string, m service.Message, nonce string) (string, error)
	// Edit replaces a message's text and files.
	Edit(ctx context.Context, channelID, messageID string, m service.Message) error
	// DM sends a direct message to a user.
	DM(ctx context.Context, userID string, m service.Message, nonce string) error
	// React adds a reaction to a message.
	React(ctx context.Context, channelID, messageID, emoji string) error
}

// Finder is what a transport may also do: look for a message of ours that
// carries a marker in a channel (or, with channelID "", the direct
// messages with userID), returning its id or "". It looks back to since,
// when the message was first sent if it was (however busy the channel
// since); with since zero, among the recent messages.
type Finder interface {
	Find(ctx context.Context, channelID, userID, marker string, since time.Time) (string, error)
}

// StarterRecorder is what a transport may also be: one that records the
// message a challenge was answered with (service.ChallengeMessage) right
// after answering, so that the game's thread starts from that message.
// A game that begins as it is made (against the computer, a puzzle) owes
// its thread before that record exists: the courier waits up to
// StarterWait for it, then makes the thread on its own.
type StarterRecorder interface {
	StarterWait() time.Duration
}

// PermanentError is a delivery that can never succeed (DMs closed, a
// deleted channel): it is dropped, not retried.
type PermanentError struct{ Err error }

func (e *PermanentError) Error() string { return e.Err.Error() }
func (e *PermanentError) Unwrap() error { return e.Err }

// Permanent marks an error as permanent.
func Permanent(err error) error { return &PermanentError{Err: err} }

// Failure is why a delivery failed, as the transport classifies it.
type Failure int

// Failures.
const (
	// Gone: the channel or thread is gone (Discord 10003 Unknown Channel).
	Gone Failure = iota + 1
	// MessageGone: the message to edit or react to is gone (10008).
	MessageGone
	// Blocked: a permission is missing (50001 Missing Access, 50013
	// Missing Permissions); a server admin can fix it.
	Blocked
	// Locked: the thread is locked (160005), or archived and locked so
	// that it cannot be unarchived (50083).
	Locked
	// Refused: the transport refused our credentials (401): nothing can
	// be delivered until the bot restarts with a good token.
	Refused
)

// DeliveryError is a delivery failure the courier recovers from.
type DeliveryError struct {
	Failure Failure
	Err     error
}

func (e *DeliveryError) Error() string { return e.Err.Error() }
func (e *DeliveryError) Unwrap() error { return e.Err }

// DeliveryFailure marks a transport error with why it failed.
func DeliveryFailure(f Failure, err error) error { return &DeliveryError{Failure: f, Err: err} }

func failureOf(err error) Failure {
	var de *DeliveryError
	if errors.As(err, &de) {
		return de.Failure
	}
	return 0
}

// ErrTokenRefused is what Deliver returns when the transport refused the
// token: the courier must stop; everything stays in the outbox.
var ErrTokenRefused = errors.New("the token was refused")

// NonceWindow is how long after a first attempt the courier trusts the
// transport's nonce to make a repeated post a no-op. Discord checks nonces
// "in the past few minutes"; one minute stays well inside that. After it,
// the courier looks for the post before sending it again.
const NonceWindow = time.Minute
