package service

import (
	"context"
	"log/slog"
	"time"

	"tessera"
	"tessera/engine"
	"tessera/storage"
)

// The service serves three audiences, and each sees it through an
// interface of its own, so a transport gets what it needs to serve its
// users and nothing that lets it reach around the service into the store:
//
//   - Players: the transports that turn people's input into requests
//     (Discord, the console, mail): the command table's commands and
//     buttons, autocomplete, plain-text moves, and the reads a transport
//     needs to address its users.
//   - Pages: the web pages, which read games, events and players, and
//     take a move or a button from a player holding a private link.
//   - Workers: the runner's loops: the clocks, the computer's moves,
//     the queued analyses and the pruning.
//
// The courier's words are a fourth audience, delivery.Service, declared
// by the delivery package that uses it. *Service implements all four;
// architecture_test.go checks that no transport names *Service or Store.

// Players is the service as a transport of players' input sees it.
type Players interface {
	// RunCommand runs a command of the command table (or one of its
	// subcommands) with the options the transport parsed.
	RunCommand(req Request, c Command, in Args) (Reply, error)
	// CompleteOption lists the choices for the option being typed.
	CompleteOption(req Request, o Option, in Args, typed string) []Choice
	// Click runs the button whose custom id is id.
	Click(req Request, id string) (Reply, error)
	// PlainMove plays a chat line that reads as a move, when plain-text
	// moves are on; it reports whether the line was taken as one.
	PlainMove(req Request, messageID, text string) bool
	// MoveChoices lists the legal moves of the game ref that start with
	// typed (a move's autocomplete, a mail's list of moves that fit).
	MoveChoices(req Request, ref, typed string) []Choice
	// Answered records what the transport posted for r (its message's
	// channel and id), so later edits find it.
	Answered(ctx context.Context, r Reply, channelID, messageID string) error
	// Fail turns an error into the reply a user may see.
	Fail(err error) Reply
	SetBot(u User)
	Bot() User
	Threads() bool
	Config() Config
	Now() time.Time
	Logger() *slog.Logger
	// GamesOf lists a player's games, oldest first.
	GamesOf(ctx context.Context, userID string) ([]*tessera.Game, error)
	// GameOf reads one game.
	GameOf(ctx context.Context, id uint64) (*tessera.Game, error)
	// DMChannel is the direct-message channel kept for userID ("" when
	// none); KeepDMChannel keeps one, and ForgetDMChannel forgets
	// channelID if it is still the one kept.
	DMChannel(ctx context.Context, userID string) (string, error)
	KeepDMChannel(ctx context.Context, userID, channelID string) error
	ForgetDMChannel(ctx context.Context, userID, channelID string) error
	// RetryWaiting makes every announcement waiting for a retry due now:
	// the transport saw a change (a permission given back) that may let
	// it through.
	RetryWaiting(ctx context.Context)
}

// Pages is the service as the web pages see it.
type Pages interface {
	// GameAt reads the game a page address names; GameView is what its
	// page shows after moves moves, to viewer ("" for a spectator).
	GameAt(ctx context.Context, address string) (*tessera.Game, error)
	GameView(ctx context.Context, g *tessera.Game, moves int, viewer string) (GameView, error)
	// PreviewBoard is the board after the move text, as viewer would see
	// it, before it is played.
	PreviewBoard(ctx context.Context, g *tessera.Game, viewer, text string) (engine.Scene, error)
	// CheckPlayerToken tells whose private link token is.
	CheckPlayerToken(ctx context.Context, g *tessera.Game, token string) (userID string, seat int, err error)
	WebGuild(ctx context.Context, address string) (string, error)
	WebPlayer(ctx context.Context, guild, userID string, page int) (WebPlayerPage, error)
	WebLeaderboard(ctx context.Context, guild, gameID string, page int) (rows []WebLeader, note string, rated int, err error)
	WebEvents(ctx context.Context, guild string) ([]WebEvent, error)
	WebEventOf(ctx context.Context, guild string, id uint64) (WebEventPage, error)
	WebChallenges(ctx context.Context, guild string) (list []WebChallenge, more int, err error)
	GuildAddress(guildID string) string
	// A player holding a private link plays, resigns, asks for a hint,
	// presses a button, or downloads the game, as through the commands.
	Move(req Request, ref, text string) (Reply, error)
	ResignConfirm(req Request, id uint64) (Reply, error)
	Hint(req Request, ref string) (Reply, error)
	Click(req Request, id string) (Reply, error)
	Export(req Request, ref string) (Reply, error)
	ReplayGIF(req Request, ref string, from, to int) (Reply, error)
	// UnsubscribeCheck tells whether the one-click unsubscribe token
	// names an address that still gets mail; Unsubscribe switches it
	// off (RFC 8058).
	UnsubscribeCheck(ctx context.Context, token string) (mailOn bool, err error)
	Unsubscribe(ctx context.Context, token string) (changed bool, err error)
	Config() Config
	Now() time.Time
	Logger() *slog.Logger
}

// Workers is the service as the runner's loops see it.
type Workers interface {
	// Tick runs the clocks: deadlines, reminders and expiries.
	Tick(ctx context.Context) (int, error)
	// RunAI plays the computer's moves and runs the queued analyses
	// until ctx ends.
	RunAI(ctx context.Context)
	// PlayAI makes every computer move due now; AnalyzeQueued runs every
	// queued analysis now (the console runs them in step with its
	// output). AIPending and AnalysesPending tell whether any is due.
	PlayAI(ctx context.Context) (int, error)
	AnalyzeQueued(ctx context.Context) (int, error)
	AIPending(ctx context.Context) (bool, error)
	AnalysesPending(ctx context.Context) (bool, error)
	// PruneHandled forgets the interaction ids handled before the cutoff;
	// PruneLongHandled the mail replies' ids (kept far longer).
	PruneHandled(ctx context.Context, before time.Time) (int, error)
	PruneLongHandled(ctx context.Context, before time.Time) (int, error)
	// Wake is signalled when something new waits in the outbox.
	Wake() <-chan struct{}
}

// RunCommand runs c (a command of the table, or one of its subcommands).
func (s *Service) RunCommand(req Request, c Command, in Args) (Reply, error) {
	return c.Run(s, req, in)
}

// CompleteOption lists o's choices for what the user has typed so far.
func (s *Service) CompleteOption(req Request, o Option, in Args, typed string) []Choice {
	if o.Complete == nil {
		return nil
	}
	return o.Complete(s, req, in, typed)
}

// GamesOf lists userID's games, oldest first.
func (s *Service) GamesOf(ctx context.Context, userID string) ([]*tessera.Game, error) {
	return s.store.ByPlayer(ctx, userID)
}

// GameOf reads game id.
func (s *Service) GameOf(ctx context.Context, id uint64) (*tessera.Game, error) {
	return s.store.Game(ctx, id)
}

// DMChannel is userID's kept direct-message channel, "" when none.
func (s *Service) DMChannel(ctx context.Context, userID string) (string, error) {
	u, err := s.store.User(ctx, userID)
	if err != nil {
		return "", err
	}
	return u.DMChannel, nil
}

// KeepDMChannel keeps channelID as userID's direct-message channel.
func (s *Service) KeepDMChannel(ctx context.Context, userID, channelID string) error {
	_, err := s.store.UpdateUser(ctx, userID, func(u *tessera.UserSettings, _ storage.Tx) error {
		u.DMChannel = channelID
		return nil
	})
	return err
}

// ForgetDMChannel forgets userID's direct-message channel if it is still
// channelID (the transport found it gone).
func (s *Service) ForgetDMChannel(ctx context.Context, userID, channelID string) error {
	_, err := s.store.UpdateUser(ctx, userID, func(u *tessera.UserSettings, _ storage.Tx) error {
		if u.DMChannel == channelID {
			u.DMChannel = ""
		}
		return nil
	})
	return err
}

// RetryWaiting makes every announcement waiting for a retry due now, and
// wakes the courier when there was one.
func (s *Service) RetryWaiting(ctx context.Context) {
	if n, err := s.store.RetryNow(ctx); err != nil {
		s.log.Warn("retrying waiting announcements failed", "err", err)
	} else if n > 0 {
		s.Poke()
	}
}

// AIPending tells whether a computer seat is to move in some game.
func (s *Service) AIPending(ctx context.Context) (bool, error) {
	ids, err := s.store.AITurns(ctx)
	return len(ids) > 0, err
}

// AnalysesPending tells whether an analysis is queued.
func (s *Service) AnalysesPending(ctx context.Context) (bool, error) {
	ids, err := s.store.AnalysisQueue(ctx)
	return len(ids) > 0, err
}

// PruneHandled forgets the interaction ids handled before the cutoff.
func (s *Service) PruneHandled(ctx context.Context, before time.Time) (int, error) {
	return s.store.PruneHandled(ctx, before)
}

// PruneLongHandled forgets the mail replies' ids handled before the
// cutoff.
func (s *Service) PruneLongHandled(ctx context.Context, before time.Time) (int, error) {
	return s.store.PruneLongHandled(ctx, before)
}

// *Service serves every audience.
var (
	_ Players = (*Service)(nil)
	_ Workers = (*Service)(nil)
	_ Pages   = (*Service)(nil)
)
