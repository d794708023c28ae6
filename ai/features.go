package ai

import (
	"math"

	"tessera/engine"
)

// features is a tree's all-moves-as-first statistics over its game's
// features (engine.Featurer): for each seat and feature, the summed
// rewards and the number of the iterations that ended with the seat
// holding the feature. A move's value for its mover is the mean of its
// features' means: what the seats that held those cells at the end went
// on to score, whichever moves put them there (Gelly and Silver's RAVE,
// kept once per tree rather than per node, as MAST keeps its move
// averages).
type features struct {
	n       int       // features per seat
	sum     []float64 // [seat·n + feature]
	count   []float64
	prior   []float64 // per seat: the mean reward of every recorded iteration
	iters   float64
	scratch []int
}

func newFeatures(players, n int) *features {
	return &features{n: n, sum: make([]float64, players*n), count: make([]float64, players*n), prior: make([]float64, players)}
}

// record adds an iteration's rewards to the features each seat holds in
// st, the iteration's last position.
func (f *features) record(st engine.State, reward []float64) {
	fr := st.(engine.Featurer)
	f.iters++
	for s, r := range reward {
		f.prior[s] += r
		f.scratch = fr.HeldFeatures(engine.Seat(s), f.scratch[:0])
		base := s * f.n
		for _, x := range f.scratch {
			f.sum[base+x] += r
			f.count[base+x]++
		}
	}
}

// value is the features' value for seat s: the mean over them of each
// one's mean reward, each with one visit of the seat's mean reward as its
// prior (so a feature never held is worth the average); the average for
// a move without features.
func (f *features) value(s engine.Seat, fs []int) float64 {
	prior := 0.5 * winWeight
	if f.iters > 0 {
		prior = f.prior[s] / f.iters
	}
	if len(fs) == 0 {
		return prior
	}
	base := int(s) * f.n
	v := 0.0
	for _, x := range fs {
		v += (f.sum[base+x] + prior) / (f.count[base+x] + 1)
	}
	return v / float64(len(fs))
}

// moveValue is m's value for its mover s in st.
func (t *tree) moveValue(st engine.State, s engine.Seat, m engine.Move) float64 {
	t.featScratch = st.(engine.Featurer).MoveFeatures(m, t.featScratch[:0])
	return t.feats.value(s, t.featScratch)
}

// raveBest is best with each child's mean blended with its features'
// value (Policy.Rave): weight β = √(k/(3n+k)) for a child of n visits
// (Gelly and Silver's schedule), so the learnt value leads while a
// child's own visits are few and fades as they grow.
func (t *tree) raveBest(children []*child, mover engine.Seat) *child {
	var top *child
	topValue := math.Inf(-1)
	k := t.policy.Rave
	for _, c := range children {
		if c.visits == 0 {
			continue
		}
		n := float64(c.visits)
		beta := math.Sqrt(k / (3*n + k))
		v := (1-beta)*c.reward[mover]/n + beta*t.feats.value(mover, c.feats) + t.explore*math.Sqrt(math.Log(float64(c.avail))/n)
		if v > topValue {
			top, topValue = c, v
		}
	}
	if top == nil && len(children) > 0 {
		top = children[0]
	}
	return top
}
