package storage

import (
	"time"

	"tessera"
)

// The rules of the indexes every adapter keeps beside the games, written
// once so that the adapters, their upgrades and their checks agree.

// Places are the keys a game has in the index behind Games.ByChannel:
// its channel while it is a challenge or in play, and its own thread
// (when it has one apart from its channel) whatever its state. A game
// leaves its channel's list when it ends, so a channel lists the games
// active there, not every game ever played there; a thread is one
// game's, so keeping it costs one key and lets a command typed in a
// finished game's thread find that game.
func Places(g *tessera.Game) []string {
	var out []string
	if g.Active() && g.ChannelID != "" {
		out = append(out, g.ChannelID)
	}
	if g.ThreadID != "" && g.ThreadID != g.ChannelID {
		out = append(out, g.ThreadID)
	}
	return out
}

// RemindNanos is a game's key in the reminders' index (Clocks.RemindersDue)
// in unix nanoseconds, and whether it has one: a game in play with its
// RemindAt set. A time before 1970 counts as 1970 (due at once: a
// reminder time may be early, never late).
func RemindNanos(g *tessera.Game) (int64, bool) {
	if g.Status != tessera.StatusPlaying || g.RemindAt.IsZero() {
		return 0, false
	}
	if g.RemindAt.Before(time.Unix(0, 0)) {
		return 0, true
	}
	return g.RemindAt.UnixNano(), true
}

// UpgradeRemindAt is the RemindAt an upgrade gives a game in play stored
// before the field existed: the start of its turn (1970 when it has
// none), so that the first tick after the upgrade looks at it once and
// sets the time its reminder is really due. The store cannot compute
// that time itself: the service owns the reminders' rules and delay.
func UpgradeRemindAt(g *tessera.Game) time.Time {
	if g.TurnStart.After(time.Unix(0, 0)) {
		return g.TurnStart
	}
	return time.Unix(0, 0).UTC()
}

// OpenNanos is a game's key in the open challenges' expiry index
// (Challenges.ExpiredChallenges) in unix nanoseconds, and whether it has
// one: an open challenge, by when it was made (before 1970: 1970).
func OpenNanos(g *tessera.Game) (int64, bool) {
	if !g.Open || g.Status != tessera.StatusChallenge {
		return 0, false
	}
	if g.Created.Before(time.Unix(0, 0)) {
		return 0, true
	}
	return g.Created.UnixNano(), true
}
