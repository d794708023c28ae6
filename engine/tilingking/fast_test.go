package tilingking

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"testing"

	"tessera/engine"
	"tessera/engine/enginetest"
)

// fastConfig is one board, player count and option set the FastPlayer
// tests cover.
type fastConfig struct {
	kind    string
	players int
	opts    map[string]string
}

func (c fastConfig) String() string {
	s := fmt.Sprintf("%s/%dp", c.kind, c.players)
	for _, k := range []string{"maxcapture", "pie"} {
		if v, ok := c.opts[k]; ok {
			s += "/" + k + "=" + v
		}
	}
	return s
}

func (c fastConfig) setup(seed uint64) engine.Setup {
	o := map[string]string{"board": c.kind}
	for k, v := range c.opts {
		o[k] = v
	}
	return engine.Setup{Game: ID, Players: c.players, Options: o, Seed: seed}
}

// fastConfigs: every board at every player count, plain and with
// maxcapture=half, and with pie=on for 2 players.
func fastConfigs() []fastConfig {
	var out []fastConfig
	for _, kind := range Kinds {
		for players := 2; players <= 4; players++ {
			out = append(out, fastConfig{kind, players, nil})
			out = append(out, fastConfig{kind, players, map[string]string{"maxcapture": "half"}})
			if players == 2 {
				out = append(out, fastConfig{kind, players, map[string]string{"pie": "on"}})
			}
		}
	}
	return out
}

// positions plays a random game through Legal and Apply and calls visit
// with every position before a move, the game's last position included.
// Besides the legal moves it sometimes passes, passes for good (pass all)
// or, with 3-4 players, resigns a seat, so that positions with those
// flags are visited too.
func positions(t testing.TB, c fastConfig, seed uint64, visit func(st *State, ply int)) {
	t.Helper()
	st0, err := engine.New(c.setup(seed))
	if err != nil {
		t.Fatal(err)
	}
	st := st0.(*State)
	r := engine.NewRand(seed)
	for ply := 0; ; ply++ {
		visit(st, ply)
		if st.Over() {
			return
		}
		if ply > 1000 {
			t.Fatalf("%v seed %d: no end after %d moves", c, seed, ply)
		}
		switch x := r.IntN(200); {
		case x < 6:
			enginetest.Play(t, st, "pass")
		case x < 8:
			enginetest.Play(t, st, "pass all")
		case x < 10 && c.players > 2:
			st.Resign(engine.Seat(r.IntN(c.players)))
		default:
			legal := st.Legal()
			if _, err := st.Apply(legal[r.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// gamesPer is how many games each configuration plays in the broad
// tests: with 4 boards, 20 games for every player count and option set.
func gamesPer() int {
	if testing.Short() {
		return 2
	}
	return 5
}

// sameState fails unless two positions are equal in every field, the
// playout masks and counts included, and those agree with the exported
// fields they stand for.
func sameState(t testing.TB, what func() string, a, b *State) {
	t.Helper()
	for _, st := range []*State{a, b} {
		c := *st
		c.sync()
		if c.cov != st.cov || c.terr != st.terr || c.count != st.count {
			t.Fatalf("%s: the masks and counts are not those of the position", what())
		}
	}
	// An empty winners' slice is one with room (Clone) or none (New).
	x, y := *a, *b
	x.Win, y.Win = append([]engine.Seat{}, a.Win...), append([]engine.Seat{}, b.Win...)
	// The board-sized fields are compared here, as DeepEqual would (a nil
	// slice is not an empty one), and left out of DeepEqual, which
	// compares them element by element through reflection: that was a
	// third of TestPlayMatchesApply's time.
	same := x.cov == y.cov && x.terr == y.terr && x.count == y.count &&
		(x.Cover == nil) == (y.Cover == nil) && slices.Equal(x.Cover, y.Cover) &&
		(x.Terr == nil) == (y.Terr == nil) && slices.Equal(x.Terr, y.Terr)
	x.cov, x.terr, x.count, x.Cover, x.Terr = y.cov, y.terr, y.count, y.Cover, y.Terr
	if !same || !reflect.DeepEqual(x, y) {
		t.Fatalf("%s: the positions differ:\n%+v\n%+v", what(), a, b)
	}
}

// TestPlayMatchesApply: on every 5th position of 20 games per player
// count and option set (and the second and the last), Play of the moves
// Parse accepts beyond Legal (pass, pass all) reaches exactly the
// position Apply reaches; and random games do capture pieces. Play of
// the legal moves is enginetest.Run's (TestConformance).
func TestPlayMatchesApply(t *testing.T) {
	captures := 0
	for i, c := range fastConfigs() {
		for g := 0; g < gamesPer(); g++ {
			var lost []int
			positions(t, c, uint64(100*i+g), func(st *State, ply int) {
				for s := range lost {
					captures += max(0, st.Lost[s]-lost[s])
				}
				lost = append(lost[:0], st.Lost...)
				if ply%5 != 0 && ply != 1 && !st.Over() { // ply 1: swap, with pie=on
					return
				}
				if st.Over() {
					return
				}
				pass, _ := st.Parse("pass")
				all, _ := st.Parse("pass all")
				for _, m := range []engine.Move{pass, all} {
					applied, played := st.Clone().(*State), st.Clone().(*State)
					if _, err := applied.Apply(m); err != nil {
						t.Fatalf("%v: Apply(%s): %v", c, m, err)
					}
					if err := played.Play(m); err != nil {
						t.Fatalf("%v: Play(%s): %v", c, m, err)
					}
					sameState(t, func() string { return fmt.Sprintf("%v ply %d %s", c, ply, m) }, applied, played)
				}
			})
		}
	}
	if captures == 0 {
		t.Fatalf("no move captured a piece: the capture path is not tested")
	}
	t.Logf("%d pieces captured in the games played", captures)
}

// TestDrawUniform: PlayRandom's choice (draw) is always a legal move, and
// is uniform over Legal() by a chi-square test (at p = 1e-6, as
// enginetest.CheckFast), with rejection first as played, with the
// counting alone, and with (almost) rejection alone. Every 5th position
// of a game per player count and option set (5 with enginetest.Long;
// PlayRandom as played is enginetest.Run's too), and the second (where
// swap is offered with pie=on); 20 draws per legal move, fewer (at least
// 3) where there are more than 150.
func TestDrawUniform(t *testing.T) {
	r := engine.NewRand(99)
	swaps := 0
	games := 1
	if enginetest.Long() {
		games = gamesPer()
	}
	for i, c := range fastConfigs() {
		for g := 0; g < games; g++ {
			positions(t, c, uint64(100*i+g), func(st *State, ply int) {
				if (ply%5 != 2 && ply != 1) || st.Over() { // ply 1: swap, with pie=on
					return
				}
				if st.canSwap() {
					swaps++
				}
				legal := enginetest.LegalStrings(st)
				index := map[string]int{}
				for k, s := range legal {
					index[s] = k
				}
				for _, tr := range []int{tries, 0, 1 << 20} {
					counts := make([]int, len(legal))
					n := max(3, min(20, 3000/len(legal))) * len(legal)
					for k := 0; k < n; k++ {
						kind, pl := st.drawWith(&r, tr)
						m := Move{Kind: kind}
						if pl != nil {
							m = Move{Kind: Place, Piece: pl.piece, Cells: pl.cells, text: pl.text, pl: pl}
						}
						j, ok := index[m.String()]
						if !ok {
							t.Fatalf("%v ply %d: drew %s, which is not legal", c, ply, m)
						}
						counts[j]++
					}
					if chi, limit := chiSquare(counts, n); chi > limit {
						t.Fatalf("%v ply %d tries %d: not uniform over %d moves: chi-square %.1f > %.1f", c, ply, tr, len(legal), chi, limit)
					}
				}
			})
		}
	}
	if swaps == 0 {
		t.Fatalf("no position offered swap: the draw of swap is not tested")
	}
}

// chiSquare is the statistic of counts against a uniform spread of n, and
// the limit enginetest.CheckFast uses (Wilson–Hilferty at p = 1e-6).
func chiSquare(counts []int, n int) (chi, limit float64) {
	if len(counts) < 2 {
		return 0, 1
	}
	expected := float64(n) / float64(len(counts))
	for _, c := range counts {
		d := float64(c) - expected
		chi += d * d / expected
	}
	k := float64(len(counts) - 1)
	return chi, k * math.Pow(1-2/(9*k)+4.753*math.Sqrt(2/(9*k)), 3)
}

// TestFastPlayout: games played to the end by PlayRandom alone, on every
// configuration, end as the game's rules say: replaying the same moves
// through Apply reaches the same position (scores, winners, board), the
// invariants hold, and the game ended because nobody could place.
func TestFastPlayout(t *testing.T) {
	for i, c := range fastConfigs() {
		for g := 0; g < gamesPer(); g++ {
			seed := uint64(500*i + g)
			setup := c.setup(seed)
			start, err := engine.New(setup)
			if err != nil {
				t.Fatal(err)
			}
			final := enginetest.FastPlayout(t, start.Clone(), seed, 1000).(*State)
			// The same draws again, recorded as notation.
			st := start.Clone().(*State)
			r := engine.NewRand(seed)
			var rec []enginetest.Entry
			for !st.Over() {
				seat := st.ToMove()
				kind, pl := st.draw(&r)
				text := Move{Kind: kind}.String()
				if pl != nil {
					text = pl.text
				}
				rec = append(rec, enginetest.Entry{Seat: seat, Text: text})
				st.step(nil, kind, pl)
			}
			again, err := enginetest.Replay(setup, rec)
			if err != nil {
				t.Fatalf("%v seed %d: replay: %v", c, seed, err)
			}
			if a, b := enginetest.Fingerprint(again), enginetest.Fingerprint(final); a != b {
				t.Fatalf("%v seed %d: PlayRandom's game and its replay through Apply differ:\n%s\n%s", c, seed, a, b)
			}
			sameState(t, func() string { return fmt.Sprintf("%v seed %d", c, seed) }, st, final)
			checkInvariants(t, final)
			if !reflect.DeepEqual(final.Scores(), again.Scores()) || final.EndReason() != "no moves" || again.(*State).EndReason() != "no moves" {
				t.Fatalf("%v seed %d: scores %v and %v, end %q", c, seed, final.Scores(), again.Scores(), final.EndReason())
			}
		}
	}
}

// TestPlayRandomAllocates nothing: whole games played by PlayRandom on
// clones (Clone makes room for a whole game) allocate nothing, the last
// move that ends the game included.
func TestPlayRandomAllocatesNothing(t *testing.T) {
	for _, bs := range benchSetups {
		start, _ := engine.New(engine.Setup{Game: ID, Players: bs.players, Options: map[string]string{"board": bs.kind}})
		const runs = 20
		clones := make([]engine.State, runs+1)
		for k := range clones {
			clones[k] = start.Clone()
		}
		r := engine.NewRand(3)
		k, moves := 0, 0
		allocs := testing.AllocsPerRun(runs, func() {
			st := clones[k]
			k++
			fp := st.(engine.FastPlayer)
			for !st.Over() {
				fp.PlayRandom(&r)
				moves++
			}
		})
		if allocs != 0 {
			t.Errorf("%s/%dp: %.1f allocations per game of %d moves", bs.kind, bs.players, allocs, moves/(runs+1))
		}
	}
}

// TestPlayRefuses: Play refuses what Apply refuses, and changes nothing.
func TestPlayRefuses(t *testing.T) {
	st := newGame(t, Square9, 2)
	other := newGame(t, Square11, 2)
	far, _ := other.Parse("k11")
	taken, _ := st.Parse("a1 a2")
	st.play(t, red, "a1 b1")
	st.Turn = blue
	swap := Move{Kind: Swap}
	byHand := Move{Kind: Place, Piece: "D2", Cells: []int{0, 1}} // no notation
	before := st.Clone().(*State)
	for _, m := range []engine.Move{far, taken, swap, byHand} {
		if _, err := st.Clone().Apply(m); err == nil {
			t.Errorf("Apply(%q) accepted", m)
		}
		if err := st.Play(m); err == nil {
			t.Errorf("Play(%q) accepted", m)
		}
		sameState(t, func() string { return "after a refused Play" }, before, st)
	}
	// Blue has no M1 left after two.
	st.play(t, blue, "i9")
	st.play(t, red, "a9")
	st.play(t, blue, "i1")
	st.Turn = blue
	m1, _ := newGame(t, Square9, 2).Parse("e1")
	if err := st.Play(m1); err == nil {
		t.Errorf("a third M1 accepted")
	}
	st.Resign(blue)
	if err := st.Play(m1); err == nil {
		t.Errorf("a move after the end accepted")
	}
}

// TestEndReason: one reason per way TilingKing ends, the same through
// Apply and Play.
func TestEndReason(t *testing.T) {
	// Resignation: 2 players, one resigns; 3 players, two resign.
	st := newGame(t, Square9, 2)
	if st.EndReason() != "" {
		t.Fatalf("a game in play has an end reason %q", st.EndReason())
	}
	st.play(t, red, "e4 f4")
	st.Resign(red)
	if st.EndReason() != "resignation" {
		t.Errorf("2 players, resign: %q", st.EndReason())
	}
	st = newGame(t, Square11, 3)
	st.Resign(blue)
	st.Resign(red)
	if !st.Over() || st.EndReason() != "resignation" {
		t.Errorf("3 players, two resign: over %v, %q", st.Over(), st.EndReason())
	}
	// All passed: everyone passes by choice, or one passes for good and
	// the other cannot place, or a resignation completes the passes.
	for _, how := range [][]string{{"pass", "pass"}, {"pass all", "pass"}} {
		for _, fast := range []bool{false, true} {
			st = newGame(t, Square9, 2)
			for _, w := range how {
				m, _ := st.Parse(w)
				if fast {
					if err := st.Play(m); err != nil {
						t.Fatal(err)
					}
				} else {
					st.Apply(m)
				}
			}
			if !st.Over() || st.EndReason() != "all passed" {
				t.Errorf("%v (Play %v): over %v, %q", how, fast, st.Over(), st.EndReason())
			}
		}
	}
	st = newGame(t, Square11, 3)
	enginetest.Play(t, st, "pass")
	enginetest.Play(t, st, "pass")
	st.Resign(green)
	if !st.Over() || st.EndReason() != "all passed" {
		t.Errorf("pass, pass, resign: over %v, %q", st.Over(), st.EndReason())
	}
	// Red passes; Blue, holding nothing, passes by itself: Red passed by
	// choice, so all passed.
	st = newGame(t, Square9, 2)
	st.Hands[blue] = nil
	enginetest.Play(t, st, "a1")
	enginetest.Play(t, st, "pass")
	if !st.Over() || st.EndReason() != "all passed" {
		t.Errorf("pass against an empty hand: over %v, %q", st.Over(), st.EndReason())
	}
	// No moves: nobody can place (random games played to the end; here
	// both hands run out).
	st = newGame(t, Square9, 2)
	st.Hands[red], st.Hands[blue] = []string{"M1"}, nil
	enginetest.Play(t, st, "e1")
	if !st.Over() || st.EndReason() != "no moves" {
		t.Errorf("hands empty: over %v, %q", st.Over(), st.EndReason())
	}
}

// FuzzPlay: for any text, and for any Move built by hand from the fuzzed
// kind, piece and cells, Play accepts exactly what Apply accepts, never
// panics, and reaches the same position.
func FuzzPlay(f *testing.F) {
	for _, s := range []string{"c3 c4 d4", "pass", "pass all", "swap", "a1", "e5", "k11 k10", "f6", "a1 a2 a3 a4"} {
		f.Add(s, uint8(0), uint8(0), "D2", 0, 1)
		f.Add(s, uint8(5), uint8(3), "M1", 40, -1)
	}
	states := []*State{}
	for _, kind := range Kinds {
		states = append(states, midGame(f, kind, 2, 0), midGame(f, kind, 3, 9))
	}
	f.Fuzz(func(t *testing.T, text string, which, kind uint8, piece string, c1, c2 int) {
		st := states[int(which)%len(states)]
		moves := []engine.Move{Move{Kind: Kind(kind % 6), Piece: piece, Cells: []int{c1, c2}}}
		if m, err := st.Parse(text); err == nil {
			moves = append(moves, m)
		}
		for _, m := range moves {
			applied, played := st.Clone().(*State), st.Clone().(*State)
			_, errA := applied.Apply(m)
			errP := played.Play(m)
			if (errA == nil) != (errP == nil) {
				t.Fatalf("%+v: Apply says %v, Play says %v", m, errA, errP)
			}
			if errA == nil {
				sameState(t, func() string { return fmt.Sprintf("%+v", m) }, applied, played)
			} else {
				sameState(t, func() string { return "refused" }, st, played)
			}
		}
	})
}
