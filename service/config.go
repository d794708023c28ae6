package service

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"
)

// Config tunes a Service.
type Config struct {
	// Renderer draws the pictures (required; cmd/tessera wires
	// render.Renderer).
	Renderer Renderer
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Logger (default slog.Default()).
	Logger *slog.Logger
	// Seed draws a game's seed (default crypto/rand).
	Seed func() uint64
	// Defaults are options applied to every new game of a kind (by game
	// id, "name=value" words) unless the challenger gives them.
	Defaults map[string]string

	// NoThreads keeps games in their channel instead of a thread each.
	NoThreads bool
	// Clock is the default time control of a new game ("3d", "none",
	// "bank=7d,inc=1d,cap=14d"); default none.
	Clock string
	// RemindAfter is how long a player may not move before a reminder
	// (default 24h; at most one reminder a day per game).
	RemindAfter time.Duration
	// VacationDays is the yearly vacation allowance (default 20).
	VacationDays int
	// AIWorkers is how many AI searches may run at once (setting
	// ai.workers, default 1): each uses both cores, and commands must stay
	// fast meanwhile.
	AIWorkers int
	// AIThink caps the hard level's thinking per move (setting ai.think,
	// default 5 s); easy and normal get a fifth and a half of it.
	AIThink time.Duration
	// AIHook, when set, is called as the AI starts thinking about a game
	// (tests block in it to stop the bot while the AI thinks).
	AIHook func(ctx context.Context, gameID uint64, moves int)
	// After, when set, is what the AI worker waits on before it tries
	// again to store a move the store failed to take (time.After when
	// nil); tests give a fake clock.
	After func(d time.Duration) <-chan time.Time
	// PairHook, when set, is called inside the transaction that pairs an
	// event's round, after the game of each of its tables is made (tests
	// block in it to kill the process in the middle of pairing).
	PairHook func(ctx context.Context, eventID uint64, round, table int)
	// AnalysisIterations is the search budget of each position of an
	// analysis (/analyze; setting ai.analysis_iterations, default
	// DefaultAnalysisIterations). Analyses run AIWorkers at once too.
	AnalysisIterations int
	// AnalysisHook, when set, is called as an analysis starts and after
	// each position written (tests stop the process in it).
	AnalysisHook func(ctx context.Context, gameID uint64, positions int)
	// RetryBase is the first wait before a failed delivery is retried; it
	// doubles on every try, up to 5 minutes (default 2 s).
	RetryBase time.Duration
	// ChallengeExpire is how long an open challenge waits for players
	// (default 7 days; open.go).
	ChallengeExpire time.Duration
	// ReplayMoves is how many moves one /replay may animate (default
	// DefaultReplayMoves; replay.go).
	ReplayMoves int
	// UploadLimit is the largest file the transport takes, in bytes
	// (default MaxUpload, Discord's 10 MiB per file; replay.go).
	UploadLimit int
	// Provisional is how many rated games a rating needs to lose its
	// provisional mark (0: Provisional).
	Provisional int
	// Courier is how announcements are delivered (package delivery;
	// courierconfig.go).
	Courier CourierConfig
	// Web is the companion pages: their public address and the key that
	// signs their addresses and the players' links (weblink.go).
	Web WebConfig
	// Mail says that a mail transport is wired (mail.relay is set): the
	// players may link an address (/settings email:) and choose notices
	// by mail.
	Mail bool
	// Meter receives the moves and the computer's thinking, for the
	// operators' metrics (meter.go; nil: none).
	Meter Meter
}

// Wording is how hints name what the caller types, which differs by
// transport (a Presenter's); an empty field is Discord's wording. The
// service writes none of it itself: its texts carry tokens that each
// transport renders (presenter.go).
type Wording struct {
	// PickGame ends "say which with …": how to name one of several games
	// (Discord: "the game: option"; the console: "#id after the command").
	PickGame string
	// MoveList is what lists the legal moves, in "pick one from the … list"
	// and "(… lists your legal moves)" (Discord: "autocomplete").
	MoveList string
	// Channel is where a command was typed, in "no game in play in …"
	// (Discord: "this channel"; the console: "the console").
	Channel string
	// Server is the community ratings and challenges belong to, in
	// "leaderboard of …" (Discord: "this server"; the console: "the
	// console").
	Server string
}

// Bounds of the configuration's numbers (zero means the default).
const (
	MinRemindAfter  = time.Hour
	MaxRemindAfter  = 30 * day
	MaxVacationDays = 366
	MaxRetryBase    = 5 * time.Minute
	MaxAIWorkers    = 16
	MaxAIThink      = 10 * time.Minute
)

// Validate checks the settings a person writes (the configuration file):
// the default clock as ParseClock reads it, and every duration and day
// count within its bounds, which the message states. Zero means the
// default. The configuration loader calls it, so a bad value is found at
// start-up and not by the players.
func (c Config) Validate() error {
	if strings.TrimSpace(c.Clock) != "" {
		if _, err := ParseClock(c.Clock); err != nil {
			return fmt.Errorf("defaults.clock: %w", err)
		}
	}
	if c.RemindAfter != 0 && (c.RemindAfter < MinRemindAfter || c.RemindAfter > MaxRemindAfter) {
		return fmt.Errorf("reminders.after %s: give from 1h to 30 days (720h)", c.RemindAfter)
	}
	if c.VacationDays < 0 || c.VacationDays > MaxVacationDays {
		return fmt.Errorf("vacation.days %d: give from 1 to %d days a year (0 for the default, 20)", c.VacationDays, MaxVacationDays)
	}
	if c.AIWorkers < 0 || c.AIWorkers > MaxAIWorkers {
		return fmt.Errorf("ai.workers %d: give from 1 to %d searches at once", c.AIWorkers, MaxAIWorkers)
	}
	if c.AnalysisIterations < 0 || c.AnalysisIterations > MaxAnalysisIterations {
		return fmt.Errorf("ai.analysis_iterations %d: give from 1 to %d iterations a position", c.AnalysisIterations, MaxAnalysisIterations)
	}
	if c.AIThink < 0 || c.AIThink > MaxAIThink {
		return fmt.Errorf("ai.think %s: give from 1ms to 10m", c.AIThink)
	}
	if c.Provisional < 0 || c.Provisional > MaxProvisional {
		return fmt.Errorf("ratings.provisional %d: give a number of games from 1 to %d", c.Provisional, MaxProvisional)
	}
	if c.ChallengeExpire != 0 && (c.ChallengeExpire < MinChallengeExpire || c.ChallengeExpire > MaxChallengeExpire) {
		return fmt.Errorf("challenges.expire %s: give from 1h to 90 days (90d)", FormatSpan(c.ChallengeExpire))
	}
	if c.ReplayMoves < 0 || c.ReplayMoves > MaxReplayMoves {
		return fmt.Errorf("replay.max_moves %d: give from 1 to %d moves", c.ReplayMoves, MaxReplayMoves)
	}
	if c.RetryBase < 0 || c.RetryBase > MaxRetryBase {
		return fmt.Errorf("retry base %s: give from 1ms to 5m", c.RetryBase)
	}
	return nil
}
