package tournament

import (
	"fmt"
	"slices"
)

// How a player takes part in a round, as FIDE's C.04.2 and TRF-2026 see
// it. An event's rounds hold four kinds of record, and every player of a
// round is in exactly one of them (or in none: not paired):
//
//   - a table (Round.Tables): a game. When it ended before the first move
//     because a player did not appear, the table is a forfeit:
//     Table.Forfeited marks the seats that did not appear (TRF "+" for
//     the others, "-" for them). A forfeit is an unplayed game: it scores
//     (a win for those who appeared, nothing for those who did not) but
//     is never a meeting (the two may be paired again), gives no colour
//     and, for the tie-breaks, is not a game played.
//   - a pairing-allocated bye (Round.Byes, TRF "U"): the player the
//     pairing left without an opponent. It scores ByePoints.
//   - an absence (Round.Absent): a player not paired in the round by
//     their own request or the organiser's decision, with the bye it
//     scores: ByeHalf (TRF "H", a half-point bye requested in advance),
//     ByeZero (TRF "Z", a zero-point absence) or ByeFull (TRF "F", a
//     full-point bye the organiser gave, as TRF files from elsewhere may
//     hold; Tessera does not offer it).
//   - a withdrawal (Player.Withdrawn, from round Player.WithdrawnFrom):
//     the player is not paired from that round on and scores nothing.
//
// Requests for rounds not yet paired are Event.Requests, within the
// organiser's limits (Event.MaxHalfByes, MaxZeroByes, LastByeRound); the
// pairing (Dutch) leaves the players who asked out of that round and
// records them in the round's Absent. Event.Result answers, for the
// standings, what a player got in a round and whether it was played.
//
// Stored events from before this model have none of these fields: their
// tables are all games, their byes pairing-allocated, and a withdrawn
// player without WithdrawnFrom left after the last round they appear in
// (Event.WithdrawnFrom). So they load and mean what they meant.

// ByeKind is what an absence scores: FIDE's requested byes.
type ByeKind string

const (
	ByeHalf ByeKind = "half" // a half-point bye, requested in advance (TRF "H")
	ByeZero ByeKind = "zero" // a zero-point absence (TRF "Z")
	ByeFull ByeKind = "full" // a full-point bye given by the organiser (TRF "F")
)

// Absence is a player not paired in a round, and what it scores.
type Absence struct {
	ID  string  `json:"id"`
	Bye ByeKind `json:"bye"`
}

// ByeRequest is a player's request to sit out a round not yet paired.
type ByeRequest struct {
	ID    string  `json:"id"`
	Round int     `json:"round"` // from 1
	Bye   ByeKind `json:"bye"`   // ByeHalf or ByeZero
}

// DutchRules names the version of FIDE's Dutch system an event is paired
// by. The version is kept per event (Event.Rules) and stamped on every
// round Dutch pairs (Round.Rules), so that an event goes on by the rules
// it started with.
type DutchRules string

const (
	// Dutch2017 is C.04.3 as in force from 2017 to 2025 (bbpPairings
	// v5.0.1 implements it).
	Dutch2017 DutchRules = "dutch-2017"
	// Dutch2025 is C.04.3 as approved by FIDE's Council on 13 April
	// 2024 and applied from 1 July 2025 (bbpPairings v6.0.0, February
	// 2026, implements it).
	Dutch2025 DutchRules = "dutch-2025"
)

// PairingRules is the Dutch system's version this event is paired by:
// Event.Rules when the organiser chose one; else the 2017 rules for an
// event whose first round was paired before rounds recorded their rules
// (every Swiss event stored before the 2025 rules came), as they were
// paired by those; else the rules its first round was paired by; else,
// for an event not yet paired, the 2025 rules.
func (e Event) PairingRules() DutchRules {
	if e.Rules != "" {
		return e.Rules
	}
	if len(e.Played) > 0 {
		if r := e.Played[0].Rules; r != "" {
			return r
		}
		return Dutch2017
	}
	return Dutch2025
}

// Forfeit reports whether the table's game was not played because a
// player did not appear: it scores, but is no meeting.
func (t Table) Forfeit() bool { return slices.Contains(t.Forfeited, true) }

// forfeited reports whether seat s did not appear.
func (t Table) forfeited(s int) bool { return s < len(t.Forfeited) && t.Forfeited[s] }

// Kind is what a player got in a round.
type Kind string

const (
	KindNone        Kind = ""             // not in the round (not entered then, out of a knockout)
	KindGame        Kind = "game"         // a game played (or being played: Pending)
	KindForfeitWin  Kind = "forfeit-win"  // the opponent did not appear (TRF "+")
	KindForfeitLoss Kind = "forfeit-loss" // the player did not appear (TRF "-")
	KindPairingBye  Kind = "pairing-bye"  // the pairing-allocated bye (TRF "U")
	KindHalfBye     Kind = "half-bye"     // a half-point bye requested (TRF "H")
	KindZeroBye     Kind = "zero-bye"     // a zero-point absence (TRF "Z")
	KindFullBye     Kind = "full-bye"     // a full-point bye from the organiser (TRF "F")
	KindWithdrawn   Kind = "withdrawn"    // withdrawn before this round
)

// Result is what a player got in one round.
type Result struct {
	Kind Kind
	// Played: a game played over the board (KindGame with a result). Only
	// these are meetings, give colours and count as games for the
	// tie-breaks' rules on unplayed games.
	Played bool
	// Pending: a game (or forfeit) not yet given its result.
	Pending bool
	// Points scored in the round (0 while Pending).
	Points float64
	// At a table (a game or a forfeit): the table's index in the round,
	// the player's seat (0 is seat 1, white) and the others at it.
	Table, Seat int
	Opponents   []string
}

// Unplayed reports whether the round gave the player points (or none)
// without a game: byes, forfeits, absences, rounds after a withdrawal.
func (r Result) Unplayed() bool { return r.Kind != KindGame && r.Kind != KindNone }

// RequestedByePoints is what an absence of this kind scores: a full
// point, a half or nothing, a "point" being what a win scores at a table
// of the event's seats (1 for two players, seats-1 at tables).
func RequestedByePoints(e Event, k ByeKind) float64 {
	win := float64(e.seats() - 1)
	switch k {
	case ByeFull:
		return win
	case ByeHalf:
		return win / 2
	}
	return 0
}

// Result is what player id got in round (from 1) of the event.
func (e Event) Result(id string, round int) Result {
	if round < 1 || round > len(e.Played) {
		return Result{}
	}
	rd := e.Played[round-1]
	for ti, t := range rd.Tables {
		s := slices.Index(t.Seats, id)
		if s < 0 {
			continue
		}
		r := Result{Kind: KindGame, Table: ti, Seat: s, Pending: !t.Played()}
		for j, o := range t.Seats {
			if j != s {
				r.Opponents = append(r.Opponents, o)
			}
		}
		if t.Forfeit() {
			r.Kind = KindForfeitWin
			if t.forfeited(s) {
				r.Kind = KindForfeitLoss
			}
		}
		if pts := Points(t); pts != nil {
			r.Points = pts[s]
		}
		r.Played = r.Kind == KindGame && !r.Pending
		return r
	}
	if slices.Contains(rd.Byes, id) {
		return Result{Kind: KindPairingBye, Points: ByePoints(e)}
	}
	for _, a := range rd.Absent {
		if a.ID == id {
			k := map[ByeKind]Kind{ByeHalf: KindHalfBye, ByeFull: KindFullBye}[a.Bye]
			if k == "" {
				k = KindZeroBye
			}
			return Result{Kind: k, Points: RequestedByePoints(e, a.Bye)}
		}
	}
	if from := e.WithdrawnFrom(id); from > 0 && round >= from {
		return Result{Kind: KindWithdrawn}
	}
	return Result{}
}

// WithdrawnFrom is the first round in which a withdrawn player is no
// longer paired, 0 if the player has not withdrawn. A player withdrawn
// before WithdrawnFrom was recorded left after the last round they
// appear in.
func (e Event) WithdrawnFrom(id string) int {
	i := slices.IndexFunc(e.Players, func(p Player) bool { return p.ID == id })
	if i < 0 || !e.Players[i].Withdrawn {
		return 0
	}
	if from := e.Players[i].WithdrawnFrom; from > 0 {
		return from
	}
	last := 0
	for r, rd := range e.Played {
		in := slices.Contains(rd.Byes, id) || slices.ContainsFunc(rd.Tables, func(t Table) bool { return slices.Contains(t.Seats, id) })
		if in {
			last = r + 1
		}
	}
	return last + 1
}

// Withdraw withdraws player id from the next round to be paired on:
// their games in play are the caller's to end; their requests for later
// rounds go.
func (e *Event) Withdraw(id string) error {
	i := slices.IndexFunc(e.Players, func(p Player) bool { return p.ID == id })
	if i < 0 {
		return fmt.Errorf("tournament: %q is not entered", id)
	}
	if e.Players[i].Withdrawn {
		return nil
	}
	e.Players[i].Withdrawn = true
	e.Players[i].WithdrawnFrom = len(e.Played) + 1
	e.Requests = slices.DeleteFunc(e.Requests, func(r ByeRequest) bool { return r.ID == id })
	return nil
}

// ByeRequests are player id's requests for rounds not yet paired, in
// round order.
func (e Event) ByeRequests(id string) []ByeRequest {
	var out []ByeRequest
	for _, r := range e.Requests {
		if r.ID == id && r.Round > len(e.Played) {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b ByeRequest) int { return a.Round - b.Round })
	return out
}

// requestedFor lists the absences asked for round (from 1), in the
// players' order.
func (e Event) requestedFor(round int) []Absence {
	var out []Absence
	for _, p := range e.Players {
		if p.Withdrawn {
			continue
		}
		for _, r := range e.Requests {
			if r.ID == p.ID && r.Round == round {
				out = append(out, Absence{ID: r.ID, Bye: r.Bye})
				break
			}
		}
	}
	return out
}

// byesTaken counts player id's absences of kind k in the rounds played
// and the requests still to come.
func (e Event) byesTaken(id string, k ByeKind) int {
	n := 0
	for _, rd := range e.Played {
		for _, a := range rd.Absent {
			if a.ID == id && a.Bye == k {
				n++
			}
		}
	}
	for _, r := range e.Requests {
		if r.ID == id && r.Bye == k && r.Round > len(e.Played) {
			n++
		}
	}
	return n
}

// CheckByeRequest says why player id may not ask to sit out round (from
// 1) with a bye of kind k, or nil if they may: only in a Swiss event
// (two players or tables), a round not yet paired and not past the
// event's last, not after LastByeRound, once a round, and no more byes
// of the kind than the organiser allows (MaxHalfByes, MaxZeroByes; 0
// allows none). The words are for the player.
func (e Event) CheckByeRequest(id string, round int, k ByeKind) error {
	if e.Format != FormatSwiss && e.Format != FormatTables {
		return fmt.Errorf("tournament: byes can be asked for only in a Swiss event; this one pairs its rounds otherwise")
	}
	i := slices.IndexFunc(e.Players, func(p Player) bool { return p.ID == id })
	if i < 0 {
		return fmt.Errorf("tournament: you are not entered in this event")
	}
	if e.Players[i].Withdrawn {
		return fmt.Errorf("tournament: you have withdrawn from this event")
	}
	limit := map[ByeKind]int{ByeHalf: e.MaxHalfByes, ByeZero: e.MaxZeroByes}
	if k != ByeHalf && k != ByeZero {
		return fmt.Errorf("tournament: a bye is half (half a point) or zero (no points), not %q", k)
	}
	if round <= len(e.Played) {
		return fmt.Errorf("tournament: round %d is already paired; ask for round %d or later", round, len(e.Played)+1)
	}
	if e.Rounds > 0 && round > e.Rounds {
		return fmt.Errorf("tournament: the event has %d rounds", e.Rounds)
	}
	if e.LastByeRound > 0 && round > e.LastByeRound {
		return fmt.Errorf("tournament: byes can be asked for up to round %d", e.LastByeRound)
	}
	for _, r := range e.Requests {
		if r.ID == id && r.Round == round {
			return fmt.Errorf("tournament: you already asked to sit out round %d", round)
		}
	}
	if limit[k] == 0 {
		return fmt.Errorf("tournament: the organiser allows no %s-point byes in this event", k)
	}
	if e.byesTaken(id, k) >= limit[k] {
		return fmt.Errorf("tournament: you have had or asked for the %d %s-point byes the organiser allows", limit[k], k)
	}
	return nil
}

// RequestBye records player id's request to sit out round with a bye of
// kind k, if CheckByeRequest allows it.
func (e *Event) RequestBye(id string, round int, k ByeKind) error {
	if err := e.CheckByeRequest(id, round, k); err != nil {
		return err
	}
	e.Requests = append(e.Requests, ByeRequest{ID: id, Round: round, Bye: k})
	return nil
}

// CancelBye withdraws player id's request for round, if the round is not
// yet paired; it reports whether there was one.
func (e *Event) CancelBye(id string, round int) bool {
	if round <= len(e.Played) {
		return false
	}
	n := len(e.Requests)
	e.Requests = slices.DeleteFunc(e.Requests, func(r ByeRequest) bool { return r.ID == id && r.Round == round })
	return len(e.Requests) != n
}
