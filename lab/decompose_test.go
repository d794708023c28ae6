package lab

import (
	"cmp"
	"context"
	"math"
	"os"
	"strconv"
	"testing"

	"tessera/ai"
)

// TestDecompositions: a run's report counts its games and each player's
// moves (every move of the game, the players rotated over the seats),
// says whether the game has luck, and its noise is the mean of the games'
// |noise| (0 where the game hides something: luck is the rest there).
func TestDecompositions(t *testing.T) {
	rnd, _ := ParsePlayer("random")
	gr, _ := ParsePlayer("greedy")
	for _, c := range []struct {
		game     string
		luckless bool
	}{{"knotwork", true}, {"elemental", false}} {
		rep, err := Decompositions(context.Background(), DecompositionConfig{Game: c.game, Players: 2, Games: 2, Seed: 3,
			Seats: []Player{rnd, gr}, Analysis: ai.Budget{Iterations: 40, Workers: 1}, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Games != 2 || rep.Luckless != c.luckless || len(rep.PerGame) != 2 || len(rep.ByPlayer) != 2 {
			t.Fatalf("%s: %+v", c.game, rep)
		}
		noise, n := 0.0, 0
		for _, g := range rep.PerGame {
			for _, a := range g {
				// start + own + luck + opponents' + noise = result, to the rounding.
				if math.Abs(a[0]+a[1]+a[2]+a[3]+a[5]-a[4]) > 0.006 {
					t.Fatalf("%s: %v does not add up", c.game, a)
				}
				noise += math.Abs(a[5])
				n++
			}
		}
		if math.Abs(noise/float64(n)-rep.NoiseMeanAbs) > 0.002 || !c.luckless && rep.NoiseMeanAbs > 1e-9 || c.luckless && rep.LuckMeanAbs != 0 {
			t.Fatalf("%s: noise %v, the games' %v; luck %v", c.game, rep.NoiseMeanAbs, noise/float64(n), rep.LuckMeanAbs)
		}
		for _, p := range rep.ByPlayer {
			if p.Moves == 0 || p.ErrorRate < 0 || p.Low > p.ErrorRate+1e-9 || p.High < p.ErrorRate-1e-9 && p.High != 0 {
				t.Fatalf("%s: %+v", c.game, p)
			}
		}
	}
}

// TestIdentityOnAverage: the decomposition adds up on random games of
// every 2-player game (issue #49's target: within 0.05 on average over
// 200 games). Games are played by mcts200 and every position analysed
// with 300 iterations a search, as `tessera analyze --lab --seats mcts200
// --iterations 300 --seed 1` plays them (docs/ai.md gives the measured
// figures). Where nothing is hidden or drawn a seat's start + own errors
// + opponents' errors misses its result by the estimates' noise, which
// is reported, not hidden: a single game's is large (its mean |noise| is
// logged), and what must hold is that it does not favour a seat: each
// seat's mean signed noise is within 0.05 of 0 (and its 95% interval
// reaches into ±0.05). Where something is hidden luck is the rest, so
// the sum is the result exactly (the noise must be 0), and the estimates'
// noise is inside the luck: each seat's mean luck is logged (it would be
// near 0 with unbiased estimates and equal players), not held. CI runs
// 200 games of Knotwork and fewer of the slower games (tens of seconds on
// 2 cores); TESSERA_IDENTITY_GAMES=200 runs 200 of each.
//
// Glorieta is analysed with 2,000 iterations a search: at 300 its
// search cannot judge which moves matter (the seat that went on to win
// was charged the larger errors), and its sums missed by 0.16 on average
// even with the second seat's term in its map (docs/ai.md).
func TestIdentityOnAverage(t *testing.T) {
	iterations := map[string]int{"glorieta": 2000} // the others 300
	p, err := ParsePlayer("mcts200")
	if err != nil {
		t.Fatal(err)
	}
	games := map[string]int{"knotwork": 200, "tilingking": 12, "glorieta": 2, "elemental": 4, "closure": 2}
	if n, err := strconv.Atoi(os.Getenv("TESSERA_IDENTITY_GAMES")); err == nil && n > 0 {
		for g := range games {
			games[g] = n
		}
	}
	for _, g := range []string{"knotwork", "tilingking", "glorieta", "elemental", "closure"} {
		t.Run(g, func(t *testing.T) {
			rep, err := Decompositions(context.Background(), DecompositionConfig{Game: g, Players: 2, Games: games[g], Seed: 1,
				Seats: []Player{p}, Analysis: ai.AnalysisBudgetOf(cmp.Or(iterations[g], 300)), Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Games != games[g] || len(rep.BySeat) != 2 {
				t.Fatalf("%d games, %d seats", rep.Games, len(rep.BySeat))
			}
			for _, s := range rep.BySeat {
				part, e := "noise", s.Noise
				if !rep.Luckless {
					part, e = "luck", s.Luck
					if math.Abs(s.Noise.Value) > 1e-9 || math.Abs(s.Noise.Low) > 1e-9 || math.Abs(s.Noise.High) > 1e-9 {
						t.Fatalf("seat %d: noise %+v where luck is the rest", s.Seat, s.Noise)
					}
				}
				t.Logf("%s, seat %d, %d games: mean %s %+.3f [%+.3f, %+.3f]; a game's mean |noise| %.3f", g, s.Seat, rep.Games, part, e.Value, e.Low, e.High, rep.NoiseMeanAbs)
				if !rep.Luckless || rep.Games < 10 {
					continue // logged, not held (docs/ai.md; fewer than 10 games tell nothing)
				}
				if e.Low > 0.05 || e.High < -0.05 || rep.Games >= 200 && math.Abs(e.Value) > 0.05 {
					t.Errorf("%s, seat %d: the %s favours a seat: %+.3f [%+.3f, %+.3f] over %d games", g, s.Seat, part, e.Value, e.Low, e.High, rep.Games)
				}
			}
		})
	}
}
