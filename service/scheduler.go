package service

import (
	"context"
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
	if x, xerr := s.startDueEvents(ctx, now); xerr != nil { // tournamentround.go
		s.log.Error("cannot start the tournaments due", "err", xerr)
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
