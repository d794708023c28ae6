package closure

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
// including what Fingerprint does not show (the deck's order, the order
// of a hand, the random source), so that their futures agree too. Final,
// the breakdown of the final scoring that Apply keeps for its words, is
// not compared: Play does not build it.
func sameState(t testing.TB, what string, a, b *State) {
	t.Helper()
	x, y := *a, *b
	for _, s := range []*State{&x, &y} {
		s.fast, s.Final = fast{}, nil
		s.Deck, s.Discards, s.Hands = nil, nil, nil
		if len(s.Win) == 0 {
			s.Win = nil
		}
	}
	if !reflect.DeepEqual(x, y) || fmt.Sprint(a.Deck, a.Discards, a.Hands) != fmt.Sprint(b.Deck, b.Discards, b.Hands) {
		t.Fatalf("%s: positions differ:\n%+v %v %v %v\n%+v %v %v %v", what, x.Table, a.Deck, a.Discards, a.Hands, y.Table, b.Deck, b.Discards, b.Hands)
	}
}

// checkKept fails unless what Play keeps agrees with the table: the open
// cells are those open() finds, the faces kept for each are exactly those
// ok() accepts, and the lines, areas and single-colour areas have the
// sizes (and open edges and colours) a fresh build gives.
func checkKept(t testing.TB, st *State) {
	t.Helper()
	f := &st.fast
	if !f.ok {
		return
	}
	open := st.open()
	if len(open) != f.n {
		t.Fatalf("%d open cells kept, %d open", f.n, len(open))
	}
	for _, c := range open {
		p := f.pos[c]
		if p == notOpen || int(f.open[p]) != c {
			t.Fatalf("%s is open and not kept", board.Name(c))
		}
		for fi := 0; fi < 4*NumTiles; fi++ {
			if f.fits(int(p)).has(fi) != st.ok(c, faces[fi/4+1][fi%4]) {
				t.Fatalf("%s: face %d/%d kept %v", board.Name(c), fi/4+1, fi%4, f.fits(int(p)).has(fi))
			}
		}
	}
	var fresh fast
	fresh.build(st)
	for c := range st.Cells {
		u := int(st.Cells[c].Tile)
		if u == 0 {
			continue
		}
		if f.lineSize[find(f.line[:], u)] != fresh.lineSize[find(fresh.line[:], u)] {
			t.Fatalf("tile %d: line of %d kept, %d built", u, f.lineSize[find(f.line[:], u)], fresh.lineSize[find(fresh.line[:], u)])
		}
		for q := 0; q < 4; q++ {
			a, b := find(f.area[:], u*4+q), find(fresh.area[:], u*4+q)
			if f.areaSize[a] != fresh.areaSize[b] || f.areaOpen[a] != fresh.areaOpen[b] || f.areaCol[a] != fresh.areaCol[b] {
				t.Fatalf("tile %d quadrant %d: area kept %d/%d/%c, built %d/%d/%c", u, q, f.areaSize[a], f.areaOpen[a], f.areaCol[a], fresh.areaSize[b], fresh.areaOpen[b], fresh.areaCol[b])
			}
			if f.monoSize[find(f.mono[:], u*4+q)] != fresh.monoSize[find(fresh.mono[:], u*4+q)] {
				t.Fatalf("tile %d quadrant %d: single-colour area sizes differ", u, q)
			}
		}
	}
}

// play applies a random legal move by Apply.
func applyRandom(t testing.TB, st *State, r *engine.Rand) {
	t.Helper()
	legal := st.Legal()
	if _, err := st.Apply(legal[r.IntN(len(legal))]); err != nil {
		t.Fatal(err)
	}
}

// TestCheckFast runs enginetest.CheckFast (Play against Apply for every
// legal move, PlayRandom uniform by a chi-square test) on positions
// random play rarely reaches, built by hand: stuck (the all-blue tiles
// against GRGR, so every move is a discard) and with an empty hand.
// Random games are enginetest.Run's (TestConformance).
func TestCheckFast(t *testing.T) {
	// (With an empty deck, two discards can reach one position when the
	// pile is shuffled back into the hand, which CheckFast refuses.)
	st := build(t, 2, [][]int{{1, 25}, {2}}, []int{10, 11, 12}, lay{"m13", 46, 0})
	st.Discards = []int{30, 31, 32}
	enginetest.CheckFast(t, st, 1, 30)
	st = build(t, 3, [][]int{{}, {2}, {3}}, []int{10}, lay{"m13", 19, 0})
	enginetest.CheckFast(t, st, 2, 30)
}

// checkUniform draws samples*len(legal) moves with randomMove and fails
// unless each is legal and the counts pass CheckFast's chi-square test.
func checkUniform(t *testing.T, st *State, legal []engine.Move, seed uint64, samples int) {
	t.Helper()
	index := map[Move]int{}
	for i, m := range legal {
		index[m.(Move)] = i
	}
	if len(index) != len(legal) {
		t.Fatal("Legal lists a move twice")
	}
	c := st.Clone().(*State)
	r := engine.NewRand(seed)
	counts := make([]int, len(legal))
	n := samples * len(legal)
	for i := 0; i < n; i++ {
		m := c.randomMove(&r)
		j, ok := index[m]
		if !ok {
			t.Fatalf("randomMove drew %v, not a legal move", m)
		}
		counts[j]++
	}
	if k := float64(len(legal) - 1); k > 0 {
		expected, chi := float64(n)/float64(len(legal)), 0.0
		for _, c := range counts {
			chi += (float64(c) - expected) * (float64(c) - expected) / expected
		}
		if limit := k * math.Pow(1-2/(9*k)+4.753*math.Sqrt(2/(9*k)), 3); chi > limit {
			t.Fatalf("randomMove is not uniform over %d moves: chi-square %.1f > %.1f", len(legal), chi, limit)
		}
	}
}

// TestPlayRefuses: Play refuses what Apply refuses, and changes nothing.
func TestPlayRefuses(t *testing.T) {
	// m13 = 7 BBRR (arms E, W). Blue holds 2, 19, 20, 44.
	st := build(t, 2, [][]int{{2, 19, 20, 44}, {3, 4, 5, 43}}, []int{10, 11, 12}, lay{"m13", 7, 0})
	before := enginetest.Fingerprint(st)
	for _, m := range []Move{
		{Kind: Place, Tile: 2, Cell: centre},             // taken
		{Kind: Place, Tile: 2, Cell: centre + 2},         // touches nothing
		{Kind: Place, Tile: 19, Cell: centre + 1},        // GGGG east of BBRR: no pair matches
		{Kind: Place, Tile: 3, Cell: centre + 1},         // not held
		{Kind: Place, Tile: 0, Cell: centre + 1},         // no such tile
		{Kind: Place, Tile: 49, Cell: centre + 1},        //
		{Kind: Place, Tile: 2, Cell: -1},                 //
		{Kind: Place, Tile: 2, Cell: 625},                //
		{Kind: Place, Tile: 2, Cell: centre + 1, Rot: 7}, //
		{Kind: Discard, Tile: 2},                         // a placement exists
		{Kind: Pass},                                     //
		{Kind: 9},                                        //
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
	// Stuck: only discards of held tiles and the pass.
	st = build(t, 2, [][]int{{1, 25}, {2}}, []int{10, 11, 12, 13}, lay{"m13", 46, 0})
	if err := st.Play(Move{Kind: Discard, Tile: 19}); err == nil {
		t.Fatal("discarded a tile not held")
	}
	if err := st.Play(Move{Kind: Discard, Tile: 25}); err != nil {
		t.Fatal(err)
	}
}

// TestFastPlayoutReplays: games played to the end by PlayRandom alone,
// with every move recorded through randomMove, replay through Apply to the
// same position (scores with the final scoring, winners, hands, deck, end
// reason); PlayRandom is exactly randomMove plus Play; the tiles are
// conserved and the kept sets and unions stay right throughout.
func TestFastPlayoutReplays(t *testing.T) {
	games := 40
	if testing.Short() {
		games = 10
	}
	reasons := map[string]int{}
	for g := 0; g < games; g++ {
		players := 2 + g%2
		setup := engine.Setup{Game: ID, Players: players, Seed: uint64(g)}
		if g%3 == 2 {
			setup.Options = map[string]string{"first": "1", "colors": "RB" + "G"[:players-2]}
		}
		st := fastReplay(t, setup, uint64(7*g), -1)
		reasons[st.EndReason()]++
		if st.EndReason() == "resignation" {
			t.Fatalf("game %d: no one resigned, reason %q", g, st.EndReason())
		}
	}
	t.Logf("end reasons: %v", reasons)
}

// FuzzFastPlayout: from any seed, with a resignation at any move, a game
// played by PlayRandom (and Resign) replays through Apply to the same
// position.
func FuzzFastPlayout(f *testing.F) {
	f.Add(uint64(1), uint8(2), uint8(200))
	f.Add(uint64(2), uint8(3), uint8(10))
	f.Add(uint64(3), uint8(3), uint8(0))
	f.Fuzz(func(t *testing.T, seed uint64, players, resignAt uint8) {
		setup := engine.Setup{Game: ID, Players: 2 + int(players%2), Seed: seed}
		fastReplay(t, setup, seed^0x5eed, int(resignAt))
	})
}

// fastReplay plays a game by PlayRandom from the setup (the seat to move
// resigns before move resignAt; -1: never), checking at every move that
// PlayRandom plays what randomMove draws and that the kept sets and unions
// are right, and at the end that the record replays through Apply to the
// same position. It returns the position.
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
		m := before.Clone().(*State).randomMove(&rr)
		rec = append(rec, enginetest.Entry{Seat: st.Turn, Text: m.String()})
		st.PlayRandom(&r)
		if err := before.Play(m); err != nil {
			t.Fatal(err)
		}
		sameState(t, "PlayRandom against randomMove+Play", st, before)
		checkConserved(t, st)
		checkKept(t, st)
		if len(rec) > 1000 {
			t.Fatal("more than 1000 moves")
		}
	}
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

// TestFastPlayout: enginetest.FastPlayout ends every game.
func TestFastPlayout(t *testing.T) {
	for players := 2; players <= 3; players++ {
		st := enginetest.FastPlayout(t, newGame(t, players, 3), uint64(players), 2000).(*State)
		checkConserved(t, st)
		if len(st.Winners()) == 0 || st.EndReason() == "" {
			t.Fatalf("winners %v reason %q", st.Winners(), st.EndReason())
		}
	}
}

// TestPlayRandomAllocates nothing: a warmed clone (one Play done, so its
// sets are built) plays moves without allocating. A whole playout after a
// Clone allocates at most once more: the winners list at the end.
func TestPlayRandomAllocates(t *testing.T) {
	start := newGame(t, 3, 9)
	r := engine.NewRand(1)
	start.PlayRandom(&r)
	st := start.Clone().(*State)
	if a := testing.AllocsPerRun(30, func() { st.PlayRandom(&r) }); a != 0 {
		t.Fatalf("PlayRandom allocates %.2f times per move", a)
	}
	if st.Over() {
		t.Fatal("the game ended during the measurement")
	}
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

// TestEndReason: each of the four end conditions, and a resignation, has
// its word, whether the game ended through Apply or through Play.
func TestEndReason(t *testing.T) {
	for _, fastPath := range []bool{false, true} {
		play := func(st *State, text string) {
			t.Helper()
			if !fastPath {
				enginetest.Play(t, st, text)
				return
			}
			m, err := st.Parse(text)
			if err != nil {
				t.Fatal(err)
			}
			if err := st.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		check := func(st *State, want string) {
			t.Helper()
			if !st.Over() || st.EndReason() != want {
				t.Fatalf("fast %v: over %v reason %q, want %q (%s)", fastPath, st.Over(), st.EndReason(), want, st.EndWhy)
			}
		}
		// Over 99: Blue at 99 places 2 at m14 for nothing, Green at 100
		// places 19 at l13 for nothing and ends the turn above 99.
		st := build(t, 2, [][]int{{2}, {19}}, []int{}, lay{"m13", 46, 0})
		st.Score = []int{99, 100}
		if play(st, "2 m14"); st.EndReason() != "" {
			t.Fatalf("reason %q while the game goes on", st.EndReason())
		}
		play(st, "19 l13")
		check(st, "over 99")
		// All passed: both stuck on GGGG with all-blue tiles.
		st = build(t, 2, [][]int{{1}, {25}}, []int{}, lay{"m13", 19, 0})
		play(st, "pass")
		play(st, "pass")
		check(st, "all passed")
		// Four idle rounds: discards and passes, never two passes in a row.
		st = build(t, 2, [][]int{{1, 25, 24, 48}, {}}, []int{}, lay{"m13", 19, 0})
		for !st.Over() {
			if st.Turn == 0 {
				play(st, "discard "+fmt.Sprint(st.Hands[0][0]))
			} else {
				play(st, "pass")
			}
		}
		check(st, "four idle rounds")
		// Resignation.
		st = newGame(t, 2, 1)
		st.Resign(0)
		check(st, "resignation")
	}
}

// TestEndReasonAllLaid: a random game played by PlayRandom lays all 48
// tiles, and its reason says so. (TestFastPlayoutReplays shows the same
// reason comes out of Apply.)
func TestEndReasonAllLaid(t *testing.T) {
	for seed := uint64(0); seed < 50; seed++ {
		st := newGame(t, 2, seed)
		enginetest.FastPlayout(t, st, seed, 2000)
		if st.Laid == NumTiles {
			if st.EndReason() != "all tiles laid" {
				t.Fatalf("48 laid, reason %q", st.EndReason())
			}
			return
		}
	}
	t.Fatal("no game laid all 48 tiles")
}

// TestDeterminizeHidesOnlyTheHidden: two positions that differ only in the
// other hands, the deck's order and the random source give the same copy
// for the same r; the viewer's hand, the table, the discard pile, the
// counts and the scores are kept.
func TestDeterminizeHidesOnlyTheHidden(t *testing.T) {
	for players := 2; players <= 3; players++ {
		a := newGame(t, players, 11)
		r := engine.NewRand(4)
		for i := 0; i < 15; i++ {
			a.PlayRandom(&r)
		}
		a.Discards = append(a.Discards, a.Deck[len(a.Deck)-1]) // a face-up discard too
		a.Deck = a.Deck[:len(a.Deck)-1]
		viewer := a.Turn
		b := a.Clone().(*State)
		b.Rng = engine.NewRand(99)
		for s := range b.Hands {
			if engine.Seat(s) != viewer {
				for i := range b.Hands[s] {
					k := len(b.Deck) - 1 - i - 4*s
					b.Hands[s][i], b.Deck[k] = b.Deck[k], b.Hands[s][i]
				}
			}
		}
		slices.Reverse(b.Deck)
		other := (int(viewer) + 1) % players
		if fmt.Sprint(a.Hands[other]) == fmt.Sprint(b.Hands[other]) {
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
			checkKept(t, da)
			if fmt.Sprint(da.Hands[viewer]) != fmt.Sprint(a.Hands[viewer]) || da.Cells != a.Cells || da.Laid != a.Laid ||
				!reflect.DeepEqual(da.Score, a.Score) || len(da.Deck) != len(a.Deck) || !reflect.DeepEqual(da.Discards, a.Discards) ||
				da.Turn != a.Turn || da.Rng == a.Rng {
				t.Fatal("Determinize changed what the viewer sees, or kept the random source")
			}
			for s := range a.Hands {
				if len(da.Hands[s]) != len(a.Hands[s]) {
					t.Fatalf("seat %d holds %d tiles, had %d", s, len(da.Hands[s]), len(a.Hands[s]))
				}
			}
			enginetest.FastPlayout(t, da, k, 2000) // plays on by itself
		}
		if fmt.Sprint(a.Hands) == fmt.Sprint(b.Hands) || a.Over() {
			t.Fatal("Determinize changed its receiver")
		}
	}
}

// TestDeterminizeIsUniform: over many draws each unseen tile lands in each
// hidden place (a slot of another seat's hand, a place in the deck) about
// equally often: each count is binomial(draws, 1/unseen) and must lie
// within 5 standard deviations of its mean (a correct deal fails this
// about once in 3 million cells; the seed is fixed).
func TestDeterminizeIsUniform(t *testing.T) {
	st := newGame(t, 3, 5)
	r := engine.NewRand(8)
	for i := 0; i < 10; i++ {
		st.PlayRandom(&r)
	}
	viewer := st.Turn
	type place struct{ where, i int } // where: a seat, or -1 for the deck
	var places []place
	for s, h := range st.Hands {
		if engine.Seat(s) != viewer {
			for i := range h {
				places = append(places, place{s, i})
			}
		}
	}
	for i := range st.Deck {
		places = append(places, place{-1, i})
	}
	unseen := len(places)
	counts := map[int][]int{}
	draws := 6000
	if testing.Short() {
		draws = 2000
	}
	for k := 0; k < draws; k++ {
		d := st.Determinize(viewer, &r).(*State)
		for pi, p := range places {
			x := 0
			if p.where >= 0 {
				x = d.Hands[p.where][p.i]
			} else {
				x = d.Deck[p.i]
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
				t.Fatalf("tile %d landed %d times in place %v, expected %.0f ± %.0f", x, n, places[pi], mean, sd)
			}
		}
	}
}

// The playout benchmarks of docs/benchmarks.md, from the start with each
// player count.
var benchPlayers = []int{2, 3}

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
