package service

import (
	"context"
	"fmt"
	"strings"
	"time"

	"tessera"
	"tessera/engine"
)

// Tick does what time makes due: it plays out the clocks that ran out
// (earliest deadline first, from the store's deadline index, so it
// survives restarts) and writes the reminders. Call it about once a
// minute; it returns how many games it changed.
func (s *Service) Tick(ctx context.Context) (int, error) {
	now := s.now().UTC()
	due, err := s.store.Due(ctx, now)
	if err != nil {
		return 0, err
	}
	changed := 0
	for _, id := range due {
		ok, err := s.timeOut(ctx, id, now)
		if err != nil {
			s.log.Error("clock: cannot time out a game", "game", id, "err", err)
			continue
		}
		if ok {
			changed++
		}
	}
	n, err := s.remind(ctx, now)
	if x, xerr := s.expireOpen(ctx, now); xerr != nil { // open.go
		s.log.Error("cannot expire open challenges", "err", xerr)
	} else {
		n += x
	}
	if n > 0 || changed > 0 {
		s.poke()
	}
	return changed + n, err
}

// timeOut applies the time-out rule to a game whose deadline passed.
func (s *Service) timeOut(ctx context.Context, id uint64, now time.Time) (bool, error) {
	g, err := s.store.Game(ctx, id)
	if err != nil {
		return false, err
	}
	if g.Status != tessera.StatusPlaying || g.Deadline.IsZero() || g.Deadline.After(now) {
		return false, nil
	}
	p, err := s.state(g)
	if err != nil {
		return false, err
	}
	st := p.state.Clone()
	seat := int(st.ToMove())
	o := timeout(st, engine.Seat(seat))
	_, err = s.commit(Request{}, g, st, seat, "timeout", o, nil)
	if err != nil && tessera.ErrorCode(err) == tessera.ECONFLICT {
		return false, nil // someone moved meanwhile: the clock was met
	}
	return err == nil, err
}

// remind writes a reminder for every player who has not moved for
// RemindAfter, at most one a day per game.
func (s *Service) remind(ctx context.Context, now time.Time) (int, error) {
	var due []uint64
	err := s.store.All(ctx, func(g *tessera.Game) error {
		if s.reminderDue(g, now) {
			due = append(due, g.ID)
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	n := 0
	for _, id := range due {
		_, err := s.store.Modify(ctx, id, func(g *tessera.Game, tx storageTx) error {
			// Decided again inside the transaction that stamps it: another
			// process's tick may have reminded since the scan.
			if !s.reminderDue(g, now) {
				return nil
			}
			p, err := s.state(g)
			if err != nil {
				return err
			}
			to := p.state.ToMove()
			if to < 0 || aiToMove(g, p.state) { // the AI is never reminded
				return nil
			}
			u, err := tx.User(ctx, g.Players[to].ID)
			if err != nil || now.Sub(u.VacationUntil) < s.cfg.RemindAfter {
				return err // no reminders while away, nor soon after
			}
			g.Reminded = now
			n++
			return tx.Enqueue(ctx, tessera.Announcement{Kind: tessera.AnnounceReminder, GameID: g.ID, Moves: len(g.Moves), UserID: g.Players[to].ID})
		})
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// reminderDue reports whether the player to move in g is owed a reminder
// at now: RemindAfter without a move, and none in the last day. Nobody
// waits for a player alone: no reminders there.
func (s *Service) reminderDue(g *tessera.Game, now time.Time) bool {
	if g.Status != tessera.StatusPlaying || g.AITurn || solo(g) || now.Sub(g.TurnStart) < s.cfg.RemindAfter {
		return false
	}
	return g.Reminded.IsZero() || now.Sub(g.Reminded) >= 24*time.Hour
}

// Vacation pauses the caller's clocks in all their games for days days,
// within the yearly allowance. The games' places say when they are back.
func (s *Service) Vacation(req Request, days int) (Reply, error) {
	ctx := req.Context()
	// Bounded before any arithmetic: the allowance is at most 366 days.
	if days < 1 || days > s.cfg.VacationDays {
		return Reply{}, errorf(tessera.EINVALID, "Give a number of days from 1 to %d (your yearly allowance).", s.cfg.VacationDays)
	}
	now := s.now().UTC()
	var until time.Time
	var left int
	_, err := s.store.UpdateUser(ctx, req.User.ID, func(u *tessera.UserSettings, tx storageTx) error {
		if u.VacationUsed == nil {
			u.VacationUsed = map[int]int{}
		}
		year := now.Year()
		if used := u.VacationUsed[year]; used+days > s.cfg.VacationDays {
			return errorf(tessera.EINVALID, "You have %d vacation days left this year (of %d); ask for at most that.", s.cfg.VacationDays-used, s.cfg.VacationDays)
		}
		u.VacationUsed[year] += days
		left = s.cfg.VacationDays - u.VacationUsed[year]
		start := now
		if u.VacationUntil.After(now) {
			start = u.VacationUntil // a second vacation extends the first
		}
		u.VacationUntil = start.Add(time.Duration(days) * day)
		until = u.VacationUntil
		games, err := tx.Games(ctx, req.User.ID)
		if err != nil {
			return err
		}
		for _, g := range games {
			if g.Status != tessera.StatusPlaying {
				continue
			}
			seat := g.Seat(req.User.ID)
			p, err := s.state(g)
			if err != nil {
				return err
			}
			err = tx.ModifyGame(ctx, g.ID, func(g *tessera.Game) error {
				if int(p.state.ToMove()) == seat && !g.Deadline.IsZero() {
					// On their turn: the clock stops for the vacation.
					g.Deadline = g.Deadline.Add(time.Duration(days) * day)
					g.Paused += time.Duration(days) * day
				}
				return nil
			})
			if err != nil {
				return err
			}
			if err := tx.Enqueue(ctx, tessera.Announcement{Kind: tessera.AnnouncePost, GameID: g.ID, Moves: len(g.Moves),
				Text: fmt.Sprintf("%s is away until %s; their clock is paused.", req.User.Name, s.cfg.Stamp(until, time.UTC))}); err != nil {
				return err
			}
			if err := tx.Enqueue(ctx, tessera.Announcement{Kind: tessera.AnnounceStatus, GameID: g.ID, Moves: len(g.Moves)}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return Reply{}, err
	}
	s.poke()
	return Reply{Text: fmt.Sprintf("Enjoy! Your clocks are paused until %s. %d vacation days left this year.", s.cfg.Stamp(until, time.UTC), left), Ephemeral: true}, nil
}

// Settings changes the caller's settings: notify "on"/"off" (turn
// notices by direct message), timezone an IANA name ("Europe/Paris").
// Empty values leave a setting as it is.
func (s *Service) Settings(req Request, notify, timezone string) (Reply, error) {
	ctx := req.Context()
	notify = strings.ToLower(strings.TrimSpace(notify))
	timezone = strings.TrimSpace(timezone)
	if notify != "" && notify != "on" && notify != "off" {
		return Reply{}, errorf(tessera.EINVALID, "notify is on or off.")
	}
	if timezone != "" {
		if _, err := time.LoadLocation(timezone); err != nil || strings.EqualFold(timezone, "local") {
			return Reply{}, errorf(tessera.EINVALID, "%s is not a time zone; use a name like Europe/Paris or America/New_York.", typed(timezone))
		}
	}
	u, err := s.store.UpdateUser(ctx, req.User.ID, func(u *tessera.UserSettings, _ storageTx) error {
		switch notify {
		case "on":
			u.NotifyOff, u.DMFailed = false, false
		case "off":
			u.NotifyOff = true
		}
		if timezone != "" {
			u.TimeZone = timezone
		}
		return nil
	})
	if err != nil {
		return Reply{}, err
	}
	state := "on"
	if u.NotifyOff {
		state = "off"
	}
	tz := u.TimeZone
	if tz == "" {
		tz = "UTC"
	}
	return Reply{Text: fmt.Sprintf("Turn notices by direct message: %s. Time zone: %s.", state, tz), Ephemeral: true}, nil
}

// Abort ends a game without result, before its second move. On a
// challenge, the challenger's /abort withdraws it and an invited player's
// declines it.
func (s *Service) Abort(req Request, ref string) (Reply, error) {
	ctx := req.Context()
	g, err := s.findGame(req, ref, orChallenging)
	if err != nil {
		return Reply{}, err
	}
	seat := g.Seat(req.User.ID)
	if seat < 0 {
		return Reply{}, errorf(tessera.EFORBIDDEN, "You are not playing in game #%d.", g.ID)
	}
	if g.Status == tessera.StatusChallenge {
		if seat == g.ChallengerSeat() {
			return s.Withdraw(req, g.ID)
		}
		return s.Decline(req, g.ID)
	}
	if !g.Active() {
		return Reply{}, errorf(tessera.EINVALID, "Game #%d is over.", g.ID)
	}
	if len(g.Moves) >= 2 {
		return Reply{}, errorf(tessera.EINVALID, "Game #%d has had %d moves; only a game before its second move can be aborted. Use /resign.", g.ID, len(g.Moves))
	}
	_, err = s.store.Update(ctx, g.ID, g.Version, req.InteractionID, func(g *tessera.Game, tx storageTx) error {
		g.Status, g.Deadline, g.Updated = tessera.StatusAborted, time.Time{}, s.now().UTC()
		text := fmt.Sprintf("%s aborted game #%d: no result.", req.User.Name, g.ID)
		for _, a := range []tessera.Announcement{{Kind: tessera.AnnouncePost, Text: text}, {Kind: tessera.AnnounceStatus}} {
			a.GameID, a.Moves = g.ID, len(g.Moves)
			if err := tx.Enqueue(ctx, a); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return Reply{}, dup(err)
	}
	s.poke()
	// The game's place says it publicly; from another server only the
	// caller is told.
	return Reply{Text: fmt.Sprintf("Game #%d is aborted, without result.", g.ID), Ephemeral: elsewhere(g, req)}, nil
}

// PlainMove handles a plain message in a game's place: when its author is
// the player to move and it reads like a move, it is played (the bot
// reacts with a check mark and posts the board) or answered with the
// error. Other chatter is ignored: it returns false.
func (s *Service) PlainMove(req Request, messageID, text string) bool {
	ctx := req.Context()
	text = strings.TrimSpace(text)
	if text == "" || len(text) > 60 || strings.Count(text, " ") > 5 || strings.HasPrefix(text, "/") {
		return false
	}
	games, err := s.store.ByChannel(ctx, req.ChannelID)
	if err != nil {
		return false
	}
	for _, g := range games {
		if g.Status != tessera.StatusPlaying || g.Place() != req.ChannelID {
			continue
		}
		seat := g.Seat(req.User.ID)
		p, err := s.state(g)
		if err != nil || seat < 0 || int(p.state.ToMove()) != seat {
			continue
		}
		if !looksLikeMove(text) {
			return false
		}
		st := p.state.Clone()
		m, err := st.Parse(text)
		var o engine.Outcome
		if err == nil {
			o, err = st.Apply(m)
		}
		if err != nil {
			// Answer the mistake in the thread, once (the message id). The
			// thread is public and the engine's reason may name the mover's
			// hidden pieces ("you hold BBBB and RYRY, not RRRR"), so the
			// answer says only what is public; /move gives the reason to
			// the mover alone.
			_, err := s.store.Modify(ctx, g.ID, func(g *tessera.Game, tx storageTx) error {
				return tx.Enqueue(ctx, tessera.Announcement{Kind: tessera.AnnounceReply, GameID: g.ID, Moves: len(g.Moves), Target: messageID,
					Text: PlainMoveRefused})
			})
			if err == nil {
				s.poke()
			}
			return true
		}
		react := tessera.Announcement{Kind: tessera.AnnounceReact, Target: messageID, Emoji: "✅"}
		if _, err := s.commit(req, g, st, seat, m.String(), o, []tessera.Announcement{react}); err != nil {
			s.log.Info("plain-text move not stored", "err", err)
		}
		return true
	}
	return false
}

// PlainMoveRefused is the public answer to a plain-text move that is not
// legal. It names nothing hidden, whatever the reason was.
const PlainMoveRefused = "That is not a legal move. Use /move: its list shows your legal moves, and it tells you (only you) why a move is refused."

// looksLikeMove: a short text with a digit (a cell or a number) or a move
// word. Chatter such as "good move!" is not.
func looksLikeMove(text string) bool {
	t := strings.ToLower(text)
	for _, w := range []string{"pass", "flip", "discard", "swap"} {
		if strings.HasPrefix(t, w) {
			return true
		}
	}
	f := strings.Fields(t)
	if len(f) == 0 {
		return false
	}
	first := f[0]
	for i, r := range first {
		if r >= '0' && r <= '9' {
			// "d5", "17", "c3": letters then digits, from the start.
			for _, q := range first[:i] {
				if q < 'a' || q > 'z' {
					return false
				}
			}
			return i <= 2
		}
	}
	return false
}
