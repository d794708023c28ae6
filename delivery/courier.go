package delivery

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"tessera"
	"tessera/service"
	"tessera/storage"
)

// backoff is the wait before try n+1: RetryBase, twice that, ... at most
// 5 minutes, or an hour while a human must fix something.
func (s *Courier) backoff(tries int, blocked bool) time.Duration {
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
func (s *Courier) Deliver(ctx context.Context, sink Sink) (int, error) {
	s.deliverMu.Lock()
	defer s.deliverMu.Unlock()
	sink = present(sink) // the service's tokens become the transport's words
	// A round claims a few games per worker: enough to keep them busy,
	// few enough that a slow game does not hold many others' leases.
	max := max(16, 4*s.cfg.Courier.EffectiveWorkers())
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
func (s *Courier) deliver(ctx context.Context, sink Sink, a tessera.Announcement) error {
	if isEvent(a) {
		return s.deliverEvent(ctx, sink, a) // a tournament's (events.go)
	}
	switch a.Kind {
	case tessera.AnnounceMailConfirm:
		return s.confirmAddress(ctx, a)
	case tessera.AnnounceNote:
		err := sink.DM(ctx, a.UserID, service.Message{Text: a.Text, Marker: marker(a)}, nonce(a))
		var perm *PermanentError
		if errors.As(err, &perm) {
			return nil // direct messages closed: nothing else reaches them
		}
		return err
	}
	g, err := s.store.Game(ctx, a.GameID)
	if err != nil {
		return fmt.Errorf("reading game %d: %w", a.GameID, err)
	}
	switch a.Kind {
	case tessera.AnnounceMailAnswer: // letterbox.go
		return s.mailAnswer(ctx, g, a)
	case tessera.AnnounceThread:
		return s.makePlace(ctx, sink, s.awaitStarter(ctx, sink, g))
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
		m := service.Message{Text: a.Text, Mentions: a.Ping, Marker: marker(a)}
		if m.Buttons, err = s.svc.LinkButtons(ctx, g, ""); err != nil {
			return err
		}
		if a.Rematch {
			m.Buttons = append(m.Buttons, s.svc.RematchButtons(g)...)
		}
		if a.Board {
			pic, err := s.svc.PictureAt(g, a.Moves)
			if err != nil {
				return Permanent(err)
			}
			m.Files = []service.File{pic}
		}
		if g.InDMs {
			err = s.postToPlayers(ctx, sink, g, a, m)
		} else if !s.alreadySent(ctx, sink, a, g.Place(), "") {
			_, err = sink.Post(ctx, g.Place(), m, nonce(a))
		}
		if err != nil || !a.Rematch {
			return err
		}
		return s.endLetters(ctx, g, a, m) // the game's end, to who chose mail
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
	case tessera.AnnounceAnalysis:
		return s.deliverAnalysis(ctx, sink, g, a)
	case tessera.AnnounceReply:
		if g.InDMs {
			return nil
		}
		if s.alreadySent(ctx, sink, a, g.Place(), "") {
			return nil
		}
		_, err := sink.Post(ctx, g.Place(), service.Message{Text: a.Text, ReplyTo: a.Target, Marker: marker(a)}, nonce(a))
		return err
	}
	return Permanent(fmt.Errorf("unknown announcement kind %q", a.Kind))
}

// starterPoll is how often a thread that waits for its challenge
// message's id looks for it in the store (which another process may have
// written: the one that answered the challenge).
const starterPoll = 25 * time.Millisecond

// awaitStarter waits, when the transport records challenge messages
// (StarterRecorder), until the game's challenge message is known, so that
// its thread starts from it; it gives up after the transport's wait (the
// answer may never have been posted) and returns the game as last read.
func (s *Courier) awaitStarter(ctx context.Context, sink Sink, g *tessera.Game) *tessera.Game {
	r, ok := unwrap(sink).(StarterRecorder)
	// A tournament's game has no challenge message: its thread starts on
	// its own in the event's channel, at once.
	if !ok || g.ThreadID != "" || g.NoThread || g.InDMs || g.MessageID != "" || g.MessageChannel != "" || g.Event != 0 {
		return g
	}
	recorded := awaitRecord(ctx, r.StarterWait(), func() bool {
		ng, err := s.store.Game(ctx, g.ID)
		if err != nil {
			return false // the store hiccuped: look again
		}
		g = ng
		return g.MessageID != "" || g.ThreadID != ""
	})
	if !recorded && ctx.Err() == nil {
		s.log.Info("the challenge message was not recorded in time; the game's thread starts on its own", "game", g.ID)
	}
	return g
}

// awaitRecord looks every starterPoll whether the transport has recorded
// what a thread starts from (ready reads the store again: another process
// may have written it), for at most wait on the wall clock (a network's
// delay, not the game's time). It reports whether ready said so before
// the wait or ctx ended.
func awaitRecord(ctx context.Context, wait time.Duration, ready func() bool) bool {
	deadline := time.Now().Add(wait)
	t := time.NewTicker(starterPoll)
	defer t.Stop()
	for time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return false
		case <-t.C:
		}
		if ready() {
			return true
		}
	}
	return false
}

// makePlace makes the game's thread (or adopts its channel) and its status
// message. Both steps are recorded as soon as they are done, so a retry
// does neither twice.
func (s *Courier) makePlace(ctx context.Context, sink Sink, g *tessera.Game) error {
	if g.InDMs {
		return nil // its channel was deleted before the game began: it is played in direct messages
	}
	if g.ThreadID == "" {
		place := g.ChannelID
		if !g.NoThread {
			starter := g.MessageID
			if g.MessageChannel != "" { // the challenge is in another thread: a thread of its own
				starter = ""
			}
			id, err := sink.Thread(ctx, g.ChannelID, starter, service.ThreadName(g))
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
		ng, err := s.store.Modify(recording(ctx), g.ID, func(g *tessera.Game, _ storage.Tx) error {
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
func (s *Courier) editStatus(ctx context.Context, sink Sink, g *tessera.Game, nonce, mark string) error {
	m, err := s.svc.StatusMessage(g)
	if err != nil {
		return Permanent(err)
	}
	links, err := s.svc.LinkButtons(ctx, g, "")
	if err != nil {
		return err
	}
	m.Buttons = append(m.Buttons, links...)
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
	_, err = s.store.Modify(recording(ctx), g.ID, func(g *tessera.Game, _ storage.Tx) error {
		g.StatusID = id
		return nil
	})
	return err
}

// notify sends a turn notice or a reminder by direct message, but only if
// it is still that player's turn in the position it was written for, and
// the player has not turned notices off.
func (s *Courier) notify(ctx context.Context, sink Sink, g *tessera.Game, a tessera.Announcement) error {
	if g.Status != tessera.StatusPlaying || len(g.Moves) != a.Moves {
		return nil // they (or someone) moved since: no longer true
	}
	to, err := s.svc.ToMove(g)
	if err != nil {
		return Permanent(err)
	}
	if to < 0 || g.Players[to].ID != a.UserID {
		return nil
	}
	u, err := s.store.User(ctx, a.UserID)
	if err != nil {
		return err
	}
	byDM, byMail := u.ByDM(), u.ByMail() && s.letterbox != nil
	if !byDM && !byMail {
		return nil
	}
	opp := g.Opponents(a.UserID)
	if len(opp) == 0 {
		return nil // alone: nobody to wait for, no notice (none is written now)
	}
	text := s.svc.TurnNotice(g, a, u, opp)
	m := service.Message{Text: text, Marker: marker(a)}
	if m.Buttons, err = s.svc.LinkButtons(ctx, g, a.UserID); err != nil {
		return err
	}
	if a.Board || byMail {
		pic, err := s.svc.Picture(g)
		if err != nil {
			return Permanent(err)
		}
		m.Files = []service.File{pic}
	}
	// The direct message first, then the letter: a letter refused for
	// now retries both, and the direct message, sent already, is found
	// by its nonce or marker and not sent again.
	if byDM {
		if err := s.directNotice(ctx, sink, a, u, m); err != nil {
			return err
		}
	}
	if !byMail {
		return nil
	}
	return s.letter(ctx, Letter{Kind: a.Kind, UserID: a.UserID, To: u.Email, Name: g.Players[to].Name, Game: g, Seat: to,
		Epoch: u.LinkEpoch, Message: m, Link: privateLink(m.Buttons)}, nonce(a))
}

// directNotice sends a turn notice or reminder by direct message.
func (s *Courier) directNotice(ctx context.Context, sink Sink, a tessera.Announcement, u tessera.UserSettings, m service.Message) error {
	if !a.Board {
		m.Files = nil
	}
	if s.alreadySent(ctx, sink, a, "", a.UserID) {
		return nil
	}
	err := sink.DM(ctx, a.UserID, m, nonce(a))
	var perm *PermanentError
	if errors.As(err, &perm) {
		// DMs closed: the thread mention is enough. Log it once per user.
		if !u.DMFailed {
			s.log.Info("cannot send direct messages to a player; thread mentions only", "user", a.UserID, "err", err)
			s.store.UpdateUser(recording(ctx), a.UserID, func(u *tessera.UserSettings, _ storage.Tx) error {
				u.DMFailed = true
				return nil
			})
		}
		return nil
	}
	return err
}

// endLetters mails a game's end (its last post, with the board) to each
// player who chose mail.
func (s *Courier) endLetters(ctx context.Context, g *tessera.Game, a tessera.Announcement, m service.Message) error {
	if s.letterbox == nil {
		return nil
	}
	m.Buttons = nil
	for seat, p := range g.Players {
		u, err := s.store.User(ctx, p.ID)
		if err != nil {
			return err
		}
		if !u.ByMail() {
			continue
		}
		if err := s.letter(ctx, Letter{Kind: a.Kind, UserID: p.ID, To: u.Email, Name: p.Name, Game: g, Seat: seat, Epoch: u.LinkEpoch, Message: m},
			nonce(a)+"."+strconv.Itoa(seat)); err != nil {
			return err
		}
	}
	return nil
}

// confirmAddress mails an address its confirmation code, while the
// address still waits for it.
func (s *Courier) confirmAddress(ctx context.Context, a tessera.Announcement) error {
	u, err := s.store.User(ctx, a.UserID)
	if err != nil {
		return err
	}
	if s.letterbox == nil || u.EmailPending != a.Target {
		return nil // no mail here, or another address asked for since
	}
	return s.letter(ctx, Letter{Kind: a.Kind, UserID: a.UserID, To: a.Target, Code: a.Text}, nonce(a))
}

// Courier delivers the outbox of one service to a transport (a Sink):
// the bot's and the console's. Deliver runs one delivery at a time per
// lease owner (the service's Courier.Owner), however many couriers it has.
type Courier struct {
	svc   Service
	store Store
	cfg   service.Config
	log   *slog.Logger
	now   func() time.Time

	// deliverMu is shared by every courier of one owner (ownerLock).
	deliverMu *sync.Mutex

	// letterbox sends what players chose to get by mail (nil: none).
	letterbox Letterbox
}

// ownerLocks serialise the couriers that claim under one owner, such as
// two transports on one service (HTTP replicas in one process): a lease
// keeps the other owners off a game, not its own owner's second courier.
var ownerLocks sync.Map // owner -> *sync.Mutex

func ownerLock(owner string) *sync.Mutex {
	m, _ := ownerLocks.LoadOrStore(owner, new(sync.Mutex))
	return m.(*sync.Mutex)
}

// Store is what the courier needs of the database: the games (read, and
// their place recorded), the tournaments (read, and their thread
// recorded), the users' settings, and the outbox.
type Store interface {
	storage.Games
	storage.Events
	storage.Users
	storage.Outbox
	storage.Analyses
}

// Service is what the courier asks of the commands' side (package
// service): its store and settings, and the words and pictures of a
// game's announcements, which the commands write and the courier sends.
type Service interface {
	Config() service.Config
	Now() time.Time
	Logger() *slog.Logger
	StatusMessage(g *tessera.Game) (service.Message, error)
	PictureAt(g *tessera.Game, moves int) (service.File, error)
	Picture(g *tessera.Game) (service.File, error)
	ToMove(g *tessera.Game) (int, error)
	TurnNotice(g *tessera.Game, a tessera.Announcement, u tessera.UserSettings, opp []string) string
	RematchButtons(g *tessera.Game) []service.Button
	// LinkButtons are the link buttons to g's page on a post or status
	// message (userID ""), or to userID's private link on their turn
	// notice; none when the pages are off.
	LinkButtons(ctx context.Context, g *tessera.Game, userID string) ([]service.Button, error)
	Mention(u service.User) string
	// EventThreadName names a tournament's thread; EventPostMessage is
	// its post as it stands (text and buttons); EventAnnouncement is an
	// AnnounceEventPost's message (its text, and the standings picture
	// when a.Board).
	EventThreadName(e *tessera.Event) string
	EventPostMessage(e *tessera.Event) service.Message
	EventAnnouncement(e *tessera.Event, a tessera.Announcement) (service.Message, error)
	// Poke wakes the transport's courier loop (Wake): more is due.
	Poke()
}

// New returns the courier of svc, which delivers the outbox of store
// (the service's).
func New(svc Service, store Store) *Courier {
	cfg := svc.Config()
	return &Courier{svc: svc, store: store, cfg: cfg, log: svc.Logger(), now: svc.Now, deliverMu: ownerLock(cfg.Courier.Owner)}
}
