// Package engine is the shared core of Tessera's games: seats, seeded
// randomness, moves, scores, views, game over, and the registry of games.
//
// It is pure Go with no I/O. Each game lives in its own package under
// engine/ and registers itself with Register from an init function; the
// platform (service, storage, render, bot) only ever talks to the
// interfaces declared here, so adding a game touches nothing else.
package engine

import (
	"fmt"
	"sort"
	"strings"
)

// Seat is a player's place at the table, 0-based. Players see seats
// 1-based ("seat 1 moves first").
type Seat int

// NoSeat is the seat to move in a finished game, and the seat of events
// that belong to no player.
const NoSeat Seat = -1

// Move is a parsed move of one game. String returns its canonical
// notation, which Parse of the same position accepts again.
type Move interface {
	String() string
}

// Delta is one change to one seat's score, with its reason in words
// ("2 connections +3").
type Delta struct {
	Seat   Seat   `json:"seat"`
	Points int    `json:"points"`
	Reason string `json:"reason"`
}

// Event is something the game says happened, besides score changes.
// When Seat is not NoSeat the platform writes the seat's name before Text
// ("Bo" + "has no legal move and passes").
type Event struct {
	Seat Seat   `json:"seat"`
	Text string `json:"text"`
}

// The record entries that are no move: a seat leaving the game. No
// game's Parse reads them; the platform writes them (Table.Resign gives
// ResignEntry as its Outcome's Move, the service's clock TimeoutEntry),
// and the AI's and the analysis's readers of a record skip them. The
// root package types them for the records (tessera.EndReason); their
// values are what every stored record holds, so they never change.
const (
	ResignEntry  = "resign"
	TimeoutEntry = "timeout"
)

// Outcome is what one applied move (or resignation) did.
type Outcome struct {
	Seat   Seat    `json:"seat"`
	Move   string  `json:"move"` // canonical notation, or ResignEntry, TimeoutEntry
	Deltas []Delta `json:"deltas,omitempty"`
	Events []Event `json:"events,omitempty"`
	Over   bool    `json:"over"`
}

// Points sums the deltas of one seat.
func (o Outcome) Points(s Seat) int {
	n := 0
	for _, d := range o.Deltas {
		if d.Seat == s {
			n += d.Points
		}
	}
	return n
}

// Setup is everything needed to create a game's starting position. With the
// ordered move list it is the whole game record.
type Setup struct {
	Game    string            `json:"game"`
	Players int               `json:"players"`
	Options map[string]string `json:"options,omitempty"`
	Seed    uint64            `json:"seed"`
	// Deck, when set, puts these pieces (in the game's own codes) on top of
	// the shuffled supply, first listed drawn first. For tests and tools.
	Deck []string `json:"deck,omitempty"`
}

// Option returns the option's value, or def when it is not set.
func (s Setup) Option(name, def string) string {
	if v, ok := s.Options[name]; ok && v != "" {
		return v
	}
	return def
}

// State is a position of one game. Methods that do not change the position
// may be called concurrently; Apply and Resign may not.
type State interface {
	// Game is the id of the game's registration (Lookup, GameOf), where
	// the facts that hold for every position of the game are kept.
	Game() string
	// Players is the number of seats.
	Players() int
	// ToMove is the seat to move, or NoSeat when the game is over.
	ToMove() Seat
	// Legal lists the legal moves of the seat to move, one per distinct
	// resulting position, in a stable order. Resignation is not listed.
	Legal() []Move
	// Parse reads a move of the seat to move in the game's notation. Its
	// error is an *IllegalError whose message a player can act on.
	Parse(text string) (Move, error)
	// Apply plays a move returned by Parse or Legal of this position. It
	// also plays the passes the engine makes by itself.
	Apply(m Move) (Outcome, error)
	// Resign takes seat s out of the game (see Table.Resign).
	Resign(s Seat) Outcome
	// Scores by seat.
	Scores() []int
	// Over reports whether the game has ended.
	Over() bool
	// Winners of a finished game (ties share the win).
	Winners() []Seat
	// Hand is seat s's hand as the replay tool prints it: a sorted,
	// JSON-encodable list.
	Hand(s Seat) any
	// View is what the viewer may see (NoSeat: the public).
	View(viewer Seat) View
	// Board is the picture of the position.
	Board() Scene
	// HandScene pictures seat s's hand, for its owner only.
	HandScene(s Seat) Scene
	// Clone returns an independent copy.
	Clone() State
}

// View is the information one viewer may see.
type View struct {
	Seats  []SeatView `json:"seats"`
	Status string     `json:"status"` // one line: "Ana to move", "Game over: Bo wins"
	// Legend explains the picture in a few words (e.g. border colours).
	Legend []string `json:"legend,omitempty"`
}

// SeatView is the public summary of one seat, plus its hand when the
// viewer is that seat.
type SeatView struct {
	Score    int      `json:"score"`
	Color    Color    `json:"color"`    // the seat's colour in the picture, if it has one
	Label    string   `json:"label"`    // e.g. "Blue", "Yellow"
	InHand   int      `json:"in_hand"`  // pieces in hand (count), -1 when not applicable
	Info     []string `json:"info"`     // short extra lines ("flipped this handful")
	Resigned bool     `json:"resigned"` // out of the game
	Hand     []string `json:"hand"`     // only for the viewer's own seat
	ToMove   bool     `json:"to_move"`  //
	Winner   bool     `json:"winner"`   //
	Hidden   bool     `json:"hidden"`   // the hand is private
}

// Option describes one named option (variant) of a game.
type Option struct {
	Name    string
	Default string // "" means decided by the game (e.g. drawn from the seed)
	Help    string
	// Values are the values a player chooses from, when they are few
	// (board=square9, hex, …); nil when the value is free (colours, a
	// seat). enginetest.Run plays a game with each.
	Values []string
}

// Game is a registered game.
type Game struct {
	ID         string
	Name       string
	MinPlayers int
	MaxPlayers int
	Options    []Option
	// Summary is the rules summary and notation, in Discord markdown,
	// under 1800 characters.
	Summary string
	// New returns the starting position. It checks the player count and
	// options and returns an *IllegalError a player can act on.
	New func(Setup) (State, error)
	// Banked says that the game's points are banked: each move adds its
	// own points to its player's score for good, and nothing is taken
	// back or counted again at the end (Elemental's placements). The
	// margin of a position mid-game is then part of the final margin, so
	// a search may play a few moves past a position and judge it by its
	// margin instead of playing to the end, where uniformly random moves
	// would bury the points a good move makes under the noise of all the
	// rest.
	Banked bool
	// Puzzle, when set, is the game's way to be played alone (puzzle.go).
	Puzzle *Puzzle
}

var registry = map[string]Game{}

// Register adds a game. It panics on a duplicate or incomplete entry; call
// it from the game package's init.
func Register(g Game) {
	if g.ID == "" || g.New == nil || g.MinPlayers < 1 || g.MaxPlayers < g.MinPlayers {
		panic("engine: incomplete game registration " + g.ID)
	}
	if p := g.Puzzle; p != nil && (p.Hint == nil || len(p.Levels) == 0 || !g.hasOption(p.Option)) {
		panic("engine: incomplete puzzle registration " + g.ID)
	}
	if _, dup := registry[g.ID]; dup {
		panic("engine: game registered twice: " + g.ID)
	}
	registry[g.ID] = g
}

// GameOf is the registration of a position's game; false for a position
// of no registered game (a test's toy).
func GameOf(st State) (Game, bool) {
	g, ok := registry[st.Game()]
	return g, ok
}

// Lookup finds a registered game by id.
func Lookup(id string) (Game, bool) {
	g, ok := registry[strings.ToLower(strings.TrimSpace(id))]
	return g, ok
}

// Games lists the registered games sorted by id.
func Games() []Game {
	out := make([]Game, 0, len(registry))
	for _, g := range registry {
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// New creates a game's starting position from a setup, checking the game
// id, the player count and the option names.
func New(s Setup) (State, error) {
	g, ok := Lookup(s.Game)
	if !ok {
		ids := make([]string, 0, len(registry))
		for _, g := range Games() {
			ids = append(ids, g.ID)
		}
		return nil, Illegalf("there is no game %q (try %s)", s.Game, strings.Join(ids, ", "))
	}
	if s.Players < g.MinPlayers || s.Players > g.MaxPlayers {
		if g.MinPlayers == g.MaxPlayers {
			return nil, Illegalf("%s is for exactly %d players", g.Name, g.MinPlayers)
		}
		return nil, Illegalf("%s is for %d to %d players", g.Name, g.MinPlayers, g.MaxPlayers)
	}
	for k := range s.Options {
		known := false
		for _, o := range g.Options {
			if o.Name == k {
				known = true
			}
		}
		if !known {
			names := make([]string, 0, len(g.Options))
			for _, o := range g.Options {
				names = append(names, o.Name)
			}
			if len(names) == 0 {
				return nil, Illegalf("%s has no options", g.Name)
			}
			return nil, Illegalf("%s has no option %q (options: %s)", g.Name, k, strings.Join(names, ", "))
		}
	}
	return g.New(s)
}

func (g Game) hasOption(name string) bool {
	for _, o := range g.Options {
		if o.Name == name {
			return true
		}
	}
	return false
}

// IllegalError is a refused move, setup or input, with a message a player
// can act on. Nothing was changed.
type IllegalError struct{ Msg string }

func (e *IllegalError) Error() string { return e.Msg }

// Illegalf returns an *IllegalError.
func Illegalf(format string, args ...any) error {
	return &IllegalError{Msg: fmt.Sprintf(format, args...)}
}

// ParseOptions reads "k=v" words (also "k" alone, meaning "k=on").
func ParseOptions(words []string) (map[string]string, error) {
	opts := map[string]string{}
	for _, w := range words {
		w = strings.TrimSpace(w)
		if w == "" {
			continue
		}
		k, v, ok := strings.Cut(w, "=")
		k = strings.ToLower(strings.TrimSpace(k))
		if k == "" {
			return nil, Illegalf("option %q has no name (write name=value)", w)
		}
		if !ok {
			v = "on"
		}
		opts[k] = strings.TrimSpace(v)
	}
	return opts, nil
}
