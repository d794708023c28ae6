package service

import (
	"fmt"
	"sync"

	"tessera"
	"tessera/engine"
)

// position is a game's derived position, cached by version.
type position struct {
	version uint64
	state   engine.State
	once    sync.Once
	legal   []legalMove // built on first autocomplete
}

type legalMove struct {
	move   engine.Move
	text   string // canonical notation
	points int    // what the move scores now (Previewer), or its Gain's rank
	gain   string // what the move gains, in words
}

const cacheSize = 512

// state returns the position of a stored game, replaying its record (or
// from the cache when the version has not changed). Callers must not
// change the returned state: Clone it first.
func (s *Service) state(g *tessera.Game) (*position, error) {
	s.mu.Lock()
	p := s.cache[g.ID]
	s.mu.Unlock()
	if p != nil && p.version == g.Version {
		return p, nil
	}
	st, err := Replay(g)
	if err != nil {
		return nil, err
	}
	p = &position{version: g.Version, state: st}
	s.mu.Lock()
	if len(s.cache) >= cacheSize {
		for k := range s.cache { // evict an arbitrary entry
			delete(s.cache, k)
			break
		}
	}
	s.cache[g.ID] = p
	s.mu.Unlock()
	return p, nil
}

// Replay derives a game's position from its record.
func Replay(g *tessera.Game) (engine.State, error) { return ReplayN(g, len(g.Moves)) }

// timeout applies the platform's rule for a player whose time ran out: in a
// 2-player game they lose (as if resigned); with more players their turn
// is passed when the game has a pass, else they leave the game as if
// resigned.
func timeout(st engine.State, seat engine.Seat) engine.Outcome {
	active := 0
	for _, v := range st.View(engine.NoSeat).Seats {
		if !v.Resigned {
			active++
		}
	}
	if active > 2 && st.ToMove() == seat {
		if m, err := st.Parse("pass"); err == nil {
			if o, err := st.Apply(m); err == nil {
				o.Move = string(tessera.EndTimeout)
				return o
			}
		}
	}
	o := st.Resign(seat)
	o.Move = string(tessera.EndTimeout)
	return o
}

// ReplayN derives the position after the first n entries of the record.
func ReplayN(g *tessera.Game, n int) (engine.State, error) {
	st, err := engine.New(g.Setup)
	if err != nil {
		return nil, fmt.Errorf("game %d: setup: %w", g.ID, err)
	}
	for i, m := range g.Moves[:min(n, len(g.Moves))] {
		switch m.End() {
		case tessera.EndResign:
			st.Resign(engine.Seat(m.Seat))
			continue
		case tessera.EndTimeout:
			timeout(st, engine.Seat(m.Seat))
			continue
		}
		if int(st.ToMove()) != m.Seat {
			return nil, fmt.Errorf("game %d: move %d %q: seat %d to move, not %d", g.ID, i+1, m.Text, st.ToMove(), m.Seat)
		}
		mv, err := st.Parse(m.Text)
		if err == nil {
			_, err = st.Apply(mv)
		}
		if err != nil {
			return nil, fmt.Errorf("game %d: move %d %q: %w", g.ID, i+1, m.Text, err)
		}
	}
	return st, nil
}
