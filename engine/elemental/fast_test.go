package elemental

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"testing"

	"tessera/engine"
	"tessera/engine/enginetest"
)

var (
	_ engine.FastPlayer   = (*State)(nil)
	_ engine.Determinizer = (*State)(nil)
	_ engine.Ender        = (*State)(nil)
)

func newGame(t testing.TB, players int, seed uint64) *State {
	t.Helper()
	st, err := engine.New(engine.Setup{Game: ID, Players: players, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return st.(*State)
}

// sameState fails unless two positions agree on everything Apply keeps,
// including what Fingerprint does not show (the bag's order, the order of
// the tiles in a hand), so that their futures agree too.
func sameState(t testing.TB, what string, a, b *State) {
	t.Helper()
	x, y := *a, *b
	x.front, y.front = frontier{}, frontier{}
	x.Bag, y.Bag = nil, nil
	x.Hands, y.Hands = nil, nil
	if len(x.Win) == 0 {
		x.Win = nil
	}
	if len(y.Win) == 0 {
		y.Win = nil
	}
	if !reflect.DeepEqual(x, y) || fmt.Sprint(a.Bag) != fmt.Sprint(b.Bag) || fmt.Sprint(a.Hands) != fmt.Sprint(b.Hands) {
		t.Fatalf("%s: positions differ:\n%+v\n%+v", what, *a, *b)
	}
}

// checkFrontier fails unless the frontier Play keeps equals the open cells
// Legal's canPlace finds.
func checkFrontier(t testing.TB, st *State) {
	t.Helper()
	if !st.front.ok {
		return
	}
	n := 0
	for c := 0; c < board.Len(); c++ {
		open := st.canPlace(c)
		if open != (st.front.pos[c] >= 0) || open && int(st.front.cells[st.front.pos[c]]) != c {
			t.Fatalf("frontier disagrees at %s (open %v)", board.Name(c), open)
		}
		if open {
			n++
		}
	}
	if n != st.front.n {
		t.Fatalf("frontier holds %d cells, %d are open", st.front.n, n)
	}
}

// TestPlayRefuses: Play refuses what Apply refuses, and changes nothing.
func TestPlayRefuses(t *testing.T) {
	st := newState(t, 2, []string{"RRRR", "RGBY"}, []string{"BBBB", "GGGG"})
	enginetest.Play(t, st, "d4 RRRR")
	before := enginetest.Fingerprint(st)
	for _, m := range []engine.Move{
		Move{Cell: board.Index(3, 3), Edges: Tile{'B', 'B', 'B', 'B'}}, // d4 is taken
		Move{Cell: board.Index(7, 7), Edges: Tile{'B', 'B', 'B', 'B'}}, // h8 touches nothing
		Move{Cell: board.Index(3, 4), Edges: Tile{'R', 'G', 'B', 'Y'}}, // not in the mover's hand
		Move{Cell: board.Index(3, 4), Edges: Tile{'R', 'G', 'B', 'x'}}, // not a tile
		Move{Cell: -1, Edges: Tile{'R', 'G', 'B', 'Y'}},
		Move{Cell: 64, Edges: Tile{'R', 'G', 'B', 'Y'}},
	} {
		if err := st.Play(m); err == nil {
			t.Fatalf("Play(%+v) accepted", m)
		} else if _, ok := err.(*engine.IllegalError); !ok {
			t.Fatalf("Play(%+v): %T %v", m, err, err)
		}
	}
	if after := enginetest.Fingerprint(st); after != before {
		t.Fatal("a refused Play changed the position")
	}
}

// TestFastPlayoutReplays: games played to the end by PlayRandom alone,
// with every move recorded through randomMove, replay through Apply to the
// same position (scores, winners, hands, bag); PlayRandom is exactly
// randomMove plus Play; the tiles are conserved and the board is full.
func TestFastPlayoutReplays(t *testing.T) {
	games := 30
	if testing.Short() {
		games = 9
	}
	for g := 0; g < games; g++ {
		st := fastReplay(t, engine.Setup{Game: ID, Players: 2 + g%3, Seed: uint64(g)}, uint64(7*g), -1)
		if st.Placed != 64 || st.EndReason() != "board full" {
			t.Fatalf("game %d ended with %d tiles placed (%q)", g, st.Placed, st.EndReason())
		}
	}
}

// FuzzFastPlayout: from any seed, with a resignation at any move, a game
// played by PlayRandom (and Resign) replays through Apply to the same
// position.
func FuzzFastPlayout(f *testing.F) {
	f.Add(uint64(1), uint8(2), uint8(200))
	f.Add(uint64(2), uint8(3), uint8(10))
	f.Add(uint64(3), uint8(4), uint8(0))
	f.Fuzz(func(t *testing.T, seed uint64, players, resignAt uint8) {
		setup := engine.Setup{Game: ID, Players: 2 + int(players%3), Seed: seed}
		fastReplay(t, setup, seed^0x5eed, int(resignAt))
	})
}

// fastReplay plays a game by PlayRandom from the setup (the seat to move
// resigns before move resignAt; -1: never), checking at every move that
// PlayRandom plays what randomMove draws, and at the end that the record
// replays through Apply to the same position. It returns the position.
func fastReplay(t *testing.T, setup engine.Setup, seed uint64, resignAt int) *State {
	t.Helper()
	s, err := engine.New(setup)
	if err != nil {
		t.Fatal(err)
	}
	st := s.(*State)
	r := engine.NewRand(seed)
	var rec []enginetest.Entry
	for ply := 0; !st.Over(); ply++ {
		if ply == resignAt {
			rec = append(rec, enginetest.Entry{Seat: st.Turn, Text: "resign"})
			st.Resign(st.Turn)
			continue
		}
		before := st.Clone().(*State)
		rr := r
		_, m := before.Clone().(*State).randomMove(&rr)
		rec = append(rec, enginetest.Entry{Seat: st.Turn, Text: m.String()})
		st.PlayRandom(&r)
		if err := before.Play(m); err != nil {
			t.Fatal(err)
		}
		sameState(t, "PlayRandom against randomMove+Play", st, before)
		checkFrontier(t, st)
		if len(rec) > 65 {
			t.Fatal("more than 64 moves")
		}
	}
	checkConserved(t, st)
	replayed, err := enginetest.Replay(setup, rec)
	if err != nil {
		t.Fatal(err)
	}
	sameState(t, "replay through Apply", replayed.(*State), st)
	if a, b := enginetest.Fingerprint(replayed), enginetest.Fingerprint(st); a != b {
		t.Fatalf("replay differs:\n%s\n%s", a, b)
	}
	if st.EndReason() == "" {
		t.Fatal("a finished game without a reason")
	}
	return st
}

// TestFastPlayout: enginetest.FastPlayout ends every game within 64 moves.
func TestFastPlayout(t *testing.T) {
	for players := 2; players <= 4; players++ {
		st := enginetest.FastPlayout(t, newGame(t, players, 3), uint64(players), 64).(*State)
		checkConserved(t, st)
		if len(st.Winners()) == 0 {
			t.Fatal("no winner")
		}
	}
}

// TestPlayRandomAllocates nothing: a warmed clone (one Play done, so its
// frontier is built) plays moves without allocating. The only allocation of
// a playout is the winners list when the game ends.
func TestPlayRandomAllocates(t *testing.T) {
	start := newGame(t, 4, 9)
	start.PlayRandom(new(engine.Rand))
	st := start.Clone().(*State)
	r := engine.NewRand(1)
	// 61 moves are left; AllocsPerRun makes one more run than it counts.
	if a := testing.AllocsPerRun(50, func() { st.PlayRandom(&r) }); a != 0 {
		t.Fatalf("PlayRandom allocates %.2f times per move", a)
	}
	if st.Over() {
		t.Fatal("the game ended during the measurement")
	}
	// Whole playouts from a clone: the clone, then one allocation at the end.
	perGame := testing.AllocsPerRun(20, func() {
		c := start.Clone().(*State)
		for !c.Over() {
			c.PlayRandom(&r)
		}
	})
	clone := testing.AllocsPerRun(20, func() { start.Clone() })
	if perGame-clone > 1 {
		t.Fatalf("a playout allocates %.1f times besides Clone's %.1f", perGame-clone, clone)
	}
	t.Logf("Clone allocates %.0f times; a playout after it %.0f (the winners)", clone, perGame-clone)
}

// TestEndReason: each way a game ends has its word.
func TestEndReason(t *testing.T) {
	st := newGame(t, 2, 1)
	if st.EndReason() != "" {
		t.Fatalf("reason %q before the end", st.EndReason())
	}
	st.Resign(1)
	if !st.Over() || st.EndReason() != "resignation" {
		t.Fatalf("over %v reason %q after a 2-player resignation", st.Over(), st.EndReason())
	}
	st = newGame(t, 3, 1)
	st.Resign(0)
	if st.Over() || st.EndReason() != "" {
		t.Fatalf("3 players, one resigned: over %v reason %q", st.Over(), st.EndReason())
	}
	enginetest.FastPlayout(t, st, 5, 64)
	if st.EndReason() != "board full" {
		t.Fatalf("full board: reason %q", st.EndReason())
	}
	// Nobody holds a tile (impossible with 70 tiles for 64 cells, so built
	// by hand): the game ends at once with "no tiles".
	st = newState(t, 2, []string{"RRRR"}, []string{})
	st.Bag = nil
	enginetest.Play(t, st, "d4 RRRR")
	if !st.Over() || st.EndReason() != "no tiles" {
		t.Fatalf("empty hands: over %v reason %q", st.Over(), st.EndReason())
	}
}

// TestDeterminizeHidesOnlyTheHidden: two positions that differ only in the
// other hands and the bag's order give the same copy for the same r; the
// viewer's hand, the board, the counts and the scores are kept.
func TestDeterminizeHidesOnlyTheHidden(t *testing.T) {
	for players := 2; players <= 4; players++ {
		a := newGame(t, players, 11)
		r := engine.NewRand(4)
		for i := 0; i < 17; i++ {
			a.PlayRandom(&r)
		}
		b := a.Clone().(*State)
		// Swap the other seats' tiles with the bag's and reverse the bag.
		viewer := engine.Seat(1)
		for s := range b.Hands {
			if engine.Seat(s) != viewer {
				for i := range b.Hands[s] {
					b.Hands[s][i], b.Bag[len(b.Bag)-1-i-2*s] = b.Bag[len(b.Bag)-1-i-2*s], b.Hands[s][i]
				}
			}
		}
		for i, j := 0, len(b.Bag)-1; i < j; i, j = i+1, j-1 {
			b.Bag[i], b.Bag[j] = b.Bag[j], b.Bag[i]
		}
		if fmt.Sprint(a.Hands[0]) == fmt.Sprint(b.Hands[0]) {
			t.Fatal("the test did not change the hidden hands")
		}
		for k := uint64(0); k < 5; k++ {
			ra, rb := engine.NewRand(k), engine.NewRand(k)
			da, db := a.Determinize(viewer, &ra).(*State), b.Determinize(viewer, &rb).(*State)
			sameState(t, "determinized", da, db)
			if ra != rb {
				t.Fatal("the two determinizations drew differently from r")
			}
			checkConserved(t, da)
			checkFrontier(t, da)
			if fmt.Sprint(da.Hands[viewer]) != fmt.Sprint(a.Hands[viewer]) || da.Cells != a.Cells || da.Placed != a.Placed ||
				!reflect.DeepEqual(da.Score, a.Score) || len(da.Bag) != len(a.Bag) || da.Turn != a.Turn {
				t.Fatal("Determinize changed what the viewer sees")
			}
			for s := range a.Hands {
				if len(da.Hands[s]) != len(a.Hands[s]) {
					t.Fatalf("seat %d holds %d tiles, had %d", s, len(da.Hands[s]), len(a.Hands[s]))
				}
			}
			// The copy plays on by itself and leaves the original alone.
			enginetest.FastPlayout(t, da, k, 64)
		}
		if fmt.Sprint(a.Hands) == fmt.Sprint(b.Hands) || a.Over() {
			t.Fatal("Determinize changed its receiver")
		}
	}
}

// TestDeterminizeIsUniform: over many draws each unseen tile lands in each
// hidden place (a slot of another seat's hand, a place in the bag) about
// equally often: each count is binomial(draws, 1/unseen), and must lie
// within 5 standard deviations of its mean (a correct deal fails this
// about once in 3 million cells; the seed is fixed).
func TestDeterminizeIsUniform(t *testing.T) {
	st := newGame(t, 3, 5)
	r := engine.NewRand(8)
	for i := 0; i < 40; i++ { // 40 on the board, 30 unseen minus the viewer's 2
		st.PlayRandom(&r)
	}
	viewer := st.Turn
	type place struct{ where, i int } // where: a seat, or -1 for the bag
	var places []place
	for s, h := range st.Hands {
		if engine.Seat(s) != viewer {
			for i := range h {
				places = append(places, place{s, i})
			}
		}
	}
	for i := range st.Bag {
		places = append(places, place{-1, i})
	}
	unseen := len(places)
	counts := map[Tile][]int{}
	draws := 6000
	if testing.Short() {
		draws = 2000
	}
	for k := 0; k < draws; k++ {
		d := st.Determinize(viewer, &r).(*State)
		for pi, p := range places {
			var x Tile
			if p.where >= 0 {
				x = d.Hands[p.where][p.i]
			} else {
				x = d.Bag[p.i]
			}
			if counts[x] == nil {
				counts[x] = make([]int, unseen)
			}
			counts[x][pi]++
		}
	}
	if len(counts) != unseen {
		t.Fatalf("%d distinct tiles dealt to %d hidden places", len(counts), unseen)
	}
	mean := float64(draws) / float64(unseen)
	sd := math.Sqrt(mean * (1 - 1/float64(unseen)))
	for x, c := range counts {
		for pi, n := range c {
			if math.Abs(float64(n)-mean) > 5*sd {
				t.Fatalf("tile %s landed %d times in place %v, expected %.0f ± %.0f", x, n, places[pi], mean, sd)
			}
		}
	}
}

// The playout benchmarks of docs/benchmarks.md, from the start with each
// player count.
var benchPlayers = []int{2, 3, 4}

// BenchmarkPlayoutLegalApply is the old playout: Legal, a uniform choice,
// Apply, from the start to the end.
func BenchmarkPlayoutLegalApply(b *testing.B) {
	for _, players := range benchPlayers {
		b.Run(fmt.Sprintf("players=%d", players), func(b *testing.B) {
			enginetest.BenchPlayoutLegalApply(b, newGame(b, players, 1))
		})
	}
}

// BenchmarkPlayoutFast is the same playout through PlayRandom.
func BenchmarkPlayoutFast(b *testing.B) {
	for _, players := range benchPlayers {
		b.Run(fmt.Sprintf("players=%d", players), func(b *testing.B) {
			enginetest.BenchPlayoutFast(b, newGame(b, players, 1))
		})
	}
}

// BenchmarkPlayoutSideBySide runs both playouts in turns under the same
// load and reports their ratio.
func BenchmarkPlayoutSideBySide(b *testing.B) {
	for _, players := range benchPlayers {
		b.Run(fmt.Sprintf("players=%d", players), func(b *testing.B) {
			enginetest.BenchPlayoutSideBySide(b, newGame(b, players, 1))
		})
	}
}

// BenchmarkDeterminize is what a search pays per iteration before its
// playout: a determinized copy of a middle-game position (its fast state
// rebuilt from the board), and a plain Clone for comparison.
func BenchmarkDeterminize(b *testing.B) {
	st := newGame(b, 3, 1)
	r := engine.NewRand(1)
	for i := 0; i < 30; i++ {
		st.PlayRandom(&r)
	}
	enginetest.BenchDeterminize(b, st, 0)
}

// TestSortByCodeIsTheComparisonSort: the counting sort Determinize uses
// gives exactly the comparison sort's order (the shuffle that follows
// starts from it, so any other order would change every search): on real
// bags and hands, and on random pools with repeats of every code.
func TestSortByCodeIsTheComparisonSort(t *testing.T) {
	byCompare := func(p []Tile) []Tile {
		q := slices.Clone(p)
		slices.SortFunc(q, func(a, b Tile) int { return tileCode(a) - tileCode(b) })
		return q
	}
	var pools [][]Tile
	for seed := uint64(1); seed <= 5; seed++ {
		st := newGame(t, 2, seed)
		pools = append(pools, slices.Concat(st.Bag, st.Hands[0], st.Hands[1]))
	}
	r := engine.NewRand(7)
	for i := 0; i < 200; i++ {
		p := make([]Tile, r.IntN(120))
		for k := range p {
			p[k] = codeTile[r.IntN(256)]
		}
		pools = append(pools, p)
	}
	for i, p := range pools {
		want := byCompare(p)
		got := slices.Clone(p)
		sortByCode(got)
		if !slices.Equal(got, want) {
			t.Fatalf("pool %d (%d tiles): counting sort %v, comparison sort %v", i, len(p), got, want)
		}
	}
}
