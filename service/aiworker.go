package service

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"tessera"
	"tessera/ai"
	"tessera/engine"
	"tessera/storage"
)

// The AI moves off the interaction path. A person's /move is answered as
// soon as it is stored; the worker then finds the games where an AI seat
// is to move in the store's index (written in the move's transaction, so a
// restart finds them again), thinks, and plays through play, with the
// version it read: exactly one move is stored per position, whoever else
// tries. A search cut short by a shutdown plays nothing; the next run
// thinks again.

// aiRetry is how long a game whose AI move failed (an engine error) waits
// before the worker tries it again, so one broken game cannot keep it busy.
const aiRetry = time.Minute

// aiCommitTries is how many times aiMove tries to store a move it thought
// when the store fails; the waits between them (aiCommitBackoff) stay well
// inside the turn's lease margin.
const aiCommitTries = 6

// aiCommitBackoff is the wait after failed try n (from 0): base, twice
// that, four times… at most aiLeaseMargin/8, so that the tries end before
// the lease does.
func aiCommitBackoff(base time.Duration, n int) time.Duration {
	return min(base<<min(n, 10), aiLeaseMargin/8)
}

// after is the clock the AI worker waits on: Config.After, which tests
// make a fake, else the wall clock.
func (s *Service) after(d time.Duration) <-chan time.Time {
	if s.cfg.After != nil {
		return s.cfg.After(d)
	}
	return time.After(d)
}

// errAIHeld is aiMove's answer when another process (sharing the
// database) holds the game's AI turn: it thinks about it, not this one.
var errAIHeld = errors.New("another process thinks about this AI turn")

// aiHeldWait is how long the worker leaves a game whose AI turn another
// process holds before asking again: that process moves within its think
// time, or its lease expires (think time + aiLeaseMargin) if it died.
const aiHeldWait = 10 * time.Second

// aiLeaseMargin is what an AI turn's lease adds to the think time: the
// position's replay, the store's write.
const aiLeaseMargin = time.Minute

// pokeAI wakes the AI worker.
func (s *Service) pokeAI() {
	select {
	case s.aiWake <- struct{}{}:
	default:
	}
}

// RunAI plays the AI's moves until ctx ends, with at most AIWorkers
// searches at once, and runs the queued analyses beside (RunAnalyses).
// It returns when ctx has ended and every search under way has stopped
// (a search stopped this way plays nothing).
func (s *Service) RunAI(ctx context.Context) {
	analyses := make(chan struct{})
	go func() { defer close(analyses); s.RunAnalyses(ctx) }()
	defer func() { <-analyses }()
	busy := map[uint64]bool{}
	failed := map[uint64]time.Time{} // not before then
	type result struct {
		id  uint64
		err error
	}
	done := make(chan result)
	tick := time.NewTicker(aiRetry / 2)
	defer tick.Stop()
	var last uint64 // the game last started: the next search starts after it
	for {
		ids, err := s.store.AITurns(ctx)
		if err != nil {
			s.log.Error("ai: cannot read the games it is to move in", "err", err)
		}
		// Round robin: a game where several AI seats play on (their person
		// resigned) must not keep the other games waiting.
		first, _ := slices.BinarySearch(ids, last+1)
		ids = slices.Concat(ids[first:], ids[:first])
		for _, id := range ids {
			if len(busy) >= s.cfg.AIWorkers || ctx.Err() != nil {
				break
			}
			if busy[id] || time.Now().Before(failed[id]) {
				continue
			}
			busy[id], last = true, id
			go func() {
				_, err := s.aiMove(ctx, id)
				done <- result{id, err}
			}()
		}
		select {
		case <-ctx.Done():
			for len(busy) > 0 {
				delete(busy, (<-done).id)
			}
			return
		case r := <-done:
			delete(busy, r.id)
			if errors.Is(r.err, errAIHeld) {
				failed[r.id] = time.Now().Add(aiHeldWait)
				continue
			}
			if r.err != nil && ctx.Err() == nil {
				s.log.Error("ai: no move made; trying again later", "game", r.id, "err", r.err)
				failed[r.id] = time.Now().Add(aiRetry)
			}
		case <-s.aiWake:
		case <-tick.C:
		}
	}
}

// PlayAI makes every pending AI move now, one after another, until no AI
// seat is to move anywhere; it returns how many it made. The console calls
// it after each command, so its output reads in order; tests use it too.
func (s *Service) PlayAI(ctx context.Context) (int, error) {
	n := 0
	for {
		ids, err := s.store.AITurns(ctx)
		if err != nil {
			return n, err
		}
		progress := false
		for _, id := range ids {
			ok, err := s.aiMove(ctx, id)
			if errors.Is(err, errAIHeld) {
				continue // another process's move
			}
			if err != nil {
				return n, err
			}
			if ok {
				n++
				progress = true
			}
		}
		if !progress {
			return n, nil
		}
	}
}

// aiMove thinks for the AI seat to move in game id and plays its move. It
// reports whether a move was stored; a game that changed meanwhile (the
// position, or someone else made the move) is not an error.
func (s *Service) aiMove(ctx context.Context, id uint64) (moved bool, err error) {
	defer func() {
		if p := recover(); p != nil { // an engine bug must not take the bot down
			moved, err = false, fmt.Errorf("game %d: panic in the AI's move: %v", id, p)
		}
	}()
	g, err := s.store.Game(ctx, id)
	if err != nil {
		return false, err
	}
	if g.Status != tessera.StatusPlaying || !g.AITurn {
		return false, nil
	}
	p, err := s.state(g)
	if err != nil {
		return false, err
	}
	if !aiToMove(g, p.state) {
		return false, nil
	}
	seat := int(p.state.ToMove())
	pl := g.Players[seat]
	level, err := ai.ParseLevel(pl.AI)
	if err != nil {
		level = ai.Normal // a level this version does not know plays as normal
	}
	// One process thinks about an AI turn: the others would only waste
	// the machine (the version check makes the move once anyway).
	owner := s.cfg.Courier.Owner
	held, err := s.store.ClaimAITurn(ctx, g.ID, owner, time.Now(), s.cfg.AIThink+aiLeaseMargin)
	if err != nil {
		return false, err
	}
	if !held {
		return false, errAIHeld
	}
	defer func() {
		// Given back also when ctx ended (shutting down), so another
		// process need not wait for the lease to expire.
		if rerr := s.store.ReleaseAITurn(context.WithoutCancel(ctx), g.ID, owner); rerr != nil {
			s.log.Warn("ai: cannot release the turn's lease (it expires by itself)", "game", g.ID, "err", rerr)
		}
	}()
	if s.cfg.AIHook != nil {
		s.cfg.AIHook(ctx, g.ID, len(g.Moves))
	}
	m, stats, err := ai.Search(ctx, p.state.Clone(), engine.Seat(seat), level.Budget(s.cfg.AIThink), aiSeed(g.ID, len(g.Moves), seat))
	if ctx.Err() != nil {
		return false, ctx.Err() // shutting down: the next run makes this move
	}
	if err != nil {
		return false, fmt.Errorf("game %d: %w", g.ID, err)
	}
	req := Request{User: User{ID: pl.ID, Name: pl.Name}, GuildID: g.GuildID, ChannelID: g.Place(),
		InteractionID: fmt.Sprintf("ai:%d:%d", g.ID, len(g.Moves))}.WithContext(ctx)
	for try := 0; ; try++ {
		_, err := s.play(req, g, p, seat, m.String())
		if err == nil {
			break
		}
		if tessera.ErrorCode(err) == tessera.ECONFLICT {
			return false, nil // the game changed while the AI thought (or a try the store kept): the index says whether to think again
		}
		var damaged *storage.DamagedError
		if tessera.ErrorCode(err) != tessera.EINTERNAL || errors.As(err, &damaged) || try+1 >= aiCommitTries || ctx.Err() != nil {
			return false, fmt.Errorf("game %d: the AI's move %s: %w", g.ID, m, err)
		}
		// The store failed (a cut connection, a database restarting): the
		// move thought is kept and its commit tried again soon, not the
		// turn parked for aiRetry. The version and the interaction id
		// make a try that the store did keep, unbeknown to us, a conflict.
		wait := aiCommitBackoff(s.cfg.RetryBase, try)
		s.log.Warn("ai: the move was not stored; trying again", "game", g.ID, "try", try+1, "in", wait, "err", err)
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-s.after(wait):
		}
	}
	s.cfg.Meter.AIMoved(g.Setup.Game, level.String(), stats.Elapsed)
	s.log.Info("ai moved", "game", g.ID, "seat", seat+1, "level", level, "move", m.String(),
		"playouts", stats.Playouts, "ms", stats.Elapsed.Milliseconds(), "shortcut", stats.Shortcut)
	return true, nil
}
