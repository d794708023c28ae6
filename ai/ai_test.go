package ai_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"tessera/ai"
	"tessera/engine"
	_ "tessera/engine/games"
)

// small is a budget that keeps the tests quick on a loaded 2-core machine
// with today's slow engines, and still runs several iterations per worker.
var small = ai.Budget{Iterations: 40, Workers: 2}

// setups is every game at every player count (TilingKing also on its other
// boards).
func setups() []engine.Setup {
	var out []engine.Setup
	for _, g := range engine.Games() {
		for n := g.MinPlayers; n <= g.MaxPlayers; n++ {
			s := engine.Setup{Game: g.ID, Players: n, Seed: uint64(10*n + 1)}
			if _, err := engine.New(s); err != nil {
				continue // a count that needs an option: a one-player Knotwork puzzle, solved by its hint, not by the AI
			}
			out = append(out, s)
		}
	}

	for _, b := range []string{"hex", "tri"} {
		out = append(out, engine.Setup{Game: "tilingking", Players: 2, Seed: 5, Options: map[string]string{"board": b}})
	}
	return out
}

func name(s engine.Setup) string {
	n := fmt.Sprintf("%s/%dp", s.Game, s.Players)
	if b := s.Options["board"]; b != "" {
		n += "/" + b
	}
	return n
}

// randomPosition plays k uniformly random moves from the start (fewer if
// the game ends first).
func randomPosition(t *testing.T, setup engine.Setup, k int, seed uint64) engine.State {
	t.Helper()
	st, err := engine.New(setup)
	if err != nil {
		t.Fatal(err)
	}
	r := engine.NewRand(seed)
	for i := 0; i < k && !st.Over(); i++ {
		legal := st.Legal()
		if _, err := st.Apply(legal[r.IntN(len(legal))]); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

// gameLength is the number of moves of randomPosition's game to its end.
func gameLength(t *testing.T, setup engine.Setup, seed uint64) int {
	st, err := engine.New(setup)
	if err != nil {
		t.Fatal(err)
	}
	r := engine.NewRand(seed)
	n := 0
	for ; !st.Over(); n++ {
		legal := st.Legal()
		st.Apply(legal[r.IntN(len(legal))])
	}
	return n
}

func isLegal(st engine.State, m engine.Move) bool {
	if m == nil {
		return false
	}
	for _, l := range st.Legal() {
		if l.String() == m.String() {
			return true
		}
	}
	return false
}

// TestLegalOnRandomPositions: at the start, in the middle and near the end
// of random games of every game and player count, the search returns one of
// the legal moves of the seat to move, and so do the baselines.
func TestLegalOnRandomPositions(t *testing.T) {
	for _, setup := range setups() {
		t.Run(name(setup), func(t *testing.T) {
			for i, k := range []int{0, 11, -3} { // the start, early, three moves before the end
				if k < 0 {
					k += gameLength(t, setup, uint64(i))
				}
				st := randomPosition(t, setup, k, uint64(i))
				if st.Over() {
					continue
				}
				before := fmt.Sprint(st.Scores(), st.ToMove(), len(st.Legal()))
				m, stats, err := ai.Search(context.Background(), st, st.ToMove(), small, uint64(i))
				if err != nil {
					t.Fatalf("after %d moves: %v", k, err)
				}
				if !isLegal(st, m) {
					t.Fatalf("after %d moves: the search chose %v, not a legal move", k, m)
				}
				if stats.Shortcut == "" && stats.Playouts != small.Iterations {
					t.Fatalf("after %d moves: %d playouts, want %d", k, stats.Playouts, small.Iterations)
				}
				if after := fmt.Sprint(st.Scores(), st.ToMove(), len(st.Legal())); after != before {
					t.Fatalf("the search changed the position: %s, then %s", before, after)
				}
				r := engine.NewRand(uint64(k))
				if m := ai.RandomMove(st, &r); !isLegal(st, m) {
					t.Fatalf("RandomMove chose %v", m)
				}
				if m := ai.GreedyMove(st, &r); !isLegal(st, m) {
					t.Fatalf("GreedyMove chose %v", m)
				}
			}
		})
	}
}

// TestRefusesWrongSeatAndFinishedGames: an error, not a panic or a move.
func TestRefusesWrongSeatAndFinishedGames(t *testing.T) {
	st := randomPosition(t, engine.Setup{Game: "knotwork", Players: 2, Seed: 1}, 0, 0)
	if _, _, err := ai.Search(context.Background(), st, 1-st.ToMove(), small, 1); err != ai.ErrNotToMove {
		t.Fatalf("the wrong seat: %v, want ErrNotToMove", err)
	}
	st = randomPosition(t, engine.Setup{Game: "knotwork", Players: 2, Seed: 1}, 10000, 0)
	if !st.Over() {
		t.Fatal("the random game did not end")
	}
	if _, _, err := ai.Search(context.Background(), st, 0, small, 1); err != ai.ErrOver {
		t.Fatalf("a finished game: %v, want ErrOver", err)
	}
}

// TestDeterministic: the same seed and budget give the same move and the
// same root statistics, whatever the scheduling of the workers, with the
// search before issue #28 and with hard's policy (whose ideas draw from
// the same per-tree sources) in every game.
func TestDeterministic(t *testing.T) {
	for _, setup := range []engine.Setup{
		{Game: "elemental", Players: 3, Seed: 4},
		{Game: "closure", Players: 2, Seed: 4},
		{Game: "glorieta", Players: 2, Seed: 4},
		{Game: "knotwork", Players: 2, Seed: 4},
		{Game: "tilingking", Players: 2, Seed: 4},
	} {
		st := randomPosition(t, setup, 6, 9)
		for _, p := range []ai.Policy{{}, ai.HardPolicy} {
			b := ai.Budget{Iterations: 120, Workers: 3, Policy: p}
			m1, s1, err1 := ai.Search(context.Background(), st, st.ToMove(), b, 77)
			m2, s2, err2 := ai.Search(context.Background(), st, st.ToMove(), b, 77)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if m1.String() != m2.String() || fmt.Sprint(s1.Root) != fmt.Sprint(s2.Root) {
				t.Fatalf("%s, %+v: two searches with seed 77 differ: %s %v / %s %v", name(setup), p, m1, s1.Root, m2, s2.Root)
			}
		}
	}
}

// TestTakesWinInOne: in positions from random games where the seat to move
// has a move that ends the game with it the sole winner, every level (even
// a tiny budget) takes such a move. Knotwork and Glorieta are the games
// where a single move decides; Closure and TilingKing end on a move too.
func TestTakesWinInOne(t *testing.T) {
	found := 0
	for _, setup := range []engine.Setup{
		{Game: "glorieta", Players: 2},
		{Game: "knotwork", Players: 2},
		{Game: "tilingking", Players: 2},
	} {
		for seed := uint64(1); seed <= 12; seed++ {
			if (setup.Game == "glorieta" && seed > 2) || (setup.Game == "tilingking" && seed > 6) { // each position lists and tries ~8,000 moves
				break
			}
			setup.Seed = seed
			st, _ := engine.New(setup)
			r := engine.NewRand(seed)
			for !st.Over() {
				legal := st.Legal()
				if w := winningMoves(st, legal); len(w) > 0 {
					m, stats, err := ai.Search(context.Background(), st, st.ToMove(), ai.Budget{Iterations: 4, Workers: 2}, seed)
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Contains(w, m.String()) {
						t.Fatalf("%s seed %d: chose %s (%s), but %v win at once", setup.Game, seed, m, stats.Shortcut, w)
					}
					found++
					break
				}
				st.Apply(legal[r.IntN(len(legal))])
			}
		}
	}
	if found < 10 {
		t.Fatalf("only %d positions with a win in one were found", found)
	}
}

func winningMoves(st engine.State, legal []engine.Move) []string {
	var out []string
	for _, m := range legal {
		c := st.Clone()
		if _, err := c.Apply(m); err == nil && c.Over() {
			if w := c.Winners(); len(w) == 1 && w[0] == st.ToMove() {
				out = append(out, m.String())
			}
		}
	}
	return out
}

// TestRewards: hand-computed reward vectors.
func TestRewards(t *testing.T) {
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	for _, c := range []struct {
		name    string
		st      fixed
		want    []float64
		comment string
	}{
		// scores 10,10: margin 0 for both, term 0.1·(1+tanh 0)/2 = 0.05.
		{"sole win, level scores", fixed{over: true, winners: []engine.Seat{0}, scores: []int{10, 10}}, []float64{0.95, 0.05}, ""},
		// scale = 1 + 12/4 = 4; margins +8 and -8: 0.05·(1±tanh 2).
		{"sole win with a margin", fixed{over: true, winners: []engine.Seat{1}, scores: []int{4, 12}}, []float64{0.05 * (1 - math.Tanh(2)), 0.9 + 0.05*(1+math.Tanh(2))}, ""},
		{"shared win of two of three", fixed{over: true, winners: []engine.Seat{0, 2}, scores: []int{0, 0, 0}}, []float64{0.5, 0.05, 0.5}, ""},
		{"cut short: shared by all", fixed{over: false, scores: []int{0, 0, 0, 0}}, []float64{0.275, 0.275, 0.275, 0.275}, ""},
	} {
		got := ai.Rewards(c.st)
		if len(got) != len(c.want) {
			t.Fatalf("%s: %v", c.name, got)
		}
		for i := range got {
			if !near(got[i], c.want[i]) {
				t.Fatalf("%s: rewards %v, want %v", c.name, got, c.want)
			}
		}
	}
	// Banked points (engine.Banker), cut short at 10 to 7: the result is
	// judged from the margin of 3, 0.9·(1±tanh(3/5))/2, and the margin
	// term is as ever, scale 1 + 10/4 = 3.5: 0.1·(1±tanh(3/3.5))/2.
	got := ai.Rewards(banked{fixed{over: false, scores: []int{10, 7}}})
	want := []float64{0.45*(1+math.Tanh(0.6)) + 0.05*(1+math.Tanh(3/3.5)), 0.45*(1-math.Tanh(0.6)) + 0.05*(1-math.Tanh(3/3.5))}
	if !near(got[0], want[0]) || !near(got[1], want[1]) {
		t.Fatalf("banked, cut short: %v, want %v", got, want)
	}
	// Over, banked points change nothing: a sole win at 10 to 7.
	if got, want := ai.Rewards(banked{fixed{over: true, winners: []engine.Seat{0}, scores: []int{10, 7}}}), ai.Rewards(fixed{over: true, winners: []engine.Seat{0}, scores: []int{10, 7}}); !slices.Equal(got, want) {
		t.Fatalf("banked, over: %v, want %v", got, want)
	}
	// The win term dominates: the worst win beats the best loss.
	worstWin := ai.Rewards(fixed{over: true, winners: []engine.Seat{0}, scores: []int{0, 1000}})[0]
	bestLoss := ai.Rewards(fixed{over: true, winners: []engine.Seat{0}, scores: []int{0, 1000}})[1]
	if worstWin <= bestLoss {
		t.Fatalf("a win (%v) does not beat a loss (%v)", worstWin, bestLoss)
	}
}

// banked is a position of a game whose points are banked (Elemental's
// registration says so).
type banked struct{ fixed }

func (banked) Game() string { return "elemental" }

// fixed is a finished (or not) position for reward tests.
type fixed struct {
	engine.State
	over    bool
	winners []engine.Seat
	scores  []int
}

func (f fixed) Game() string           { return "fixed" } // registered nowhere
func (f fixed) Players() int           { return len(f.scores) }
func (f fixed) Over() bool             { return f.over }
func (f fixed) Winners() []engine.Seat { return f.winners }
func (f fixed) Scores() []int          { return f.scores }
func (f fixed) ToMove() engine.Seat    { return engine.NoSeat }
func (f fixed) Clone() engine.State    { return f }
func (f fixed) Legal() []engine.Move   { return nil }

// TestEnginePanicIsAnError: a bug in an engine surfaces as an error from
// the search, not a crash of the bot.
func TestEnginePanicIsAnError(t *testing.T) {
	st := newCards(2, 1)
	for _, p := range []engine.State{panicky{st, "Legal"}, panicky{st, "Determinize"}} {
		if _, _, err := ai.Search(context.Background(), p, 0, small, 1); err == nil || !strings.Contains(err.Error(), "panicked") {
			t.Fatalf("%v: %v", p.(panicky).where, err)
		}
	}
}

type panicky struct {
	*cards
	where string
}

func (p panicky) Legal() []engine.Move {
	if p.where == "Legal" {
		panic("engine bug")
	}
	return p.cards.Legal()
}

func (p panicky) Determinize(s engine.Seat, r *engine.Rand) engine.State {
	if p.where == "Determinize" {
		panic("engine bug")
	}
	return p.cards.Determinize(s, r)
}

// TestRootBestGainFirst: the root expands the move with the best immediate
// score change first, so a one-iteration search plays such a move (in a
// game with a Determinizer too).
func TestRootBestGainFirst(t *testing.T) {
	checked := 0
	positions := []engine.State{newCards(2, 3), newCards(2, 4)}
	for seed := uint64(1); seed <= 4; seed++ {
		positions = append(positions, randomPosition(t, engine.Setup{Game: "tilingking", Players: 2, Seed: seed}, 6, seed))
	}
	for i, st := range positions {
		if st.Over() {
			continue
		}
		me := st.ToMove()
		top, gain := math.MinInt, map[string]int{}
		for _, m := range st.Legal() {
			c := st.Clone()
			out, err := c.Apply(m)
			if err != nil {
				t.Fatal(err)
			}
			gain[m.String()] = out.Points(me)
			top = max(top, out.Points(me))
		}
		m, stats, err := ai.Search(context.Background(), st, me, ai.Budget{Iterations: 1, Workers: 1}, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		if stats.Shortcut == "" && gain[m.String()] != top {
			t.Fatalf("position %d: one iteration played %s (gain %d), the best gain is %d", i, m, gain[m.String()], top)
		}
		checked++
	}
	if checked < 4 {
		t.Fatalf("only %d positions", checked)
	}
}
