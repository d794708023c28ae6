package service

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"tessera"
	"tessera/engine"
	"tessera/render"
)

// Message is something a transport posts.
type Message struct {
	Text     string
	Files    []File
	Mentions []string // user ids pinged; nobody else is
	ReplyTo  string   // a message id this answers
	// Marker makes the message recognisable among a channel's messages
	// (see Finder); the transport shows it in small print.
	Marker  string
	Buttons []Button // buttons under the message (Rematch)
}

// Sink delivers announcements to a transport (Discord, the console).
// nonce is unique per announcement: a transport that supports it makes a
// repeated delivery (after a crash between sending and recording) a no-op.
// An error wrapped with Permanent is not retried.
type Sink interface {
	// Thread makes a game's thread under channelID, started from the
	// message fromID when it is not empty; it returns the thread's id.
	Thread(ctx context.Context, channelID, fromID, name string) (string, error)
	// Post sends a message to a channel and returns its id.
	Post(ctx context.Context, channelID string, m Message, nonce string) (string, error)
	// Edit replaces a message's text and files.
	Edit(ctx context.Context, channelID, messageID string, m Message) error
	// DM sends a direct message to a user.
	DM(ctx context.Context, userID string, m Message, nonce string) error
	// React adds a reaction to a message.
	React(ctx context.Context, channelID, messageID, emoji string) error
}

// PermanentError is a delivery that can never succeed (DMs closed, a
// deleted channel): it is dropped, not retried.
type PermanentError struct{ Err error }

func (e *PermanentError) Error() string { return e.Err.Error() }
func (e *PermanentError) Unwrap() error { return e.Err }

// Permanent marks an error as permanent.
func Permanent(err error) error { return &PermanentError{Err: err} }

// backoff is the wait before try n+1: RetryBase, twice that, ... at most
// 5 minutes, or an hour while a human must fix something.
func (s *Service) backoff(tries int, blocked bool) time.Duration {
	if blocked {
		return min(s.cfg.RetryBase<<min(tries, 20), blockedBackoffCap)
	}
	d := s.cfg.RetryBase << min(tries, 10)
	return min(d, 5*time.Minute)
}

// recording is the context of a store write that records what the
// transport already did (a thread made, a status posted, a message
// delivered, a failed try, a lease given back). The courier's ctx is cut
// when the bot closes, after a grace period; such a write outlives it, so
// that nothing done is done again on the next start. The database's
// statement timeout still bounds it.
func recording(ctx context.Context) context.Context { return context.WithoutCancel(ctx) }

// Deliver sends every announcement that is due and removes each one only
// once the transport accepted it. Games are delivered in parallel (up to
// courier.workers at once), each game's announcements in order. A failing
// announcement is retried later with back-off, and holds back the later
// announcements of its game (so a game's posts never arrive out of order).
// Games are claimed through the store with a lease, so several processes
// may share one outbox: a game is delivered by one of them at a time. It
// returns how many announcements were delivered.
func (s *Service) Deliver(ctx context.Context, sink Sink) (int, error) {
	s.deliverMu.Lock()
	defer s.deliverMu.Unlock()
	// A round claims a few games per worker: enough to keep them busy,
	// few enough that a slow game does not hold many others' leases.
	max := max(16, 4*s.cfg.Courier.workers())
	delivered := 0
	for {
		more, n, progress, err := s.deliverRound(ctx, sink, max)
		delivered += n
		if err != nil || !more || !progress {
			return delivered, err
		}
	}
}

// deliver sends one announcement. An error of the store is never
// permanent: a database that hiccuped (a lost connection, a restart)
// answers the next try, so the announcement waits for it with back-off.
// Only a refusal of the transport that no retry can change drops one.
func (s *Service) deliver(ctx context.Context, sink Sink, a tessera.Announcement) error {
	g, err := s.store.Game(ctx, a.GameID)
	if err != nil {
		return fmt.Errorf("reading game %d: %w", a.GameID, err)
	}
	switch a.Kind {
	case tessera.AnnounceThread:
		return s.makePlace(ctx, sink, g)
	case tessera.AnnounceTurn, tessera.AnnounceReminder:
		return s.notify(ctx, sink, g, a)
	case tessera.AnnounceSettle: // in the channel of the challenge, not the game's place
		return s.rewriteChallenge(ctx, sink, g, a)
	}
	// The rest goes to the game's place, which may be new and owed its
	// status message and a notice first.
	if g, err = s.ensurePlace(ctx, sink, g); err != nil {
		return err
	}
	switch a.Kind {
	case tessera.AnnouncePost:
		m := Message{Text: a.Text, Mentions: a.Ping, Marker: marker(a)}
		if a.Rematch {
			m.Buttons = rematchButtons(g)
		}
		if a.Board {
			pic, err := s.pictureAt(g, a.Moves)
			if err != nil {
				return Permanent(err)
			}
			m.Files = []File{pic}
		}
		if g.InDMs {
			return s.postToPlayers(ctx, sink, g, a, m)
		}
		if s.alreadySent(ctx, sink, a, g.Place(), "") {
			return nil
		}
		_, err := sink.Post(ctx, g.Place(), m, nonce(a))
		return err
	case tessera.AnnounceStatus:
		if g.InDMs {
			return nil // no status message in direct messages: every post has the board
		}
		return s.editStatus(ctx, sink, g, nonce(a), marker(a))
	case tessera.AnnounceReact:
		if g.InDMs {
			return nil
		}
		err := sink.React(ctx, g.Place(), a.Target, a.Emoji)
		if failureOf(err) == MessageGone {
			return nil // the player's message was deleted: nothing to react to
		}
		return err
	case tessera.AnnounceReply:
		if g.InDMs {
			return nil
		}
		if s.alreadySent(ctx, sink, a, g.Place(), "") {
			return nil
		}
		_, err := sink.Post(ctx, g.Place(), Message{Text: a.Text, ReplyTo: a.Target, Marker: marker(a)}, nonce(a))
		return err
	}
	return Permanent(fmt.Errorf("unknown announcement kind %q", a.Kind))
}

// makePlace makes the game's thread (or adopts its channel) and its status
// message. Both steps are recorded as soon as they are done, so a retry
// does neither twice.
func (s *Service) makePlace(ctx context.Context, sink Sink, g *tessera.Game) error {
	if g.InDMs {
		return nil // its channel was deleted before the game began: it is played in direct messages
	}
	if g.ThreadID == "" {
		place := g.ChannelID
		if !g.NoThread {
			name := fmt.Sprintf("#%d %s: %s", g.ID, gameName(g.Setup.Game), strings.Join(g.Names(), " vs "))
			starter := g.MessageID
			if g.MessageChannel != "" { // the challenge is in another thread: a thread of its own
				starter = ""
			}
			id, err := sink.Thread(ctx, g.ChannelID, starter, clipTo(name, 100))
			var perm *PermanentError
			switch {
			case errors.As(err, &perm):
				s.log.Warn("cannot make a thread; the game stays in its channel", "game", g.ID, "err", err)
			case err != nil:
				return err
			default:
				place = id
			}
		}
		ng, err := s.store.Modify(recording(ctx), g.ID, func(g *tessera.Game, _ storageTx) error {
			g.ThreadID = place
			return nil
		})
		if err != nil {
			return err
		}
		g = ng
	}
	if g.StatusID != "" {
		return nil
	}
	return s.editStatus(ctx, sink, g, placeNonce(g, "s"), placeMarker(g, "s"))
}

// editStatus edits the game's status message in place (posting it first
// if the game has none yet). It always shows the game as it is now.
func (s *Service) editStatus(ctx context.Context, sink Sink, g *tessera.Game, nonce, mark string) error {
	m, err := s.statusMessage(g)
	if err != nil {
		return Permanent(err)
	}
	if g.StatusID != "" {
		err := sink.Edit(ctx, g.Place(), g.StatusID, m)
		if failureOf(err) != MessageGone {
			return err
		}
		// Someone deleted the status message: post it anew, keep the new id.
		s.log.Warn("the status message was deleted; posting it again", "game", g.ID, "message", g.StatusID)
	}
	// A new status message is posted once per place: it is looked for
	// first (a crash after posting and before recording it would otherwise
	// post it twice once the nonce is forgotten).
	m.Marker = mark
	id := s.find(ctx, sink, g.Place(), "", mark)
	if id == "" {
		if id, err = sink.Post(ctx, g.Place(), m, nonce); err != nil {
			return err
		}
	}
	_, err = s.store.Modify(recording(ctx), g.ID, func(g *tessera.Game, _ storageTx) error {
		g.StatusID = id
		return nil
	})
	return err
}

// statusMessage is the game's status: scores, whose turn, the clock, the
// board. It pings nobody.
func (s *Service) statusMessage(g *tessera.Game) (Message, error) {
	p, err := s.state(g)
	if err != nil {
		return Message{}, err
	}
	st := p.state
	lines := []string{fmt.Sprintf("**%s**, game #%d: %s", gameName(g.Setup.Game), g.ID, strings.Join(g.Names(), " vs ")), scoreLine(g, st)}
	switch g.Status {
	case tessera.StatusPlaying:
		to := g.Players[st.ToMove()]
		line := fmt.Sprintf("%s to move", to.Name)
		if aiToMove(g, st) {
			line = fmt.Sprintf("%s is thinking", to.Name)
		}
		if left, ok := timeLeft(g, s.now()); ok {
			line += fmt.Sprintf(", %s left (until %s)", Span(left), s.cfg.Stamp(g.Deadline, time.UTC))
		}
		lines = append(lines, line+".")
	case tessera.StatusAborted:
		lines = append(lines, "Aborted.")
	case tessera.StatusFinished:
		if solo(g) {
			break // the puzzle's line above says it ("Hard puzzle solved! …")
		}
		fallthrough
	default:
		lines = append(lines, render.Status(render.NewPanel("", st.View(engine.NoSeat), g.Names()).Seats)+".")
	}
	lines = append(lines, fmt.Sprintf("Clock: %s. Moves so far: %d.", ClockText(g.Clock), len(g.Moves)))
	pic, err := s.picture(g, st)
	if err != nil {
		return Message{}, err
	}
	return Message{Text: strings.Join(lines, "\n"), Files: []File{pic}}, nil
}

// pictureAt renders the board after the first n record entries.
func (s *Service) pictureAt(g *tessera.Game, n int) (File, error) {
	var st engine.State
	if n == len(g.Moves) {
		p, err := s.state(g)
		if err != nil {
			return File{}, err
		}
		st = p.state
	} else {
		var err error
		if st, err = ReplayN(g, n); err != nil {
			return File{}, err
		}
	}
	return s.pictureOf(g, st, n)
}

// notify sends a turn notice or a reminder by direct message, but only if
// it is still that player's turn in the position it was written for, and
// the player has not turned notices off.
func (s *Service) notify(ctx context.Context, sink Sink, g *tessera.Game, a tessera.Announcement) error {
	if g.Status != tessera.StatusPlaying || len(g.Moves) != a.Moves {
		return nil // they (or someone) moved since: no longer true
	}
	p, err := s.state(g)
	if err != nil {
		return Permanent(err)
	}
	to := p.state.ToMove()
	if to < 0 || g.Players[to].ID != a.UserID {
		return nil
	}
	u, err := s.store.User(ctx, a.UserID)
	if err != nil {
		return err
	}
	if u.NotifyOff {
		return nil
	}
	opp := g.Opponents(a.UserID)
	if len(opp) == 0 {
		return nil // alone: nobody to wait for, no notice (none is written now)
	}
	text := fmt.Sprintf("Your turn in **%s** game #%d%s: %s", gameName(g.Setup.Game), g.ID, againstText(opp), s.cfg.Link(g.GuildID, g.Place()))
	if a.Kind == tessera.AnnounceReminder {
		text = fmt.Sprintf("Reminder: %s is waiting for your move in **%s** game #%d (since %s): %s",
			joinAnd(opp), gameName(g.Setup.Game), g.ID, s.cfg.Stamp(g.TurnStart, loc(u)), s.cfg.Link(g.GuildID, g.Place()))
	}
	if left, ok := timeLeft(g, s.now()); ok {
		text += fmt.Sprintf("\nTime left: %s (until %s).", Span(left), s.cfg.Stamp(g.Deadline, loc(u)))
	}
	m := Message{Text: text, Marker: marker(a)}
	if a.Board {
		pic, err := s.picture(g, p.state)
		if err != nil {
			return Permanent(err)
		}
		m.Files = []File{pic}
	}
	if s.alreadySent(ctx, sink, a, "", a.UserID) {
		return nil
	}
	err = sink.DM(ctx, a.UserID, m, nonce(a))
	var perm *PermanentError
	if errors.As(err, &perm) {
		// DMs closed: the thread mention is enough. Log it once per user.
		if !u.DMFailed {
			s.log.Info("cannot send direct messages to a player; thread mentions only", "user", a.UserID, "err", err)
			s.store.UpdateUser(recording(ctx), a.UserID, func(u *tessera.UserSettings, _ storageTx) error {
				u.DMFailed = true
				return nil
			})
		}
		return nil
	}
	return err
}

func loc(u tessera.UserSettings) *time.Location {
	if u.TimeZone != "" {
		if l, err := time.LoadLocation(u.TimeZone); err == nil {
			return l
		}
	}
	return time.UTC
}

func clipTo(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
