package mail

import (
	"context"
	"errors"
	"net"
	"strconv"
)

// ErrTemporary marks an error worth retrying: a relay's 4xx, a network
// failure, a rate limit, a handler's passing trouble. Wrap it (with
// fmt.Errorf("...: %w", ErrTemporary) or Temporary) so IsTemporary says so.
var ErrTemporary = errors.New("mail: temporary failure")

// Temporary wraps err so that IsTemporary reports true.
func Temporary(err error) error {
	if err == nil {
		return nil
	}
	return temporary{err}
}

type temporary struct{ error }

func (t temporary) Unwrap() []error { return []error{t.error, ErrTemporary} }

// IsTemporary reports whether err is worth retrying: it wraps
// ErrTemporary, is an *SMTPError with a 4xx code, a network error, or a
// context deadline. Anything else is permanent: the courier drops it.
func IsTemporary(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, ErrTemporary) || errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var se *SMTPError
	if errors.As(err, &se) {
		return se.Code >= 400 && se.Code < 500
	}
	var ne net.Error
	return errors.As(err, &ne)
}

// SMTPError is a relay's refusal: its reply code and enhanced status.
type SMTPError struct {
	Code     int    // 4xx temporary, 5xx permanent
	Enhanced string // e.g. "5.1.1", "" when the relay gave none
	Message  string
}

func (e *SMTPError) Error() string {
	s := "mail: relay answered " + strconv.Itoa(e.Code)
	if e.Enhanced != "" {
		s += " " + e.Enhanced
	}
	return s + ": " + e.Message
}
