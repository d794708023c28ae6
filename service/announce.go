package service

// What the courier (package delivery) asks of the service: the words and
// pictures of a game's announcements, which the commands write and the
// courier sends.

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"tessera"
	"tessera/engine"
	"tessera/picture"
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

// StatusMessage is the game's status: scores, whose turn, the clock, the
// board. It pings nobody.
func (s *Service) StatusMessage(g *tessera.Game) (Message, error) {
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
			line += fmt.Sprintf(", %s left (until %s)", Span(left), StampToken(g.Deadline, time.UTC))
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
		lines = append(lines, picture.Status(picture.NewPanel("", st.View(engine.NoSeat), g.Names()).Seats)+".")
	}
	lines = append(lines, fmt.Sprintf("Clock: %s. Moves so far: %d.", ClockText(g.Clock), len(g.Moves)))
	pic, err := s.picture(g, st)
	if err != nil {
		return Message{}, err
	}
	return Message{Text: strings.Join(lines, "\n"), Files: []File{pic}}, nil
}

// PictureAt renders the board after the first n record entries.
func (s *Service) PictureAt(g *tessera.Game, n int) (File, error) {
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

// Picture is the board of g as it is now.
func (s *Service) Picture(g *tessera.Game) (File, error) {
	p, err := s.state(g)
	if err != nil {
		return File{}, err
	}
	return s.picture(g, p.state)
}

// ToMove is the seat to move in g (-1: none).
func (s *Service) ToMove(g *tessera.Game) (int, error) {
	p, err := s.state(g)
	if err != nil {
		return -1, err
	}
	return int(p.state.ToMove()), nil
}

// TurnNotice is the direct message that tells u it is their turn in g,
// or reminds them (a.Kind AnnounceReminder), with the time left; opp are
// the players u waits for.
func (s *Service) TurnNotice(g *tessera.Game, a tessera.Announcement, u tessera.UserSettings, opp []string) string {
	text := fmt.Sprintf("Your turn in **%s** game #%d%s: %s", gameName(g.Setup.Game), g.ID, againstText(opp), LinkToken(g.GuildID, g.Place()))
	if a.Kind == tessera.AnnounceReminder {
		text = fmt.Sprintf("Reminder: %s is waiting for your move in **%s** game #%d (since %s): %s",
			joinAnd(opp), gameName(g.Setup.Game), g.ID, StampToken(g.TurnStart, loc(u)), LinkToken(g.GuildID, g.Place()))
	}
	if left, ok := timeLeft(g, s.now()); ok {
		text += fmt.Sprintf("\nTime left: %s (until %s).", Span(left), StampToken(g.Deadline, loc(u)))
	}
	return text
}

func loc(u tessera.UserSettings) *time.Location {
	if u.TimeZone != "" {
		if l, err := time.LoadLocation(u.TimeZone); err == nil {
			return l
		}
	}
	return time.UTC
}

// Labels of the link buttons to a game's page.
const (
	PageButtonLabel   = "Open the game page"
	PlayerButtonLabel = "Play on your game page"
)

// LinkButtons are the link buttons an announcement of g carries: for a
// post or the status message (userID ""), the game's page; for a turn
// notice to userID, their private link. None when the pages are off for
// g's server; an error when the store cannot say (the courier retries).
func (s *Service) LinkButtons(ctx context.Context, g *tessera.Game, userID string) ([]Button, error) {
	if !s.WebOn() {
		return nil, nil
	}
	if userID == "" {
		u, err := s.gameURL(ctx, g)
		if err != nil || u == "" {
			return nil, err
		}
		return []Button{{Label: PageButtonLabel, URL: u}}, nil
	}
	if g.Seat(userID) < 0 {
		return nil, nil
	}
	u, err := s.PlayerURL(ctx, g, userID)
	if err != nil || u == "" {
		return nil, err
	}
	return []Button{{Label: PlayerButtonLabel, URL: u}}, nil
}

// RematchButtons are the buttons under a finished game's last post.
func (s *Service) RematchButtons(g *tessera.Game) []Button { return rematchButtons(g) }

// Mention renders a mention of u on the transport.
func (s *Service) Mention(u User) string { return s.mention(u) }

// Poke wakes the courier: announcements are waiting.
func (s *Service) Poke() { s.poke() }

// Config is the service's configuration, with its defaults filled in.
func (s *Service) Config() Config { return s.cfg }

// Now is the service's clock.
func (s *Service) Now() time.Time { return s.now() }

// Logger is where the service logs.
func (s *Service) Logger() *slog.Logger { return s.log }

// ThreadName is the name of g's thread: "#12 Elemental: ana vs bo",
// or for a tournament's game its event and round, "Spring Swiss R2 #12:
// ana v bo", within Discord's 100 characters.
func ThreadName(g *tessera.Game) string {
	if g.Event != 0 && g.EventName != "" {
		return clipTo(fmt.Sprintf("%s R%d #%d: %s", g.EventName, g.EventRound+1, g.ID, strings.Join(g.Names(), " v ")), 100)
	}
	return clipTo(fmt.Sprintf("#%d %s: %s", g.ID, gameName(g.Setup.Game), strings.Join(g.Names(), " vs ")), 100)
}

// GameName is a game's display name ("Elemental").
func GameName(id string) string { return gameName(id) }

// JoinAnd joins names as a sentence does: "a, b and c".
func JoinAnd(xs []string) string { return joinAnd(xs) }

// Threads reports whether games get a thread each (else they stay in
// their channel): what /new must be allowed to make.
func (s *Service) Threads() bool { return !s.cfg.NoThreads }
