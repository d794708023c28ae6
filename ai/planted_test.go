package ai_test

import (
	"context"
	"os"
	"strconv"
	"testing"

	"tessera/ai"
	"tessera/engine"
)

// handsTheGame lists st's moves after which the next seat can win at
// once (Glorieta: the flip or stone that completes the opponent's loop;
// Knotwork and TilingKing: the move that leaves the opponent a winning
// move, a capture refused into a loss), and whether some move does not.
func handsTheGame(st engine.State) (blunders []engine.Move, safe bool) {
	for _, m := range st.Legal() {
		c := st.Clone()
		if _, err := c.Apply(m); err != nil || c.Over() {
			safe = safe || err == nil
			continue
		}
		if c.ToMove() != st.ToMove() && wins(c) { // the same seat again (Knotwork's moves marked *) hands nothing over
			blunders = append(blunders, m)
		} else {
			safe = true
		}
	}
	return blunders, safe
}

// wins reports whether the seat to move in st can win at once.
func wins(st engine.State) bool {
	if f, ok := st.(engine.Finisher); ok {
		_, ok := f.WinningMove()
		return ok
	}
	return len(winningMoves(st, st.Legal())) > 0
}

// hasGame reports whether the mover at st has a game to hand over: a
// search of 3,000 iterations, ten times the analysis's of the test,
// prefers a move other than the blunders and gives the mover at least
// 0.3 after it. A move that lets the opponent win at once from a game
// already lost hands nothing over (the analysis rightly finds no error
// in it), so no plant is made there.
func hasGame(t *testing.T, st engine.State, blunders []engine.Move, seed uint64) bool {
	t.Helper()
	p, err := ai.Analyze(context.Background(), st, ai.Budget{Iterations: 3000, Workers: 1, Policy: ai.AnalysisPolicy}, seed)
	if err != nil {
		t.Fatal(err)
	}
	if p.BestWin == nil || p.BestWin[p.Seat] < 0.3 {
		return false
	}
	for _, b := range blunders {
		if b.String() == p.Best {
			return false
		}
	}
	return true
}

// judgedBlunder is, in a game with no win at once to hand over
// (TilingKing: the game ends when all have passed, on points), a move
// that a search of 20,000 iterations, 60 times the analysis's of the
// test, judges to turn the mover's game from won (at least 0.5 after its
// best move) to lost (at most 0.2 after it): a capture refused, or a
// region left for the opponent to enclose. Nil when there is none.
func judgedBlunder(t *testing.T, st engine.State, seed uint64) engine.Move {
	t.Helper()
	deep := ai.Budget{Iterations: 20000, Workers: 1, Policy: ai.AnalysisPolicy}
	p, err := ai.Analyze(context.Background(), st, deep, seed)
	if err != nil {
		t.Fatal(err)
	}
	if p.BestWin == nil || p.BestWin[p.Seat] < 0.5 {
		return nil
	}
	for i := len(p.Moves) - 1; i > 0; i-- {
		mc := p.Moves[i]
		if mc.Visits < 30 || mc.Win[p.Seat] > 0.2 {
			continue
		}
		w, err := ai.AnalyzeAfter(context.Background(), st, mc.Move, deep, seed+1)
		if err != nil {
			t.Fatal(err)
		}
		if w[p.Seat] <= 0.2 {
			m, err := st.Parse(mc.Move)
			if err != nil {
				t.Fatal(err)
			}
			return m
		}
	}
	return nil
}

// TestPlantedBlunder: in an otherwise good game (each move a search's of
// 1,500 iterations), one move from the first position after move 4, 8
// or 12 (8, 12, 16 in TilingKing) where such a move exists hands the
// opponent the game (it can win at once after it, and the mover had a
// move that did not allow that and a game to lose, hasGame; in
// TilingKing judgedBlunder), and the
// game goes on to its end; a seed without such a position is passed. The analysis names that move first among
// the costliest, with a better move. Three plants a game in Glorieta and
// Knotwork, and with TESSERA_PLANTS=2, two in TilingKing (whose search
// for a won game thrown away takes minutes); the target is 95%
// of planted games (with three plants, every one). TESSERA_PLANTS=n
// plants n a game, after moves 4, 8 and 12 in turn.
func TestPlantedBlunder(t *testing.T) {
	if testing.Short() {
		t.Skip("plays and analyses nine games")
	}
	good := ai.Budget{Iterations: 1500, Workers: 1, Policy: ai.AnalysisPolicy}
	for _, g := range []string{"glorieta", "knotwork", "tilingking"} {
		t.Run(g, func(t *testing.T) {
			if g == "tilingking" && os.Getenv("TESSERA_PLANTS") == "" {
				// A deep search at every position looking for a won game to
				// throw away takes about 7 minutes on the loaded machine.
				t.Skip("TilingKing's plants are searched for: set TESSERA_PLANTS=2 (docs/ai.md)")
			}
			want, seeds := 3, 8
			if g == "tilingking" { // a won game thrown away is rarer there: 2 of the first 8 seeds
				want = 2
			}
			if n, err := strconv.Atoi(os.Getenv("TESSERA_PLANTS")); err == nil && n > 0 { // the larger count of docs/ai.md
				want, seeds = n, 8*n
			}
			plants, named := 0, 0
			for i := 0; plants < want && i < seeds; i++ {
				from := 4 + 4*(plants%3) // after move 4, 8 or 12 in turn
				if g == "tilingking" {
					from += 4
				}
				seed := uint64(20 + i)
				st, err := engine.New(engine.Setup{Game: g, Players: 2, Seed: seed})
				if err != nil {
					t.Fatal(err)
				}
				start := st.Clone()
				var moves []engine.Move
				planted := -1
				for k := 0; !st.Over(); k++ {
					var m engine.Move
					if planted < 0 && k >= from {
						if g == "tilingking" {
							m = judgedBlunder(t, st, seed)
						} else if b, safe := handsTheGame(st); len(b) > 0 && safe && hasGame(t, st, b, seed) {
							m = b[0]
						}
						if m != nil {
							planted = k
						}
					}
					if m == nil {
						m, _, err = ai.Search(context.Background(), st, st.ToMove(), good, seed*100+uint64(k))
						if err != nil {
							t.Fatal(err)
						}
					}
					moves = append(moves, m)
					if _, err := st.Apply(m); err != nil {
						t.Fatal(err)
					}
				}
				if planted < 0 {
					continue // no position from move from where a move hands the game: the next seed
				}
				plants++
				steps := analyseMoves(t, start, moves)
				d, ok := ai.Decompose(steps, engine.NoSeat, ai.Hides(start))
				if !ok {
					t.Fatal("does not decompose")
				}
				c := d.Costliest(3)
				if len(c) == 0 || c[0].N != planted+1 || c[0].Best == "" || c[0].Best == c[0].Played {
					t.Logf("game %d: move %d (%s) handed the game (its step %+v); the costliest are %+v", i, planted+1, moves[planted], d.Steps[planted], c)
				} else {
					named++
				}
			}
			t.Logf("%s: the planted move named first in %d of %d planted games", g, named, plants)
			if plants < want {
				t.Fatalf("%d games of %d had a move that hands the game", plants, seeds)
			}
			if named*100 < 95*plants { // the target: 95% (with the default three plants, every one)
				t.Errorf("%s: the planted move named first in %d of %d planted games, under 95%%", g, named, plants)
			}
		})
	}
}
