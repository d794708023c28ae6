package lab_test

import (
	"context"
	"testing"

	"tessera/lab"
)

// TestDealsBySeat: in labfirst seat 1 wins every game, so every deal is
// decided by the seat, whoever sat there, with 2 and with 3 players; no
// player decides one.
func TestDealsBySeat(t *testing.T) {
	for _, c := range []struct {
		players, games, deals int
		seats                 []string
	}{
		{2, 100, 50, []string{"random", "greedy"}},
		{3, 99, 33, []string{"random", "greedy", "random"}},
	} {
		rep, err := lab.Run(context.Background(), lab.Config{Game: "labfirst", Players: c.players, Games: c.games, Seats: c.seats, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		d := lab.Analyze(rep, nil).Deals
		if d == nil || d.Deals != c.deals || d.BySeat.Count != c.deals || d.BySeat.Rate != 1 || d.Mixed.Count != 0 {
			t.Fatalf("%d players: %+v, want all %d deals by the seat", c.players, d, c.deals)
		}
		if lo, _ := lab.Wilson(float64(c.deals), c.deals, 1.959963984540054); !near(d.BySeat.Low, lo) || d.BySeat.High != 1 {
			t.Fatalf("%d players: interval [%v, %v], want Wilson's [%v, 1]", c.players, d.BySeat.Low, d.BySeat.High, lo)
		}
		for _, p := range d.ByPlayer {
			if p.Count != 0 {
				t.Fatalf("%d players: a player decided a deal: %+v", c.players, d.ByPlayer)
			}
		}
		// Independent games with these rates (seat 1 always, others never)
		// give the same split: the seat, not the deal.
		if !near(d.Chance.BySeat, 1) || d.Chance.ByPlayer[0] != 0 {
			t.Fatalf("%d players: by chance %+v, want the seat 1 and each player 0", c.players, d.Chance)
		}
	}
}

// TestDealsOfACoin: in matching pennies between random players each game
// is a fresh coin, whatever the deal: the seat decides about half of the
// deals and each player about a quarter, and the counts add up.
func TestDealsOfACoin(t *testing.T) {
	rep, err := lab.Run(context.Background(), lab.Config{Game: "labpennies", Players: 2, Games: 800, Seats: []string{"random", "random"}, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	d := lab.Analyze(rep, nil).Deals
	if d.Deals != 400 || d.ByPlayer[0].Count+d.ByPlayer[1].Count+d.BySeat.Count+d.Mixed.Count != 400 || d.Mixed.Count != 0 {
		t.Fatalf("%+v", d)
	}
	if d.BySeat.Low > 0.5 || d.BySeat.High < 0.5 {
		t.Fatalf("the seat decided %v [%v, %v] of the deals, not about half", d.BySeat.Rate, d.BySeat.Low, d.BySeat.High)
	}
	for i, p := range d.ByPlayer {
		if p.Low > 0.25 || p.High < 0.25 {
			t.Fatalf("player %s decided %v [%v, %v], not about a quarter", p.Name, p.Rate, p.Low, p.High)
		}
		if c := d.Chance.ByPlayer[i]; c < p.Low || c > p.High {
			t.Fatalf("player %s: by chance %v, outside what the coin did [%v, %v]", p.Name, c, p.Low, p.High)
		}
	}
	if c := d.Chance.BySeat; c < d.BySeat.Low || c > d.BySeat.High {
		t.Fatalf("the seat by chance %v, outside what the coin did [%v, %v]", c, d.BySeat.Low, d.BySeat.High)
	}
}

// TestDealsByHand: four deals of two games, built by hand: one won by
// player 1 in both seats, one by seat 1 whoever sat there, one with a
// shared win, one whose second game is missing (a stopped run).
func TestDealsByHand(t *testing.T) {
	rep := lab.Report{Config: lab.Config{Game: "labfirst", Players: 2, Games: 8, Seats: []string{"hard", "greedy"}, Seed: 1}}
	add := func(index int, winners ...int) {
		rep.Records = append(rep.Records, lab.Record{Index: index, Players: []int{index % 2, (index + 1) % 2}, Winners: winners,
			Moves: []string{"go"}, Movers: []int{0}, Legal: []int{1}, Scores: [][]int{{0, 0}}, Final: []int{0, 0}})
	}
	add(0, 0) // deal 0: seat 1 holds player 1 (hard)
	add(1, 1) // seat 2 holds player 1: hard in both
	add(2, 0) // deal 1: seat 1 (hard)
	add(3, 0) // seat 1 (greedy): the seat
	add(4, 0) // deal 2: a shared win in the second game
	add(5, 0, 1)
	add(6, 0) // deal 3: incomplete
	d := lab.Analyze(rep, nil).Deals
	if d.Deals != 3 || d.ByPlayer[0].Count != 1 || d.ByPlayer[1].Count != 0 || d.BySeat.Count != 1 || d.Mixed.Count != 1 ||
		d.ByPlayer[0].Name != "1:hard" || !near(d.BySeat.Rate, 1.0/3) {
		t.Fatalf("%+v", d)
	}
	// Sole-win rates by player and seat, over all 7 games: hard in seat 1
	// 4 of 4, in seat 2 1 of 3; greedy in seat 1 1 of 3, in seat 2 0 of 4.
	// Hard takes a deal by chance 1·1/3, greedy 1/3·0, seat 1 1·1/3, seat
	// 2 1/3·0.
	if c := d.Chance; !near(c.ByPlayer[0], 1.0/3) || c.ByPlayer[1] != 0 || !near(c.BySeat, 1.0/3) {
		t.Fatalf("by chance %+v, want hard 1/3, greedy 0, the seat 1/3", c)
	}
}
