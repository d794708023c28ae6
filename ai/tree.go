package ai

import (
	"cmp"
	"math"
	"slices"

	"tessera/engine"
)

// explore is UCB1's exploration constant for rewards in [0, 1]; 0.7 is the
// value Cowling, Powley and Whitehouse use for ISMCTS (2012).
const explore = 0.7

// widenBase and widenSqrt bound a node's children by its visits n to
// widenBase + widenSqrt·√n (progressive widening). Small branching (most
// turns of most games) is expanded fully after a few visits, as in plain
// UCT; Glorieta's ~8,000 pairs are sampled, the most promising ones getting
// the visits, instead of each costing a playout before any is tried twice.
const (
	widenBase = 8
	widenSqrt = 2
)

// maxPlayout bounds a playout's moves, so an engine that never ends cannot
// hang the search (no game of ours comes near it).
const maxPlayout = 20000

// moveKey identifies a move within a node: its engine.Keyer number when
// the move has one, else its canonical notation.
type moveKey struct {
	n uint64
	s string
}

func keyOf(m engine.Move) moveKey {
	if k, ok := m.(engine.Keyer); ok {
		return moveKey{n: k.Key()}
	}
	return moveKey{s: m.String()}
}

// child is a move out of a node, keyed by its canonical notation, with the
// summed reward vectors of the iterations that took it.
type child struct {
	key    moveKey
	move   engine.Move // as first seen; reused only where the legal list is cached
	node   *node
	visits int
	avail  int       // iterations in which the move was legal at its node (ISMCTS availability)
	reward []float64 // summed reward per seat
	// decided, when set, is the result of the game after this move: the
	// next mover wins at once (engine.Finisher), so every iteration
	// through the move scores that instead of a playout.
	decided []float64
}

// node is an information set of the searching seat: the moves played to
// reach it, whatever the hidden parts of each determinization were.
type node struct {
	visits   int
	children []*child
	index    map[moveKey]int // key → children index (determinized games)
	byKey    keyIndex        // the same, by engine.KeyLister keys
	// Without a Determinizer every iteration reaches the same position
	// here, so the legal moves are the same on every visit: count is their
	// number (-1 before the first look), and legal, while the tree's cache
	// budget lasts, the list itself in a shuffled order, children being
	// made from it in order. Expanding is then a step along the list, and
	// a node whose children widening does not allow to grow needs no
	// Legal() at all.
	count int
	legal []engine.Move
	// sampled: the node's game is an engine.Sampler with many moves, and
	// new children are drawn from it (count is still their number).
	sampled bool
	// lost counts the root's children that let the next mover win at once
	// (decided when expanded): they do not count against widening, so the
	// root goes on to moves that do not lose at once.
	lost int
}

// tree is one worker's search.
type tree struct {
	root        *node
	rootState   engine.State
	seat        engine.Seat
	players     int
	determinize bool
	// deal deals an iteration's world where the game hides something
	// (dealer); nil where it hides nothing.
	deal engine.Determinizer
	// finishes: the game is an engine.Finisher without hidden information,
	// so a new child near the root is checked for the next mover's win.
	finishes    bool
	r           engine.Rand
	nodes       int
	present     []*child // scratch: the children legal in this determinization
	untried     []engine.Move
	keys        []uint64 // scratch: LegalKeys of this determinization
	untriedKeys []uint64
	cacheLeft   int // how many more legal moves the nodes may cache
	// playoutLimit bounds a playout's moves (playoutLimit).
	playoutLimit int
	// rootGain is each root move's immediate score change for the seat
	// (nil if unknown): the root expands its moves best first, ties in
	// random order, so a small budget spends its visits on the moves a
	// one-ply look already likes (progressive widening with a heuristic
	// order, "progressive unpruning").
	rootGain map[moveKey]float64
	// policy is the budget's Policy; informed, whether the game can take
	// its informed playouts (informs).
	policy   Policy
	informed bool
	// orders: the policy's Order applies (a game with hidden hands whose
	// positions score moves by key), so every node expands its best
	// moves first.
	orders  bool
	explore float64 // UCB1's constant: explore, or the policy's Explore
	judge   bool    // a playout that ends before the game is judged by its margin (rewards)
	// judgeScale is the margin at which such a position counts about three
	// quarters won: bankedScale, or the policy's JudgeScale.
	judgeScale float64
	playKeys   []uint64 // scratch: LegalKeys of a playout's position
}

// cacheMoves bounds the legal moves a tree keeps in its nodes' caches
// (about 40 bytes each), so Glorieta's ~8,000 moves per node cannot take
// gigabytes in a long search; nodes beyond it list their moves again when
// they expand.
var cacheMoves = 1 << 20

func newTree(st engine.State, seat engine.Seat, seed uint64, p Policy) *tree {
	p = p.scoped(st)
	_, det := st.(engine.Determinizer)
	t := &tree{root: newNode(), rootState: st, seat: seat, players: st.Players(), determinize: det, finishes: decides(st),
		r: engine.NewRand(seed), nodes: 1, cacheLeft: cacheMoves, playoutLimit: playoutLimit(st),
		policy: p, informed: informs(st), judge: isBanked(st), explore: explore}
	if p.Explore > 0 {
		t.explore = p.Explore
	}
	t.judgeScale = bankedScale
	if p.JudgeScale > 0 {
		t.judgeScale = p.JudgeScale
	}
	_, ks := st.(engine.KeyScorer)
	_, kl := st.(engine.KeyLister)
	t.orders = p.Order && det && ks && kl
	t.deal = dealer(st, seat, p)
	return t
}

// position is the position an iteration searches: a determinization,
// where the game hides something from the searching seat (unless the
// policy is Omniscient, the lab's measure), else a copy of the root.
func (t *tree) position() engine.State {
	if t.deal != nil && !t.policy.Omniscient {
		return t.deal.Determinize(t.seat, &t.r)
	}
	return t.rootState.Clone()
}

// iterate runs one iteration: determinize, select and expand, play out,
// back up.
func (t *tree) iterate() {
	st := t.position()
	if t.policy.Cut > 0 { // known at the first determinization: the real position's scores are not read
		if len(st.Scores()) == t.players {
			t.playoutLimit, t.judge = t.policy.Cut*t.players, true
		}
		t.policy.Cut = 0
	}
	var path []*child
	var reward []float64
	n := t.root
	for !st.Over() {
		mover := st.ToMove()
		c, fresh := t.pick(n, st, mover)
		if c == nil {
			break
		}
		if c.decided != nil {
			path, reward = append(path, c), c.decided
			break
		}
		if err := play(st, c); err != nil {
			break // a move the engine refuses here: score the position as it is
		}
		path = append(path, c)
		if fresh {
			if t.finishes && len(path) > 1 && len(path) <= finishDepth { // the root's children are checked as they are made (pickPerfect)
				c.decided = finish(st)
				reward = c.decided
			}
			break
		}
		if c.node == nil {
			c.node = newNode()
			t.nodes++
		}
		n = c.node
	}
	if reward == nil {
		t.playout(st)
		reward = rewards(st, t.judge, t.judgeScale)
	}
	for _, c := range path {
		c.visits++
		for s := range c.reward {
			c.reward[s] += reward[s]
		}
	}
}

// finishDepth is how deep below the root a new child is checked for the
// next mover's win at once (engine.Finisher): at depth 1 the search sees
// which of its moves let the opponent win at once, at depth 2 which
// replies leave it a win (so a double threat shows as won). Uniformly
// random playouts see neither among Glorieta's thousands of moves: a
// greedy player that never misses a one-move loop took 3 games in 10 from
// hard before (ai.md). A check costs about 3 µs in Glorieta, against
// about 7 µs a whole playout, but nodes multiply with depth: at depth 2 the
// checks already add a sixth to a hard move.
const finishDepth = 2

// finishAfter is finish on a copy of st after m (nil if the engine
// refuses m).
func finishAfter(st engine.State, m engine.Move) []float64 {
	c := st.Clone()
	if playMove(c, m) != nil {
		return nil
	}
	if c.Over() {
		return nil // the move ends the game itself; its playout scores it
	}
	return finish(c)
}

// finish plays the next mover's win at once in st, if there is one, and
// returns the game's rewards after it (nil when there is none).
func finish(st engine.State) []float64 {
	if st.Over() {
		return nil
	}
	m, ok := st.(engine.Finisher).WinningMove()
	if !ok || playMove(st, m) != nil {
		return nil
	}
	return Rewards(st)
}

// pick chooses the move out of n for mover in st: a new child while
// widening allows and untried moves remain, else the best by UCB1 (with
// availability counts where the legal moves vary between
// determinizations). fresh reports a new child, whose playout follows.
func (t *tree) pick(n *node, st engine.State, mover engine.Seat) (c *child, fresh bool) {
	n.visits++
	limit := widenBase + int(widenSqrt*math.Sqrt(float64(n.visits)))
	if !t.determinize {
		return t.pickPerfect(n, st, mover, limit)
	}
	if kl, ok := st.(engine.KeyLister); ok {
		return t.pickKeyed(n, kl, mover, limit)
	}

	legal := st.Legal()
	if n.index == nil {
		n.index = make(map[moveKey]int, len(legal))
	}
	t.present, t.untried = t.present[:0], t.untried[:0]
	for _, m := range legal {
		if i, ok := n.index[keyOf(m)]; ok {
			ch := n.children[i]
			ch.avail++
			ch.move = m // this determinization's own value of the move
			t.present = append(t.present, ch)
		} else {
			t.untried = append(t.untried, m)
		}
	}
	if len(t.untried) > 0 && (len(n.children) < limit || len(t.present) == 0) {
		m := t.untried[t.r.IntN(len(t.untried))]
		if n == t.root && t.rootGain != nil { // the best gain first, ties at random
			m = t.bestGain(t.untried)
		}
		c = t.newChild(m)
		c.avail = 1
		n.index[c.key] = len(n.children)
		n.children = append(n.children, c)
		return c, true
	}
	return best(t.present, mover, t.explore), false
}

// pickKeyed is pick for a game with a Determinizer whose positions list
// their moves' keys (engine.KeyLister): the same choice as pick's, from
// the same draws, without building a move per legal move. Only the child
// taken gets its move, built for this determinization.
func (t *tree) pickKeyed(n *node, kl engine.KeyLister, mover engine.Seat, limit int) (*child, bool) {
	t.keys = kl.LegalKeys(t.keys[:0])
	t.present, t.untriedKeys = t.present[:0], t.untriedKeys[:0]
	for _, k := range t.keys {
		if i, ok := n.byKey.get(k); ok {
			ch := n.children[i]
			ch.avail++
			t.present = append(t.present, ch)
		} else {
			t.untriedKeys = append(t.untriedKeys, k)
		}
	}
	if len(t.untriedKeys) > 0 && (len(n.children) < limit || len(t.present) == 0) {
		k := t.untriedKeys[t.r.IntN(len(t.untriedKeys))] // drawn in every case, as pick draws, so both make the same search
		switch {
		case n == t.root && t.rootGain != nil: // the best gain first, ties at random
			k = t.bestKey(t.untriedKeys, func(k uint64) float64 { return t.rootGain[moveKey{n: k}] })
		case t.orders: // the same below the root (Policy.Order), by engine.KeyScorer
			ks := kl.(engine.KeyScorer)
			k = t.bestKey(t.untriedKeys, func(k uint64) float64 { return float64(ks.KeyPoints(k)) })
		}
		c := t.newChild(kl.MoveOfKey(k))
		c.avail = 1
		n.byKey.put(k, len(n.children))
		n.children = append(n.children, c)
		return c, true
	}
	c := best(t.present, mover, t.explore)
	if c != nil {
		c.move = kl.MoveOfKey(c.key.n)
	}
	return c, false
}

// pickPerfect is pick for a game without a Determinizer.
func (t *tree) pickPerfect(n *node, st engine.State, mover engine.Seat, limit int) (*child, bool) {
	var legal []engine.Move
	if n.count < 0 && n != t.root {
		if sm, ok := st.(engine.Sampler); ok {
			if _, count, ok := sm.RandomMove(&t.r); ok && count > sampleAbove {
				n.count, n.sampled = count, true
				n.index = make(map[moveKey]int)
			}
		}
	}
	if n.count < 0 {
		legal = st.Legal()
		n.count = len(legal)
		if len(legal) <= t.cacheLeft {
			t.cacheLeft -= len(legal)
			t.r.Shuffle(len(legal), func(i, j int) { legal[i], legal[j] = legal[j], legal[i] })
			if n == t.root && t.rootGain != nil {
				slices.SortStableFunc(legal, func(a, b engine.Move) int {
					return cmp.Compare(t.rootGain[keyOf(b)], t.rootGain[keyOf(a)])
				})
			}
			n.legal = legal
		} else {
			n.index = make(map[moveKey]int)
		}
	}
	for len(n.children) < n.count && len(n.children)-n.lost < limit {
		var m engine.Move
		if n.legal != nil {
			m = n.legal[len(n.children)]
		} else if n.sampled && len(n.children) < n.count/2 {
			m = t.sampledMove(n, st.(engine.Sampler))
		} else {
			if legal == nil {
				legal = st.Legal()
			}
			m = t.untriedMove(n, legal)
		}
		if m == nil {
			break
		}
		c := t.newChild(m)
		if n.index != nil {
			n.index[c.key] = len(n.children)
		}
		n.children = append(n.children, c)
		if n == t.root && t.finishes {
			// A root move after which the opponent wins at once is kept,
			// decided, but not searched: the root expands the next one in
			// its place. When the opponent threatens a loop, most moves do
			// not stop it, and a small budget that spent its few children
			// on them would never find the one that does.
			if c.decided = finishAfter(st, m); c.decided != nil {
				n.lost++
				continue
			}
		}
		return c, true
	}
	for _, ch := range n.children {
		ch.avail = n.visits
	}
	return best(n.children, mover, t.explore), false
}

// sampleAbove is the number of legal moves above which a node of a
// Sampler game draws its new children instead of listing its moves.
const sampleAbove = 256

// sampledMove draws a legal move that is not yet a child of n, uniformly,
// by rejection (n has fewer children than half its moves).
func (t *tree) sampledMove(n *node, sm engine.Sampler) engine.Move {
	for {
		m, _, _ := sm.RandomMove(&t.r)
		if _, ok := n.index[keyOf(m)]; !ok {
			return m
		}
	}
}

// untriedMove draws a legal move that is not yet a child of n, uniformly:
// by rejection while the children are few, else from the list of the rest.
func (t *tree) untriedMove(n *node, legal []engine.Move) engine.Move {
	if len(n.children) < len(legal)/2 {
		for {
			m := legal[t.r.IntN(len(legal))]
			if _, ok := n.index[keyOf(m)]; !ok {
				return m
			}
		}
	}
	t.untried = t.untried[:0]
	for _, m := range legal {
		if _, ok := n.index[keyOf(m)]; !ok {
			t.untried = append(t.untried, m)
		}
	}
	if len(t.untried) == 0 {
		return nil
	}
	return t.untried[t.r.IntN(len(t.untried))]
}

// bestKey draws uniformly among the keys with the highest score (ties by
// reservoir sampling, each equally likely).
func (t *tree) bestKey(keys []uint64, score func(uint64) float64) uint64 {
	top, ties := math.Inf(-1), 0
	var pick uint64
	for _, k := range keys {
		switch g := score(k); {
		case g > top:
			top, ties, pick = g, 1, k
		case g == top:
			ties++
			if t.r.IntN(ties) == 0 {
				pick = k
			}
		}
	}
	return pick
}

// bestGain draws uniformly among the moves with the highest root gain.
func (t *tree) bestGain(moves []engine.Move) engine.Move {
	top, ties := math.Inf(-1), 0
	var pick engine.Move
	for _, m := range moves {
		switch g := t.rootGain[keyOf(m)]; {
		case g > top:
			top, ties, pick = g, 1, m
		case g == top:
			ties++
			if t.r.IntN(ties) == 0 { // reservoir sampling: each tie equally likely
				pick = m
			}
		}
	}
	return pick
}

func newNode() *node { return &node{count: -1} }

func (t *tree) newChild(m engine.Move) *child {
	return &child{key: keyOf(m), move: m, reward: make([]float64, t.players)}
}

// best is the child with the highest UCB1 value for mover; nil when there
// is none. Ties go to the earlier child, so a search is repeatable.
func best(children []*child, mover engine.Seat, explore float64) *child {
	var top *child
	topValue := math.Inf(-1)
	for _, c := range children {
		if c.visits == 0 { // only on a refused move's child: try the others first
			continue
		}
		v := c.reward[mover]/float64(c.visits) + explore*math.Sqrt(math.Log(float64(c.avail))/float64(c.visits))
		if v > topValue {
			top, topValue = c, v
		}
	}
	if top == nil && len(children) > 0 {
		top = children[0]
	}
	return top
}

// play applies a tree move to a determinization.
func play(st engine.State, c *child) error { return playMove(st, c.move) }

// playMove applies m to st, fast (without the outcome's words) when the
// game can.
func playMove(st engine.State, m engine.Move) error {
	if fp, ok := st.(engine.FastPlayer); ok {
		return fp.Play(m)
	}
	_, err := st.Apply(m)
	return err
}

// bankedPlies is how many moves per player a playout of a game with
// banked points (engine.Game's Banked) plays before the position is judged by
// its margin (Rewards). Measured on Elemental, normal against greedy,
// 100 games each: to the end 0.095, 20 moves 0.35, 10 moves 0.34, 4
// moves 0.605 (ai.md).
const bankedPlies = 2

// playoutLimit is how many moves a playout from st plays at most.
func playoutLimit(st engine.State) int {
	if isBanked(st) {
		return bankedPlies * st.Players()
	}
	return maxPlayout
}

// playout plays up to limit uniformly random moves, or to the end of the
// game.
func playout(st engine.State, r *engine.Rand, limit int) {
	if fp, ok := st.(engine.FastPlayer); ok {
		for i := 0; i < limit && !st.Over(); i++ {
			fp.PlayRandom(r)
		}
		return
	}
	for i := 0; i < limit && !st.Over(); i++ {
		legal := st.Legal()
		if len(legal) == 0 {
			return
		}
		if _, err := st.Apply(legal[r.IntN(len(legal))]); err != nil {
			return
		}
	}
}
