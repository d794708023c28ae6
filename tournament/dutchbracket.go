package tournament

import "sort"

// A bracket's quality criteria after C.6, in order (C.10 to C.19); each
// only grows as pairs are added, so a partial candidate that is already
// no better than the best found is dropped.
type cost [10]int

const (
	cColour    = iota // C.10 players denied their colour preference
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
// best candidate found so far is taken.
const searchBudget = 200000

// bracketSearch is the search for one bracket's pairing.
type bracketSearch struct {
	d     *dutch
	rest  []*swissPlayer // the players of the lower brackets
	nodes int

	pairs []([2]*swissPlayer) // the candidate being built
	c     cost

	bound cost // no candidate of this level can cost less

	found     bool
	bestPairs [][2]*swissPlayer
	bestLeft  []*swissPlayer
	best      cost
}

func (s *bracketSearch) spent() bool { return s.nodes > searchBudget }

// perfect: a candidate that breaks no quality criterion ends the search.
func (s *bracketSearch) perfect() bool { return s.found && s.best == s.bound }

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

// prune: this partial candidate cannot beat the best found.
func (s *bracketSearch) prune() bool { return s.found && !s.c.less(s.best) }

// add pairs a and b (a is the MDP when one is) and counts what it costs.
func (s *bracketSearch) add(a, b *swissPlayer) cost {
	saved := s.c
	w, _ := s.d.colours(a, b)
	for _, p := range []*swissPlayer{a, b} {
		got := black
		if p == w {
			got = white
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
		if hi.float(1) < 0 {
			s.c[cDownDiff1] += diff
		}
		if hi.float(2) < 0 {
			s.c[cDownDiff2] += diff
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
	for _, p := range left {
		if p.float(1) < 0 {
			c[cDown1]++
		}
		if p.float(2) < 0 {
			c[cDown2]++
		}
	}
	if s.found && !c.less(s.best) {
		return
	}
	down := append(append([]*swissPlayer(nil), left...), s.rest...)
	sort.SliceStable(down, func(i, j int) bool { return ranksAbove(down[i], down[j]) })
	if !s.d.completable(down) {
		return
	}
	s.found = true
	s.best = c
	s.bestPairs = append([][2]*swissPlayer(nil), s.pairs...)
	s.bestLeft = append([]*swissPlayer(nil), left...)
}

// transpose pairs s1[i] with the members of s2 in order (the rules'
// transpositions of S2, in lexicographic order), then calls done with the
// members of s2 left.
func (s *bracketSearch) transpose(s1, s2 []*swissPlayer, done func(left []*swissPlayer)) {
	used := make([]bool, len(s2))
	var rec func(i int)
	rec = func(i int) {
		s.nodes++
		if s.spent() || s.perfect() || s.prune() {
			return
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
	s.transpose(ps[:n], ps[n:], finish)
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
		s.transpose(s1, s2, finish)
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
	if s.spent() || s.perfect() || s.prune() {
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

// bracket pairs one bracket: the first nMDP players are moved down from
// above, the rest are its residents (one score); rest are the players
// below. It returns the pairs (the MDP or the higher ranked first) and
// the players it leaves to float down.
func (d *dutch) bracket(b []*swissPlayer, nMDP int, rest []*swissPlayer) ([][2]*swissPlayer, []*swissPlayer) {
	mdps, res := b[:nMDP], b[nMDP:]
	if len(res) == 0 { // no residents: the moved-down players go on down
		return nil, b
	}
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
				opts = append(opts, o)
			}
		}
	}
	sort.SliceStable(opts, func(i, j int) bool {
		a, b := opts[i], opts[j]
		if a.pairs != b.pairs {
			return a.pairs > b.pairs
		}
		for k := 0; k < len(a.psd) && k < len(b.psd); k++ {
			if a.psd[k] != b.psd[k] {
				return a.psd[k] < b.psd[k]
			}
		}
		return len(a.psd) < len(b.psd)
	})
	// Options equal in pairs and PSD are one level: the best of a level by
	// the later criteria wins, the first in the rules' order on a tie.
	s := &bracketSearch{d: d, rest: rest}
	for i := 0; i < len(opts); {
		j := i + 1
		for j < len(opts) && opts[j].pairs == opts[i].pairs && equalInts(opts[j].psd, opts[i].psd) {
			j++
		}
		s.bound = colourBound(b, opts[i].pairs)
		for _, o := range opts[i:j] {
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
			s.transpose(s1, res, func(left []*swissPlayer) {
				if len(left) < 2*rem {
					return
				}
				s.homogeneous(left, rem, unpaired)
			})
			if s.perfect() {
				break
			}
		}
		if s.found {
			return s.bestPairs, s.bestLeft
		}
		i = j
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
