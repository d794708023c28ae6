package ai_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"tessera/ai"
	"tessera/engine"
)

// decomposeBudget keeps the decomposition's tests quick: each position
// takes two to four searches of it.
var decomposeBudget = ai.Budget{Iterations: 300, Workers: 1, Policy: ai.AnalysisPolicy}

// TestDecomposeHandComputed: a three-position game of two seats, split by
// hand. Move 1 (seat 0) kept 0.60 where the best kept 0.70: error 0.10;
// move 2 (seat 1) was its best. With hidden information the spectator's
// line 0.50 → 0.55 → 1 leaves luck: step 1 for seat 0 0.05 − (−0.10) =
// +0.15, step 2 0.45 − 0 = +0.45; seat 1 the opposite. Without, the same
// rests are the estimates' noise and the luck is 0.
func TestDecomposeHandComputed(t *testing.T) {
	steps := []ai.Step{
		{Mover: 0, Entry: 0, Best: "a", Played: "b", BestWin: []float64{0.7, 0.3}, PlayedWin: []float64{0.6, 0.4}, Public: []float64{0.5, 0.5}, Own: []float64{0.65, 0.4}, Win: []float64{0.5, 0.5}},
		{Mover: 1, Entry: 1, Best: "c", Played: "c", BestWin: []float64{0.6, 0.4}, PlayedWin: []float64{0.6, 0.4}, Public: []float64{0.55, 0.45}, Own: []float64{0.5, 0.45}, Win: []float64{0.55, 0.45}},
		{Mover: engine.NoSeat, Entry: engine.NoSeat, Win: []float64{1, 0}, Public: []float64{1, 0}, Own: []float64{1, 0}},
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	for _, hidden := range []bool{true, false} {
		d, ok := ai.Decompose(steps, engine.NoSeat, hidden)
		if !ok {
			t.Fatal("does not decompose")
		}
		a0, a1 := d.Accounts[0], d.Accounts[1]
		rest0 := 0.15 + 0.45
		luck0, noise0 := rest0, 0.0
		if !hidden {
			luck0, noise0 = 0, rest0
		}
		if !near(a0.Start, 0.5) || !near(a0.OwnErrors, -0.1) || !near(a0.OpponentErrors, 0) || !near(a0.Luck, luck0) || !near(a0.Noise, noise0) || !near(a0.Result, 1) {
			t.Fatalf("hidden %v: seat 0's account %+v", hidden, a0)
		}
		if !near(a1.OwnErrors, 0) || !near(a1.OpponentErrors, 0.1) || !near(a1.Luck, -luck0) || !near(a1.Noise, -noise0) || !near(a1.Result, 0) {
			t.Fatalf("hidden %v: seat 1's account %+v", hidden, a1)
		}
		if a0.Errors != 1 || a0.Moves != 1 || !near(a0.ErrorRate, 0.1) || a1.Errors != 0 {
			t.Fatalf("hidden %v: counts %+v %+v", hidden, a0, a1)
		}
		c := d.Costliest(3)
		if len(c) != 1 || c[0].N != 1 || c[0].Best != "a" || !near(c[0].Error, 0.1) || !near(c[0].Kept, 0.7) || !near(c[0].Left, 0.6) {
			t.Fatalf("hidden %v: costliest %+v", hidden, c)
		}
	}
	// Seat 1's own view: 0.4 → 0.45 → 0, its own move no error, seat 0's
	// error +0.10 to it, so its luck is −0.4 − 0.10 = −0.5.
	d, ok := ai.Decompose(steps, 1, true)
	if !ok || len(d.Accounts) != 1 || d.Accounts[0].Seat != 1 {
		t.Fatalf("own view: %+v %v", d.Accounts, ok)
	}
	if a := d.Accounts[0]; !near(a.Start, 0.4) || !near(a.OpponentErrors, 0.1) || !near(a.Luck, -0.5) || !near(a.Sum, 0) || !math.IsNaN(d.Line[0][0]) {
		t.Fatalf("own view: %+v, line %v", a, d.Line)
	}
	// An analysis without views (before issue #49) does not decompose.
	old := []ai.Step{{Mover: 0, Win: []float64{0.5, 0.5}}, {Mover: engine.NoSeat, Win: []float64{1, 0}}}
	if _, ok := ai.Decompose(old, engine.NoSeat, true); ok {
		t.Fatal("an analysis without views decomposed")
	}
}

// TestOneViewLines: each line comes from one view. The spectator's
// chances of a position are the same for every position a spectator
// cannot tell from it (its twins: the hands and the supply dealt again
// by the game's Determinizer for engine.NoSeat), and each seat's own the
// same for the twins that seat cannot tell apart, whoever is to move; so
// no line reads a hand its view does not hold.
func TestOneViewLines(t *testing.T) {
	for _, setup := range []engine.Setup{{Game: "elemental", Players: 2, Seed: 3}, {Game: "closure", Players: 2, Seed: 4}, {Game: "elemental", Players: 3, Seed: 5}} {
		t.Run(name(setup), func(t *testing.T) {
			for k := 3; k <= 5; k++ {
				st := randomPosition(t, setup, k, uint64(k))
				if st.Over() {
					continue
				}
				r := engine.NewRand(uint64(100 + k))
				for viewer := engine.NoSeat; int(viewer) < setup.Players; viewer++ {
					twin := st.(engine.Determinizer).Determinize(viewer, &r)
					if fmt.Sprint(twin.View(viewer)) != fmt.Sprint(st.View(viewer)) {
						t.Fatalf("the twin looks different to %d", viewer)
					}
					a, err := ai.AnalyzeView(context.Background(), st, viewer, decomposeBudget, 9)
					if err != nil {
						t.Fatal(err)
					}
					b, err := ai.AnalyzeView(context.Background(), twin, viewer, decomposeBudget, 9)
					if err != nil {
						t.Fatal(err)
					}
					if fmt.Sprint(a.Win) != fmt.Sprint(b.Win) {
						t.Fatalf("after %d moves, viewer %d: %v, on a twin %v", k, viewer, a.Win, b.Win)
					}
					if viewer == engine.NoSeat {
						sa, err := ai.AnalyzeStep(context.Background(), st, "", decomposeBudget, 9)
						if err != nil {
							t.Fatal(err)
						}
						sb, err := ai.AnalyzeStep(context.Background(), twin, "", decomposeBudget, 9)
						if err != nil {
							t.Fatal(err)
						}
						if fmt.Sprint(sa.Public) != fmt.Sprint(sb.Public) {
							t.Fatalf("after %d moves: the shared chart's point %v, on a twin %v", k, sa.Public, sb.Public)
						}
					}
				}
			}
		})
	}
}

// TestDecompositionAddsUp: on random games of every 2-player game, every
// seat's start + own errors + luck + opponents' errors + noise is its
// result; where something is hidden the noise is 0 and luck carries the
// rest, where nothing is the luck is 0; a seat's own errors are its
// moves' decisions and its opponents' the others'; and the spectator's
// line starts at the first position's chances and ends at the result.
// (How large the noise is, on many games, is measured with tessera
// analyze --lab: docs/ai.md.)
func TestDecompositionAddsUp(t *testing.T) {
	for _, g := range []string{"closure", "elemental", "glorieta", "knotwork", "tilingking"} {
		t.Run(g, func(t *testing.T) {
			for seed := uint64(1); seed <= 2; seed++ {
				steps, st := playAndAnalyse(t, engine.Setup{Game: g, Players: 2, Seed: seed}, seed, 70)
				hidden := ai.Hides(st)
				for _, view := range []engine.Seat{engine.NoSeat, 0, 1} {
					d, ok := ai.Decompose(steps, view, hidden)
					if !ok {
						t.Fatal("does not decompose")
					}
					for _, a := range d.Accounts {
						if math.Abs(a.Start+a.OwnErrors+a.Luck+a.OpponentErrors+a.Noise-a.Result) > 1e-9 || math.Abs(a.Sum+a.Noise-a.Result) > 1e-9 {
							t.Fatalf("seat %d: %+v does not add up", a.Seat, a)
						}
						if hidden && math.Abs(a.Noise) > 1e-9 || !hidden && a.Luck != 0 {
							t.Fatalf("seat %d (hidden %v): luck %v, noise %v", a.Seat, hidden, a.Luck, a.Noise)
						}
						own, opp := 0.0, 0.0
						for _, sp := range d.Steps {
							if sp.By == a.Seat {
								own += sp.Decision[a.Seat]
							} else {
								opp += sp.Decision[a.Seat]
							}
						}
						if math.Abs(own-a.OwnErrors) > 1e-9 || math.Abs(opp-a.OpponentErrors) > 1e-9 {
							t.Fatalf("seat %d: the steps' decisions %v and %v, the account's %v and %v", a.Seat, own, opp, a.OwnErrors, a.OpponentErrors)
						}
						if a.Result != steps[len(steps)-1].Win[a.Seat] {
							t.Fatalf("seat %d: result %v, the game's %v", a.Seat, a.Result, steps[len(steps)-1].Win)
						}
					}
				}
			}
		})
	}
}

// playAndAnalyse plays a game of setup by a small search (Search with 200
// iterations) and analyses every position with decomposeBudget. At most
// limit moves are searched; the rest are random, so a long game stays
// quick.
func playAndAnalyse(t *testing.T, setup engine.Setup, seed uint64, limit int) ([]ai.Step, engine.State) {
	t.Helper()
	st, err := engine.New(setup)
	if err != nil {
		t.Fatal(err)
	}
	start := st.Clone()
	r := engine.NewRand(seed)
	var moves []engine.Move
	for k := 0; !st.Over(); k++ {
		var m engine.Move
		if k < limit {
			m, _, err = ai.Search(context.Background(), st, st.ToMove(), ai.Budget{Iterations: 200, Workers: 1}, seed+uint64(k))
			if err != nil {
				t.Fatal(err)
			}
		} else {
			legal := st.Legal()
			m = legal[r.IntN(len(legal))]
		}
		moves = append(moves, m)
		if _, err := st.Apply(m); err != nil {
			t.Fatal(err)
		}
	}
	return analyseMoves(t, start, moves), start
}

// analyseMoves analyses every position of the game played from st with
// moves, as the service does.
func analyseMoves(t *testing.T, st engine.State, moves []engine.Move) []ai.Step {
	t.Helper()
	st = st.Clone()
	var steps []ai.Step
	for k := 0; ; k++ {
		played := ""
		if k < len(moves) {
			played = moves[k].String()
		}
		s, err := ai.AnalyzeStep(context.Background(), st, played, decomposeBudget, uint64(1000+k))
		if err != nil {
			t.Fatal(err)
		}
		steps = append(steps, s)
		if k == len(moves) {
			return steps
		}
		if _, err := st.Apply(moves[k]); err != nil {
			t.Fatal(err)
		}
	}
}

// TestOneViewPerLine: each line of an analysis is judged from one fixed
// view along the whole game, never alternating between the movers'. The
// view every point of the shared chart (Step.Public) was judged from is
// recorded with it (Step.PublicView) and is the spectator's at every
// position of a game of every game, whoever moves; each seat's own line
// (Step.Own[s]) is s's at every position. Where the mover's search stands
// for the spectator's (nothing hidden) AnalyzeStep checks that the
// mover sees exactly what a spectator sees, or records the mover's view.
func TestOneViewPerLine(t *testing.T) {
	tiny := ai.Budget{Iterations: 20, Workers: 1, Policy: ai.AnalysisPolicy}
	for _, setup := range []engine.Setup{
		{Game: "closure", Players: 2, Seed: 6}, {Game: "elemental", Players: 2, Seed: 6}, {Game: "elemental", Players: 3, Seed: 6},
		{Game: "glorieta", Players: 2, Seed: 6}, {Game: "knotwork", Players: 2, Seed: 6}, {Game: "tilingking", Players: 2, Seed: 6},
	} {
		t.Run(name(setup), func(t *testing.T) {
			st, err := engine.New(setup)
			if err != nil {
				t.Fatal(err)
			}
			r := engine.NewRand(setup.Seed)
			movers := map[engine.Seat]bool{}
			for k := 0; ; k++ {
				legal := []engine.Move(nil)
				played := ""
				if !st.Over() {
					legal = st.Legal()
					played = legal[r.IntN(len(legal))].String()
					movers[st.ToMove()] = true
				}
				if k >= 12 && !st.Over() { // a long game's middle is played, not analysed: its start and end are
					m, _ := st.Parse(played)
					if _, err := st.Apply(m); err != nil {
						t.Fatal(err)
					}
					continue
				}
				s, err := ai.AnalyzeStep(context.Background(), st, played, tiny, uint64(k))
				if err != nil {
					t.Fatal(err)
				}
				if s.PublicView != engine.NoSeat {
					t.Fatalf("position %d (seat %d to move): the shared chart's point judged from view %d", k, s.Mover, s.PublicView)
				}
				if len(s.OwnView) != setup.Players || len(s.Own) != setup.Players {
					t.Fatalf("position %d: own views %v of %v", k, s.OwnView, s.Own)
				}
				for seat, v := range s.OwnView {
					if v != engine.Seat(seat) {
						t.Fatalf("position %d (seat %d to move): seat %d's own line judged from view %d", k, s.Mover, seat, v)
					}
				}
				if st.Over() {
					break
				}
				m, err := st.Parse(played)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := st.Apply(m); err != nil {
					t.Fatal(err)
				}
			}
			if len(movers) < 2 {
				t.Fatalf("only seats %v moved", movers)
			}
		})
	}
}
