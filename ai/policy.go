package ai

import (
	"math"

	"tessera/engine"
)

// Policy is how a search plays beyond its budget: the ideas of issue #28,
// each measured against the search before it (docs/ai.md, "A stronger
// hard level"). The zero value is that search (uniform random playouts),
// which the lab keeps as the baseline mctsN.
type Policy struct {
	// Greedy is the share of playout moves that are informed: the move,
	// among Sample legal moves drawn at random (all of them when Sample is
	// 0), with the best immediate score change for the mover (its own
	// points less the others', by engine.Previewer), ties at random; the
	// other moves are uniformly random. 0 plays every move at random.
	// It applies only to games whose positions are engine.KeyListers and
	// engine.Previewers (Closure and Elemental); the others play at random.
	Greedy float64
	// Sample bounds the moves an informed playout move looks at (0: all).
	Sample int
	// GreedyPlies bounds how many moves of a playout are informed (0: all
	// of them); the rest are uniformly random.
	GreedyPlies int
	// Cut ends a playout after Cut moves per player and judges the
	// position by its margin, as in a game with banked points (Rewards),
	// in any game with scores (0: the game's own length, two moves per
	// player in a banked game, else to the end).
	Cut int
	// Apply scores an informed move by playing it on a copy of the
	// position and reading Scores, instead of by engine.Previewer (which
	// Closure computes by flooding the whole table).
	Apply bool
	// Order expands every node's untried moves best immediate points
	// first (engine.KeyScorer; ties at random), as the root always does:
	// progressive unpruning below the root, so an opponent's node tries
	// its best-scoring replies before the rest. It applies only to games
	// with hidden information whose positions are engine.KeyScorers
	// (Elemental, Closure); elsewhere the deeper nodes stay uniform.
	Order bool
	// Explore is UCB1's exploration constant (0: 0.7, Cowling et al.'s).
	// The rewards of near-equal moves differ by little, so a smaller
	// constant spends more of the visits on the best of them. Under
	// Measured it keeps to Closure (measured there, and lost in Elemental).
	Explore float64
	// Measured keeps each idea to the games where it was measured to pay
	// (docs/ai.md), by each game's registered Tuning (tuning.go): Greedy
	// as measured in each game (Closure's playouts run to the end, so
	// only their first moves are informed, among a few; Elemental's are
	// two moves a player, each informed among all the legal moves, with
	// every iteration), Cut and Explore in Closure, Decisive in Glorieta,
	// Order in Closure and Elemental, Infer in Elemental. Elsewhere, a
	// game added later included (DefaultTuning), the search is the one
	// before issue #28.
	Measured bool
	// Trim is the share of the budget's iterations the search runs in a
	// game whose playouts it informs (Greedy or Decisive applies there),
	// where an iteration costs the most: each informed move scores
	// several moves (Closure's playouts run to the game's end), each
	// decisive move looks for a win among Glorieta's thousands of pairs.
	// Hard keeps its move within the 2 s on one core that way
	// (docs/ai.md, "Think time"). 0 runs them all.
	Trim float64
	// GreedyTrim, when set, is Trim for a game whose playouts are informed
	// (Greedy applies: Closure); Trim then keeps to the games whose
	// playouts are decisive (Glorieta), whose iterations cost otherwise.
	GreedyTrim float64
	// Omniscient searches the true position instead of determinizations:
	// it sees the other hands and the draws to come. It is a measure for
	// the lab only (what hidden information costs the search), never a
	// level's: no level sets it.
	Omniscient bool
	// Decisive is how many moves of each playout first look for a win at
	// once (engine.Finisher, in a game without hidden information) and
	// play it when there is one, so a playout no longer misses a loop its
	// mover could close (Teytaud and Teytaud's decisive moves, 2010, in
	// Havannah). 0 plays them at random.
	Decisive int
	// JudgeScale is the margin, in points, at which a playout's last
	// position, judged before the game's end (a game with banked points,
	// or a playout Cut short), counts as about three quarters won:
	// winWeight·(1+tanh(margin/JudgeScale))/2 (0: bankedScale, 5 points,
	// tuned against greedy before ordered expansion). A larger scale
	// tells a lead of a few points from one of a dozen instead of
	// calling both won. In Elemental 8 paid at the normal budget and lost
	// at hard's (docs/ai.md), so no level sets it: a lab letter.
	JudgeScale float64
	// Infer is the sharpness with which a search weighs the other seats'
	// hidden tiles by their play (engine.Inferrer: Elemental), for a
	// player who makes each move with a probability proportional to
	// exp(Infer × its points); 0 deals every unseen tile alike. Measured
	// in Elemental against greedy (docs/ai.md): at the normal budget
	// nothing (sharpness 1, 3, 10); at hard's, sharpness 3 won 0.795
	// against 0.713 of the same 200 games, and against the old hard 0.685
	// against 0.642: hard sets 3.
	Infer float64
}

// HardPolicy is the hard level's policy (Level.Budget), measured side by
// side with the search before issue #28 (docs/ai.md, "A stronger hard
// level"). Order, in the games with hidden hands that score a move by its
// key (Elemental, Closure): an opponent's node tries its best-scoring
// replies first, so the search no longer judges a move as if the
// opponent answered at random (60 games against greedy at the normal
// budget: Elemental 0.492 to 0.725, Closure 0.583 to 0.700). In Closure
// the first four moves of each playout are informed among 8 drawn (0.750).
// In Elemental every move of its short playouts is informed among all
// the legal moves: against greedy that gained nothing measurable (0.733
// against 0.725 of 60 games at the normal budget), but against the search
// before it won 0.740 against ordering alone's 0.573 at the normal budget
// and 0.642 against 0.585 at the hard budget (200 games each), at about
// twice the CPU (the costliest move 0.75 s of one core). Closure, where
// those iterations cost the most, runs half of them (15,000), which keeps
// its costliest move (mid-game, where the open cells are most) within 2 s
// on one core, with UCB1's constant 0.3 (head to head at the normal
// budget: all the iterations against 35% of them won 0.637, the constant
// 0.3 against 0.7 won 0.570; against the search before, 0.708 over 200
// games at the hard budget). In Glorieta the first four moves of each
// playout take a win at once when there is one (Decisive): against the
// search before, 100 games at the normal budget, 0.740 with every
// iteration and 0.720 with 35% of them, which keeps its costliest move
// (from the start, where the ring makes every edge cell a candidate)
// within 2 s on one core. Elemental's short playouts stay judged at 5
// points (JudgeScale 0): 8 won at the normal budget (0.682 and 0.688
// against the search before, on two seeds of 200 games, against 0.573 and
// 0.630) but lost at the hard budget (0.497 against 0.585). Elemental's
// hard also deals the tile each opponent kept by its play (Infer 3,
// engine.Inferrer): on the same 200 games at the hard budget, against
// greedy 0.795 instead of 0.713, against the old hard 0.685 instead of
// 0.642. Knotwork and TilingKing keep the search before issue #28.
var HardPolicy = Policy{Order: true, Greedy: 1, Sample: 8, GreedyPlies: 4, Measured: true, Trim: 0.35, GreedyTrim: 0.5, Explore: 0.3, Decisive: 4, Infer: 3}

// scoped is the policy as it applies to st's game: with Measured, the
// ideas the game's Tuning does not keep are dropped.
func (p Policy) scoped(st engine.State) Policy {
	if !p.Measured {
		return p
	}
	return tuningFor(st).apply(p)
}

// dealer is what deals a search's worlds for seat in st: with Infer, the
// game's engine.Inferrer (worked out once, from the position as it is);
// else the game's own engine.Determinizer; nil where nothing is hidden.
func dealer(st engine.State, seat engine.Seat, p Policy) engine.Determinizer {
	if in, ok := st.(engine.Inferrer); ok && p.Infer > 0 {
		return in.Infer(seat, p.Infer)
	}
	d, _ := st.(engine.Determinizer)
	return d
}

// iterations is how many of a budget's n iterations the search runs in
// st's game: n, or n trimmed where the playouts are informed (GreedyTrim,
// or Trim when it is 0) or decisive (Trim).
func (p Policy) iterations(st engine.State, n int) int {
	p = p.scoped(st)
	greedy := p.Greedy > 0 && informs(st)
	trim := p.Trim
	if greedy && p.GreedyTrim > 0 {
		trim = p.GreedyTrim
	}
	if trim <= 0 || trim >= 1 || !(greedy || p.Decisive > 0 && decides(st)) {
		return n
	}
	return max(1, int(math.Round(float64(n)*trim)))
}

// decides reports whether st's game can take decisive playout moves: it
// finds a win at once (engine.Finisher) and hides nothing.
func decides(st engine.State) bool {
	_, fin := st.(engine.Finisher)
	_, hidden := st.(engine.Determinizer)
	return fin && !hidden
}

// informs reports whether st's game can take informed playouts.
func informs(st engine.State) bool {
	_, kl := st.(engine.KeyLister)
	_, pv := st.(engine.Previewer)
	return kl && pv
}

// playout plays out st from a new leaf: up to t.playoutLimit moves, or to
// the end of the game, each informed with the policy's probability (where
// the game can), else uniformly random.
func (t *tree) playout(st engine.State) {
	if t.policy.Decisive > 0 && t.finishes {
		t.decisivePlayout(st)
		return
	}
	if t.policy.Greedy <= 0 || !t.informed {
		playout(st, &t.r, t.playoutLimit)
		return
	}
	kl, pv := st.(engine.KeyLister), st.(engine.Previewer)
	fp, fast := st.(engine.FastPlayer)
	for i := 0; i < t.playoutLimit && !st.Over(); i++ {
		informed := t.policy.GreedyPlies <= 0 || i < t.policy.GreedyPlies
		if informed && (t.policy.Greedy >= 1 || t.r.Float64() < t.policy.Greedy) {
			if m := t.greedyMove(st, kl, pv); m != nil && playMove(st, m) == nil {
				continue
			}
			return // no move, or the engine refused: judge the position as it is
		}
		if fast {
			fp.PlayRandom(&t.r)
			continue
		}
		legal := st.Legal()
		if len(legal) == 0 {
			return
		}
		if _, err := st.Apply(legal[t.r.IntN(len(legal))]); err != nil {
			return
		}
	}
}

// decisivePlayout is playout whose first Decisive moves each play the
// mover's win at once when there is one (Policy.Decisive); the other
// moves are uniform (no game both finds wins at once and scores moves,
// so none needs Greedy's informed moves beside these).
func (t *tree) decisivePlayout(st engine.State) {
	f := st.(engine.Finisher)
	fp, fast := st.(engine.FastPlayer)
	for i := 0; i < t.playoutLimit && !st.Over(); i++ {
		if i < t.policy.Decisive {
			if m, ok := f.WinningMove(); ok && playMove(st, m) == nil {
				return // a win at once ends the game
			}
		}
		if !fast {
			playout(st, &t.r, 1)
			continue
		}
		fp.PlayRandom(&t.r)
	}
}

// greedyMove is the informed playout move of the mover in st: among
// Sample legal moves drawn without replacement (all when Sample is 0), one
// with the best immediate score change, ties at random; nil when there
// is no legal move.
func (t *tree) greedyMove(st engine.State, kl engine.KeyLister, pv engine.Previewer) engine.Move {
	t.playKeys = kl.LegalKeys(t.playKeys[:0])
	keys := t.playKeys
	n := len(keys)
	if n == 0 {
		return nil
	}
	k := t.policy.Sample
	if k <= 0 || k > n {
		k = n
	}
	mover := st.ToMove()
	var pick engine.Move
	var pickKey uint64
	top, ties := math.MinInt, 0
	for i := 0; i < k; i++ {
		if k < n { // a partial shuffle draws k distinct moves
			j := i + t.r.IntN(n-i)
			keys[i], keys[j] = keys[j], keys[i]
		}
		if ks, ok := kl.(engine.KeyScorer); ok && !t.policy.Apply {
			switch g := ks.KeyPoints(keys[i]); {
			case g > top:
				pick, top, ties = nil, g, 1
				pickKey = keys[i]
			case g == top:
				ties++
				if t.r.IntN(ties) == 0 {
					pickKey = keys[i]
				}
			}
			continue
		}
		m := kl.MoveOfKey(keys[i])
		g := 0
		if t.policy.Apply {
			g = t.gainByPlay(st, m, mover)
		} else {
			for _, d := range pv.Preview(m) {
				if d.Seat == mover {
					g += d.Points
				} else {
					g -= d.Points
				}
			}
		}
		switch {
		case g > top:
			pick, top, ties = m, g, 1
		case g == top:
			ties++
			if t.r.IntN(ties) == 0 { // each tie equally likely
				pick = m
			}
		}
	}
	if pick == nil && ties > 0 { // scored by key: build only the move taken
		return kl.MoveOfKey(pickKey)
	}
	return pick
}

// gainByPlay is m's immediate score change for mover (its own points less
// the others') found by playing m on a copy of st.
func (t *tree) gainByPlay(st engine.State, m engine.Move, mover engine.Seat) int {
	before := st.Scores()
	c := st.Clone()
	if playMove(c, m) != nil {
		return math.MinInt + 1
	}
	g := 0
	for s, v := range c.Scores() {
		d := v
		if s < len(before) {
			d -= before[s]
		}
		if engine.Seat(s) == mover {
			g += d
		} else {
			g -= d
		}
	}
	return g
}
