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
	_, err = s.commit(Request{}, g, st, seat, string(tessera.EndTimeout), o, nil)
	if err != nil && tessera.ErrorCode(err) == tessera.ECONFLICT {
		return false, nil // someone moved meanwhile: the clock was met
	}
	return err == nil, err
}

// remindBatch bounds the games one tick looks at for reminders, earliest
// first; the rest wait for the next tick. Only the first ticks after an
// upgrade have more (storage.UpgradeRemindAt makes every game in play
// due once).
const remindBatch = 500

// remind writes a reminder for every player who has not moved for
// RemindAfter, at most one a day per game. The store's index gives the
// games whose RemindAt has come (nextReminder sets it); each is decided
// again in the transaction that stamps it, which also sets when to look
// next, so a tick with nothing due reads nothing but the index.
func (s *Service) remind(ctx context.Context, now time.Time) (int, error) {
	due, err := s.store.RemindersDue(ctx, now, remindBatch)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, id := range due {
		_, err := s.store.Modify(ctx, id, func(g *tessera.Game, tx storageTx) error {
			// Decided again inside the transaction that stamps it: another
			// process's tick may have reminded since the index was read.
			if g.Status != tessera.StatusPlaying || g.RemindAt.After(now) {
				return nil
			}
			p, err := s.state(g)
			if err != nil {
				// A record that does not replay cannot be moved in either:
				// it leaves the index rather than be read every tick.
				s.log.Error("reminders: a game does not replay; it gets no more reminders", "game", g.ID, "err", err)
				g.RemindAt = time.Time{}
				return nil
			}
			to := int(p.state.ToMove())
			if to < 0 || to >= len(g.Players) || aiToMove(g, p.state) { // the AI is never reminded
				g.RemindAt = time.Time{}
				return nil
			}
			u, err := tx.User(ctx, g.Players[to].ID)
			if err != nil {
				return err
			}
			// Not yet (a reminder within the day, a vacation), or never:
			// the index holds it until then, or no more.
			if g.RemindAt = s.nextReminder(g, u.VacationUntil); g.RemindAt.IsZero() || g.RemindAt.After(now) {
				return nil
			}
			g.Reminded = now
			g.RemindAt = s.nextReminder(g, u.VacationUntil)
			n++
			return tx.Enqueue(ctx, tessera.Announcement{Kind: tessera.AnnounceReminder, GameID: g.ID, Moves: len(g.Moves), UserID: g.Players[to].ID})
		})
		if err != nil {
			// One game the tick cannot decide must not hold back the
			// others: it is looked at again next tick.
			s.log.Error("reminders: cannot decide a game's reminder", "game", id, "err", err)
		}
	}
	return n, nil
}

// nextReminder is when the player to move in g is owed a reminder: after
// RemindAfter without a move, a day after the last reminder, and
// RemindAfter after a vacation (away) ends; zero when never (the game is
// not in play, an AI seat is to move, or a player is alone: nobody waits
// for them). The store indexes the games in play by it (RemindAt).
func (s *Service) nextReminder(g *tessera.Game, away time.Time) time.Time {
	if g.Status != tessera.StatusPlaying || g.AITurn || solo(g) {
		return time.Time{}
	}
	at := g.TurnStart.Add(s.cfg.RemindAfter)
	if !g.Reminded.IsZero() && g.Reminded.Add(24*time.Hour).After(at) {
		at = g.Reminded.Add(24 * time.Hour)
	}
	if back := away.Add(s.cfg.RemindAfter); !away.IsZero() && back.After(at) {
		at = back
	}
	return at
}
