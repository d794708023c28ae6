// Package tournament pairs and ranks the players of an event: round
// robins (Berger tables), Swiss events by FIDE's Dutch system (C.04.3)
// for two players, knockouts, Swiss tables for games of three and four
// players, standings with their tie-breaks, and FIDE's tournament report
// file (TRF). It is plain data in and plain data out: no I/O, no clock,
// no global randomness (every lot is drawn from a seed the caller passes),
// so the same event always gives the same pairings. The service stores
// an Event and calls these functions; the types marshal to JSON as they
// are.
package tournament

import (
	"errors"
	"fmt"
	"sort"
)

// Format is how an event pairs its rounds.
type Format string

const (
	FormatRoundRobin       Format = "round-robin"        // everyone meets everyone once
	FormatDoubleRoundRobin Format = "double-round-robin" // each pairing twice, seats swapped
	FormatSwiss            Format = "swiss"              // two players, FIDE Dutch system
	FormatKnockout         Format = "knockout"           // matches, the winner advances
	FormatTables           Format = "tables"             // Swiss tables of three or four
)

// Player is one entrant. Rating orders the seeds (the higher first);
// players of equal rating keep the order they are given in, which the
// caller may draw by lot (Shuffle).
type Player struct {
	ID        string `json:"id"`
	Name      string `json:"name,omitempty"`
	Rating    int    `json:"rating"`
	Withdrawn bool   `json:"withdrawn,omitempty"` // no longer paired
	// WithdrawnFrom is the first round the withdrawn player is not paired
	// in (0: not recorded; Event.WithdrawnFrom then infers it).
	WithdrawnFrom int `json:"withdrawnFrom,omitempty"`
}

// Table is one game of a round: the players by seat (seat 1 first; for
// two players seat 1 is FIDE's white) and, once it is played, each
// seat's finishing place (1 is first; equal places are shared, so a
// drawn two-player game is [1 1]). Places is nil while it is unplayed.
type Table struct {
	Seats  []string `json:"seats"`
	Places []int    `json:"places,omitempty"`
	// Forfeited marks, by seat, the players who did not appear: the game
	// was not played (a forfeit, see participation.go). They score
	// nothing whatever their place; nil for a game played.
	Forfeited []bool `json:"forfeited,omitempty"`
}

// Played reports whether the table has a result.
func (t Table) Played() bool { return len(t.Places) == len(t.Seats) && len(t.Seats) > 0 }

// Round is the tables of one round, the players who sit it out with the
// pairing-allocated bye (in a Swiss event a bye scores as a win; in a
// round robin it scores nothing; at Swiss tables it scores the mean of a
// table's points), and those absent by request (participation.go).
type Round struct {
	Tables []Table    `json:"tables"`
	Byes   []string   `json:"byes,omitempty"`
	Absent []Absence  `json:"absent,omitempty"`
	Rules  DutchRules `json:"rules,omitempty"` // the Dutch rules that paired it (Swiss; empty before 2026: 2017)
}

// Event is what the pairing and the standings need of an event: its
// players, its rounds so far (each table with its result once played),
// and its lot.
type Event struct {
	Name    string   `json:"name"`
	Format  Format   `json:"format"`
	Seats   int      `json:"seats"`            // seats of the game (2, 3 or 4); 0 means 2
	Rounds  int      `json:"rounds,omitempty"` // rounds planned (Swiss); 0 when not fixed
	Seed    int64    `json:"seed"`             // the lot: first round's colours, knockout deciders
	Players []Player `json:"players"`
	Played  []Round  `json:"played,omitempty"` // the rounds paired so far, in order
	// TableSizes are the table sizes the game allows at Swiss tables, the
	// game's seat count first (nil: only full tables, byes for the rest).
	TableSizes []int `json:"tableSizes,omitempty"`

	// Rules is the Dutch system's version (Swiss events); empty: see
	// PairingRules.
	Rules DutchRules `json:"rules,omitempty"`
	// Requests are the players' requests to sit out rounds not yet
	// paired (participation.go).
	Requests []ByeRequest `json:"requests,omitempty"`
	// The organiser's limits on requests: the half-point byes and the
	// zero-point absences a player may ask for over the event (0: none),
	// and the last round one may be asked for (0: any).
	MaxHalfByes  int `json:"maxHalfByes,omitempty"`
	MaxZeroByes  int `json:"maxZeroByes,omitempty"`
	LastByeRound int `json:"lastByeRound,omitempty"`

	// TieBreaks are the organiser's tie-breaks by their C.07 acronyms
	// (standings.go); nil: the format's DefaultTieBreaks.
	TieBreaks []string `json:"tieBreaks,omitempty"`
}

func (e Event) seats() int {
	if e.Seats == 0 {
		return 2
	}
	return e.Seats
}

// Errors say what is wrong with the event handed in; the caller shows
// them to the organiser as they are.
var (
	ErrTooFewPlayers = errors.New("tournament: too few players")
	ErrUnpairable    = errors.New("tournament: no pairing satisfies the rules (every player has met every other, or the seats cannot be kept)")
	ErrRoundOpen     = errors.New("tournament: the last round has games without a result")
)

// MaxPlayers bounds an event: past any server's, and small enough that
// a Swiss round is paired in seconds (at most 1.1 s for 300 players on
// the shared VM, by either rules; docs/benchmarks.md). The search of the
// Dutch system grows faster than the square of the players.
const MaxPlayers = 300

// checkPlayers refuses empty or repeated ids, which would make the
// pairings and standings ambiguous, and events past MaxPlayers.
func checkPlayers(ps []Player) error {
	if len(ps) > MaxPlayers {
		return fmt.Errorf("tournament: %d players, past the %d an event may hold", len(ps), MaxPlayers)
	}
	seen := make(map[string]bool, len(ps))
	for i, p := range ps {
		if p.ID == "" {
			return fmt.Errorf("tournament: player %d has no id", i+1)
		}
		if seen[p.ID] {
			return fmt.Errorf("tournament: player %q is entered twice", p.ID)
		}
		seen[p.ID] = true
	}
	return nil
}

// Seeded returns the players in seed order: by rating, the higher first,
// players of equal rating in the order given. The seed order is FIDE's
// pairing numbers (1 is the first) and the knockout's seeds.
func Seeded(ps []Player) []Player {
	out := append([]Player(nil), ps...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Rating > out[j].Rating })
	return out
}

// Shuffle returns ids in an order drawn by lot from seed: the same seed,
// the same order. Use it to number a round robin's players.
func Shuffle(ids []string, seed int64) []string {
	out := append([]string(nil), ids...)
	r := newLot(seed)
	for i := len(out) - 1; i > 0; i-- {
		j := r.intn(i + 1)
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// lot is a small deterministic generator (splitmix64), so that a lot
// drawn today is drawn the same by a later Go release (math/rand's
// streams are not promised to stay).
type lot struct{ s uint64 }

func newLot(seed int64, salt ...int64) *lot {
	l := &lot{uint64(seed)}
	for _, s := range salt {
		l.s ^= uint64(s) * 0x9e3779b97f4a7c15
		l.next()
	}
	return l
}

func (l *lot) next() uint64 {
	l.s += 0x9e3779b97f4a7c15
	z := l.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func (l *lot) intn(n int) int { return int(l.next() % uint64(n)) }
