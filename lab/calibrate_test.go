package lab

import (
	"context"
	"fmt"
	"math"
	"testing"

	"tessera/ai"
	"tessera/engine"
	_ "tessera/engine/games"
)

// TestCalibrate: a small run counts every seat's chance at every position
// once, its Brier score is a mean of squares in [0, 1], the winner's game
// is decided no later than its end, and the result does not depend on
// the number of workers; merged halves count what they count apart.
func TestCalibrate(t *testing.T) {
	cfg := CalibrationConfig{Game: "knotwork", Players: 2, Games: 4, Seed: 3, Analysis: ai.Budget{Iterations: 60, Workers: 1}, Workers: 1}
	one, err := Calibrate(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, b := range one.Bins {
		n += b.Count
		if b.Count > 0 && (b.Mean < b.Low || b.Mean > b.High || b.Won < 0 || b.Won > 1) {
			t.Fatalf("bin %+v", b)
		}
	}
	if n != 2*one.Positions || one.Positions == 0 || one.Brier < 0 || one.Brier > 1 || math.Abs(one.BrierBase-0.25) > 1e-9 {
		t.Fatalf("%d chances for %d positions, Brier %v (base %v)", n, one.Positions, one.Brier, one.BrierBase)
	}
	for i, d := range one.Decided {
		if d < 0 || d > one.Lengths[i]+1 {
			t.Fatalf("game %d decided at %d of %d", i, d, one.Lengths[i])
		}
	}
	if !one.Movers || len(one.Points) != n {
		t.Fatalf("%d points for %d chances, movers %v", len(one.Points), n, one.Movers)
	}
	for i := 0; i < len(one.Points); i += 2 { // 2 players: each position's two chances
		if one.Points[i][2]+one.Points[i+1][2] != 1 {
			t.Fatalf("position %d: movers %v and %v, want exactly one", i/2, one.Points[i][2], one.Points[i+1][2])
		}
	}
	cfg.Workers = 3
	three, err := Calibrate(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(one) != fmt.Sprint(three) {
		t.Fatalf("1 worker and 3 differ:\n%v\n%v", one, three)
	}
	cfg.Games, cfg.Seed = 2, 4
	other, err := Calibrate(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	m, err := MergeCalibrations([]Calibration{one, other})
	if err != nil {
		t.Fatal(err)
	}
	if m.Games != 6 || m.Positions != one.Positions+other.Positions || len(m.Decided) != 6 {
		t.Fatalf("merged %+v", m)
	}
	want := (one.Brier*float64(one.Positions) + other.Brier*float64(other.Positions)) / float64(one.Positions+other.Positions)
	if math.Abs(m.Brier-want) > 1e-9 {
		t.Fatalf("merged Brier %v, want %v", m.Brier, want)
	}
	if !m.Movers {
		t.Fatal("merged reports that carry their movers lost them")
	}
	old := other
	old.Movers = false // a report from before the mover was kept
	if m, _ := MergeCalibrations([]Calibration{one, old}); m.Movers {
		t.Fatal("merged with a report without movers, yet said to carry them")
	}
	other.Iterations = 61
	if _, err := MergeCalibrations([]Calibration{one, other}); err == nil {
		t.Fatal("runs of different budgets merged")
	}
}

// TestFitLogistic: points drawn from a known map of overconfident chances
// give back about that map, and mapping with it lowers their Brier
// score; too few points give the identity.
func TestFitLogistic(t *testing.T) {
	want := Logistic{A: 0.4, B: 0.3}
	pts := drawPoints(want, false)
	got := FitLogistic(pts, false)
	if math.Abs(got.A-want.A) > 0.08 || math.Abs(got.B-want.B) > 0.15 || got.M != 0 {
		t.Fatalf("fitted %+v, want about %+v", got, want)
	}
	if raw, mapped := (Logistic{A: 1}).Brier(pts), got.Brier(pts); mapped >= raw {
		t.Fatalf("Brier %v mapped, %v raw", mapped, raw)
	}
	if l := FitLogistic(pts[:10], false); l != (Logistic{A: 1}) {
		t.Fatalf("10 points fitted %+v", l)
	}
	// Results that the chances separate perfectly have no finite fit: the
	// identity, not a map that makes every chance 0 or 1.
	var sep [][3]float64
	for i := range 100 {
		p := (float64(i) + 0.5) / 100
		sep = append(sep, [3]float64{p, math.Round(p)})
	}
	if l := FitLogistic(sep, false); l != (Logistic{A: 1}) {
		t.Fatalf("separated points fitted %+v", l)
	}
	c := Calibration{Points: pts}
	m := c.Mapped(got)
	n := 0
	for _, b := range m.Bins {
		n += b.Count
	}
	if n != len(pts) || math.Abs(m.Brier-got.Brier(pts)) > 1e-12 {
		t.Fatalf("mapped report: %d points binned of %d, Brier %v", n, len(pts), m.Brier)
	}
}

// TestFitLogisticMover: chances from a search that favours its own side
// (the mover's chance too high, as Glorieta's playouts give it) are fitted
// with the mover's term when the points carry the mover, which scores
// better than the best map without it; without the mover the term stays 0.
func TestFitLogisticMover(t *testing.T) {
	want := Logistic{A: 0.7, B: 0.4, M: -0.8}
	pts := drawPoints(want, true)
	got := FitLogistic(pts, true)
	if math.Abs(got.A-want.A) > 0.1 || math.Abs(got.B-want.B) > 0.15 || math.Abs(got.M-want.M) > 0.2 {
		t.Fatalf("fitted %+v, want about %+v", got, want)
	}
	blind := FitLogistic(pts, false)
	if blind.M != 0 {
		t.Fatalf("fitted a mover's term %v from points said not to carry the mover", blind.M)
	}
	if with, without := got.Brier(pts), blind.Brier(pts); with >= without {
		t.Fatalf("Brier %v with the mover's term, %v without", with, without)
	}
}

// drawPoints draws 4,000 points whose results follow the map want: chances
// spread over (0, 1), every other one the mover's when movers is set.
func drawPoints(want Logistic, movers bool) [][3]float64 {
	var pts [][3]float64
	r := engine.NewRand(5)
	for i := range 4000 {
		p := (float64(i%99) + 0.5) / 100 // chances given, spread over (0, 1)
		mover := 0.0
		if movers && i%2 == 0 {
			mover = 1
		}
		q := want.Apply(p, mover == 1) // how often such a seat won
		y := 0.0
		if r.Float64() < q { // won with frequency q
			y = 1
		}
		pts = append(pts, [3]float64{p, y, mover})
	}
	return pts
}

// TestFitLogisticSeat: chances from a search blind to the second seat's
// edge (it wins more than it is given, as Glorieta's does) are fitted with
// the second seat's term when asked, which scores better than the best map
// without it; the term is fitted only for two seats, and a report's
// mapped Brier score counts it.
func TestFitLogisticSeat(t *testing.T) {
	want := Logistic{A: 0.6, B: -0.3, M: -0.4, S: 0.9}
	// A position's two seats at a time, in seat order; the seat to move
	// alternates from one position to the next, as in a game.
	var pts [][3]float64
	r := engine.NewRand(7)
	for i := range 8000 {
		pos, seat := i/2, i%2
		p := (float64(pos%99) + 0.5) / 100
		if seat == 1 {
			p = 1 - p
		}
		mover := 0.0
		if pos%2 == seat {
			mover = 1
		}
		q := ai.ChanceMap(want).ApplySeat(p, mover == 1, seat == 1)
		y := 0.0
		if r.Float64() < q {
			y = 1
		}
		pts = append(pts, [3]float64{p, y, mover})
	}
	got := FitLogisticSeats(pts, true, 2)
	if math.Abs(got.A-want.A) > 0.1 || math.Abs(got.B-want.B) > 0.15 || math.Abs(got.M-want.M) > 0.15 || math.Abs(got.S-want.S) > 0.2 {
		t.Fatalf("fitted %+v, want about %+v", got, want)
	}
	without := FitLogistic(pts, true)
	if without.S != 0 {
		t.Fatalf("FitLogistic fitted a seat's term: %+v", without)
	}
	if three := FitLogisticSeats(pts, true, 3); three.S != 0 {
		t.Fatalf("a seat's term fitted for three seats: %+v", three)
	}
	if with, blind := got.Brier(pts), without.Brier(pts); with >= blind {
		t.Fatalf("Brier %v with the seat's term, %v without", with, blind)
	}
	c := Calibration{Players: 2, Points: pts}
	if m := c.Mapped(got); math.Abs(m.Brier-got.Brier(pts)) > 1e-12 {
		t.Fatalf("mapped report's Brier %v, want %v", m.Brier, got.Brier(pts))
	}
}
