// Package sixthpuzzle_test shows that a game which offers puzzles needs
// no change in service/ (issue #45): a game registered here, with its own
// puzzle option and levels, is offered by /puzzle beside Knotwork,
// started alone, and given its hints. It is a package of its own so that
// the toy game's registration (the engine's registry is the process's)
// reaches no other test: with two games that have puzzles, /puzzle needs
// its game: option, which the other packages' tests do not give.
package sixthpuzzle_test

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"tessera"
	"tessera/engine"
	_ "tessera/engine/games"
	"tessera/render"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/boltdb"
)

// paving is the toy: one player lays "a" then "b" (the small level) or
// "a", "b", "c" (the large one); anything else is refused. Its hint is the
// next letter.
func init() {
	engine.Register(engine.Game{ID: "paving", Name: "Paving", MinPlayers: 1, MaxPlayers: 1,
		Options: []engine.Option{{Name: "size", Default: "small", Help: "small or large", Values: []string{"small", "large"}}},
		Summary: "**Paving**, a toy puzzle for one: lay the letters in order.",
		New: func(s engine.Setup) (engine.State, error) {
			n := 2
			if s.Option("size", "small") == "large" {
				n = 3
			}
			return &paving{Table: engine.NewTable(s.Players), goal: n}, nil
		},
		Puzzle: &engine.Puzzle{Option: "size",
			Levels: []engine.PuzzleLevel{{Name: "small", Goal: "two letters"}, {Name: "large", Goal: "three letters"}},
			Hint: func(st engine.State) (engine.Move, bool, bool) {
				p := st.(*paving)
				return letter(rune('a' + p.laid)), true, true
			}},
	})
}

type letter rune

func (l letter) String() string { return string(l) }

type paving struct {
	engine.Table
	goal, laid int
}

func (p *paving) Game() string { return "paving" }
func (p *paving) Legal() []engine.Move {
	if p.Done {
		return nil
	}
	return []engine.Move{letter(rune('a' + p.laid))}
}
func (p *paving) Parse(s string) (engine.Move, error) {
	if s != string(rune('a'+p.laid)) {
		return nil, errors.New("lay the next letter")
	}
	return letter(rune(s[0])), nil
}
func (p *paving) Apply(m engine.Move) (engine.Outcome, error) {
	o := engine.Outcome{Seat: 0, Move: m.String()}
	p.laid++
	if p.laid == p.goal {
		p.Finish(&o, 0)
	}
	return o, nil
}
func (p *paving) Resign(s engine.Seat) engine.Outcome {
	o := engine.Outcome{Seat: s, Move: engine.ResignEntry}
	p.Table.Resign(&o, s)
	return o
}
func (p *paving) Hand(engine.Seat) any { return nil }
func (p *paving) View(engine.Seat) engine.View {
	return engine.View{Seats: p.SeatViews(), Status: "paving"}
}
func (p *paving) Board() engine.Scene                { return engine.Scene{} }
func (p *paving) HandScene(engine.Seat) engine.Scene { return engine.Scene{} }
func (p *paving) Clone() engine.State {
	c := *p
	c.Table = p.CloneTable()
	return &c
}

func newService(t *testing.T) (*service.Service, storage.Store) {
	t.Helper()
	st, err := boltdb.Open(filepath.Join(t.TempDir(), "t.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	now := time.Unix(1700000000, 0).UTC()
	return service.New(st, service.Config{Renderer: render.Renderer{}, Seed: func() uint64 { return 7 }, Now: func() time.Time { return now }}), st
}

var ana = service.User{ID: "1", Name: "Ana"}

func req(id string) service.Request {
	return service.Request{User: ana, GuildID: "g", ChannelID: "c", InteractionID: id}
}

// TestPuzzleCommandListsEveryPuzzleGame: /puzzle's table entry is made
// from the registry: a game: option naming both games with puzzles
// (required, since there are two), and a level: option with every
// game's levels.
func TestPuzzleCommandListsEveryPuzzleGame(t *testing.T) {
	var puzzle *service.Command
	for _, c := range service.Commands() {
		if c.Name == "puzzle" {
			puzzle = &c
		}
	}
	if puzzle == nil {
		t.Fatal("no /puzzle")
	}
	values := func(o service.Option) []string {
		var out []string
		for _, c := range o.Choices {
			out = append(out, c.Value)
		}
		return out
	}
	if len(puzzle.Options) != 2 || puzzle.Options[0].Name != "game" || !puzzle.Options[0].Required || puzzle.Options[1].Name != "level" {
		t.Fatalf("/puzzle's options: %+v", puzzle.Options)
	}
	if got := values(puzzle.Options[0]); !slices.Equal(got, []string{"knotwork", "paving"}) {
		t.Errorf("game: choices %v, want knotwork and paving", got)
	}
	if got := values(puzzle.Options[1]); !slices.Equal(got, []string{"easy", "hard", "small", "large"}) {
		t.Errorf("level: choices %v, want both games' levels", got)
	}
	if !strings.Contains(puzzle.Description, "Knotwork or Paving") {
		t.Errorf("description %q does not name both games", puzzle.Description)
	}
}

// TestToyPuzzlePlayed: the toy's puzzle starts alone at its level, its
// hint is the game's, and a wrong game or level is refused naming the
// choices; without a game: /puzzle asks which (there are two).
func TestToyPuzzlePlayed(t *testing.T) {
	svc, st := newService(t)
	refused := func(r service.PuzzleRequest, want string) {
		t.Helper()
		if _, err := svc.Puzzle(req("x"), r); err == nil || !strings.Contains(tessera.ErrorMessage(err), want) {
			t.Errorf("%+v: %v, want it to say %q", r, err, want)
		}
	}
	refused(service.PuzzleRequest{}, "Which game's puzzle? Choose knotwork or paving.")
	refused(service.PuzzleRequest{Game: "elemental"}, `"elemental" has no puzzles: choose knotwork or paving.`)
	refused(service.PuzzleRequest{Game: "paving", Level: "hard"}, `There is no "hard" puzzle: choose small (two letters) or large (three letters).`)

	r, err := svc.Puzzle(req("i1"), service.PuzzleRequest{Game: "Paving", Level: "large"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Text, "**Paving**, game #1, for Ana alone, begins") {
		t.Fatalf("/puzzle: %q", r.Text)
	}
	g, err := st.Game(t.Context(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != tessera.StatusPlaying || g.Setup.Players != 1 || g.Setup.Options["size"] != "large" || g.Clock.Kind != "none" {
		t.Fatalf("game: %+v", g)
	}
	for _, want := range []string{"a", "b", "c"} {
		h, err := svc.Hint(req("h"+want), "1")
		if err != nil || h.Text != "Try "+want+" (game #1)." || !h.Ephemeral {
			t.Fatalf("hint: %q %v, want %s", h.Text, err, want)
		}
		if _, err := svc.Move(req("m"+want), "1", want); err != nil {
			t.Fatal(err)
		}
	}
	if g, _ := st.Game(t.Context(), 1); g.Status != tessera.StatusFinished {
		t.Fatalf("after three letters: %s", g.Status)
	}
}
