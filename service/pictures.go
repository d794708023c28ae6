package service

import (
	"fmt"

	"tessera"
	"tessera/engine"
	"tessera/picture"
)

// picture renders the board of a game with its panel. The move post, the
// status edit and the turn notice of one position share one rendering.
func (s *Service) picture(g *tessera.Game, st engine.State) (File, error) {
	return s.pictureOf(g, st, len(g.Moves))
}

// picKey names a picture: the status is part of it because an aborted
// game's last position is drawn again, saying it was aborted.
type picKey struct {
	game, moves uint64
	deadline    int64
	status      tessera.Status
}

func (s *Service) pictureOf(g *tessera.Game, st engine.State, n int) (File, error) {
	key := picKey{g.ID, uint64(n), g.Deadline.Unix(), g.Status}
	s.mu.Lock()
	f, ok := s.pics[key]
	s.mu.Unlock()
	if ok {
		return f, nil
	}
	var png []byte
	var err error
	if base, ok := baseScene(g); ok {
		png, err = s.renderer.BoardOn(base, st.Board(), panelOf(g, st, n))
	} else {
		png, err = s.renderer.Board(st.Board(), panelOf(g, st, n))
	}
	if err != nil {
		return File{}, err
	}
	f = File{Name: fmt.Sprintf("game-%d-move-%d.png", g.ID, n), Data: png}
	s.mu.Lock()
	if len(s.pics) >= 64 {
		clear(s.pics)
	}
	s.pics[key] = f
	s.mu.Unlock()
	return f, nil
}

// panelOf is the panel under the board after the first n record entries:
// the title, the status line (whose turn, who won, or that the game was
// aborted), the seats and the clock.
func panelOf(g *tessera.Game, st engine.State, n int) picture.Panel {
	title := fmt.Sprintf("%s · game #%d", gameName(g.Setup.Game), g.ID)
	panel := picture.NewPanel(title, st.View(engine.NoSeat), g.Names())
	if g.Status == tessera.StatusAborted && n == len(g.Moves) {
		// The position still has a player to move; the game has none.
		panel.Status = "Aborted: no result"
		for i := range panel.Seats {
			panel.Seats[i].ToMove = false
		}
		return panel
	}
	if g.Status == tessera.StatusPlaying && n == len(g.Moves) && aiToMove(g, st) {
		panel.Status = g.Players[st.ToMove()].Name + " is thinking"
	}
	if line := clockLine(g, st, n); line != "" {
		panel.Legend = append([]string{line}, panel.Legend...)
	}
	return panel
}
