package ai_test

import (
	"context"
	"os"
	"strconv"
	"testing"

	"tessera/ai"
	"tessera/engine"
)

// closurePositions are 64 positions of 2-player Closure games, each with
// the move played from it: a game (seed 1, 2, …, random legal moves)
// after another until there are 64, since a Closure game ends within 48
// moves (the deck) and the budget is for a 64-move game.
func closurePositions(b *testing.B) (sts []engine.State, played []string) {
	for seed := uint64(1); len(sts) < 64; seed++ {
		st, err := engine.New(engine.Setup{Game: "closure", Players: 2, Seed: seed})
		if err != nil {
			b.Fatal(err)
		}
		r := engine.NewRand(seed)
		for !st.Over() && len(sts) < 64 {
			legal := st.Legal()
			m := legal[r.IntN(len(legal))]
			sts, played = append(sts, st.Clone()), append(played, m.String())
			if _, err := st.Apply(m); err != nil {
				b.Fatal(err)
			}
		}
	}
	return sts, played
}

// BenchmarkAnalyzeClosure64 is the analysis of a 64-move Closure game
// with the default budget (ai.AnalysisBudget, one worker): ai.AnalyzeStep
// at each of closurePositions. Its metric cpu-s/64-moves is the CPU time
// (user + system, whatever else the machine runs) of the 64 positions;
// the budget is 60 s of one core (run with GOMAXPROCS=1).
// TESSERA_BENCH_SAMPLE=k analyses every k-th position only and scales
// the time by k (a quicker measure on a loaded machine).
func BenchmarkAnalyzeClosure64(b *testing.B) {
	sts, played := closurePositions(b)
	every := 1
	if k, err := strconv.Atoi(os.Getenv("TESSERA_BENCH_SAMPLE")); err == nil && k > 0 {
		every = k
	}
	for b.Loop() {
		start, ok := cpuTime()
		n := 0
		for i := 0; i < len(sts); i += every {
			if _, err := ai.AnalyzeStep(context.Background(), sts[i], played[i], ai.AnalysisBudget, uint64(i)); err != nil {
				b.Fatal(err)
			}
			n++
		}
		if end, _ := cpuTime(); ok {
			b.ReportMetric((end-start)/float64(n)*float64(len(sts)), "cpu-s/64-moves")
		}
	}
}
