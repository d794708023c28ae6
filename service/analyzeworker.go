package service

// The analyses run off the interaction path: /analyze queues a game in
// the store (Analyses), and the worker takes the queue in order, at most
// AIWorkers at once per process, claiming each under a lease so that
// processes sharing a database analyse a game once. Every position is
// written as it is analysed, so a process that stops (or dies) leaves the
// analysis where it was; the next one resumes it, once.

import (
	"context"
	"errors"
	"fmt"
	"time"

	"tessera"
	"tessera/storage"
)

// analysisLease is how long a claim on an analysis lasts without a
// position written (each renews it): a process that died gives its
// analysis up to another after it.
const analysisLease = 2 * time.Minute

// analysisRetry is how long the worker leaves an analysis whose store
// failed before trying it again (a store's error is never dropped).
const analysisRetry = 30 * time.Second

// errAnalysisHeld: another process works on the analysis.
var errAnalysisHeld = errors.New("another process analyses this game")

// errAnalysisGone: the analysis is no longer queued (done, failed, or
// taken over by another process after this one's lease ran out).
var errAnalysisGone = errors.New("the analysis is no longer this process's")

// pokeAnalyses wakes the analysis worker.
func (s *Service) pokeAnalyses() {
	select {
	case s.analysisWake() <- struct{}{}:
	default:
	}
}

// analysisWake is the worker's wake-up channel, made on first use.
func (s *Service) analysisWake() chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.analyses == nil {
		s.analyses = make(chan struct{}, 1)
	}
	return s.analyses
}

// RunAnalyses analyses the queued games until ctx ends, at most
// AIWorkers at once, in the order they were asked for. It returns when
// ctx has ended and every analysis under way has stopped (giving its
// claim back, so the next run resumes it at once).
func (s *Service) RunAnalyses(ctx context.Context) {
	busy := map[uint64]bool{}
	later := map[uint64]time.Time{} // not before then
	type result struct {
		id  uint64
		err error
	}
	done := make(chan result)
	tick := time.NewTicker(analysisRetry)
	defer tick.Stop()
	wake := s.analysisWake()
	for {
		ids, err := s.store.AnalysisQueue(ctx)
		if err != nil && ctx.Err() == nil {
			s.log.Error("analyze: cannot read the queue; trying again", "err", err)
		}
		for _, id := range ids {
			if len(busy) >= s.cfg.AIWorkers || ctx.Err() != nil {
				break
			}
			if busy[id] || time.Now().Before(later[id]) {
				continue
			}
			busy[id] = true
			go func() { done <- result{id, s.analyzeGame(ctx, id)} }()
		}
		select {
		case <-ctx.Done():
			for len(busy) > 0 {
				delete(busy, (<-done).id)
			}
			return
		case r := <-done:
			delete(busy, r.id)
			switch {
			case errors.Is(r.err, errAnalysisHeld):
				later[r.id] = time.Now().Add(analysisLease / 2)
			case r.err != nil && ctx.Err() == nil:
				s.log.Error("analyze: the analysis stopped; trying again later", "game", r.id, "err", r.err)
				later[r.id] = time.Now().Add(analysisRetry)
			}
		case <-wake:
		case <-tick.C:
		}
	}
}

// AnalyzeQueued runs every queued analysis now, one after the other, and
// returns how many it finished. The console calls it after a command, so
// the chart follows /analyze in its output; tests use it too.
func (s *Service) AnalyzeQueued(ctx context.Context) (int, error) {
	ids, err := s.store.AnalysisQueue(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, id := range ids {
		err := s.analyzeGame(ctx, id)
		if errors.Is(err, errAnalysisHeld) {
			continue
		}
		if err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// analyzeGame claims game id's queued analysis and runs it to its end,
// writing each position as it goes. An analysis that cannot go on (the
// record does not replay, the engine fails) is marked failed with the
// reason, and the game's place is told; the store's errors and ctx's are
// returned, the analysis staying queued for the next try.
func (s *Service) analyzeGame(ctx context.Context, id uint64) (err error) {
	owner := s.cfg.Courier.Owner
	var gaveUp bool
	a, err := s.store.UpdateAnalysis(ctx, id, func(a *tessera.Analysis) error {
		now := s.now()
		gaveUp = false
		switch {
		case a.Status != tessera.AnalysisQueued:
			return errAnalysisGone
		case a.Owner != "" && a.Owner != owner && now.Before(a.Lease):
			return errAnalysisHeld
		case a.Started && a.Owner != owner: // stopped under way: resumed once
			if a.Resumed >= 1 {
				a.Status, a.Owner, a.Error, gaveUp = tessera.AnalysisFailed, "", "it was interrupted twice before its end", true
				return nil
			}
			a.Resumed++
		}
		a.Owner, a.Lease, a.Started = owner, now.Add(analysisLease), true
		return nil
	})
	if errors.Is(err, errAnalysisGone) {
		return nil
	}
	if err != nil {
		return err
	}
	if gaveUp {
		s.log.Warn("analyze: given up, interrupted twice", "game", id)
		return s.announceAnalysis(ctx, id, true)
	}
	defer func() {
		if err == nil || errors.Is(err, errAnalysisGone) {
			return
		}
		// Stopped under way (shutting down, the store failing): the claim
		// is given back so the next run resumes at once.
		if _, rerr := s.store.UpdateAnalysis(context.WithoutCancel(ctx), id, func(a *tessera.Analysis) error {
			if a.Owner != owner {
				return errAnalysisGone
			}
			a.Owner = ""
			return nil
		}); rerr != nil && !errors.Is(rerr, errAnalysisGone) {
			s.log.Warn("analyze: cannot give the claim back (it expires by itself)", "game", id, "err", rerr)
		}
	}()
	g, err := s.store.Game(ctx, id)
	if errors.Is(err, storage.ErrNotFound) {
		return s.failAnalysis(ctx, id, "the game is gone")
	}
	if err != nil {
		return err
	}
	if s.cfg.AnalysisHook != nil {
		s.cfg.AnalysisHook(ctx, id, len(a.Positions))
	}
	if len(a.Positions) == 0 {
		if err := s.announceAnalysis(ctx, id, false); err != nil {
			return err
		}
	}
	total := len(g.Moves) + 1
	every := max(1, total/10) // the progress line is edited about ten times
	var storeErr error
	_, err = AnalyzePositions(ctx, g.Setup, g.Moves, a.Iterations, g.ID, a.Positions, func(ps []tessera.AnalysedPosition) error {
		_, err := s.store.UpdateAnalysis(ctx, id, func(a *tessera.Analysis) error {
			if a.Status != tessera.AnalysisQueued || a.Owner != owner {
				return errAnalysisGone
			}
			a.Positions = ps
			a.Lease = s.now().Add(analysisLease)
			if len(ps) == total {
				a.Status, a.Owner = tessera.AnalysisDone, ""
			}
			return nil
		})
		if err != nil {
			storeErr = err
			return err
		}
		if s.cfg.AnalysisHook != nil {
			s.cfg.AnalysisHook(ctx, id, len(ps))
		}
		if len(ps) < total && len(ps)%every == 0 {
			return s.announceAnalysis(ctx, id, false)
		}
		return nil
	})
	switch {
	case err == nil:
		s.log.Info("analyzed", "game", id, "positions", total)
		if err := s.announceAnalysis(ctx, id, false); err != nil { // the progress line says it is done
			return err
		}
		return s.announceAnalysis(ctx, id, true)
	case storeErr != nil, ctx.Err() != nil:
		return err
	}
	return s.failAnalysis(ctx, id, err.Error())
}

// failAnalysis marks game id's analysis failed with the reason (for the
// log; players read a shorter line) and tells the game's place.
func (s *Service) failAnalysis(ctx context.Context, id uint64, reason string) error {
	s.log.Error("analyze: the analysis failed", "game", id, "reason", reason)
	if _, err := s.store.UpdateAnalysis(ctx, id, func(a *tessera.Analysis) error {
		a.Status, a.Owner, a.Error = tessera.AnalysisFailed, "", reason
		return nil
	}); err != nil {
		return err
	}
	if _, err := s.store.Game(ctx, id); errors.Is(err, storage.ErrNotFound) {
		return nil
	}
	return s.announceAnalysis(ctx, id, false)
}

// announceAnalysis queues the analysis's progress line's post or edit,
// or with result its result's post, in the game's outbox.
func (s *Service) announceAnalysis(ctx context.Context, id uint64, result bool) error {
	_, err := s.store.Modify(ctx, id, func(g *tessera.Game, tx storageTx) error {
		return tx.Enqueue(ctx, tessera.Announcement{Kind: tessera.AnnounceAnalysis, GameID: g.ID, Moves: len(g.Moves), Board: result})
	})
	if err != nil {
		return fmt.Errorf("game %d: queueing the analysis's post: %w", id, err)
	}
	s.poke()
	return nil
}
