package glorieta

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"sort"
	"testing"

	"tessera/engine"
	"tessera/engine/enginetest"
)

// referenceGames plays games through Legal and Apply alone (the way the
// platform plays) and returns every every-th position that is not over,
// the first one included. Moves are uniform over Legal, or chosen by
// biased (more flips and full boards) when bias is set.
func referenceGames(tb testing.TB, opts map[string]string, games, every int, seed uint64, bias bool) []*State {
	tb.Helper()
	var out []*State
	for g := 0; g < games; g++ {
		s, err := engine.New(engine.Setup{Game: ID, Players: 2, Options: opts, Seed: seed + uint64(g)})
		if err != nil {
			tb.Fatal(err)
		}
		st := s.(*State)
		rng := rand.New(rand.NewPCG(seed+uint64(g), 11))
		for n := 0; !st.Over(); n++ {
			if n%every == 0 {
				out = append(out, st.Clone().(*State))
			}
			var m engine.Move
			if bias {
				m = biased(st, rng)
			} else {
				legal := st.Legal()
				m = legal[rng.IntN(len(legal))]
			}
			if _, err := st.Apply(m); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return out
}

// difference describes how two positions differ in anything a player or
// Play can observe, the book included, or returns "".
func difference(a, b *State) string {
	type summary struct {
		Table   engine.Table
		Stones  [nCells]uint8
		Pink    [nCells]bool
		Hands   [2]int
		Flipped [2]bool
		Started bool
		Empty   int
		Last    [2]int
		Loop    []int
		End     string
		Synced  bool
	}
	sum := func(st *State) summary {
		t := st.Table
		if len(t.Win) == 0 {
			t.Win = nil
		}
		return summary{t, st.Stones, st.Pink, st.Hands, st.Flipped, st.Started, st.Empty, st.Last, st.loop(), st.EndReason(), st.synced()}
	}
	sa, sb := sum(a), sum(b)
	if !reflect.DeepEqual(sa, sb) {
		return fmt.Sprintf("%+v\n%+v", sa, sb)
	}
	if a.synced() && a.fast != b.fast {
		return "the books differ"
	}
	return ""
}

// checkBook compares the book, kept move by move, with one built afresh.
func checkBook(tb testing.TB, st *State) {
	tb.Helper()
	if !st.synced() {
		tb.Fatal("the book is not in step")
	}
	fresh := *st
	fresh.rebuild()
	kept := st.fast // find shortens paths: look at a copy
	a, b := &kept, &fresh.fast
	if a.member != b.member || a.nbrs != b.nbrs || a.nEmpty != b.nEmpty || a.nFlip != b.nFlip {
		tb.Fatal("members, member neighbours or list sizes differ from a fresh book")
	}
	sorted := func(l []uint8) string {
		c := append([]uint8(nil), l...)
		sort.Slice(c, func(i, j int) bool { return c[i] < c[j] })
		return fmt.Sprint(c)
	}
	if sorted(a.empties[:a.nEmpty]) != sorted(b.empties[:b.nEmpty]) {
		tb.Fatal("the empty cells differ from a fresh book")
	}
	for s := 0; s < 2; s++ {
		if sorted(a.flippable[s][:a.nFlip[s]]) != sorted(b.flippable[s][:b.nFlip[s]]) {
			tb.Fatalf("seat %d's flippable stones differ from a fresh book", s)
		}
		for i, c := range a.flippable[s][:a.nFlip[s]] {
			if int(a.at[c]) != i {
				tb.Fatal("a flippable stone's index is wrong")
			}
		}
		// The same groups: two members share a root in one book exactly
		// when they do in the other.
		rootOf := map[int]int{}
		for w := 0; w < worldN; w++ {
			if !a.member[s][w] {
				continue
			}
			ra, rb := a.find(s, w), b.find(s, w)
			if prev, ok := rootOf[ra]; ok && prev != rb {
				tb.Fatalf("seat %d: the kept groups differ from a fresh book", s)
			}
			rootOf[ra] = rb
		}
		if len(rootOf) != countRoots(b, s) {
			tb.Fatalf("seat %d: %d kept groups, %d fresh", s, len(rootOf), countRoots(b, s))
		}
	}
	for i, c := range a.empties[:a.nEmpty] {
		if int(a.at[c]) != i {
			tb.Fatal("an empty cell's index is wrong")
		}
	}
}

func countRoots(b *book, s int) int {
	n := 0
	for w := 0; w < worldN; w++ {
		if b.member[s][w] && b.find(s, w) == w {
			n++
		}
	}
	return n
}

// TestIncrementalLoopMatchesHole grows one seat's members a cell at a time
// in random orders, with the cells' contents mixed (own stones, pink
// stones of either owner), and checks after every cell that join reports
// a loop exactly when hole first finds one.
func TestIncrementalLoopMatchesHole(t *testing.T) {
	orders := 2000
	if testing.Short() {
		orders = 500
	}
	rng := rand.New(rand.NewPCG(5, 5))
	var kinds [2]int // loops around a non-member, around members only
	for i := 0; i < orders; i++ {
		s, _ := New(engine.Setup{Game: ID, Players: 2})
		st := s.(*State)
		seat := engine.Seat(i % 2)
		b := &st.fast
		for k, c := range rng.Perm(nCells) {
			// The member: a stone of seat, or a pink stone of either.
			owner := seat
			if rng.IntN(4) == 0 {
				owner = engine.Seat(rng.IntN(2))
				st.Pink[c] = true
			}
			st.Stones[c] = uint8(owner) + 1
			loop := b.join(int(seat), worldOf[c])
			h := st.hole(seat)
			if loop != (h >= 0) {
				t.Fatalf("order %d, cell %d (%s): join says loop %v, hole says %d", i, k, board.Name(c), loop, h)
			}
			if loop {
				if st.fast.member[seat][worldOf[h]] {
					kinds[1]++
				} else {
					kinds[0]++
				}
				break
			}
		}
	}
	t.Logf("first loops around a non-member: %d, around members only: %d", kinds[0], kinds[1])
	if kinds[0] == 0 || kinds[1] == 0 {
		t.Fatal("the orders did not produce both kinds of loop")
	}
}

// checkPlayAndDraw checks one position without a Fingerprint per move
// (a Fingerprint takes about a millisecond, and there are up to 8,001
// moves): Play and Apply reach the same position (and the same book) for
// every single stone, every flip and every pairEvery-th pair, with a full
// Fingerprint for every 500th of these and the first three that end the
// game; draw picks each legal move about equally often (chi-square over
// samples draws per legal move); PlayRandom is draw followed by play.
func checkPlayAndDraw(t *testing.T, st *State, seed uint64, samples, pairEvery int) {
	t.Helper()
	legal := st.Legal()
	// index[key(m)] is 1 + m's place in legal (a slice, not a map: there
	// are up to 240,000 draws to look up).
	key := func(m Move) int {
		switch {
		case m.Flip:
			return nCells*nCells + m.A
		case m.B < 0:
			return m.A*nCells + m.A // the diagonal, which no pair uses
		}
		return m.A*nCells + m.B
	}
	index := make([]int, nCells*nCells+nCells)
	tried, ended := 0, 0
	for i, mv := range legal {
		m := mv.(Move)
		index[key(m)] = i + 1
		if m.B >= 0 && i%pairEvery != 0 {
			continue
		}
		tried++
		applied := st.Clone().(*State)
		if _, err := applied.Apply(m); err != nil {
			t.Fatalf("Apply(%s): %v", m, err)
		}
		played := st.Clone().(*State)
		if err := played.Play(m); err != nil {
			t.Fatalf("Play(%s): %v", m, err)
		}
		if d := difference(applied, played); d != "" {
			t.Fatalf("Play(%s) and Apply(%s) differ:\n%s", m, m, d)
		}
		if tried%500 == 1 || (applied.Over() && ended < 3) {
			ended += btoi(applied.Over())
			if a, p := enginetest.Fingerprint(applied), enginetest.Fingerprint(played); a != p {
				t.Fatalf("Play(%s) and Apply(%s) reach different positions:\n%s\n%s", m, m, a, p)
			}
		}
	}
	c := st.Clone().(*State)
	c.rebuild()
	r := engine.NewRand(seed)
	counts := make([]int, len(legal))
	n := samples * len(legal)
	for i := 0; i < n; i++ {
		m, _, ok := c.draw(&r)
		if !ok || m.A < 0 || m.A >= nCells || m.B >= nCells || (m.B >= 0 && m.B <= m.A) || index[key(m)] == 0 {
			t.Fatalf("draw gave %v (%v), not a legal move", m, ok)
		}
		counts[index[key(m)]-1]++
	}
	if p := chiSquareP(counts, n); p < 1e-6 {
		t.Fatalf("draw is not uniform over %d legal moves (p = %.2g)", len(legal), p)
	}
	for i := 0; i < 20; i++ {
		a, b := st.Clone().(*State), st.Clone().(*State)
		ra, rb := r, r
		a.PlayRandom(&ra)
		if !b.synced() {
			b.rebuild()
		}
		m, _, _ := b.draw(&rb)
		b.play(m)
		if d := difference(a, b); d != "" || ra != rb {
			t.Fatalf("PlayRandom is not draw then play (%s):\n%s", m, d)
		}
		r = ra
	}
}

// chiSquareP is the chance of a chi-square statistic at least this large
// for counts of n uniform draws (Wilson–Hilferty's normal approximation).
func chiSquareP(counts []int, n int) float64 {
	if len(counts) < 2 {
		return 1
	}
	want := float64(n) / float64(len(counts))
	chi := 0.0
	for _, c := range counts {
		d := float64(c) - want
		chi += d * d / want
	}
	k := float64(len(counts) - 1)
	z := (math.Cbrt(chi/k) - (1 - 2/(9*k))) / math.Sqrt(2/(9*k))
	return 0.5 * math.Erfc(z/math.Sqrt2)
}

// TestPlayAndDrawOnLargePositions covers the positions with thousands of
// pairs, whose draws enginetest.Run does not count: every 5th position of
// 4 uniform games and 1 biased one (20 and 6 with enginetest.Long), each
// with 30 draws per legal move.
func TestPlayAndDrawOnLargePositions(t *testing.T) {
	games := 4
	if enginetest.Long() {
		games = 20
	}
	pos := referenceGames(t, nil, games, 5, 100, false)
	pos = append(pos, referenceGames(t, nil, games/3, 5, 200, true)...)
	big := 0
	for i, st := range pos {
		if len(st.Legal()) > 1000 {
			big++
		}
		checkPlayAndDraw(t, st, uint64(i), 30, 20)
	}
	t.Logf("%d positions, %d with more than 1000 legal moves", len(pos), big)
}

// TestCheckFast runs the shared check (a Fingerprint for every legal move
// and every draw) on the positions random play never reaches: full boards
// (flips lead to flips; 2 positions, a few seconds each) and hand-built
// positions whose book is stale, each with 30 draws a move. Random games
// are enginetest.Run's (TestConformance); TestPlayAndDrawOnLargePositions
// covers the large positions, with 30 draws a move.
func TestCheckFast(t *testing.T) {
	fulls := 2
	if testing.Short() {
		fulls = 1
	}
	checked := 0
	// Random play never fills the board; the striped full board of
	// TestFullBoard (built by hand: its book is stale) and random flips
	// from it do.
	rng := rand.New(rand.NewPCG(4, 4))
	for i := 0; fulls > 0 && i < 100; i++ {
		st := fullBoard(t, "")
		st.Hands = [2]int{rng.IntN(Handful + 1), rng.IntN(Handful + 1)}
		for k := 0; fulls > 0 && !st.Over(); k++ {
			if k%3 == i%3 {
				enginetest.CheckFast(t, st, uint64(i), 30)
				fulls--
				checked++
			}
			legal := st.Legal()
			enginetest.Play(t, st, legal[rng.IntN(len(legal))].String())
		}
	}
	if fulls > 0 {
		t.Fatalf("%d full boards missing", fulls)
	}
	// Hand-built positions: stones put directly, so the book is stale.
	st := started(t, Black)
	put(t, st, Black, "f6 f7 g6 g8 a1 a2")
	put(t, st, Yellow, "h6 m1 m2")
	st.Hands = [2]int{4, 0}
	enginetest.CheckFast(t, st, 1, 30)
	t.Logf("%d positions checked", checked+1)
}

// TestFastPlayouts plays games to the end with PlayRandom alone and replays
// the same moves (identified by draw from the same random state) through
// Parse and Apply: same position after every move, the book in step with a
// fresh one, and at the end Glorieta's invariants, the same winner, the
// same loop and the same end reason.
func TestFastPlayouts(t *testing.T) {
	games := 60
	if testing.Short() {
		games = 15
	}
	reasons := fastPlayouts(t, nil, games)
	// And through the shared helper, from positions the platform reached.
	for i, st := range referenceGames(t, nil, games/5, 20, 500, false) {
		end := enginetest.FastPlayout(t, st, uint64(i), 1000).(*State)
		checkInvariants(t, end, engine.Outcome{})
		if w := end.Winners(); len(w) != 1 || end.hole(w[0]) < 0 {
			t.Fatalf("from position %d: winners %v", i, w)
		}
	}
	t.Logf("end reasons: %v", reasons)
}

// fastPlayouts is TestFastPlayouts's main check, for the given options;
// it returns how often each end reason came up.
func fastPlayouts(t *testing.T, opts map[string]string, games int) map[string]int {
	t.Helper()
	reasons := map[string]int{}
	for g := 0; g < games; g++ {
		s, err := New(engine.Setup{Game: ID, Players: 2, Options: opts, Seed: uint64(g)})
		if err != nil {
			t.Fatal(err)
		}
		fast := s.(*State)
		slow := fast.Clone().(*State)
		r := engine.NewRand(uint64(g))
		for n := 0; !fast.Over(); n++ {
			if n > 2000 {
				t.Fatalf("game %d does not end", g)
			}
			peek := r
			m, _, _ := fast.draw(&peek)
			fast.PlayRandom(&r)
			if r != peek {
				t.Fatal("PlayRandom drew differently from draw")
			}
			parsed, err := slow.Parse(m.String())
			if err != nil {
				t.Fatalf("game %d: drawn move %s: %v", g, m, err)
			}
			o, err := slow.Apply(parsed)
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, slow, o)
			if d := difference(slow, fast); d != "" {
				t.Fatalf("game %d move %d %s: PlayRandom and Apply differ:\n%s", g, n, m, d)
			}
			if n%7 == 0 && !fast.Over() {
				checkBook(t, fast)
			}
		}
		if a, b := enginetest.Fingerprint(slow), enginetest.Fingerprint(fast); a != b {
			t.Fatalf("game %d: the finished positions differ", g)
		}
		w := fast.Winners()
		if len(w) != 1 || fast.hole(w[0]) < 0 || fast.hole(opp(w[0])) >= 0 || len(fast.loop()) == 0 {
			t.Fatalf("game %d: winners %v without a loop, or a loop for both", g, w)
		}
		reasons[fast.EndReason()]++
	}
	return reasons
}

// TestPlayRandomAllocs: no allocation per move, nor at the end of a game.
func TestPlayRandomAllocs(t *testing.T) {
	pos := referenceGames(t, nil, 3, 4, 600, false)
	c := &State{}
	r := engine.NewRand(1)
	for _, st := range pos {
		st.PlayRandom(&r) // warm: the book is in step
		if st.Over() {
			continue
		}
		if a := testing.AllocsPerRun(200, func() {
			*c = *st
			c.PlayRandom(&r)
		}); a != 0 {
			t.Fatalf("PlayRandom allocates %.1f times a move", a)
		}
	}
	s, _ := New(engine.Setup{Game: ID, Players: 2})
	start := s.(*State)
	if a := testing.AllocsPerRun(20, func() {
		*c = *start
		for !c.Over() {
			c.PlayRandom(&r)
		}
	}); a != 0 {
		t.Fatalf("a whole playout allocates %.1f times", a)
	}
}

// TestEndReasons: one reason per way a game ends.
func TestEndReasons(t *testing.T) {
	// A stone closes the mover's loop: "loop", through Apply and Play.
	for _, fast := range []bool{false, true} {
		st := started(t, Yellow)
		put(t, st, Yellow, "f6 f7 g6 g8 h6")
		if st.EndReason() != "" {
			t.Fatalf("a game going on has the end reason %q", st.EndReason())
		}
		play(t, st, "h7", fast)
		if st.EndReason() != "loop" {
			t.Fatalf("fast %v: end reason %q, want loop", fast, st.EndReason())
		}
		// A flip completes the opponent's loop: "loop by flip".
		st = started(t, Yellow)
		put(t, st, Black, "f6 f7 g6 g8 h6")
		put(t, st, Yellow, "h7 a1")
		play(t, st, "flip h7", fast)
		if st.EndReason() != "loop by flip" || st.Winners()[0] != Black {
			t.Fatalf("fast %v: end reason %q winners %v, want loop by flip", fast, st.EndReason(), st.Winners())
		}
	}
	// Resignation (a time-out is recorded the same way); resigning again
	// after the end changes nothing.
	st := started(t, Yellow)
	st.Resign(Yellow)
	st.Resign(Black)
	if st.EndReason() != "resignation" || st.Winners()[0] != Black {
		t.Fatalf("resignation: %q, winners %v", st.EndReason(), st.Winners())
	}
	// Nobody can act: never in play (see the rules), so on the position of
	// TestPassMechanism with Black's stones pink too.
	st = fullBoard(t, "")
	for c := range st.Pink {
		st.Pink[c] = true
	}
	var o engine.Outcome
	st.advance(&o)
	if !st.Over() || st.EndReason() != "no legal action" {
		t.Fatalf("stuck: over %v, reason %q", st.Over(), st.EndReason())
	}
	// A replayed game: the docs example ends with Yellow's loop.
	if got := replayExample(t).(engine.Ender).EndReason(); got != "loop" {
		t.Fatalf("the docs example ends by %q", got)
	}
}

// play plays a move in notation through Apply or Play.
func play(t *testing.T, st *State, text string, fast bool) {
	t.Helper()
	if !fast {
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

// replayExample replays docs/rules/glorieta.md's example: Yellow's first
// stone, then one turn each, alternating from Black.
func replayExample(t *testing.T) engine.State {
	t.Helper()
	var rec []enginetest.Entry
	for i, text := range []string{"g7", "d4 d6", "h7 g8", "flip d4", "i8, i7", "c4 c5", "flip g7", "e5 j9", "g9", "b3 b4", "h9"} {
		rec = append(rec, enginetest.Entry{Seat: engine.Seat(i % 2), Text: text})
	}
	st, err := enginetest.Replay(engine.Setup{Game: ID, Players: 2, Seed: 1}, rec)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// The old playout: list the legal moves, choose one uniformly, Apply; for
// the standard game and two handfuls.
func BenchmarkPlayoutLegalApply(b *testing.B) {
	for _, n := range benchHandfuls {
		b.Run("handful="+n, func(b *testing.B) {
			enginetest.BenchPlayoutLegalApply(b, benchStart(b, n))
		})
	}
}

func BenchmarkPlayoutFast(b *testing.B) {
	for _, n := range benchHandfuls {
		b.Run("handful="+n, func(b *testing.B) {
			enginetest.BenchPlayoutFast(b, benchStart(b, n))
		})
	}
}

var benchHandfuls = []string{"6", "3", "1"}

func benchStart(b *testing.B, handful string) engine.State {
	st, err := engine.New(engine.Setup{Game: ID, Players: 2, Options: map[string]string{"handful": handful}})
	if err != nil {
		b.Fatal(err)
	}
	return st
}

// FuzzFastPlay: from a position reached by Apply (uniform moves from a
// seed, under a fuzzed handful), PlayRandom plays to the end while the
// same moves go through Parse and Apply on a copy: the positions never
// differ, and the winner owns a loop.
func FuzzFastPlay(f *testing.F) {
	f.Add(uint64(1), uint8(6), uint8(0))
	f.Add(uint64(2), uint8(1), uint8(9))
	f.Add(uint64(3), uint8(2), uint8(30))
	f.Fuzz(func(t *testing.T, seed uint64, handful, before uint8) {
		opts := map[string]string{"handful": fmt.Sprint(1 + handful%Handful)}
		s, err := New(engine.Setup{Game: ID, Players: 2, Options: opts, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		slow := s.(*State)
		r := engine.NewRand(seed)
		for i := 0; i < int(before)%40 && !slow.Over(); i++ {
			legal := slow.Legal()
			if _, err := slow.Apply(legal[r.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
		fast := slow.Clone().(*State)
		for n := 0; !fast.Over(); n++ {
			if n > 2000 {
				t.Fatal("the game does not end")
			}
			peek := r
			m, _, _ := fast.draw(&peek)
			fast.PlayRandom(&r)
			if _, err := slow.Apply(m); err != nil {
				t.Fatalf("drawn move %s: %v", m, err)
			}
			if d := difference(slow, fast); d != "" {
				t.Fatalf("after %s:\n%s", m, d)
			}
		}
		if w := fast.Winners(); len(w) != 1 || fast.hole(w[0]) < 0 || fast.EndReason() != slow.EndReason() {
			t.Fatalf("winners %v, end %q / %q", w, fast.EndReason(), slow.EndReason())
		}
	})
}
