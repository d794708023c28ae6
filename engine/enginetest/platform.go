package enginetest

import (
	"fmt"
	"slices"
	"strings"

	"tessera/engine"
)

// The checks of the capabilities that Run once left to each game's own
// tests: the platform's Previewer, Gainer, Starter and Framer, the
// search's Inferrer, and the designers' Ender. Each checks a property
// that a wrong implementation breaks, against Legal and Apply where the
// interface promises agreement with them.

// checkPreviewer checks engine.Previewer on a sample of a position's
// legal moves: Preview gives, seat by seat, the points that Apply of the
// move gives (the autocomplete shows them before the move is made), and
// leaves the position as it was.
func (c *checker) checkPreviewer(moves []engine.Move) {
	c.t.Helper()
	pv, ok := c.st.(engine.Previewer)
	if !ok {
		return
	}
	n := c.st.Players()
	for _, m := range moves {
		before := StateKey(c.st)
		preview := make([]int, n)
		for _, d := range pv.Preview(m) {
			if d.Seat < 0 || int(d.Seat) >= n {
				c.fatalf("Preview(%s) gives points to seat %d of %d", m, d.Seat, n)
			}
			preview[d.Seat] += d.Points
		}
		if StateKey(c.st) != before {
			c.fatalf("Preview(%s) changed the position", m)
		}
		o, err := c.st.Clone().Apply(m)
		if err != nil {
			c.fatalf("Apply(%s) of a legal move on a copy: %v", m, err)
		}
		applied := make([]int, n)
		for _, d := range o.Deltas {
			applied[d.Seat] += d.Points
		}
		if !slices.Equal(preview, applied) {
			c.fatalf("Preview(%s) gives the seats %v, Apply %v", m, preview, applied)
		}
	}
}

// checkGainer checks engine.Gainer on a sample of a position's legal
// moves: one Gain per move, each move's the same whatever the list it
// comes in (the autocomplete asks for a page of the list, /moves for all
// of it), and the position left as it was.
func (c *checker) checkGainer(moves []engine.Move) {
	c.t.Helper()
	g, ok := c.st.(engine.Gainer)
	if !ok || len(moves) == 0 {
		return
	}
	before := StateKey(c.st)
	gains := g.Gains(moves)
	if len(gains) != len(moves) {
		c.fatalf("Gains of %d moves gave %d gains", len(moves), len(gains))
	}
	reversed := slices.Clone(moves)
	slices.Reverse(reversed)
	back := g.Gains(reversed)
	for i, m := range moves {
		if got := back[len(moves)-1-i]; got != gains[i] {
			c.fatalf("the Gain of %s depends on the list it is in: %+v, then %+v", m, gains[i], got)
		}
	}
	if alone := g.Gains(moves[:1]); alone[0] != gains[0] {
		c.fatalf("the Gain of %s alone is %+v, in a list %+v", moves[0], alone[0], gains[0])
	}
	if StateKey(c.st) != before {
		c.fatalf("Gains changed the position")
	}
}

// checkStarter checks engine.Starter on a new game: it announces
// something, each line names a seat of the game (or none), the same
// setup announces the same, and asking leaves the position as it was.
func (c *checker) checkStarter() {
	c.t.Helper()
	s, ok := c.st.(engine.Starter)
	if !ok {
		return
	}
	before := StateKey(c.st)
	events := s.StartEvents()
	if len(events) == 0 {
		c.fatalf("StartEvents announces nothing")
	}
	for _, e := range events {
		if e.Seat != engine.NoSeat && (e.Seat < 0 || int(e.Seat) >= c.setup.Players) {
			c.fatalf("StartEvents names seat %d of %d: %+v", e.Seat, c.setup.Players, e)
		}
		if strings.TrimSpace(e.Text) == "" {
			c.fatalf("StartEvents has an empty line for seat %d", e.Seat)
		}
	}
	if StateKey(c.st) != before {
		c.fatalf("StartEvents changed the position")
	}
	again, err := engine.New(c.setup)
	if err != nil {
		c.fatalf("New again: %v", err)
	}
	if a, b := fmt.Sprint(events), fmt.Sprint(again.(engine.Starter).StartEvents()); a != b {
		c.fatalf("the same setup starts with other events:\n%s\n%s", a, b)
	}
}

// checkFramer checks engine.Framer at the end of a game: every position
// checked on the way, drawn in the frame of the last one, has the last
// one's size (a replay's frames line up, at one scale), and drawing
// changes neither position.
func (c *checker) checkFramer() {
	c.t.Helper()
	if _, ok := c.st.(engine.Framer); !ok {
		return
	}
	last := c.st.Board()
	for _, p := range c.framed {
		before, after := StateKey(p.st), StateKey(c.st)
		sc := p.st.(engine.Framer).BoardFramed(c.st)
		if sc.W != last.W || sc.H != last.H {
			c.fatalf("the position after %d moves, in the frame of the last (%d moves), is %gx%g; the last is %gx%g", p.moves, len(c.rec), sc.W, sc.H, last.W, last.H)
		}
		if StateKey(p.st) != before || StateKey(c.st) != after {
			c.fatalf("BoardFramed changed a position")
		}
	}
}

// framedPosition is a position kept for checkFramer.
type framedPosition struct {
	st    engine.State
	moves int
}

// checkInferrer checks engine.Inferrer as determinize checks
// engine.Determinizer, for a seat and a sharpness: Infer leaves its
// receiver alone, its worlds keep everything the viewer sees, and they
// do not depend on what the viewer cannot see: a position that differs
// from this one only there (a determinization of it) gives the same
// worlds for the same draws.
func (c *checker) checkInferrer(v engine.Seat, sharpness float64) {
	c.t.Helper()
	inf, ok := c.st.(engine.Inferrer)
	if !ok {
		return
	}
	before := StateKey(c.st)
	d := inf.Infer(v, sharpness)
	seed := c.setup.Seed<<8 + uint64(len(c.rec)) + 7
	r := engine.NewRand(seed)
	world := d.Determinize(v, &r)
	if StateKey(c.st) != before {
		c.fatalf("Infer(%d, %g) or its Determinize changed its receiver", v, sharpness)
	}
	if !sameView(c.st, world, v) {
		c.fatalf("Infer(%d, %g)'s world changed what seat %d sees:\nwas:  %s\nnow:  %s", v, sharpness, v, viewOf(c.st, v), viewOf(world, v))
	}
	det, ok := c.st.(engine.Determinizer)
	if !ok {
		return // no other position with the same view to compare with
	}
	hr := engine.NewRand(seed ^ 0x9e3779b97f4a7c15)
	other := det.Determinize(v, &hr)
	oi, ok := other.(engine.Inferrer)
	if !ok {
		c.fatalf("a determinization is no longer an engine.Inferrer")
	}
	ra, rb := engine.NewRand(seed+1), engine.NewRand(seed+1)
	x, y := d.Determinize(v, &ra), oi.Infer(v, sharpness).Determinize(v, &rb)
	if StateKey(x) != StateKey(y) || ra != rb {
		c.fatalf("Infer(%d, %g) depends on what seat %d cannot see:\n%s", v, sharpness, v, stateDiff(x, y))
	}
}

// checkEnder checks engine.Ender: "" while the game goes on; at its end
// one short line, the same for the position the record replays to.
func (c *checker) checkEnder(replayed engine.State) {
	c.t.Helper()
	e, ok := c.st.(engine.Ender)
	if !ok {
		return
	}
	why := e.EndReason()
	if !c.st.Over() {
		if why != "" {
			c.fatalf("EndReason %q of a game still in play", why)
		}
		return
	}
	if why == "" || len(why) > 40 || strings.ContainsAny(why, "\n\r") {
		c.fatalf("EndReason %q of a finished game: want one short line", why)
	}
	if again := replayed.(engine.Ender).EndReason(); again != why {
		c.fatalf("EndReason %q, and %q for the record replayed", why, again)
	}
}
