package knotwork

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"tessera/engine"
	"tessera/engine/enginetest"
)

// TestDrawUniform: on every position of random games, the move PlayRandom
// plays (draw) is always one Legal lists, and over 30 draws per legal move
// each comes about equally often (the chi-square test of CheckFast, at
// p = 1e-6, seeds fixed).
func TestDrawUniform(t *testing.T) {
	games := 40
	if testing.Short() {
		games = 10
	}
	positions := 0
	for g := 0; g < games; g++ {
		st := start(t)
		r := engine.NewRand(uint64(g) + 500)
		for !st.Over() {
			legal := st.Legal()
			index := map[Move]int{}
			for i, m := range legal {
				index[m.(Move)] = i
			}
			counts := make([]int, len(legal))
			n := 30 * len(legal)
			for i := 0; i < n; i++ {
				m, ok := st.draw(&r)
				j, listed := index[m]
				if !ok || !listed {
					t.Fatalf("game %d: drew %v (%v), not a legal move", g, m, ok)
				}
				counts[j]++
			}
			if len(legal) > 1 {
				expected := float64(n) / float64(len(legal))
				chi := 0.0
				for _, c := range counts {
					chi += (float64(c) - expected) * (float64(c) - expected) / expected
				}
				k := float64(len(legal) - 1)
				if limit := k * math.Pow(1-2/(9*k)+4.753*math.Sqrt(2/(9*k)), 3); chi > limit {
					t.Fatalf("game %d: draws not uniform over %d moves: chi-square %.1f > %.1f", g, len(legal), chi, limit)
				}
			}
			positions++
			st.PlayRandom(&r)
		}
	}
	t.Logf("%d positions", positions)
}

// TestFastPlayouts plays games with PlayRandom alone, checking after every
// move that it played exactly the move draw picks (so the game's record
// is known), that the bookkeeping equals one rebuilt from the board, and
// at the end that the record replayed through Parse and Apply reaches the
// same position, with the same scores and winners.
func TestFastPlayouts(t *testing.T) {
	games := 300
	if testing.Short() {
		games = 60
	}
	ended := map[string]int{}
	for g := 0; g < games; g++ {
		fast := start(t)
		byPlay := start(t)
		r := engine.NewRand(uint64(g) + 1000)
		var record []enginetest.Entry
		for n := 0; !fast.Over(); n++ {
			if n > 30 {
				t.Fatalf("game %d: no end after %d moves", g, n)
			}
			copied := r
			m, ok := fast.draw(&copied)
			if !ok {
				t.Fatalf("game %d: no move for %d and the game is not over", g, fast.ToMove())
			}
			record = append(record, enginetest.Entry{Seat: fast.ToMove(), Text: m.String()})
			fast.PlayRandom(&r)
			if copied != r {
				t.Fatalf("game %d: PlayRandom drew differently from draw", g)
			}
			if err := byPlay.Play(m); err != nil {
				t.Fatalf("game %d: Play(%s): %v", g, m, err)
			}
			if !sameBoard(fast, byPlay) {
				t.Fatalf("game %d: PlayRandom and Play(%s) differ", g, m)
			}
			checkDerived(t, fast)
		}
		replayed, err := enginetest.Replay(engine.Setup{Game: ID, Players: 2}, record)
		if err != nil {
			t.Fatalf("game %d: %v", g, err)
		}
		if a, b := enginetest.Fingerprint(replayed), enginetest.Fingerprint(fast); a != b {
			t.Fatalf("game %d: the record replayed through Apply differs:\nApply:      %s\nPlayRandom: %s", g, a, b)
		}
		checkPosition(t, fast, false)
		if fast.CanMove(0) || fast.CanMove(1) {
			t.Fatalf("game %d: over but a player can move", g)
		}
		ks := KnotScores(fast.Knots())
		want := []engine.Seat{0, 1}
		if c := Compare(ks[0], ks[1]); c > 0 {
			want = want[:1]
		} else if c < 0 {
			want = want[1:]
		}
		if got := fast.Winners(); len(got) != len(want) || got[0] != want[0] {
			t.Fatalf("game %d: winners %v, knot scores %v", g, got, ks)
		}
		ended[fast.EndReason()]++
	}
	if len(ended) != 1 || ended["blocked"] != games {
		t.Fatalf("end reasons %v", ended)
	}
}

func start(t testing.TB) *State {
	t.Helper()
	st, err := New(engine.Setup{Game: ID, Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	return st.(*State)
}

// sameBoard compares the rules data of two positions.
func sameBoard(a, b *State) bool {
	return a.Mask == b.Mask && a.Owner == b.Owner && a.Supply == b.Supply && a.Placed == b.Placed &&
		a.Last == b.Last && a.Turn == b.Turn && a.Done == b.Done &&
		a.Score[0] == b.Score[0] && a.Score[1] == b.Score[1] && len(a.Win) == len(b.Win)
}

// checkDerived checks the bookkeeping kept by placements against the same
// rebuilt from the board, and the knot histograms against Knots.
func checkDerived(t testing.TB, st *State) {
	t.Helper()
	f := &st.fx
	var fresh derived
	fresh.sync(st)
	if !f.ok || f.open != fresh.open || [4]int8{f.c0, f.c1, f.r0, f.r1} != [4]int8{fresh.c0, fresh.c1, fresh.r0, fresh.r1} ||
		f.knots != fresh.knots || f.nknots != fresh.nknots || targetsFit(f) != targetsFit(&fresh) || f.union != fresh.union || f.any != fresh.any || f.both != fresh.both {
		t.Fatalf("kept bookkeeping differs from the rebuilt one:\nkept    %v %v %v %v %v %v %v\nrebuilt %v %v %v %v %v %v %v",
			f.open, []int8{f.c0, f.c1, f.r0, f.r1}, f.knots, f.nknots, targetsFit(f), f.union, [2][2]uint16{f.any, f.both},
			fresh.open, []int8{fresh.c0, fresh.c1, fresh.r0, fresh.r1}, fresh.knots, fresh.nknots, targetsFit(&fresh), fresh.union, [2][2]uint16{fresh.any, fresh.both})
	}
	// Strand ends: at every open mark, the other end of its strand.
	comp, _ := st.Strands()
	for e, o := range f.other {
		i, p := e/8, e%8
		if st.Mask[i]&(1<<(p/2)) == 0 {
			continue
		}
		if j := nbr[i][p/2]; j >= 0 && st.Mask[j] != 0 {
			continue // joined across: no longer an end
		}
		if o != fresh.other[e] || comp[o] != comp[e] || int(o) == e {
			t.Fatalf("strand end %s %s: other end %d, rebuilt %d", board.Name(i), PortName(p), o, fresh.other[e])
		}
	}
	ks := KnotScores(st.Knots())
	for s := 0; s < 2; s++ {
		var h [Window*Window + 1]uint8
		for _, n := range ks[s] {
			h[n]++
		}
		if h != f.knots[s] {
			t.Fatalf("seat %d knot histogram %v, knots %v", s, f.knots[s], ks[s])
		}
	}
	if int(f.nknots) != len(st.Knots()) {
		t.Fatalf("%d knots counted, %d on the board", f.nknots, len(st.Knots()))
	}
}

// targetsFit writes the fitting masks of the targets.
func targetsFit(f *derived) string {
	var b strings.Builder
	for c := 0; c < board.Len(); c++ {
		if f.open[c/64]&(1<<(c%64)) != 0 {
			fmt.Fprintf(&b, "%s:%b ", board.Name(c), f.fit[c])
		}
	}
	return b.String()
}

// TestDerivedThroughApply: Apply keeps the same bookkeeping as a rebuild.
func TestDerivedThroughApply(t *testing.T) {
	for g := 0; g < 40; g++ {
		st := start(t)
		r := engine.NewRand(uint64(g) + 7)
		for !st.Over() {
			checkDerived(t, st)
			legal := st.Legal()
			if _, err := st.Apply(legal[r.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
		checkDerived(t, st)
	}
}

// TestPlayRejects: Play refuses what Apply refuses, with its reason, and
// changes nothing.
func TestPlayRejects(t *testing.T) {
	st := start(t)
	before := enginetest.Fingerprint(st)
	for _, m := range []engine.Move{Move{Cell: Start, Mask: 1}, Move{Cell: 0, Mask: 4}, Move{Cell: -3, Mask: 99}, Move{Cell: 40 + 9, Mask: 15}, nil} {
		if err := st.Play(m); err == nil {
			t.Fatalf("Play(%v) accepted", m)
		}
	}
	if enginetest.Fingerprint(st) != before {
		t.Fatalf("a refused Play changed the position")
	}
}

// TestPlayRandomAllocs: no allocation per move, whole games included
// (the winners are shared read-only slices).
func TestPlayRandomAllocs(t *testing.T) {
	first := start(t)
	st := first.Clone().(*State)
	score := st.Score
	r := engine.NewRand(3)
	allocs := testing.AllocsPerRun(2000, func() {
		if st.Done {
			*st = *first
			st.Score = score
			copy(score, first.Score)
		}
		st.PlayRandom(&r)
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per PlayRandom", allocs)
	}
	// A puzzle's random walk, undo (which rebuilds the bookkeeping) included.
	puzzle := newPuzzle(t, "hard")
	if allocs := testing.AllocsPerRun(2000, func() { puzzle.PlayRandom(&r) }); allocs != 0 {
		t.Fatalf("%v allocations per PlayRandom in a puzzle", allocs)
	}
}

// TestEndReason: "blocked" when neither player can move (Ted's and the
// second group closed by h8 S*, worked out in TestTieBrokenBySecondKnot),
// "resignation" after a resignation, nothing while the game goes on.
func TestEndReason(t *testing.T) {
	st := knotGroups(t, 1, "B", "O", "O")
	if r := st.EndReason(); r != "" {
		t.Fatalf("game on: %q", r)
	}
	closeLast(t, st)
	if r := st.EndReason(); r != "blocked" {
		t.Fatalf("after h8 S*: %q", r)
	}
	st = knotGroups(t, 1, "B", "O", "O")
	st.Resign(1)
	if r := st.EndReason(); r != "resignation" {
		t.Fatalf("after a resignation: %q", r)
	}
	var _ engine.Ender = st
	var _ engine.FastPlayer = st
}

// BenchmarkPlayoutLegalApply is the playout loop without the fast path:
// Legal, a uniform choice, Apply.
func BenchmarkPlayoutLegalApply(b *testing.B) {
	enginetest.BenchPlayoutLegalApply(b, start(b))
}

// BenchmarkPlayoutFast is the AI's playout: a clone, then PlayRandom to
// the end.
func BenchmarkPlayoutFast(b *testing.B) {
	enginetest.BenchPlayoutFast(b, start(b))
}
