package engine

import "sort"

// Table keeps what every game has: the seats, whose turn it is, who has
// resigned, the scores and the result. Games embed it.
type Table struct {
	N        int
	Turn     Seat
	Resigned []bool
	Score    []int
	Done     bool
	Win      []Seat
}

// NewTable seats n players with seat 0 to move.
func NewTable(n int) Table {
	return Table{N: n, Resigned: make([]bool, n), Score: make([]int, n)}
}

// CloneTable returns a deep copy.
func (t *Table) CloneTable() Table {
	c := *t
	c.Resigned = append([]bool(nil), t.Resigned...)
	c.Score = append([]int(nil), t.Score...)
	c.Win = append([]Seat(nil), t.Win...)
	return c
}

// Players is the number of seats.
func (t *Table) Players() int { return t.N }

// ToMove is the seat to move, NoSeat when the game is over.
func (t *Table) ToMove() Seat {
	if t.Done {
		return NoSeat
	}
	return t.Turn
}

// Scores by seat (a copy).
func (t *Table) Scores() []int { return append([]int(nil), t.Score...) }

// Over reports whether the game has ended.
func (t *Table) Over() bool { return t.Done }

// Winners of the finished game (a copy).
func (t *Table) Winners() []Seat { return append([]Seat(nil), t.Win...) }

// Active counts the seats that have not resigned.
func (t *Table) Active() int {
	n := 0
	for _, r := range t.Resigned {
		if !r {
			n++
		}
	}
	return n
}

// Next is the first seat after s that has not resigned (s itself if it is
// the only one).
func (t *Table) Next(s Seat) Seat {
	for i := 1; i <= t.N; i++ {
		c := Seat((int(s) + i) % t.N)
		if !t.Resigned[c] {
			return c
		}
	}
	return s
}

// Add changes a seat's score and records the delta in the outcome.
// A zero change is not recorded.
func (t *Table) Add(o *Outcome, s Seat, points int, reason string) {
	if points == 0 {
		return
	}
	t.Score[s] += points
	o.Deltas = append(o.Deltas, Delta{Seat: s, Points: points, Reason: reason})
}

// Finish ends the game with the given winners.
func (t *Table) Finish(o *Outcome, winners ...Seat) {
	t.Done = true
	t.Win = append([]Seat(nil), winners...)
	sort.Slice(t.Win, func(i, j int) bool { return t.Win[i] < t.Win[j] })
	if o != nil {
		o.Over = true
	}
}

// FinishByScore ends the game; the highest score among the seats that have
// not resigned wins, ties share the win.
func (t *Table) FinishByScore(o *Outcome) {
	best, win := 0, []Seat(nil)
	for s := 0; s < t.N; s++ {
		if t.Resigned[s] {
			continue
		}
		switch {
		case win == nil || t.Score[s] > best:
			best, win = t.Score[s], []Seat{Seat(s)}
		case t.Score[s] == best:
			win = append(win, Seat(s))
		}
	}
	t.Finish(o, win...)
}

// EndByScore ends the game as FinishByScore does (the highest score among
// the seats still in wins, ties share) for a playout: no outcome, and the
// winners written into Win's own array, so that a finished playout
// allocates nothing once Win has room. Win must not share its array with
// another position (CloneTable copies it).
func (t *Table) EndByScore() {
	best, first := 0, true
	for s := 0; s < t.N; s++ {
		if !t.Resigned[s] && (first || t.Score[s] > best) {
			best, first = t.Score[s], false
		}
	}
	t.Win = t.Win[:0]
	for s := 0; s < t.N; s++ {
		if !t.Resigned[s] && t.Score[s] == best {
			t.Win = append(t.Win, Seat(s))
		}
	}
	t.Done = true
}

// Resign is the platform's resignation rule, shared by every game: seat s
// leaves the game. When only one seat is left (always, in a 2-player game)
// the game ends and that seat wins whatever the score, and Resign returns
// true. Otherwise the game goes on without s, who keeps their pieces but
// can no longer win; it returns false and the game must, if s was to move,
// pass the turn on by its own rules (Turn still equals s).
func (t *Table) Resign(o *Outcome, s Seat) (ended bool) {
	o.Seat = s
	o.Move = ResignEntry
	if t.Done || s < 0 || int(s) >= t.N || t.Resigned[s] {
		return t.Done
	}
	t.Resigned[s] = true
	o.Events = append(o.Events, Event{Seat: s, Text: "resigns"})
	if t.Active() <= 1 {
		for i := 0; i < t.N; i++ {
			if !t.Resigned[i] {
				t.Finish(o, Seat(i))
			}
		}
		if !t.Done {
			t.Finish(o)
		}
		return true
	}
	return false
}

// SeatViews fills the common fields of a view: scores, turn, winners,
// resignations.
func (t *Table) SeatViews() []SeatView {
	out := make([]SeatView, t.N)
	for i := range out {
		out[i] = SeatView{Score: t.Score[i], InHand: -1, Resigned: t.Resigned[i]}
		out[i].ToMove = !t.Done && t.Turn == Seat(i)
	}
	for _, w := range t.Win {
		out[w].Winner = true
	}
	return out
}
