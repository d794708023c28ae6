package tournament

import "sort"

// A bracket's quality criteria after C.7, in order (C.8 to C.19); each
// only grows as pairs are added, so a partial candidate that is already
// no better than the best found is dropped.
type cost [13]int

const (
	cByeGames  = iota // 2025 C.9: the games the bye's player has played fewer than the most at the bye's score
	cTopDiff          // C.8 topscorers (or opponents) past a colour difference of ±2
	cTopRow           // C.9 topscorers (or opponents) with a colour three times in a row
	cColour           // C.10 players denied their colour preference
	cStrong           // C.11 ... their strong (or absolute) preference
	cDown1            // C.12 downfloaters who floated down last round
	cUp1              // C.13 upfloaters who floated up last round
	cDown2            // C.14 ... two rounds before
	cUp2              // C.15
	cDownDiff1        // C.16 the score differences of C.12's players
	cUpDiff1          // C.17 ... of C.13's
	cDownDiff2        // C.18 ... of C.14's
	cUpDiff2          // C.19 ... of C.15's
)

func (c cost) less(o cost) bool {
	for i := range c {
		if c[i] != o[i] {
			return c[i] < o[i]
		}
	}
	return false
}

// searchBudget bounds the candidates tried in one bracket: past it the
// best candidate found so far is taken. 200,000 fell short in brackets
// of a hundred players (bbpPairings's own 193-player tournaments), where
// the candidate that denies no colour preference lies deep among the
// transpositions; 2,000,000 found it (docs/tournaments.md).
const searchBudget = 2000000

// bracketSearch is the search for one bracket's pairing.
type bracketSearch struct {
	d     *dutch
	rest  []*swissPlayer // the players of the lower brackets
	nodes int

	pairs []([2]*swissPlayer) // the candidate being built
	c     cost

	bound     cost  // no candidate of this level can cost less
	resScore  int   // the residents' score
	scores    []int // the bracket's scores, the lowest first
	firstOnly bool  // any candidate will do (bestQuality's question)
	lookOnly  bool  // C.7 looks at the next bracket alone, not at the round's completion
	c7        func(left []*swissPlayer) quality
	target    *quality // C.7: only floaters that leave the next bracket this

	found     bool
	bestPairs [][2]*swissPlayer
	bestLeft  []*swissPlayer
	best      cost
}

func (s *bracketSearch) spent() bool { return s.nodes > searchBudget }

// perfect: a candidate that breaks no quality criterion ends the search.
func (s *bracketSearch) perfect() bool { return s.found && (s.firstOnly || s.best == s.bound) }

// colourBound is the fewest colour preferences that n pairs of ps must
// deny: at most n of the paired players get white and n black, and those
// left unpaired could be any of them.
func colourBound(ps []*swissPlayer, n int) cost {
	var c cost
	var want, strong [2]int
	for _, p := range ps {
		if col, st := p.pref(); col != noColour {
			want[col]++
			if st >= prefStrong {
				strong[col]++
			}
		}
	}
	free := len(ps) - 2*n
	for col := range want {
		c[cColour] += max(0, want[col]-free-n)
		c[cStrong] += max(0, strong[col]-free-n)
	}
	return c
}

// scoreWeight weighs a score of the bracket so that sums of weights
// compare as counts by score, the highest score first: 512 to the power
// of the score's rank in the bracket (counts stay under 512 at MaxPlayers;
// past 6 moved-down scores the highest share a weight).
func (s *bracketSearch) scoreWeight(score int) int {
	r := 0
	for i, sc := range s.scores {
		if sc == score {
			r = i
		}
	}
	return 1 << (9 * min(r, 6))
}

// prune: this partial candidate cannot beat the best found.
func (s *bracketSearch) prune() bool { return s.found && !s.c.less(s.best) }

// pruneAhead: this partial candidate, plus the fewest colour preferences
// that the pairs still to make among todo must deny, cannot beat the
// best found.
func (s *bracketSearch) pruneAhead(todo []*swissPlayer, pairs int) bool {
	if !s.found {
		return false
	}
	c := s.c
	lb := colourBound(todo, pairs)
	c[cColour] += lb[cColour]
	c[cStrong] += lb[cStrong]
	return !c.less(s.best)
}

// add pairs a and b (a is the MDP when one is) and counts what it costs.
func (s *bracketSearch) add(a, b *swissPlayer) cost {
	saved := s.c
	w, _ := s.d.colours(a, b)
	top := a.top || b.top
	for _, p := range []*swissPlayer{a, b} {
		got := black
		if p == w {
			got = white
		}
		if top {
			if d := p.cd + 1 - 2*got; d > 2 || d < -2 {
				s.c[cTopDiff]++
			}
			if n := len(p.colours); n >= 2 && p.colours[n-1] == got && p.colours[n-2] == got {
				s.c[cTopRow]++
			}
		}
		if c, st := p.pref(); c != noColour && c != got {
			s.c[cColour]++
			if st >= prefStrong {
				s.c[cStrong]++
			}
		}
	}
	if a.score != b.score {
		hi, lo := a, b
		if lo.score > hi.score {
			hi, lo = lo, hi
		}
		diff := hi.score - lo.score
		if s.d.rules == Dutch2025 {
			// The 2025 rules weigh a repeated upfloat by its
			// opponent's score, the higher first.
			diff = s.scoreWeight(hi.score)
		} else {
			if hi.float(1) < 0 {
				s.c[cDownDiff1] += diff
			}
			if hi.float(2) < 0 {
				s.c[cDownDiff2] += diff
			}
		}
		if lo.float(1) > 0 {
			s.c[cUp1]++
			s.c[cUpDiff1] += diff
		}
		if lo.float(2) > 0 {
			s.c[cUp2]++
			s.c[cUpDiff2] += diff
		}
	}
	s.pairs = append(s.pairs, [2]*swissPlayer{a, b})
	return saved
}

func (s *bracketSearch) undo(saved cost) {
	s.c = saved
	s.pairs = s.pairs[:len(s.pairs)-1]
}

// leaf judges a whole candidate: left are the bracket's players it leaves
// unpaired, who float down.
func (s *bracketSearch) leaf(left []*swissPlayer) {
	c := s.c
	if d := s.d; d.rules == Dutch2025 && d.odd && len(left) == 1 && left[0].score == d.byeScore &&
		(len(s.rest) == 0 || s.rest[0].score < d.byeScore) {
		// The one player left is the bye's (no one below may take it):
		// C.9 prefers the one who has played the most games.
		c[cByeGames] = d.maxPlayed - left[0].played
	}
	for _, p := range left {
		if s.d.rules == Dutch2025 && p.score > s.resScore {
			// A moved-down player left unpaired was counted as a
			// downfloater by the bracket it came from (bbpPairings v6
			// counts a bracket's own residents only).
			continue
		}
		if p.float(1) < 0 {
			c[cDown1]++
		}
		if p.float(2) < 0 {
			c[cDown2]++
		}
	}
	if s.d.rules == Dutch2025 {
		// The scores of repeated downfloaters: every player the bracket
		// leaves unpaired (moved-down ones too) who floated down in the
		// last round (or the one before), weighed by score, the higher
		// first.
		for _, p := range left {
			if p.float(1) < 0 {
				c[cDownDiff1] += s.scoreWeight(p.score)
			}
			if p.float(2) < 0 {
				c[cDownDiff2] += s.scoreWeight(p.score)
			}
		}
	}
	if s.found && !c.less(s.best) {
		return
	}
	if s.target != nil {
		if q := s.c7(left); q.pairs != s.target.pairs || !equalInts(q.psd, s.target.psd) {
			return
		}
	}
	down := append(append([]*swissPlayer(nil), left...), s.rest...)
	sort.SliceStable(down, func(i, j int) bool { return ranksAbove(down[i], down[j]) })
	if !s.lookOnly && !s.d.completable(down) {
		return
	}
	s.found = true
	s.best = c
	s.bestPairs = append([][2]*swissPlayer(nil), s.pairs...)
	s.bestLeft = append([]*swissPlayer(nil), left...)
}

// transpose pairs s1[i] with the members of s2 in order (the rules'
// transpositions of S2, in lexicographic order), then calls done with the
// members of s2 left, who are to make more pairs among themselves.
func (s *bracketSearch) transpose(s1, s2 []*swissPlayer, more int, done func(left []*swissPlayer)) {
	used := make([]bool, len(s2))
	todo := make([]*swissPlayer, 0, len(s1)+len(s2))
	var rec func(i int)
	rec = func(i int) {
		s.nodes++
		if s.spent() || s.perfect() || s.prune() {
			return
		}
		if s.found {
			todo = append(todo[:0], s1[i:]...)
			for j, p := range s2 {
				if !used[j] {
					todo = append(todo, p)
				}
			}
			if s.pruneAhead(todo, len(s1)-i+more) {
				return
			}
		}
		if i == len(s1) {
			var left []*swissPlayer
			for j, p := range s2 {
				if !used[j] {
					left = append(left, p)
				}
			}
			done(left)
			return
		}
		for j, b := range s2 {
			if used[j] || !compatible(s1[i], b) {
				continue
			}
			used[j] = true
			saved := s.add(s1[i], b)
			rec(i + 1)
			s.undo(saved)
			used[j] = false
			if s.spent() || s.perfect() {
				return
			}
		}
	}
	rec(0)
}

// homogeneous pairs ps (of one score, in order) in n pairs: S1 against S2
// by transpositions, then exchanges between S1 and S2 in the rules' order
// (B.6: fewest players exchanged, the smallest difference of their
// bracket numbers, the highest of S1 and the lowest of S2 first), then
// any pairing at all. extra are players already left unpaired.
func (s *bracketSearch) homogeneous(ps []*swissPlayer, n int, extra []*swissPlayer) {
	finish := func(left []*swissPlayer) {
		s.leaf(append(append([]*swissPlayer(nil), extra...), left...))
	}
	if n == 0 {
		finish(ps)
		return
	}
	s.transpose(ps[:n], ps[n:], 0, finish)
	if s.perfect() || s.spent() {
		return
	}
	for _, ex := range exchanges(n, len(ps)-n, 2) {
		in := map[int]bool{}
		for _, i := range ex.out {
			in[i] = true
		}
		for _, j := range ex.in {
			in[j] = true
		}
		var s1, s2 []*swissPlayer
		for i, p := range ps {
			if (i < n) != in[i] {
				s1 = append(s1, p)
			} else {
				s2 = append(s2, p)
			}
		}
		s.transpose(s1, s2, 0, finish)
		if s.perfect() || s.spent() {
			return
		}
	}
	s.anyPairing(ps, n, nil, finish)
}

// anyPairing tries every way to make n pairs of ps, the first player
// unpaired taking a partner in order, as a last resort.
func (s *bracketSearch) anyPairing(ps []*swissPlayer, n int, left []*swissPlayer, done func([]*swissPlayer)) {
	s.nodes++
	if s.spent() || s.perfect() || s.prune() || s.pruneAhead(ps, n) {
		return
	}
	if n == 0 {
		done(append(append([]*swissPlayer(nil), left...), ps...))
		return
	}
	if len(ps) < 2*n {
		return
	}
	a := ps[0]
	for j := 1; j < len(ps); j++ {
		if !compatible(a, ps[j]) {
			continue
		}
		rest := append(append([]*swissPlayer(nil), ps[1:j]...), ps[j+1:]...)
		saved := s.add(a, ps[j])
		s.anyPairing(rest, n-1, left, done)
		s.undo(saved)
	}
	if len(ps)-1 >= 2*n { // a floats
		s.anyPairing(ps[1:], n, append(left, a), done)
	}
}

// exchange moves S1's members out (indices) and S2's members in
// (indices into the whole bracket).
type exchange struct{ out, in []int }

// exchanges lists the exchanges of up to max players between S1 (the
// first n1 of the bracket) and S2 (the next n2) in the order of B.6.
func exchanges(n1, n2, maxK int) []exchange {
	var out []exchange
	for k := 1; k <= maxK && k <= n1 && k <= n2; k++ {
		for _, a := range combinations(n1, k) {
			for _, b := range combinations(n2, k) {
				in := make([]int, k)
				for i, j := range b {
					in[i] = n1 + j
				}
				out = append(out, exchange{out: a, in: in})
			}
		}
	}
	sum := func(xs []int) int {
		t := 0
		for _, x := range xs {
			t += x
		}
		return t
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if len(a.out) != len(b.out) {
			return len(a.out) < len(b.out)
		}
		if da, db := sum(a.in)-sum(a.out), sum(b.in)-sum(b.out); da != db {
			return da < db
		}
		// The highest numbers of S1 go first (compared from the highest).
		for k := len(a.out) - 1; k >= 0; k-- {
			if a.out[k] != b.out[k] {
				return a.out[k] > b.out[k]
			}
		}
		for k := range a.in {
			if a.in[k] != b.in[k] {
				return a.in[k] < b.in[k]
			}
		}
		return false
	})
	return out
}

// combinations lists the k-subsets of 0..n-1 in lexicographic order.
func combinations(n, k int) [][]int {
	var out [][]int
	cur := make([]int, 0, k)
	var rec func(from int)
	rec = func(from int) {
		if len(cur) == k {
			out = append(out, append([]int(nil), cur...))
			return
		}
		for i := from; i <= n-(k-len(cur)); i++ {
			cur = append(cur, i)
			rec(i + 1)
			cur = cur[:len(cur)-1]
		}
	}
	rec(0)
	return out
}

// option is one way to pair a bracket in outline: which moved-down
// players (MDPs) meet residents, and how many pairs the residents left
// make among themselves; psd is its pairing score difference (C.6).
type option struct {
	pairs int
	mdps  []int // indices of the MDPs paired, in order
	rem   int   // pairs among the remaining residents
	psd   []int // sorted from the largest
}

// options lists the outlines of a bracket's pairing, grouped in levels
// of equal pairs and PSD, best first (C.5, C.6). The first nMDP players
// of b are moved down from above, the rest are its residents.
//
// The 2017 rules judge an outline by its PSD: the score differences of
// its pairs and of its floaters (one point below the bracket), the
// largest first, smaller better. The 2025 rules maximise the scores
// paired instead: the number of pairs whose higher player has the
// highest score, then the next score, and so on (floaters count for
// nothing). Both are written as a vector compared from the front,
// smaller better; for 2025 the counts are negated.
func (d *dutch) options(b []*swissPlayer, nMDP int) [][]option {
	mdps, res := b[:nMDP], b[nMDP:]
	low := res[0].score
	var opts []option
	for m1 := min(nMDP, len(res)); m1 >= 0; m1-- {
		subsets := combinations(nMDP, m1)
		if len(subsets) > 200 {
			subsets = subsets[:200]
		}
		for rem := (len(res) - m1) / 2; rem >= 0; rem-- {
			for _, sub := range subsets {
				o := option{pairs: m1 + rem, mdps: sub, rem: rem}
				in := map[int]bool{}
				for _, i := range sub {
					in[i] = true
					o.psd = append(o.psd, mdps[i].score-low)
				}
				for i, p := range mdps {
					if !in[i] {
						o.psd = append(o.psd, p.score-low+2) // one point below the bracket
					}
				}
				for i := 0; i < len(res)-m1-2*rem; i++ {
					o.psd = append(o.psd, 2)
				}
				for i := 0; i < rem; i++ {
					o.psd = append(o.psd, 0)
				}
				sort.Sort(sort.Reverse(sort.IntSlice(o.psd)))
				if d.rules == Dutch2025 {
					o.psd = scoresPaired(b, nMDP, sub, rem)
				}
				opts = append(opts, o)
			}
		}
	}
	sort.SliceStable(opts, func(i, j int) bool { return opts[i].quality().better(opts[j].quality()) })
	var levels [][]option
	for i := 0; i < len(opts); {
		j := i + 1
		for j < len(opts) && opts[j].pairs == opts[i].pairs && equalInts(opts[j].psd, opts[i].psd) {
			j++
		}
		levels = append(levels, opts[i:j])
		i = j
	}
	return levels
}

// scoresPaired is the 2025 rules' measure of an outline: for each score
// of the bracket, the highest first, minus the pairs whose higher player
// has it (the moved-down players paired count at their own score, the
// residents' pairs at the residents').
func scoresPaired(b []*swissPlayer, nMDP int, paired []int, rem int) []int {
	var out []int
	var scores []int
	for _, p := range b {
		if len(scores) == 0 || scores[len(scores)-1] != p.score {
			scores = append(scores, p.score)
			out = append(out, 0)
		}
	}
	for _, i := range paired {
		for k, sc := range scores {
			if sc == b[i].score {
				out[k]--
			}
		}
	}
	out[len(out)-1] -= rem
	return out
}

// quality is what C.5 and C.6 judge of a bracket's pairing: its pairs
// and its PSD.
type quality struct {
	pairs int
	psd   []int
}

func (o option) quality() quality { return quality{o.pairs, o.psd} }

func (q quality) better(r quality) bool {
	if q.pairs != r.pairs {
		return q.pairs > r.pairs
	}
	for k := 0; k < len(q.psd) && k < len(r.psd); k++ {
		if q.psd[k] != r.psd[k] {
			return q.psd[k] < r.psd[k]
		}
	}
	return len(q.psd) < len(r.psd)
}

// searchLevel tries the options of one level in order.
func (s *bracketSearch) searchLevel(b []*swissPlayer, nMDP int, level []option) {
	mdps, res := b[:nMDP], b[nMDP:]
	s.resScore = res[0].score
	s.scores = s.scores[:0]
	for i := len(b) - 1; i >= 0; i-- {
		if n := len(s.scores); n == 0 || s.scores[n-1] != b[i].score {
			s.scores = append(s.scores, b[i].score)
		}
	}
	s.bound = colourBound(b, level[0].pairs)
	for _, o := range level {
		s.nodes = 0
		var s1, unpaired []*swissPlayer
		in := map[int]bool{}
		for _, k := range o.mdps {
			s1 = append(s1, mdps[k])
			in[k] = true
		}
		for k, p := range mdps {
			if !in[k] {
				unpaired = append(unpaired, p)
			}
		}
		rem := o.rem
		s.transpose(s1, res, rem, func(left []*swissPlayer) {
			if len(left) < 2*rem {
				return
			}
			s.homogeneous(left, rem, unpaired)
		})
		if s.perfect() {
			return
		}
	}
}

// bestQuality is the best pairs and PSD a bracket can have while the
// round stays completable: what C.7 asks of the next bracket.
func (d *dutch) bestQuality(b []*swissPlayer, nMDP int, rest []*swissPlayer, lookOnly bool) quality {
	if len(b) == nMDP {
		return quality{psd: []int{}}
	}
	for _, level := range d.options(b, nMDP) {
		s := &bracketSearch{d: d, rest: rest, firstOnly: true, lookOnly: lookOnly}
		s.searchLevel(b, nMDP, level)
		if s.found {
			return level[0].quality()
		}
	}
	return quality{pairs: -1}
}

// floaterTargets lists, best first, what the next bracket can be (C.7)
// for each set of players this level could leave to float down: the
// unpaired moved-down players of an option and any of its residents.
func (d *dutch) floaterTargets(b []*swissPlayer, nMDP int, level []option, rest []*swissPlayer, c7 func([]*swissPlayer) quality) []quality {
	mdps, res := b[:nMDP], b[nMDP:]
	var out []quality
	for _, o := range level {
		in := map[int]bool{}
		for _, k := range o.mdps {
			in[k] = true
		}
		var unpaired []*swissPlayer
		for k, p := range mdps {
			if !in[k] {
				unpaired = append(unpaired, p)
			}
		}
		k := len(res) - len(o.mdps) - 2*o.rem
		subsets := combinations(len(res), k)
		if len(subsets) > 500 {
			subsets = subsets[:500]
		}
		for _, sub := range subsets {
			left := append([]*swissPlayer(nil), unpaired...)
			for _, i := range sub {
				left = append(left, res[i])
			}
			down := append(append([]*swissPlayer(nil), left...), rest...)
			sort.SliceStable(down, func(i, j int) bool { return ranksAbove(down[i], down[j]) })
			if !d.completable(down) {
				continue
			}
			q := c7(left)
			dup := false
			for _, have := range out {
				if have.pairs == q.pairs && equalInts(have.psd, q.psd) {
					dup = true
				}
			}
			if !dup {
				out = append(out, q)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].better(out[j]) })
	return out
}

// bracket pairs one bracket: the first nMDP players are moved down from
// above, the rest are its residents (one score); rest are the players
// below. It returns the pairs (the MDP or the higher ranked first) and
// the players it leaves to float down.
//
// C.7: unless the next bracket is the last, the players left to float
// are chosen so that the next bracket has the most pairs and then the
// smallest PSD it can: each level is searched first for the floaters
// best for the next bracket, then for the next best.
func (d *dutch) bracket(b []*swissPlayer, nMDP int, rest []*swissPlayer) ([][2]*swissPlayer, []*swissPlayer) {
	if len(b) == nMDP { // no residents: the moved-down players go on down
		return nil, b
	}
	next, below := rest, []*swissPlayer(nil) // the next score group and those under it
	for i, p := range rest {
		if p.score != rest[0].score {
			next, below = rest[:i], rest[i:]
			break
		}
	}
	lookAhead := len(rest) > 0
	for _, level := range d.options(b, nMDP) {
		if !lookAhead {
			s := &bracketSearch{d: d, rest: rest}
			s.searchLevel(b, nMDP, level)
			if s.found {
				return s.bestPairs, s.bestLeft
			}
			continue
		}
		memo := map[string]quality{}
		c7 := func(left []*swissPlayer) quality {
			key := make([]byte, 0, 2*len(left))
			for _, p := range left {
				key = append(key, byte(p.num), byte(p.num>>8))
			}
			if q, ok := memo[string(key)]; ok {
				return q
			}
			nb := append(append([]*swissPlayer(nil), left...), next...)
			sort.SliceStable(nb, func(i, j int) bool { return ranksAbove(nb[i], nb[j]) })
			// The 2017 rules (as bbpPairings v5 reads them) judge the
			// next bracket alone when more follow; the 2025 rules judge
			// it within a pairing of the whole round, which also gives
			// the bye to its score (C.5).
			q := d.bestQuality(nb, len(left), below, len(below) > 0 && d.rules == Dutch2017)
			memo[string(key)] = q
			return q
		}
		for _, target := range d.floaterTargets(b, nMDP, level, rest, c7) {
			s := &bracketSearch{d: d, rest: rest, c7: c7, target: &target}
			s.searchLevel(b, nMDP, level)
			if s.found {
				return s.bestPairs, s.bestLeft
			}
		}
	}
	return nil, b
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
