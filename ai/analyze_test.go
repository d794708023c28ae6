package ai_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"tessera/ai"
	"tessera/engine"
)

// analysisBudget is small, so the tests stay quick on the loaded machine,
// and large enough that the chances mean something.
var analysisBudget = ai.Budget{Iterations: 400, Workers: 2}

// checkChances fails unless p's chances are n probabilities summing to 1,
// and so are each tried move's.
func checkChances(t *testing.T, what string, p ai.Position, n int) {
	t.Helper()
	check := func(w []float64, of string) {
		if len(w) != n {
			t.Fatalf("%s: %s: %d chances for %d seats", what, of, len(w), n)
		}
		sum := 0.0
		for _, v := range w {
			if v < 0 || v > 1 || math.IsNaN(v) {
				t.Fatalf("%s: %s: a chance out of [0, 1]: %v", what, of, w)
			}
			sum += v
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Fatalf("%s: %s: the chances sum to %v: %v", what, of, sum, w)
		}
	}
	check(p.Win, "the position")
	for _, m := range p.Moves {
		check(m.Win, m.Move)
	}
}

// TestAnalyzeEveryGame: on a position of every game at every player
// count, the chances are probabilities summing to 1 (in 2-player games
// too, where one is 1 − the other), the preferred move is legal and is
// the one Search would play with the same budget and seed (the same
// trees), and a second analysis with the same seed is the same.
func TestAnalyzeEveryGame(t *testing.T) {
	for _, setup := range setups() {
		if setup.Game == "glorieta" && setup.Players > 2 {
			continue
		}
		t.Run(name(setup), func(t *testing.T) {
			st := randomPosition(t, setup, 6, 3)
			if st.Over() {
				t.Skip("the random game ended")
			}
			p, err := ai.Analyze(context.Background(), st, analysisBudget, 5)
			if err != nil {
				t.Fatal(err)
			}
			checkChances(t, name(setup), p, setup.Players)
			if p.Seat != st.ToMove() {
				t.Fatalf("seat %d analysed, %d to move", p.Seat, st.ToMove())
			}
			if _, err := st.Parse(p.Best); err != nil {
				t.Fatalf("preferred move %q: %v", p.Best, err)
			}
			if p.Shortcut == "" {
				m, _, err := ai.Search(context.Background(), st, st.ToMove(), analysisBudget, 5)
				if err != nil {
					t.Fatal(err)
				}
				if m.String() != p.Best && !isFinisher(st) {
					t.Fatalf("Search plays %s, Analyze prefers %s", m, p.Best)
				}
			}
			again, err := ai.Analyze(context.Background(), st, analysisBudget, 5)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(again) != fmt.Sprint(p) {
				t.Fatalf("two analyses with seed 5 differ:\n%v\n%v", p, again)
			}
		})
	}
}

// isFinisher: the game is a Finisher, where Search leaves out the moves
// that let the opponent win at once and so may choose a less visited
// move than Analyze's preferred one.
func isFinisher(st engine.State) bool {
	_, ok := st.(engine.Finisher)
	return ok
}

// TestAnalyzeWonPositions: where the seat to move has a move that ends
// the game with it the sole winner, its chance is 1 and that move is the
// preferred one; and a finished game's chances are its result.
func TestAnalyzeWonPositions(t *testing.T) {
	found := 0
	for _, setup := range []engine.Setup{{Game: "knotwork", Players: 2}, {Game: "tilingking", Players: 2}} {
		for seed := uint64(1); seed <= 6; seed++ {
			setup.Seed = seed
			st, _ := engine.New(setup)
			r := engine.NewRand(seed)
			for !st.Over() {
				legal := st.Legal()
				if w := winningMoves(st, legal); len(w) > 0 && found < 6 {
					p, err := ai.Analyze(context.Background(), st, analysisBudget, seed)
					if err != nil {
						t.Fatal(err)
					}
					if p.Win[st.ToMove()] < 0.999 || !slices.Contains(w, p.Best) {
						t.Fatalf("%s seed %d: %v wins at once, the analysis gives %v and prefers %s", setup.Game, seed, w, p.Win, p.Best)
					}
					found++
				}
				st.Apply(legal[r.IntN(len(legal))])
			}
			p, err := ai.Analyze(context.Background(), st, analysisBudget, seed)
			if err != nil {
				t.Fatal(err)
			}
			want := make([]float64, st.Players())
			for _, s := range st.Winners() {
				want[s] = 1 / float64(len(st.Winners()))
			}
			if p.Shortcut != "over" || fmt.Sprint(p.Win) != fmt.Sprint(want) {
				t.Fatalf("%s seed %d: the finished game's chances %v (%s), its result %v", setup.Game, seed, p.Win, p.Shortcut, want)
			}
		}
	}
	if found == 0 {
		t.Fatal("no position with a win in one was found")
	}
}

// TestAnalyzeLeadNearTheEnd: two moves before the end of an Elemental
// game (its points banked as they are scored), a seat far ahead is
// given nearly all the chance by whichever seat is to move.
func TestAnalyzeLeadNearTheEnd(t *testing.T) {
	tried := 0
	for seed := uint64(1); seed <= 20 && tried < 3; seed++ {
		setup := engine.Setup{Game: "elemental", Players: 2, Seed: seed}
		n := gameLength(t, setup, seed)
		st := randomPosition(t, setup, n-2, seed)
		sc := st.Scores()
		lead := 0
		if sc[1] > sc[0] {
			lead = 1
		}
		if sc[lead]-sc[1-lead] < 15 {
			continue
		}
		tried++
		p, err := ai.Analyze(context.Background(), st, analysisBudget, seed)
		if err != nil {
			t.Fatal(err)
		}
		if p.Win[lead] < 0.9 {
			t.Fatalf("seed %d: scores %v two moves before the end, seat %d to move gives the leader %.3f", seed, sc, st.ToMove()+1, p.Win[lead])
		}
	}
	if tried == 0 {
		t.Fatal("no game with a clear lead near its end")
	}
}

// TestAnalyzeStopsWithItsContext: a cancelled analysis returns the
// context's error, not chances from a search cut short.
func TestAnalyzeStopsWithItsContext(t *testing.T) {
	st := randomPosition(t, engine.Setup{Game: "closure", Players: 2, Seed: 2}, 4, 1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ai.Analyze(ctx, st, analysisBudget, 1); err != context.Canceled {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}
