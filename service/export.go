package service

// /export: the record of a finished game, as a file to keep or share. A
// game in play is never exported: its seed would reveal every hidden hand
// and the order of the supply.

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"tessera"
	"tessera/engine"
)

// RecordFormat names the record file's layout.
const RecordFormat = "tessera-record/1"

// Record is a finished game's record file: everything needed to play it
// back (`tessera replay --record`) and to read it. Seats are 1-based, as
// players see them.
type Record struct {
	Format  string         `json:"format"`
	ID      uint64         `json:"id"`
	Name    string         `json:"name"`
	Setup   engine.Setup   `json:"setup"`
	Players []RecordPlayer `json:"players"`
	Clock   string         `json:"clock"`
	Created time.Time      `json:"created"` // when the challenge was made
	Moves   []RecordMove   `json:"moves"`
	Result  RecordResult   `json:"result"`
}

// RecordPlayer is a seat's player.
type RecordPlayer struct {
	Seat int    `json:"seat"`
	ID   string `json:"id"`
	Name string `json:"name"`
}

// RecordMove is one entry of the record: a move in notation or a
// tessera.EndReason ("resign", "timeout"), who made it and when, and the scores after it.
type RecordMove struct {
	N      int       `json:"n"`
	Seat   int       `json:"seat"`
	Move   string    `json:"move"`
	At     time.Time `json:"at"`
	Scores []int     `json:"scores"`
}

// RecordResult is how the game ended.
type RecordResult struct {
	Status  string `json:"status"`
	Scores  []int  `json:"scores"`
	Winners []int  `json:"winners"` // seats, 1-based; several share the win
	Text    string `json:"text"`
}

// Export answers with the record of a finished game: the JSON record and
// a plain-text move list with the scores after each move, to the caller.
func (s *Service) Export(req Request, ref string) (Reply, error) {
	g, err := s.findGame(req, ref, inPlay)
	if err != nil {
		return Reply{}, err
	}
	switch g.Status {
	case tessera.StatusFinished:
	case tessera.StatusChallenge:
		return Reply{}, errorf(tessera.EINVALID, "Game #%d is a challenge not yet accepted: it can be exported once it is played and over.", g.ID)
	case tessera.StatusPlaying:
		return Reply{}, errorf(tessera.EFORBIDDEN, "Game #%d is still in play; it can be exported once it is over (its record would reveal the hidden pieces).", g.ID)
	case tessera.StatusAborted:
		return Reply{}, errorf(tessera.EINVALID, "Game #%d was aborted, without result: there is no record to export.", g.ID)
	default:
		return Reply{}, errorf(tessera.EINVALID, "Game #%d never started (the challenge was %s): there is no record to export.", g.ID, g.Status)
	}
	rec, err := RecordOf(g)
	if err != nil {
		return Reply{}, err
	}
	js, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return Reply{}, err
	}
	return Reply{
		Text:      fmt.Sprintf("The record of game #%d (%s): `game-%d.json` plays back with `tessera replay --record game-%d.json`; `game-%d.txt` is the move list.", g.ID, rec.Name, g.ID, g.ID, g.ID),
		Ephemeral: true,
		Files: []File{
			{Name: fmt.Sprintf("game-%d.json", g.ID), Data: append(js, '\n')},
			{Name: fmt.Sprintf("game-%d.txt", g.ID), Data: []byte(rec.Text())},
		},
	}, nil
}

// RecordOf makes the record of a stored game by replaying it.
func RecordOf(g *tessera.Game) (*Record, error) {
	rec := &Record{Format: RecordFormat, ID: g.ID, Name: gameName(g.Setup.Game), Setup: g.Setup, Clock: FormatClock(g.Clock), Created: g.Created}
	for i, p := range g.Players {
		rec.Players = append(rec.Players, RecordPlayer{Seat: i + 1, ID: p.ID, Name: p.Name})
	}
	st, err := engine.New(g.Setup)
	if err != nil {
		return nil, err
	}
	for i, m := range g.Moves {
		if err := applyEntry(st, m); err != nil {
			return nil, fmt.Errorf("game %d: move %d %q: %w", g.ID, i+1, m.Text, err)
		}
		rec.Moves = append(rec.Moves, RecordMove{N: i + 1, Seat: m.Seat + 1, Move: m.Text, At: m.At, Scores: st.Scores()})
	}
	rec.Result = resultOf(st, g.Names())
	return rec, nil
}

// applyEntry plays one record entry, as ReplayN does.
func applyEntry(st engine.State, m tessera.MoveEntry) error {
	switch m.End() {
	case tessera.EndResign:
		st.Resign(engine.Seat(m.Seat))
		return nil
	case tessera.EndTimeout:
		timeout(st, engine.Seat(m.Seat))
		return nil
	}
	if int(st.ToMove()) != m.Seat {
		return fmt.Errorf("seat %d to move, not %d", st.ToMove()+1, m.Seat+1)
	}
	mv, err := st.Parse(m.Text)
	if err == nil {
		_, err = st.Apply(mv)
	}
	return err
}

func resultOf(st engine.State, names []string) RecordResult {
	r := RecordResult{Status: "playing", Scores: st.Scores(), Winners: []int{}}
	if st.Over() {
		r.Status = "finished"
		for _, w := range st.Winners() {
			r.Winners = append(r.Winners, int(w)+1)
		}
	}
	var win []string
	for _, w := range r.Winners {
		if w-1 < len(names) {
			win = append(win, names[w-1])
		}
	}
	switch {
	case r.Status != "finished":
		r.Text = "not over"
	case len(win) == 0:
		r.Text = "no winner"
	case len(win) == 1:
		r.Text = win[0] + " wins"
	default:
		r.Text = joinAnd(win) + " share the win"
	}
	return r
}

// Play replays a record and checks that it ends as the record says; it
// returns the final position.
func (r *Record) Play() (engine.State, error) {
	if r.Format != RecordFormat {
		return nil, fmt.Errorf("not a tessera record (format %q, want %q)", r.Format, RecordFormat)
	}
	st, err := engine.New(r.Setup)
	if err != nil {
		return nil, err
	}
	for _, m := range r.Moves {
		if m.Seat < 1 || m.Seat > r.Setup.Players {
			return nil, fmt.Errorf("move %d %q: there is no seat %d", m.N, m.Move, m.Seat)
		}
		if err := applyEntry(st, tessera.MoveEntry{Seat: m.Seat - 1, Text: m.Move}); err != nil {
			return nil, fmt.Errorf("move %d %q: %w", m.N, m.Move, err)
		}
	}
	got := resultOf(st, nil)
	if got.Status != r.Result.Status || fmt.Sprint(got.Scores) != fmt.Sprint(r.Result.Scores) || fmt.Sprint(got.Winners) != fmt.Sprint(r.Result.Winners) {
		return nil, fmt.Errorf("the moves end %s with scores %v and winners %v, but the record says %s with %v and %v",
			got.Status, got.Scores, got.Winners, r.Result.Status, r.Result.Scores, r.Result.Winners)
	}
	return st, nil
}

// Text is the record for people: the setup, one numbered line per move
// with who made it and the scores after it, and the result.
func (r *Record) Text() string {
	var b strings.Builder
	var seats []string
	for _, p := range r.Players {
		seats = append(seats, fmt.Sprintf("%s (seat %d)", p.Name, p.Seat))
	}
	fmt.Fprintf(&b, "%s, game #%d: %s\n", r.Name, r.ID, strings.Join(seats, ", "))
	opts := strings.TrimPrefix(optionText(r.Setup.Options), " with ")
	if opts == "" {
		opts = "none"
	}
	fmt.Fprintf(&b, "Options: %s. Clock: %s. Seed: %d. Challenge made %s.\n\n", opts, r.Clock, r.Setup.Seed, r.Created.UTC().Format("2 Jan 2006 15:04 MST"))
	name := func(seat int) string {
		if seat >= 1 && seat <= len(r.Players) {
			return r.Players[seat-1].Name
		}
		return fmt.Sprintf("seat %d", seat)
	}
	width := 0
	for _, m := range r.Moves {
		width = max(width, len([]rune(m.Move)))
	}
	for _, m := range r.Moves {
		var sc []string
		for i, v := range m.Scores {
			sc = append(sc, fmt.Sprintf("%s %d", name(i+1), v))
		}
		fmt.Fprintf(&b, "%3d. %-12s %-*s  %s  (%s)\n", m.N, name(m.Seat), width, m.Move, strings.Join(sc, " · "), m.At.UTC().Format("2 Jan 15:04"))
	}
	var sc []string
	for i, v := range r.Result.Scores {
		sc = append(sc, fmt.Sprintf("%s %d", name(i+1), v))
	}
	fmt.Fprintf(&b, "\nResult: %s. Final scores: %s.\n", r.Result.Text, strings.Join(sc, " · "))
	return b.String()
}
