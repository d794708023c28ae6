package tournament

import (
	"errors"
	"slices"
)

// Step is what Next did to an event: the tables it added, whose games are
// to be made, and whether the event is over.
type Step struct {
	// New are the tables added, as indexes into Played and its Tables,
	// in order (a round's tables together).
	New []TableRef
	// AtOnce: every round was paired at once (a round robin's start).
	AtOnce bool
	// Over: the event has ended. Why says why it ended before its
	// planned rounds ("" when it did not).
	Over bool
	Why  string
}

// TableRef names round Round's table Table of an event (from 0).
type TableRef struct{ Round, Table int }

// Rounds are the rounds of New, each once, in order.
func (s Step) Rounds() []int {
	var out []int
	for _, t := range s.New {
		if len(out) == 0 || out[len(out)-1] != t.Round {
			out = append(out, t.Round)
		}
	}
	return out
}

// Next carries an event on after a change (its start, a result, a
// withdrawal), by its format: a round robin pairs all its rounds at its
// start and ends when every table is played; a Swiss (Dutch) or Swiss
// tables event pairs its next round once the last is complete, and ends
// after its planned rounds or when no round can be paired; a knockout
// adds the games its matches need next (a match's next game, its
// decider) and, once every match of a round is decided, pairs the
// winners, ending after the final. bestOf is a knockout match's length.
//
// It changes e (the rounds and tables it adds, a knockout's byes) and
// says what it did; the caller makes the new tables' games. It is the
// one place that knows the formats: a caller never switches on them.
func Next(e *Event, bestOf int) (Step, error) {
	switch e.Format {
	case FormatRoundRobin, FormatDoubleRoundRobin:
		return nextRoundRobin(e)
	case FormatKnockout:
		return nextKnockout(e, max(bestOf, 1))
	}
	return nextSwiss(e)
}

func nextRoundRobin(e *Event) (Step, error) {
	if len(e.Played) > 0 {
		for _, rd := range e.Played {
			if !roundDone(rd) {
				return Step{}, nil
			}
		}
		return Step{Over: true}, nil
	}
	ids := make([]string, len(e.Players))
	for i, pl := range e.Players {
		ids[i] = pl.ID
	}
	ids = Shuffle(ids, e.Seed)
	var rounds []Round
	var err error
	if e.Seats > 2 {
		rounds, err = TableRoundRobin(ids)
	} else {
		rounds, err = RoundRobin(ids, e.Format == FormatDoubleRoundRobin)
	}
	if err != nil {
		return Step{}, err
	}
	step := Step{AtOnce: true}
	for _, rd := range rounds {
		step.New = append(step.New, added(e, rd)...)
	}
	return step, nil
}

func nextSwiss(e *Event) (Step, error) {
	if len(e.Played) > 0 && !roundDone(e.Played[len(e.Played)-1]) {
		return Step{}, nil
	}
	if len(e.Played) >= e.Rounds {
		return Step{Over: true}, nil
	}
	var rd Round
	var err error
	if e.Format == FormatTables {
		rd, err = SwissTables(*e)
	} else {
		rd, err = Dutch(*e)
	}
	if errors.Is(err, ErrUnpairable) || errors.Is(err, ErrTooFewPlayers) || err == nil && len(rd.Tables) == 0 {
		return Step{Over: true, Why: "no further round can be paired"}, nil
	}
	if err != nil {
		return Step{}, err
	}
	return Step{New: added(e, rd)}, nil
}

// added appends round rd to e and returns its tables.
func added(e *Event, rd Round) []TableRef {
	e.Played = append(e.Played, rd)
	r := len(e.Played) - 1
	out := make([]TableRef, len(rd.Tables))
	for t := range rd.Tables {
		out[t] = TableRef{r, t}
	}
	return out
}

func roundDone(rd Round) bool {
	for _, t := range rd.Tables {
		if !t.Played() {
			return false
		}
	}
	return true
}

// nextKnockout makes the games the last round's matches need next, and
// once every match is decided pairs the next round of the winners, or
// ends the event after the final.
func nextKnockout(e *Event, bestOf int) (Step, error) {
	var step Step
	for {
		r := len(e.Played) - 1
		if r < 0 { // the first round: the bracket, its byes going through
			e.Played = append(e.Played, Round{})
			r = 0
		}
		slots, _, err := knockoutSlots(e, r, bestOf)
		if err != nil {
			return Step{}, err
		}
		ms, err := knockoutMatches(e, r, slots, bestOf)
		if err != nil {
			return Step{}, err
		}
		var winners []string
		for i, m := range ms {
			next, w, err := matchState(e, r, i, m)
			if err != nil {
				return Step{}, err
			}
			if w != "" {
				winners = append(winners, w)
				if (m.Players[0] == "" || m.Players[1] == "") && !slices.Contains(e.Played[r].Byes, w) {
					e.Played[r].Byes = append(e.Played[r].Byes, w)
				}
				continue
			}
			if len(next.Seats) == 0 {
				continue // a game of the match is in play
			}
			e.Played[r].Tables = append(e.Played[r].Tables, next)
			step.New = append(step.New, TableRef{r, len(e.Played[r].Tables) - 1})
		}
		if len(winners) < len(ms) {
			return step, nil
		}
		if len(winners) == 1 {
			step.Over = true
			return step, nil
		}
		e.Played = append(e.Played, Round{})
	}
}

// knockoutSlots are the slots of knockout round r (from 0): the bracket,
// then each round's match winners in order; ok false while round r-1 has
// an undecided match.
func knockoutSlots(e *Event, r, bestOf int) ([]string, bool, error) {
	slots, err := Bracket(e.Players)
	if err != nil {
		return nil, false, err
	}
	for k := 0; k < r; k++ {
		ms, err := knockoutMatches(e, k, slots, bestOf)
		if err != nil {
			return nil, false, err
		}
		var winners []string
		for i, m := range ms {
			_, w, err := matchState(e, k, i, m)
			if err != nil || w == "" {
				return nil, false, err
			}
			winners = append(winners, w)
		}
		slots = winners
	}
	return slots, true, nil
}

// knockoutMatches are round r's matches from its slots, each with the
// round's tables that seat its two players, in order.
func knockoutMatches(e *Event, r int, slots []string, bestOf int) ([]Match, error) {
	ms, err := Matches(slots, e.Players, bestOf)
	if err != nil {
		return nil, err
	}
	if r < len(e.Played) {
		for i := range ms {
			for _, t := range e.Played[r].Tables {
				if slices.Contains(t.Seats, ms[i].Players[0]) && slices.Contains(t.Seats, ms[i].Players[1]) {
					ms[i].Games = append(ms[i].Games, t)
				}
			}
		}
	}
	return ms, nil
}

// matchState is a match's winner, or the table of its next game, or
// neither while a game is in play. A player who left loses the match once
// their games in play are over.
func matchState(e *Event, r, i int, m Match) (next Table, winner string, err error) {
	for _, g := range m.Games {
		if !g.Played() {
			return Table{}, "", nil
		}
	}
	gone := func(id string) bool {
		j := slices.IndexFunc(e.Players, func(p Player) bool { return p.ID == id })
		return j >= 0 && e.Players[j].Withdrawn
	}
	a, b := m.Players[0], m.Players[1]
	if a != "" && b != "" {
		switch {
		case gone(a) && !gone(b):
			return Table{}, b, nil
		case gone(b):
			return Table{}, a, nil
		}
	}
	return m.Next(MatchLot(e.Seed, r+1, i))
}

// KnockoutWinner is a knockout's winner: the final's ("" until it is
// decided).
func KnockoutWinner(e Event, bestOf int) string {
	bestOf = max(bestOf, 1)
	r := len(e.Played) - 1
	if r < 0 {
		return ""
	}
	slots, ok, err := knockoutSlots(&e, r, bestOf)
	if err != nil || !ok || len(slots) != 2 {
		return ""
	}
	ms, err := knockoutMatches(&e, r, slots, bestOf)
	if err != nil || len(ms) != 1 {
		return ""
	}
	_, w, _ := matchState(&e, r, 0, ms[0])
	return w
}
