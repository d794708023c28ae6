package delivery

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"tessera"
	"tessera/service"
	"tessera/storage"
)

// What the courier does when the transport takes a game's place away, or
// refuses to post there. A transport classifies its refusals with
// DeliveryFailure; the courier then recovers: a new thread for a deleted
// one, the parent channel for a locked thread, direct messages for a
// deleted channel, a new status message for a deleted one; it waits (and
// tells the players once) while a permission is missing, and stops
// everything when the token is refused. Nothing a human can fix is ever
// dropped.

// blockedBackoffCap is the longest wait between tries while a human must
// fix something (a permission): an hour.
const blockedBackoffCap = time.Hour

func b36(v uint64) string { return strconv.FormatUint(v, 36) }

// Nonces: announcements use "tsr"+seq, the posts that make a game's place
// (its status message, the notice of a new place) "tsp"+game+"."+place
// generation+kind. The prefixes differ, so the two spaces are disjoint
// ("tsr"+base36(1009) used to equal the status nonce "tsrs1").
func nonce(a tessera.Announcement) string { return "tsr" + b36(a.Seq) }

func placeNonce(g *tessera.Game, kind string) string {
	return "tsp" + b36(g.ID) + "." + b36(uint64(g.Relocations)) + kind
}

// marker makes an announcement's post recognisable among a channel's
// messages: the game (or the event) and the announcement.
func marker(a tessera.Announcement) string {
	if isEvent(a) {
		return fmt.Sprintf("event %d · %s", a.EventID, b36(a.Seq))
	}
	return fmt.Sprintf("game %d · %s", a.GameID, b36(a.Seq))
}

// placeMarker marks the posts that make a game's place (kind "s" the
// status message, "n" the notice): "place" keeps them apart from the
// announcements' markers, which have no space after the dot.
func placeMarker(g *tessera.Game, kind string) string {
	return fmt.Sprintf("game %d · place %s%d", g.ID, kind, g.Relocations)
}

// find looks for a marked message in a channel (or the DMs with userID),
// when the transport can; "" when it is not there or cannot be looked for.
func (s *Courier) find(ctx context.Context, sink Sink, channelID, userID, mark string) string {
	f, ok := unwrap(sink).(Finder)
	if !ok {
		return ""
	}
	id, err := f.Find(ctx, channelID, userID, mark, time.Time{})
	if err != nil {
		s.log.Warn("looking for an earlier post failed", "channel", channelID, "err", err)
		return ""
	}
	return id
}

// alreadySent looks for a post whose first attempt is older than the nonce
// window (it may have reached the transport, whose nonce no longer
// protects it). channelID "" means the direct messages with userID.
func (s *Courier) alreadySent(ctx context.Context, sink Sink, a tessera.Announcement, channelID, userID string) bool {
	f, ok := unwrap(sink).(Finder)
	if !ok || a.Attempted.IsZero() || s.now().Sub(a.Attempted) < NonceWindow {
		return false
	}
	id, err := f.Find(ctx, channelID, userID, marker(a), a.Attempted)
	if err != nil {
		s.log.Warn("looking for an earlier delivery failed; sending again", "game", a.GameID, "err", err)
		return false
	}
	if id != "" {
		s.log.Info("an earlier delivery had arrived; not sending it again", "game", a.GameID, "kind", a.Kind, "message", id)
	}
	return id != ""
}

// deliverRecovering delivers one announcement; when the game's place is
// gone or locked it moves the game (at most twice: a deleted thread whose
// channel is gone too) and tries again.
func (s *Courier) deliverRecovering(ctx context.Context, sink Sink, a tessera.Announcement) error {
	if isEvent(a) {
		return s.deliverEvent(ctx, sink, a) // an event has no place to move: its posts fall back to its channel
	}
	for moves := 0; ; moves++ {
		err := s.deliver(ctx, sink, a)
		f := failureOf(err)
		if (f != Gone && f != Locked) || moves == 2 {
			return err
		}
		if err := s.relocate(ctx, sink, a.GameID, f, err); err != nil {
			return err
		}
	}
}

// relocate gives a game a new place after its place failed with f.
func (s *Courier) relocate(ctx context.Context, sink Sink, id uint64, f Failure, cause error) error {
	g, err := s.store.Game(ctx, id)
	if err != nil {
		return err
	}
	inThread := g.ThreadID != "" && g.ThreadID != g.ChannelID && !g.InDMs
	var notice, place string
	switch {
	case g.InDMs:
		return cause // direct messages have no place to lose
	case f == Locked && inThread:
		place = g.ChannelID
		notice = fmt.Sprintf("The thread of game #%d is locked, so its moves are posted here from now on.", g.ID)
	case f == Locked:
		return DeliveryFailure(Blocked, cause) // a channel is not locked; treat it as a permission
	case inThread:
		tid, err := sink.Thread(ctx, g.ChannelID, "", service.ThreadName(g))
		switch failureOf(err) {
		case 0:
			if err != nil {
				return err
			}
			place = tid
			notice = fmt.Sprintf("The old thread of game #%d was lost (deleted), so the game goes on in this new one.", g.ID)
		case Gone:
			return s.moveToDMs(ctx, g)
		case Blocked:
			place = g.ChannelID
			notice = fmt.Sprintf("The thread of game #%d was deleted and I may not make a new one, so its moves are posted here from now on.", g.ID)
		default:
			return err
		}
	default:
		return s.moveToDMs(ctx, g)
	}
	s.log.Warn("the game's place was lost; it moves", "game", g.ID, "from", g.Place(), "to", place, "err", cause)
	_, err = s.store.Modify(recording(ctx), g.ID, func(g *tessera.Game, _ storage.Tx) error {
		g.ThreadID, g.StatusID, g.Notice = place, "", notice
		g.Relocations++
		return nil
	})
	return err
}

func (s *Courier) moveToDMs(ctx context.Context, g *tessera.Game) error {
	s.log.Warn("the game's channel is gone; it goes on in direct messages", "game", g.ID, "channel", g.ChannelID)
	_, err := s.store.Modify(recording(ctx), g.ID, func(g *tessera.Game, _ storage.Tx) error {
		g.InDMs, g.StatusID = true, ""
		// %s in the notice is each player's opponents, filled in when
		// it is sent; a player alone has none.
		against := " against %s"
		if g.Setup.Players == 1 { // a game played alone
			against = ", alone"
		}
		g.Notice = fmt.Sprintf("The channel of game #%d (**%s**%s) was deleted, so the game goes on here, in direct messages: "+
			"use `/move game:%d` (and `/hand`, `/board` with `game:%d`) from anywhere. The board is below.", g.ID, service.GameName(g.Setup.Game), against, g.ID, g.ID)
		g.Relocations++
		return nil
	})
	return err
}

// ensurePlace posts what a game's new place is owed before its next
// announcement: the status message (with the board) and the notice saying
// why the game is here. Each is recorded once done, so a retry repeats
// neither.
func (s *Courier) ensurePlace(ctx context.Context, sink Sink, g *tessera.Game) (*tessera.Game, error) {
	if g.InDMs {
		if g.Notice == "" {
			return g, nil
		}
		pic, err := s.svc.Picture(g)
		if err != nil {
			return g, Permanent(err)
		}
		for seat, pl := range g.Players {
			text := g.Notice
			if strings.Contains(text, "%s") {
				text = fmt.Sprintf(text, service.JoinAnd(g.Opponents(pl.ID)))
			}
			m := service.Message{Text: text, Files: []service.File{pic}, Marker: placeMarker(g, "n")}
			if s.find(ctx, sink, "", pl.ID, m.Marker) != "" {
				continue
			}
			if err := sink.DM(ctx, pl.ID, m, placeNonce(g, "n"+strconv.Itoa(seat))); err != nil && failureOf(err) != Blocked {
				var perm *PermanentError
				if !errors.As(err, &perm) {
					return g, err
				}
			}
		}
		return s.store.Modify(recording(ctx), g.ID, func(g *tessera.Game, _ storage.Tx) error {
			g.Notice = ""
			return nil
		})
	}
	if g.ThreadID == "" {
		return g, nil // the place is not made yet (AnnounceThread makes it)
	}
	if g.StatusID == "" {
		if err := s.editStatus(ctx, sink, g, placeNonce(g, "s"), placeMarker(g, "s")); err != nil {
			return g, err
		}
		ng, err := s.store.Game(ctx, g.ID)
		if err != nil {
			return g, err
		}
		g = ng
	}
	if g.Notice != "" {
		var ping []string
		var names []string
		for _, p := range g.Players {
			ping = append(ping, p.ID)
			names = append(names, s.svc.Mention(service.User{ID: p.ID, Name: p.Name}))
		}
		m := service.Message{Text: strings.Join(names, " ") + ": " + g.Notice, Mentions: ping, Marker: placeMarker(g, "n")}
		if s.find(ctx, sink, g.Place(), "", m.Marker) == "" {
			if _, err := sink.Post(ctx, g.Place(), m, placeNonce(g, "n")); err != nil {
				return g, err
			}
		}
		return s.store.Modify(recording(ctx), g.ID, func(g *tessera.Game, _ storage.Tx) error {
			g.Notice = ""
			return nil
		})
	}
	return g, nil
}

// postToPlayers sends a game's post to each player by direct message (a
// game whose channel was deleted).
func (s *Courier) postToPlayers(ctx context.Context, sink Sink, g *tessera.Game, a tessera.Announcement, m service.Message) error {
	for seat, p := range g.Players {
		if s.alreadySent(ctx, sink, a, "", p.ID) {
			continue
		}
		err := sink.DM(ctx, p.ID, m, nonce(a)+"."+strconv.Itoa(seat))
		var perm *PermanentError
		if err != nil && !errors.As(err, &perm) {
			return err
		}
	}
	return nil
}

// tellBlocked tells the players once, by direct message, that a game's
// announcements wait for a permission, and where to play meanwhile.
func (s *Courier) tellBlocked(ctx context.Context, sink Sink, a tessera.Announcement, cause error) {
	g, err := s.store.Game(ctx, a.GameID)
	if err != nil || !g.Blocked.IsZero() {
		return
	}
	s.log.Error("a permission is missing where a game is played; its announcements wait", "game", g.ID, "place", g.Place(), "err", cause)
	now := s.now()
	if _, err := s.store.Modify(recording(ctx), g.ID, func(g *tessera.Game, _ storage.Tx) error {
		g.Blocked = now
		return nil
	}); err != nil {
		return
	}
	text := fmt.Sprintf("I cannot post in the place of **%s** game #%d (%s): a permission is missing there "+
		"(View Channel, Send Messages, Send Messages in Threads, Attach Files, Read Message History or Add Reactions). "+
		"Nothing is lost: the game's messages wait until a server admin gives them back. Meanwhile `/move game:%d` works from anywhere.",
		service.GameName(g.Setup.Game), g.ID, service.LinkToken(g.GuildID, g.Place()), g.ID)
	for seat, p := range g.Players {
		if err := sink.DM(ctx, p.ID, service.Message{Text: text}, "tsb"+b36(g.ID)+"."+b36(uint64(now.Unix()))+"."+strconv.Itoa(seat)); err != nil {
			s.log.Info("cannot tell a player that their game waits", "game", g.ID, "user", p.ID, "err", err)
		}
	}
}

// unblocked clears a game's waiting state once its announcements go
// through again.
func (s *Courier) unblocked(ctx context.Context, id uint64) {
	g, err := s.store.Game(ctx, id)
	if err != nil || g.Blocked.IsZero() {
		return
	}
	s.log.Info("a game's announcements go through again", "game", id, "waited", s.now().Sub(g.Blocked).String())
	s.store.Modify(recording(ctx), id, func(g *tessera.Game, _ storage.Tx) error {
		g.Blocked = time.Time{}
		return nil
	})
}

// RetryNow retries every waiting announcement at once: the transport saw
// something change that may unblock them (a channel's permissions).
func (s *Courier) RetryNow(ctx context.Context) {
	if n, err := s.store.RetryNow(ctx); err != nil {
		s.log.Warn("retrying waiting announcements failed", "err", err)
	} else if n > 0 {
		s.svc.Poke()
	}
}

// rewriteChallenge delivers an AnnounceSettle. A message that is gone,
// or that the bot may no longer edit, is left as it is: the buttons on it
// are refused with a reason when clicked, and nothing else of the game
// waits behind this edit.
func (s *Courier) rewriteChallenge(ctx context.Context, sink Sink, g *tessera.Game, a tessera.Announcement) error {
	if g.MessageID == "" || g.ChannelID == "" {
		// Not recorded yet (the transport records it once Discord has told
		// it the id, a moment after posting, and a click can come first):
		// ChallengeMessage rewrites it when it records it.
		return nil
	}
	channel := g.ChannelID
	if g.MessageChannel != "" {
		channel = g.MessageChannel
	}
	err := sink.Edit(ctx, channel, g.MessageID, service.Message{Text: a.Text})
	switch failureOf(err) {
	case Gone, MessageGone, Blocked, Locked:
		s.log.Info("the challenge message was not rewritten", "game", g.ID, "message", g.MessageID, "err", err)
		return nil
	}
	return err
}
