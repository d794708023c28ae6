package service

// What a web page shows of a game (GameView): the position at one move,
// the panel, the players with their ratings, the move list with each
// move's points, the clock; and for the seat's own player at the last
// position of a game in play, their hand and their legal moves. A
// spectator gets what the game's thread shows and nothing more: the
// public view (engine.NoSeat), the board's scene and the moves' notation;
// never a hand, the supply's order or the seed.

import (
	"context"
	"fmt"
	"time"

	"tessera"
	"tessera/engine"
	"tessera/picture"
)

// GameView is one position of a game as a page shows it to one viewer.
type GameView struct {
	ID      uint64
	GuildID string // the server the game is played in ("" outside one)
	Game    string // the game's id ("elemental")
	Name    string // its name ("Elemental Connection")
	Status  tessera.Status
	Version uint64 // the record's version it was made from
	Moves   int    // the position shown: after this many record entries
	Total   int    // the record's entries
	Solo    bool   // a puzzle: one seat

	Scene  engine.Scene  // the board (the last move outlined, as the posts draw it)
	Panel  picture.Panel // what the picture's panel says
	Seats  []WebSeat
	Record []WebMove // every entry of the record, whatever Moves is
	Clock  WebClock
	// Analysis is a finished game's analysis (/analyze) once done: the
	// chart; each move's error and luck are on its WebMove (issue #49).
	Analysis *WebAnalysis
	Over     bool // the position is the end of the game
	Aborted  bool

	// Viewer is the viewer's seat (-1: a spectator). Hand and Legal are
	// set only for the seat's player at the last position of a game in
	// play: Hand always, Legal on their turn.
	Viewer int
	Hand   *engine.Scene
	Pieces []string // the hand's pieces, as the game names them
	Legal  []WebLegal
}

// WebSeat is one seat's line on a page.
type WebSeat struct {
	Name        string
	Label       string // the seat's colour in words ("Blue")
	Color       engine.Color
	Score       int
	InHand      int // -1 when the game has no hands
	Info        []string
	ToMove      bool
	Winner      bool
	Resigned    bool
	AI          string // the computer's level, "" for a person
	Rating      int    // as /profile shows it; 0 when unrated here
	Provisional bool
	Bank        time.Duration // a bank clock's time left (bank clocks only)
}

// WebMove is one entry of the record as the posts tell it.
type WebMove struct {
	N      int // 1-based
	Seat   int
	Player string
	Text   string // the notation, or a tessera.EndReason
	Points int    // what it scored for its player
	Deltas string // "Ana +4 (2 connections +3, border +1)", "" when it scored nothing
	// Error and Luck are the analysis's, in words ("error −0.12 (h1 h9
	// was better)", "luck +0.05", the mover's), "" without one.
	Error, Luck string
}

// WebClock is the game's clock at the last position.
type WebClock struct {
	Kind     tessera.ClockKind // never "": ClockNone for no clock
	Deadline time.Time         // zero: no deadline running
	Line     string            // the panel's clock line, "" when none
}

// WebLegal is one legal move of the viewer.
type WebLegal struct {
	Text string // the notation /move takes
	Gain string // what it gains, in words ("+4", "+5: covers 3"), "" when nothing to say
	// Placed says that the game places it on the board (engine.Placer):
	// Piece from the hand, the cells At (scene units) tapped in order, and
	// its turn or flip in words (Variant). Unplaced moves (a pass) are
	// played from a button or the list.
	Placed  bool
	Piece   string
	At      []engine.Point
	Variant string
}

// GameView is game g after its first moves record entries (moves < 0: the
// last) as viewer (a user id; "" for a spectator) may see it.
func (s *Service) GameView(ctx context.Context, g *tessera.Game, moves int, viewer string) (GameView, error) {
	switch g.Status {
	case tessera.StatusPlaying, tessera.StatusFinished, tessera.StatusAborted:
	default:
		return GameView{}, errorf(tessera.ENOTFOUND, "Game #%d has not started: there is no board to show yet.", g.ID)
	}
	total := len(g.Moves)
	if moves < 0 {
		moves = total
	}
	if moves > total {
		return GameView{}, errorf(tessera.EINVALID, "Game #%d has %s: pick a position from 0 to %d.", g.ID, plural(total, "move"), total)
	}
	v := GameView{ID: g.ID, GuildID: g.GuildID, Game: g.Setup.Game, Name: gameName(g.Setup.Game), Status: g.Status, Version: g.Version,
		Moves: moves, Total: total, Solo: solo(g), Aborted: g.Status == tessera.StatusAborted, Viewer: -1,
		Clock: WebClock{Kind: g.Clock.Kind}}
	if v.Clock.Kind == "" {
		v.Clock.Kind = tessera.ClockNone
	}

	// One pass over the record: every entry's outcome, and the position
	// at moves on the way.
	st, err := engine.New(g.Setup)
	if err != nil {
		return GameView{}, fmt.Errorf("game %d: setup: %w", g.ID, err)
	}
	var at engine.State
	if moves == 0 {
		at = st.Clone()
	}
	for i, m := range g.Moves {
		o, err := outcomeOf(st, m)
		if err != nil {
			return GameView{}, fmt.Errorf("game %d: move %d %q: %w", g.ID, i+1, m.Text, err)
		}
		wm := WebMove{N: i + 1, Seat: m.Seat, Text: m.Text, Points: o.Points(engine.Seat(m.Seat))}
		if m.Seat >= 0 && m.Seat < len(g.Players) {
			wm.Player = g.Players[m.Seat].Name
		}
		if len(o.Deltas) > 0 {
			wm.Deltas = deltaText(g, o)
		}
		v.Record = append(v.Record, wm)
		if i+1 == moves {
			if moves == total {
				at = st // the last position is not changed further
			} else {
				at = st.Clone()
			}
		}
	}

	if err := s.webAnalysis(ctx, g, &v); err != nil {
		return GameView{}, err
	}
	v.Scene = at.Board()
	v.Panel = panelOf(g, at, moves)
	v.Over = at.Over()
	pub := at.View(engine.NoSeat)
	for i, sv := range pub.Seats {
		ws := WebSeat{Name: fmt.Sprintf("Seat %d", i+1), Label: sv.Label, Color: sv.Color, Score: sv.Score, InHand: sv.InHand, Info: sv.Info,
			ToMove: sv.ToMove, Winner: sv.Winner, Resigned: sv.Resigned}
		if i < len(v.Panel.Seats) {
			ws.ToMove = v.Panel.Seats[i].ToMove // an aborted game has nobody to move
		}
		if i < len(g.Players) {
			ws.Name, ws.AI = g.Players[i].Name, g.Players[i].AI
		}
		if g.Clock.Kind == tessera.ClockBank && i < len(g.Banks) {
			ws.Bank = g.Banks[i]
		}
		v.Seats = append(v.Seats, ws)
	}
	if err := s.seatRatings(ctx, g, v.Seats); err != nil {
		return GameView{}, err
	}
	if moves == total && g.Status == tessera.StatusPlaying {
		v.Clock.Deadline = g.Deadline
		v.Clock.Line = clockLine(g, at, moves)
	}

	seat := g.Seat(viewer)
	if viewer == "" || seat < 0 || moves != total || g.Status != tessera.StatusPlaying {
		return v, nil
	}
	v.Viewer = seat
	if resigned(at, seat) {
		return v, nil
	}
	hand := at.HandScene(engine.Seat(seat))
	v.Hand = &hand
	if mine := at.View(engine.Seat(seat)).Seats; seat < len(mine) {
		v.Pieces = mine[seat].Hand
	}
	if int(at.ToMove()) != seat {
		return v, nil
	}
	p, err := s.state(g)
	if err != nil {
		return GameView{}, err
	}
	placer, _ := p.state.(engine.Placer)
	for _, lm := range p.legalMoves() {
		wl := WebLegal{Text: lm.text, Gain: lm.gain}
		if placer != nil {
			if pl, ok := placer.Placement(lm.move); ok {
				wl.Placed, wl.Piece, wl.At, wl.Variant = true, pl.Piece, pl.At, pl.Variant
			}
		}
		v.Legal = append(v.Legal, wl)
	}
	return v, nil
}

// outcomeOf plays one record entry on st, as ReplayN does, and returns
// what it did.
func outcomeOf(st engine.State, m tessera.MoveEntry) (engine.Outcome, error) {
	switch m.End() {
	case tessera.EndResign:
		return st.Resign(engine.Seat(m.Seat)), nil
	case tessera.EndTimeout:
		return timeout(st, engine.Seat(m.Seat)), nil
	}
	if int(st.ToMove()) != m.Seat {
		return engine.Outcome{}, fmt.Errorf("seat %d to move, not %d", st.ToMove(), m.Seat)
	}
	mv, err := st.Parse(m.Text)
	if err != nil {
		return engine.Outcome{}, err
	}
	return st.Apply(mv)
}

// seatRatings fills in each person's rating in the game's server, as
// /profile shows it.
func (s *Service) seatRatings(ctx context.Context, g *tessera.Game, seats []WebSeat) error {
	if g.GuildID == "" {
		return nil
	}
	for i := range seats {
		if i >= len(g.Players) || g.Players[i].IsAI() {
			continue
		}
		r, ok, err := s.store.PlayerRating(ctx, g.GuildID, g.Setup.Game, g.Players[i].ID)
		if err != nil {
			return err
		}
		if ok {
			seats[i].Rating, seats[i].Provisional = DisplayRating(r), s.provisional(r)
		}
	}
	return nil
}

// PreviewBoard is the board after viewer's move text in game g, for the
// player's own page before they confirm it: only the seat to move may ask,
// only at the last position, and nothing is stored.
func (s *Service) PreviewBoard(ctx context.Context, g *tessera.Game, viewer, text string) (engine.Scene, error) {
	seat := g.Seat(viewer)
	if seat < 0 {
		return engine.Scene{}, errorf(tessera.EFORBIDDEN, "You are not playing in game #%d.", g.ID)
	}
	if g.Status != tessera.StatusPlaying {
		return engine.Scene{}, errorf(tessera.EINVALID, "Game #%d is not in play.", g.ID)
	}
	p, err := s.state(g)
	if err != nil {
		return engine.Scene{}, err
	}
	if int(p.state.ToMove()) != seat {
		return engine.Scene{}, errorf(tessera.EFORBIDDEN, "It is not your turn in game #%d.", g.ID)
	}
	if len(text) > 200 {
		return engine.Scene{}, errorf(tessera.EINVALID, "That move is too long; pick one from the list.")
	}
	st := p.state.Clone()
	m, err := st.Parse(text)
	if err != nil {
		return engine.Scene{}, err
	}
	if _, err := st.Apply(m); err != nil {
		return engine.Scene{}, err
	}
	return st.Board(), nil
}
