package ai

import (
	"math"

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

// child is a move out of a node, keyed by its canonical notation, with the
// summed reward vectors of the iterations that took it.
type child struct {
	key    string
	move   engine.Move // as first seen; reused only where the legal list is cached
	node   *node
	visits int
	avail  int       // iterations in which the move was legal at its node (ISMCTS availability)
	reward []float64 // summed reward per seat
}

// node is an information set of the searching seat: the moves played to
// reach it, whatever the hidden parts of each determinization were.
type node struct {
	visits   int
	children []*child
	index    map[string]int // key → children index (determinized games)
	// legal is the node's legal moves in a shuffled order, cached when the
	// game has no Determinizer (every iteration then reaches the same
	// position here); children are made from it in order, so expanding is
	// a step along the list and needs no Legal() per visit.
	legal []engine.Move
}

// tree is one worker's search.
type tree struct {
	root        *node
	rootState   engine.State
	seat        engine.Seat
	players     int
	determinize bool
	r           engine.Rand
	nodes       int
	present     []*child // scratch: the children legal in this determinization
	untried     []engine.Move
}

func newTree(st engine.State, seat engine.Seat, seed uint64) *tree {
	_, det := st.(engine.Determinizer)
	return &tree{root: &node{}, rootState: st, seat: seat, players: st.Players(), determinize: det, r: engine.NewRand(seed), nodes: 1}
}

// iterate runs one iteration: determinize, select and expand, play out,
// back up.
func (t *tree) iterate() {
	var st engine.State
	if d, ok := t.rootState.(engine.Determinizer); ok {
		st = d.Determinize(t.seat, &t.r)
	} else {
		st = t.rootState.Clone()
	}
	var path []*child
	n := t.root
	for !st.Over() {
		mover := st.ToMove()
		c, fresh := t.pick(n, st, mover)
		if c == nil {
			break
		}
		if err := play(st, c); err != nil {
			break // a move the engine refuses here: score the position as it is
		}
		path = append(path, c)
		if fresh {
			break
		}
		if c.node == nil {
			c.node = &node{}
			t.nodes++
		}
		n = c.node
	}
	playout(st, &t.r)
	reward := Rewards(st)
	for _, c := range path {
		c.visits++
		for s := range c.reward {
			c.reward[s] += reward[s]
		}
	}
}

// pick chooses the move out of n for mover in st: a new child while
// widening allows and untried moves remain, else the best by UCB1 (with
// availability counts where the legal moves vary between
// determinizations). fresh reports a new child, whose playout follows.
func (t *tree) pick(n *node, st engine.State, mover engine.Seat) (c *child, fresh bool) {
	n.visits++
	limit := widenBase + int(widenSqrt*math.Sqrt(float64(n.visits)))
	if !t.determinize {
		if n.legal == nil {
			n.legal = st.Legal()
			t.r.Shuffle(len(n.legal), func(i, j int) { n.legal[i], n.legal[j] = n.legal[j], n.legal[i] })
		}
		if len(n.children) < len(n.legal) && len(n.children) < limit {
			m := n.legal[len(n.children)]
			c = t.newChild(m)
			n.children = append(n.children, c)
			return c, true
		}
		for _, ch := range n.children {
			ch.avail = n.visits
		}
		return best(n.children, mover), false
	}

	legal := st.Legal()
	if n.index == nil {
		n.index = make(map[string]int, len(legal))
	}
	t.present, t.untried = t.present[:0], t.untried[:0]
	for _, m := range legal {
		if i, ok := n.index[m.String()]; ok {
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
		c = t.newChild(m)
		c.avail = 1
		n.index[c.key] = len(n.children)
		n.children = append(n.children, c)
		return c, true
	}
	return best(t.present, mover), false
}

func (t *tree) newChild(m engine.Move) *child {
	return &child{key: m.String(), move: m, reward: make([]float64, t.players)}
}

// best is the child with the highest UCB1 value for mover; nil when there
// is none. Ties go to the earlier child, so a search is repeatable.
func best(children []*child, mover engine.Seat) *child {
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

// play applies a tree move to a determinization, fast when it can.
func play(st engine.State, c *child) error {
	if fp, ok := st.(engine.FastPlayer); ok {
		return fp.Play(c.move)
	}
	_, err := st.Apply(c.move)
	return err
}

// playout plays uniformly random moves to the end of the game.
func playout(st engine.State, r *engine.Rand) {
	if fp, ok := st.(engine.FastPlayer); ok {
		for i := 0; i < maxPlayout && !st.Over(); i++ {
			fp.PlayRandom(r)
		}
		return
	}
	for i := 0; i < maxPlayout && !st.Over(); i++ {
		legal := st.Legal()
		if len(legal) == 0 {
			return
		}
		if _, err := st.Apply(legal[r.IntN(len(legal))]); err != nil {
			return
		}
	}
}
