package enginetest

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"tessera/engine"
)

// Run is the conformance suite every registered game passes, as
// storagetest.Run is for the stores: a game's package test calls
//
//	func TestConformance(t *testing.T) { enginetest.Run(t, ID) }
//
// and gets, for every player count and every listed option value of its
// registration (engine.Option.Values), random games (at least 200 moves
// in all, every other game's moves chosen by PlayRandom) checked on every
// move:
//   - notation: each legal move's String parses back to the same move
//     (and, for engine.Keyer moves, the same key; distinct moves,
//     distinct keys);
//   - scores: each seat's score is the sum of its deltas, the outcome
//     names the mover and the move;
//   - cloning: a clone is untouched by the moves applied to its original;
//   - fast paths (engine.FastPlayer): a twin of the game played through
//     Play (or PlayRandom) alone stays equal to it move for move, and at
//     a position every 12 moves Play of each legal move (a sample of at
//     most MovesPerPosition) reaches the position Apply reaches;
//   - uniform random moves: PlayRandom (and engine.Sampler's RandomMove)
//     draws only legal moves, each about equally often (chi-square);
//   - engine.KeyLister, engine.Finisher and engine.Sampler agree with
//     Legal and Apply and leave the position as it was; engine.KeyScorer's
//     points are the move's Preview (or Apply) for the mover less the
//     others';
//   - placements (engine.Placer): every legal move placed on the board
//     has one, inside the board's picture, with a piece the hand's
//     picture names, no two alike; pass-like moves have none;
//   - determinizations (engine.Determinizer), and the worlds of
//     engine.Inferrer's Infer (sharpness 1, for the seat to move and the
//     next), keep everything the viewer sees, leave their receiver
//     alone, and do not depend on what the viewer cannot see;
//   - the platform's capabilities (platform.go): engine.Previewer's
//     points are Apply's, seat by seat, for a sample of the legal moves;
//     engine.Gainer gives one Gain a move, the same whatever list the
//     move is in, and leaves the position alone; engine.Starter
//     announces something about the seats of the game, the same for
//     the same setup; engine.Framer draws every checked position in the
//     frame of the game's last at the last one's size;
//   - engine.Ender's EndReason is "" in play and one short line at the
//     end, the same for the replayed record;
//   - the record, through JSON, replays to the same position, and a
//     finished game has no seat to move and no legal move.
//
// So every one of engine's fourteen optional interfaces that a game
// implements is checked. What Run cannot judge stays with the game's own
// tests: whether a Gain's words are true, a Scene looks right, or an
// Inferrer's weights make it stronger (docs/ai.md measures that).
//
// Its default sizes keep the suite to a few seconds of CPU a game;
// TESSERA_LONG=1 (or a test binary run with -long) plays four times the
// moves and checks twice the positions. What random play rarely
// reaches (a drift in a playout cache after a rare capture) stays the
// business of the game's own tests, with positions built by hand.
func Run(t *testing.T, gameID string) {
	t.Helper()
	g, ok := engine.Lookup(gameID)
	if !ok {
		t.Fatalf("enginetest.Run: no game %q is registered", gameID)
	}
	sz := sizes()
	configs := Configs(g)
	if len(configs) == 0 {
		t.Fatalf("enginetest.Run: %s accepts none of its own player counts and option values", g.ID)
	}
	for i, setup := range configs {
		t.Run(configName(setup), func(t *testing.T) {
			var total stats
			uniform, member := sz.uniform, sz.member
			games := 0
			for ; games < sz.maxGames && (games < sz.games || total.moves < sz.moves); games++ {
				setup.Seed = uint64(1000*i + games + 1)
				c := newChecker(t, setup, sz, uniform, member)
				c.byPlayRandom = games%2 == 1 && c.twin != nil
				c.play()
				total.add(c.stats)
				uniform, member = c.left, c.memberLeft
			}
			t.Logf("%d games, %d moves; %d positions checked, %d moves played both ways there, %d draws counted at %d positions, %d at %d more for legality (largest list %d)",
				games, total.moves, total.positions, total.compared, total.draws, total.uniform, total.memberDraws, total.member, total.largest)
		})
	}
}

// stats is what a checker checked, for the test's log.
type stats struct {
	moves, positions, compared, largest int
	uniform, draws, member, memberDraws int
}

func (s *stats) add(o stats) {
	s.moves += o.moves
	s.positions += o.positions
	s.compared += o.compared
	s.largest = max(s.largest, o.largest)
	s.uniform += o.uniform
	s.draws += o.draws
	s.member += o.member
	s.memberDraws += o.memberDraws
}

// MovesPerPosition bounds the legal moves whose Play is compared with
// Apply at one checked position; longer lists are sampled.
const MovesPerPosition = 24

// size is how much Run checks.
type size struct {
	games     int // random games per configuration, at least
	moves     int // and more until they have played this many moves
	maxGames  int // but no more games than this
	every     int // a full check every so many plies (and at plies 0 and 1)
	compare   int // legal moves compared per checked position
	draws     int // PlayRandom draws per legal move at a uniformity check (at most; 5 at least)
	allDraws  int // the draws of one uniformity check, at most
	uniform   int // uniformity checks per configuration
	maxLegal  int // the largest legal list a uniformity check draws over
	member    int // checks per configuration that PlayRandom plays a legal move, where the list is too long to count draws
	maxMember int // the largest legal list such a check plays every move of
	maxFind   int // the largest legal list in which a game driven by PlayRandom finds the move played
	maxPlies  int // a game that has not ended by then is stopped
	finishers int // the largest legal list on which WinningMove is checked against every move
}

// Long reports whether the long sizes were asked for, by TESSERA_LONG=1
// or a test binary's -long argument (.ci/run's longer checks): Run then
// plays at least four games and 800 moves a configuration and checks a
// position every 6 moves, and a game's own heavy tests may grow too.
func Long() bool {
	if v := os.Getenv("TESSERA_LONG"); v != "" && v != "0" {
		return true
	}
	return *long
}

var long = flag.Bool("long", false, "enginetest: play the long sizes (also TESSERA_LONG=1)")

func sizes() size {
	s := size{games: 1, moves: 200, maxGames: 20, every: 12, compare: MovesPerPosition, draws: 20, allDraws: 2000, uniform: 2, maxLegal: 400, member: 2, maxMember: 1000, maxFind: 200, maxPlies: 600, finishers: 150}
	if Long() {
		s = size{games: 4, moves: 800, maxGames: 80, every: 6, compare: 2 * MovesPerPosition, draws: 30, allDraws: 6000, uniform: 6, maxLegal: 1000, member: 6, maxMember: 3000, maxFind: 400, maxPlies: 2000, finishers: 500}
	}
	if testing.Short() {
		s.every *= 2
		s.uniform = 1
	}
	return s
}

// Configs is every setup Run plays for a game: each player count with the
// default options, then each listed value of each option (engine.Option's
// Values) at each player count, leaving out what New refuses (Knotwork
// alone without a puzzle, a pie rule for three).
func Configs(g engine.Game) []engine.Setup {
	var out []engine.Setup
	try := func(players int, opts map[string]string) {
		s := engine.Setup{Game: g.ID, Players: players, Options: opts, Seed: 1}
		if _, err := engine.New(s); err == nil {
			out = append(out, s)
		}
	}
	for p := g.MinPlayers; p <= g.MaxPlayers; p++ {
		try(p, nil)
	}
	for _, o := range g.Options {
		for _, v := range o.Values {
			if v == o.Default {
				continue
			}
			for p := g.MinPlayers; p <= g.MaxPlayers; p++ {
				try(p, map[string]string{o.Name: v})
			}
		}
	}
	return out
}

func configName(s engine.Setup) string {
	name := fmt.Sprintf("%dp", s.Players)
	keys := make([]string, 0, len(s.Options))
	for k := range s.Options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		name += "/" + k + "=" + s.Options[k]
	}
	return name
}

// checker plays one random game of a setup and checks it.
type checker struct {
	t     *testing.T
	sz    size
	setup engine.Setup
	st    engine.State // played through Parse and Apply
	twin  engine.State // played through FastPlayer.Play, or nil
	r     engine.Rand
	sums  []int
	rec   []Entry
	left  int // uniformity checks left
	// memberLeft: checks left that PlayRandom plays a legal move
	memberLeft int
	// byPlayRandom: the twin chooses the moves by PlayRandom (where the
	// legal list is short enough to find its move), not Play
	byPlayRandom bool
	// pick samples the moves of the platform's checks (platform.go),
	// apart from r, so that those checks leave the games played alone.
	pick engine.Rand
	// framed are the positions checked on the way, for checkFramer.
	framed []framedPosition
	stats
}

func newChecker(t *testing.T, setup engine.Setup, sz size, uniform, member int) *checker {
	st, err := engine.New(setup)
	if err != nil {
		t.Fatalf("New(%+v): %v", setup, err)
	}
	c := &checker{t: t, sz: sz, setup: setup, st: st, r: engine.NewRand(setup.Seed), pick: engine.NewRand(setup.Seed ^ 0x5eed), sums: make([]int, st.Players()), left: uniform, memberLeft: member}
	if _, ok := st.(engine.FastPlayer); ok {
		c.twin = st.Clone()
	}
	return c
}

func (c *checker) fatalf(format string, args ...any) {
	c.t.Helper()
	c.t.Fatalf("seed %d, move %d: %s", c.setup.Seed, len(c.rec)+1, fmt.Sprintf(format, args...))
}

// play plays the game to its end (or maxPlies), checking as it goes.
func (c *checker) play() {
	c.t.Helper()
	c.checkStarter()
	for ply := 0; !c.st.Over(); ply++ {
		if ply == c.sz.maxPlies {
			if c.setup.Players > 1 {
				c.fatalf("a game of %d players did not end in %d random moves", c.setup.Players, ply)
			}
			break // a puzzle played at random may undo for ever
		}
		if ply == 0 || ply == 1 || ply%c.sz.every == 0 {
			c.position()
		}
		if c.setup.Players > 2 && ply == 7 && c.setup.Seed%2 == 1 {
			c.resign(engine.Seat(c.r.IntN(c.setup.Players)))
			continue
		}
		legal := c.st.Legal()
		if len(legal) == 0 {
			c.fatalf("seat %d to move has no legal move and the game is not over", c.st.ToMove())
		}
		if c.byPlayRandom && len(legal) <= c.sz.maxFind {
			c.playRandom(legal)
			continue
		}
		c.move(legal[c.r.IntN(len(legal))], nil)
	}
	c.end()
}

// playRandom advances the twin by PlayRandom, finds the legal move that
// reaches the same position and plays it on the game: so the twin's
// playout state is the one PlayRandom keeps up move after move, as in a
// search's playout, and a drift in it shows as a move no legal move
// matches, or as a difference later.
func (c *checker) playRandom(legal []engine.Move) {
	c.t.Helper()
	next := c.twin.Clone()
	next.(engine.FastPlayer).PlayRandom(&c.r)
	want := StateKey(next)
	for _, m := range legal {
		applied := c.st.Clone()
		if _, err := applied.Apply(m); err != nil {
			c.fatalf("Apply(%s) of a legal move: %v", m, err)
		}
		if StateKey(applied) == want {
			c.move(m, next)
			return
		}
	}
	c.fatalf("PlayRandom reached a position no legal move reaches:\n%s", Fingerprint(next))
}

// move plays m on the game (through its notation) and on the twin, or
// takes played, the twin that played it already.
func (c *checker) move(m engine.Move, played engine.State) {
	c.t.Helper()
	text := c.roundTrip(m)
	parsed, _ := c.st.Parse(text)
	clone := c.st.Clone()
	before := StateKey(clone)
	seat := c.st.ToMove()
	o, err := c.st.Apply(parsed)
	if err != nil {
		c.fatalf("legal move %q refused: %v", text, err)
	}
	if StateKey(clone) != before {
		c.fatalf("applying %q changed a clone of the position", text)
	}
	if o.Seat != seat || o.Move != text || o.Over != c.st.Over() {
		c.fatalf("the outcome of %q says seat %d, move %q, over %v", text, o.Seat, o.Move, o.Over)
	}
	c.rec = append(c.rec, Entry{seat, text})
	c.moves++
	c.score(o, text)
	switch {
	case played != nil:
		c.twin = played
		c.sameAsTwin(text)
	case c.twin != nil:
		if err := c.twin.(engine.FastPlayer).Play(m); err != nil {
			c.fatalf("Play(%s) of a legal move: %v", text, err)
		}
		c.sameAsTwin(text)
	}
}

func (c *checker) resign(s engine.Seat) {
	c.t.Helper()
	o := c.st.Resign(s)
	c.rec = append(c.rec, Entry{s, engine.ResignEntry})
	c.score(o, engine.ResignEntry)
	if c.twin != nil {
		c.twin.Resign(s)
		c.sameAsTwin(engine.ResignEntry)
	}
}

// score checks that each seat's score is the sum of its deltas.
func (c *checker) score(o engine.Outcome, after string) {
	c.t.Helper()
	for _, d := range o.Deltas {
		c.sums[d.Seat] += d.Points
	}
	for s, v := range c.st.Scores() {
		if v != c.sums[s] {
			c.fatalf("after %q: scores %v, but the deltas sum to %v", after, c.st.Scores(), c.sums)
		}
	}
}

// sameAsTwin checks that the game played through Play is the game played
// through Apply: every exported field, and every few moves everything a
// player can see.
func (c *checker) sameAsTwin(after string) {
	c.t.Helper()
	if a, p := StateKey(c.st), StateKey(c.twin); a != p {
		c.fatalf("after %q the game played through Play differs from the one played through Apply (Apply's != Play's):\n%s", after, stateDiff(c.st, c.twin))
	}
	if len(c.rec)%c.sz.every == 0 || c.st.Over() {
		if a, p := Key(c.st), Key(c.twin); a != p {
			c.fatalf("after %q the game played through Play shows otherwise than the one played through Apply:\nApply: %s\nPlay:  %s", after, Fingerprint(c.st), Fingerprint(c.twin))
		}
	}
}

// roundTrip checks that m's notation parses back to m and returns it.
func (c *checker) roundTrip(m engine.Move) string {
	c.t.Helper()
	text := m.String()
	back, err := c.st.Parse(text)
	if err != nil {
		c.fatalf("legal move %q does not parse: %v", text, err)
	}
	if back.String() != text {
		c.fatalf("%q parses back as %q", text, back)
	}
	if k, ok := m.(engine.Keyer); ok {
		if bk, ok := back.(engine.Keyer); !ok || bk.Key() != k.Key() {
			c.fatalf("%q parsed back has another key than the legal move's %#x", text, k.Key())
		}
	}
	return text
}

// end checks a finished (or stopped) game and replays its record through
// JSON.
func (c *checker) end() {
	c.t.Helper()
	if c.st.Over() && (c.st.ToMove() != engine.NoSeat || len(c.st.Legal()) != 0) {
		c.fatalf("a finished game still has a seat to move or legal moves")
	}
	type record struct {
		Setup engine.Setup `json:"setup"`
		Moves []Entry      `json:"moves"`
	}
	b, err := json.Marshal(record{c.setup, c.rec})
	if err != nil {
		c.fatalf("the record does not encode: %v", err)
	}
	var back record
	if err := json.Unmarshal(b, &back); err != nil {
		c.fatalf("the record does not decode: %v", err)
	}
	again, err := Replay(back.Setup, back.Moves)
	if err != nil {
		c.fatalf("replaying the record: %v", err)
	}
	if Key(again) != Key(c.st) || StateKey(again) != StateKey(c.st) {
		c.fatalf("the record replayed from JSON reaches another position:\nplayed:   %s\nreplayed: %s", Fingerprint(c.st), Fingerprint(again))
	}
	c.checkEnder(again)
	c.checkFramer()
}

// position runs the full checks on the game's position.
func (c *checker) position() {
	c.t.Helper()
	st := c.st
	before := Key(st)
	legal := st.Legal()
	c.positions++
	c.largest = max(c.largest, len(legal))
	CheckKeys(c.t, st, c.sample(legal, 4*c.sz.compare))
	checkKeyLister(c.t, st, legal)
	checkPlacer(c.t, st, legal)
	if len(legal) <= c.sz.finishers {
		checkFinisher(c.t, st, legal)
	}
	c.determinize()
	c.checkPreviewer(c.pickFrom(legal, c.sz.compare))
	c.checkGainer(c.pickFrom(legal, c.sz.compare))
	mover := st.ToMove()
	c.checkInferrer(mover, 1)
	c.checkInferrer((mover+1)%engine.Seat(c.setup.Players), 1)
	c.checkEnder(nil)
	if _, ok := st.(engine.Framer); ok {
		c.framed = append(c.framed, framedPosition{st.Clone(), len(c.rec)})
	}
	if c.twin != nil {
		c.playEach(legal)
	}
	if after := Key(st); after != before {
		c.fatalf("the checks' reading of the position changed it:\nbefore: %s\nafter:  %s", before, after)
	}
}

// pickFrom is sample drawing from c.pick.
func (c *checker) pickFrom(legal []engine.Move, n int) []engine.Move {
	if len(legal) <= n {
		return legal
	}
	out := append([]engine.Move(nil), legal...)
	c.pick.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out[:n]
}

// sample returns at most n of the moves, drawn without replacement.
func (c *checker) sample(legal []engine.Move, n int) []engine.Move {
	if len(legal) <= n {
		return legal
	}
	out := append([]engine.Move(nil), legal...)
	c.r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out[:n]
}

// playEach checks Play against Apply for (a sample of) the legal moves,
// from the twin (whose playout state Play built), and the random draws
// when the list is short enough to count them.
func (c *checker) playEach(legal []engine.Move) {
	c.t.Helper()
	uniform := c.left > 0 && len(legal) >= 2 && len(legal) <= c.sz.maxLegal
	moves := legal
	if !uniform {
		moves = c.sample(legal, c.sz.compare)
	}
	index := playBoth(c.t, c.fatalf, c.st, c.twin, moves, false)
	c.compared += len(moves)
	if !uniform {
		c.playsLegal(legal)
		return
	}
	c.left--
	c.uniform++
	draws := c.drawsPer(len(legal)) * len(legal)
	c.draws += draws
	r := engine.NewRand(c.setup.Seed + uint64(len(c.rec)))
	counts := make([]int, len(legal))
	for range draws {
		p := c.twin.Clone()
		p.(engine.FastPlayer).PlayRandom(&r)
		j, ok := index[StateKey(p)]
		if !ok {
			c.fatalf("PlayRandom reached a position no legal move reaches:\n%s", Fingerprint(p))
		}
		counts[j]++
	}
	if err := uniformCounts(counts); err != nil {
		c.fatalf("PlayRandom is not uniform over the legal moves: %v", err)
	}
	if draws >= 20*len(legal) { // a count of 0 where 20 are expected: p = e^-20 a move
		for j, n := range counts {
			if n == 0 {
				c.fatalf("PlayRandom never played %s in %d draws over %d legal moves", legal[j], draws, len(legal))
			}
		}
	}
	c.checkSampler(legal, &r)
}

// drawsPer is how many draws per legal move a uniformity check counts:
// size.draws, fewer on a long list (never under 5, the least a
// chi-square test wants of each count).
func (c *checker) drawsPer(legal int) int {
	return max(5, min(c.sz.draws, c.sz.allDraws/legal))
}

// playsLegal checks, where the legal list is too long to count draws
// over, that a few PlayRandom draws from the twin each reach the position
// some legal move's Apply reaches.
func (c *checker) playsLegal(legal []engine.Move) {
	c.t.Helper()
	if c.memberLeft == 0 || len(legal) > c.sz.maxMember || len(legal) < 2 {
		return
	}
	c.memberLeft--
	c.member++
	reached := make(map[string]bool, len(legal))
	for _, m := range legal {
		applied := c.st.Clone()
		if _, err := applied.Apply(m); err != nil {
			c.fatalf("Apply(%s) of a legal move: %v", m, err)
		}
		reached[StateKey(applied)] = true
	}
	r := engine.NewRand(c.setup.Seed ^ uint64(len(c.rec)))
	for range 8 {
		p := c.twin.Clone()
		p.(engine.FastPlayer).PlayRandom(&r)
		if !reached[StateKey(p)] {
			c.fatalf("PlayRandom reached a position no legal move reaches:\n%s", Fingerprint(p))
		}
		c.memberDraws++
	}
}

// checkSampler checks engine.Sampler's RandomMove: it counts the legal
// moves, draws each about equally often, and leaves the position alone.
func (c *checker) checkSampler(legal []engine.Move, r *engine.Rand) {
	c.t.Helper()
	sm, ok := c.st.(engine.Sampler)
	if !ok {
		return
	}
	index := make(map[string]int, len(legal))
	for i, m := range legal {
		index[m.String()] = i
	}
	before := StateKey(c.st)
	counts := make([]int, len(legal))
	for range c.drawsPer(len(legal)) * len(legal) {
		m, n, ok := sm.RandomMove(r)
		j, listed := index[m.String()]
		if !ok || n != len(legal) || !listed {
			c.fatalf("RandomMove drew %q of %d legal moves (ok %v); Legal lists %d", m, n, ok, len(legal))
		}
		counts[j]++
	}
	if StateKey(c.st) != before {
		c.fatalf("RandomMove changed the position")
	}
	if err := uniformCounts(counts); err != nil {
		c.fatalf("RandomMove is not uniform over the legal moves: %v", err)
	}
}

// determinize checks engine.Determinizer for the seat to move and one
// other seat.
func (c *checker) determinize() {
	c.t.Helper()
	d, ok := c.st.(engine.Determinizer)
	if !ok {
		return
	}
	mover := c.st.ToMove()
	for _, v := range []engine.Seat{mover, (mover + 1) % engine.Seat(c.setup.Players)} {
		before := StateKey(c.st)
		seed := c.setup.Seed<<8 + uint64(len(c.rec))
		r1, r2 := engine.NewRand(seed), engine.NewRand(seed^0x9e3779b97f4a7c15)
		det := d.Determinize(v, &r1)
		if StateKey(c.st) != before {
			c.fatalf("Determinize(%d) changed its receiver", v)
		}
		if !sameView(c.st, det, v) {
			c.fatalf("Determinize(%d) changed what seat %d sees:\nwas:  %s\nnow:  %s", v, v, viewOf(c.st, v), viewOf(det, v))
		}
		// det differs from the position only in what v cannot see, so
		// both must give the same copy for the same draws.
		other := det.(engine.Determinizer).Determinize(v, &r2)
		ra, rb := engine.NewRand(seed+1), engine.NewRand(seed+1)
		x, y := d.Determinize(v, &ra), other.(engine.Determinizer).Determinize(v, &rb)
		if StateKey(x) != StateKey(y) || ra != rb {
			c.fatalf("Determinize(%d) depends on what seat %d cannot see:\n%s", v, v, stateDiff(x, y))
		}
	}
}

// viewOf is what seat v sees of a position, for comparing.
func viewOf(st engine.State, v engine.Seat) string {
	type seen struct {
		ToMove engine.Seat
		Over   bool
		Scores []int
		View   engine.View
		Public engine.View
		Hand   any
		Board  engine.Scene
		Legal  []string
	}
	s := seen{ToMove: st.ToMove(), Over: st.Over(), Scores: st.Scores(), View: st.View(v), Public: st.View(engine.NoSeat), Hand: st.Hand(v), Board: st.Board()}
	if st.ToMove() == v {
		s.Legal = LegalStrings(st)
	}
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func sameView(a, b engine.State, v engine.Seat) bool { return viewOf(a, v) == viewOf(b, v) }

// describe is a short list of counts for a failure message.
func describe(counts []int) string {
	var b strings.Builder
	for i, n := range counts {
		if i == 40 {
			b.WriteString(" …")
			break
		}
		fmt.Fprintf(&b, " %d", n)
	}
	return b.String()
}
