package enginetest

import (
	"fmt"
	"math"
	"testing"

	"tessera/engine"
)

// CheckFast checks a game's engine.FastPlayer against its State on one
// position: Play(m) reaches exactly the position Apply(m) reaches (what
// every seat sees, Key, and every exported field, StateKey), for every
// legal move, and PlayRandom draws each distinct legal move about
// equally often (a chi-square test over samples draws, at a level that a
// correct engine fails about once in a million runs; the seeds are fixed,
// so a run is repeatable). It does nothing when the state is not a
// FastPlayer or the game is over. samples is per legal move, e.g. 30.
func CheckFast(t testing.TB, st engine.State, seed uint64, samples int) {
	t.Helper()
	if _, ok := st.(engine.FastPlayer); !ok || st.Over() {
		return
	}
	legal := st.Legal()
	CheckKeys(t, st, legal)
	checkKeyLister(t, st, legal)
	checkSampler(t, st, seed, legal)
	checkFinisher(t, st, legal)
	index := playBoth(t, t.Fatalf, st, st, legal, true)
	if len(legal) == 0 {
		return
	}
	r := engine.NewRand(seed)
	counts := make([]int, len(legal))
	n := samples * len(legal)
	for i := 0; i < n; i++ {
		c := st.Clone()
		c.(engine.FastPlayer).PlayRandom(&r)
		j, ok := index[StateKey(c)]
		if !ok {
			t.Fatalf("PlayRandom reached a position no legal move reaches:\n%s", Fingerprint(c))
		}
		counts[j]++
	}
	if err := uniformCounts(counts); err != nil {
		t.Fatalf("PlayRandom is not uniform over %d legal moves: %v", len(legal), err)
	}
}

// playBoth plays each move through Apply on a clone of applyFrom and
// through FastPlayer.Play on a clone of playFrom (the same position, its
// playout state perhaps built otherwise), fails where the two reach
// different positions (every exported field, StateKey; with seen set,
// also what every seat sees, Key) or two moves reach one, and returns
// the index of each move's position by its StateKey.
func playBoth(t testing.TB, fatalf func(string, ...any), applyFrom, playFrom engine.State, moves []engine.Move, seen bool) map[string]int {
	t.Helper()
	index := make(map[string]int, len(moves))
	for i, m := range moves {
		applied := applyFrom.Clone()
		if _, err := applied.Apply(m); err != nil {
			fatalf("Apply(%s) of a legal move: %v", m, err)
		}
		played := playFrom.Clone()
		if err := played.(engine.FastPlayer).Play(m); err != nil {
			fatalf("Play(%s) of a legal move: %v", m, err)
		}
		if seen && Key(applied) != Key(played) {
			fatalf("Play(%s) and Apply(%s) reach different positions:\nApply: %s\nPlay:  %s", m, m, Fingerprint(applied), Fingerprint(played))
		}
		a := StateKey(applied)
		if p := StateKey(played); a != p {
			fatalf("Play(%s) and Apply(%s) reach different positions (Apply's != Play's):\n%s", m, m, stateDiff(applied, played))
		}
		if j, dup := index[a]; dup {
			fatalf("Legal lists %s and %s, which reach the same position", moves[j], m)
		}
		index[a] = i
	}
	return index
}

// uniformCounts is the chi-square test of draws counted per legal move:
// nil when the counts fit a uniform draw, at a level that a correct draw
// fails about once in a million runs (the seeds are fixed, so a run is
// repeatable).
func uniformCounts(counts []int) error {
	if len(counts) < 2 {
		return nil
	}
	n := 0
	for _, c := range counts {
		n += c
	}
	expected := float64(n) / float64(len(counts))
	chi := 0.0
	for _, c := range counts {
		d := float64(c) - expected
		chi += d * d / expected
	}
	// Wilson–Hilferty: the chi-square quantile for k-1 degrees of freedom
	// at p = 1e-6 (z = 4.753).
	k := float64(len(counts) - 1)
	limit := k * math.Pow(1-2/(9*k)+4.753*math.Sqrt(2/(9*k)), 3)
	if chi > limit {
		return fmt.Errorf("chi-square %.1f > %.1f (counts%s)", chi, limit, describe(counts))
	}
	return nil
}

// FastPlayout plays a game to its end with PlayRandom alone and returns the
// finished position, failing when it does not end within maxMoves.
func FastPlayout(t testing.TB, st engine.State, seed uint64, maxMoves int) engine.State {
	t.Helper()
	fp, ok := st.(engine.FastPlayer)
	if !ok {
		t.Fatalf("%T is not an engine.FastPlayer", st)
	}
	r := engine.NewRand(seed)
	for i := 0; !st.Over(); i++ {
		if i == maxMoves {
			t.Fatalf("PlayRandom did not end the game in %d moves", maxMoves)
		}
		fp.PlayRandom(&r)
	}
	return st
}

// CheckKeys checks a game's engine.Keyer moves on one position: distinct
// legal moves have distinct keys, and a move parsed back from its notation
// has the key of the move it names (so a key is equal exactly when the
// notation is). moves are the position's legal moves, or a sample of
// them. It does nothing when the moves are not Keyers.
func CheckKeys(t testing.TB, st engine.State, moves []engine.Move) {
	t.Helper()
	legal := moves
	seen := make(map[uint64]string, len(legal))
	for _, m := range legal {
		k, ok := m.(engine.Keyer)
		if !ok {
			return
		}
		if other, dup := seen[k.Key()]; dup {
			t.Fatalf("legal moves %q and %q have the same key %#x", other, m, k.Key())
		}
		seen[k.Key()] = m.String()
		back, err := st.Parse(m.String())
		if err != nil {
			t.Fatalf("Parse(%q) of a legal move: %v", m, err)
		}
		if bk := back.(engine.Keyer).Key(); bk != k.Key() {
			t.Fatalf("%q parsed back has key %#x, the legal move %#x", m, bk, k.Key())
		}
	}
}

// checkSampler checks an engine.Sampler on one position: RandomMove counts
// the legal moves, draws one of them and leaves the position as it was.
func checkSampler(t testing.TB, st engine.State, seed uint64, legal []engine.Move) {
	t.Helper()
	sm, ok := st.(engine.Sampler)
	if !ok {
		return
	}
	names := make(map[string]bool, len(legal))
	for _, m := range legal {
		names[m.String()] = true
	}
	before := Fingerprint(st)
	r := engine.NewRand(seed)
	for i := 0; i < 20; i++ {
		m, count, ok := sm.RandomMove(&r)
		if !ok || count != len(legal) {
			t.Fatalf("RandomMove counts %d legal moves (ok %v), Legal lists %d", count, ok, len(legal))
		}
		if !names[m.String()] {
			t.Fatalf("RandomMove drew %q, not a legal move", m)
		}
	}
	if after := Fingerprint(st); after != before {
		t.Fatalf("RandomMove changed the position:\nbefore: %s\nafter:  %s", before, after)
	}
}

// checkKeyLister checks an engine.KeyLister on one position: LegalKeys
// gives the keys of Legal's moves in Legal's order, after whatever dst
// held, without changing the position, and MoveOfKey gives back each move.
func checkKeyLister(t testing.TB, st engine.State, legal []engine.Move) {
	t.Helper()
	kl, ok := st.(engine.KeyLister)
	if !ok {
		return
	}
	before := Fingerprint(st)
	keys := kl.LegalKeys([]uint64{42})
	if len(keys) != len(legal)+1 || keys[0] != 42 {
		t.Fatalf("LegalKeys gave %d keys after the 1 in dst (first %v); Legal lists %d moves", len(keys)-1, keys[:min(1, len(keys))], len(legal))
	}
	for i, m := range legal {
		k := keys[i+1]
		if want := m.(engine.Keyer).Key(); k != want {
			t.Fatalf("LegalKeys[%d] = %#x, the key of Legal's %q is %#x", i, k, m, want)
		}
		back := kl.MoveOfKey(k)
		if back.String() != m.String() || back.(engine.Keyer).Key() != k {
			t.Fatalf("MoveOfKey(%#x) = %q, Legal's move is %q", k, back, m)
		}
		checkKeyScorer(t, st, m, k)
	}
	if after := Fingerprint(st); after != before {
		t.Fatalf("LegalKeys changed the position:\nbefore: %s\nafter:  %s", before, after)
	}
}

// checkKeyScorer checks an engine.KeyScorer's points for one legal move
// against what the move's Preview says, its mover's points less the
// others' (against playing it on a copy when there is no Previewer).
func checkKeyScorer(t testing.TB, st engine.State, m engine.Move, k uint64) {
	t.Helper()
	ks, ok := st.(engine.KeyScorer)
	if !ok {
		return
	}
	mover, want := st.ToMove(), 0
	if pv, ok := st.(engine.Previewer); ok {
		for _, d := range pv.Preview(m) {
			if d.Seat == mover {
				want += d.Points
			} else {
				want -= d.Points
			}
		}
	} else {
		before, c := st.Scores(), st.Clone()
		if _, err := c.Apply(m); err != nil {
			t.Fatalf("Apply(%q) on a copy: %v", m, err)
		}
		for s, v := range c.Scores() {
			if engine.Seat(s) == mover {
				want += v - before[s]
			} else {
				want -= v - before[s]
			}
		}
	}
	if got := ks.KeyPoints(k); got != want {
		t.Fatalf("KeyPoints(%#x) of %q = %d, its Preview says %d", k, m, got, want)
	}
}

// checkFinisher checks an engine.Finisher on one position against trying
// every legal move: WinningMove finds a win exactly when some legal move
// ends the game with the mover the sole winner, the move it gives is one
// of them, and the position is left as it was.
func checkFinisher(t testing.TB, st engine.State, legal []engine.Move) {
	t.Helper()
	f, ok := st.(engine.Finisher)
	if !ok {
		return
	}
	me := st.ToMove()
	wins := func(m engine.Move) bool {
		c := st.Clone()
		if _, err := c.Apply(m); err != nil {
			return false
		}
		w := c.Winners()
		return c.Over() && len(w) == 1 && w[0] == me
	}
	var some engine.Move
	for _, m := range legal {
		if wins(m) {
			some = m
			break
		}
	}
	before := Fingerprint(st)
	m, found := f.WinningMove()
	switch {
	case found && !wins(m):
		t.Fatalf("WinningMove gave %s, which does not win at once", m)
	case !found && some != nil:
		t.Fatalf("WinningMove found no win, but %s wins at once", some)
	}
	if after := Fingerprint(st); after != before {
		t.Fatalf("WinningMove changed the position:\nbefore: %s\nafter:  %s", before, after)
	}
}
