package enginetest

import (
	"testing"
	"time"

	"tessera/engine"
)

// The playout benchmarks every game with an engine.FastPlayer runs, so
// that docs/benchmarks.md compares the same loop for all five: a clone of
// the start, then uniformly random moves to the end. The games keep their
// own Benchmark functions (their names are in the docs' commands) and
// call these with their start positions.

// BenchPlayoutLegalApply measures the playout a search had before
// FastPlayer: Legal, a uniform choice, Apply.
func BenchPlayoutLegalApply(b *testing.B, start engine.State) {
	benchPlayouts(b, start, legalApplyToEnd)
}

// BenchPlayoutFast measures the same playout through PlayRandom.
func BenchPlayoutFast(b *testing.B, start engine.State) {
	if _, ok := start.(engine.FastPlayer); !ok {
		b.Fatalf("%T is not an engine.FastPlayer", start)
	}
	benchPlayouts(b, start, fastToEnd)
}

// BenchPlayoutSideBySide interleaves the two playouts in short turns (one
// old playout, then fast ones for about as long) so that both see the
// same load on a shared machine, and reports both rates and their ratio.
func BenchPlayoutSideBySide(b *testing.B, start engine.State) {
	if _, ok := start.(engine.FastPlayer); !ok {
		b.Fatalf("%T is not an engine.FastPlayer", start)
	}
	r := engine.NewRand(1)
	var old, fast time.Duration
	oldN, fastN := 0, 0
	for b.Loop() {
		t0 := time.Now()
		legalApplyToEnd(b, start.Clone(), &r)
		t1 := time.Now()
		old += t1.Sub(t0)
		oldN++
		for time.Since(t1) < t1.Sub(t0) {
			fastToEnd(b, start.Clone(), &r)
			fastN++
		}
		fast += time.Since(t1)
	}
	o, f := float64(oldN)/old.Seconds(), float64(fastN)/fast.Seconds()
	b.ReportMetric(o, "old-playouts/s")
	b.ReportMetric(f, "fast-playouts/s")
	b.ReportMetric(f/o, "ratio")
}

// BenchDeterminize measures what a search pays per iteration before its
// playout in a game with hidden information: a determinized copy of st
// for viewer, and a plain Clone for comparison.
func BenchDeterminize(b *testing.B, st engine.State, viewer engine.Seat) {
	d, ok := st.(engine.Determinizer)
	if !ok {
		b.Fatalf("%T is not an engine.Determinizer", st)
	}
	r := engine.NewRand(1)
	b.Run("Determinize", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			d.Determinize(viewer, &r)
		}
	})
	b.Run("Clone", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			st.Clone()
		}
	})
}

// toEnd plays st to its end and returns the moves it played.
type toEnd func(tb testing.TB, st engine.State, r *engine.Rand) int

func legalApplyToEnd(tb testing.TB, st engine.State, r *engine.Rand) int {
	moves := 0
	for !st.Over() {
		legal := st.Legal()
		if _, err := st.Apply(legal[r.IntN(len(legal))]); err != nil {
			tb.Fatal(err)
		}
		moves++
	}
	return moves
}

func fastToEnd(_ testing.TB, st engine.State, r *engine.Rand) int {
	fp := st.(engine.FastPlayer)
	moves := 0
	for !st.Over() {
		fp.PlayRandom(r)
		moves++
	}
	return moves
}

func benchPlayouts(b *testing.B, start engine.State, play toEnd) {
	r := engine.NewRand(1)
	moves := 0
	b.ReportAllocs()
	for b.Loop() {
		moves += play(b, start.Clone(), &r)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
	b.ReportMetric(float64(moves)/float64(b.N), "moves/playout")
}
