package service

import (
	"fmt"
	"time"

	"tessera"
)

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
				Text: fmt.Sprintf("%s is away until %s; their clock is paused.", req.User.Name, StampToken(until, time.UTC))}); err != nil {
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
	return Reply{Text: fmt.Sprintf("Enjoy! Your clocks are paused until %s. %d vacation days left this year.", StampToken(until, time.UTC), left), Ephemeral: true}, nil
}
