package lab

import (
	"context"
	"math"
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
