package service_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"tessera"
	"tessera/service"
	"tessera/storage"
)

// seedRatings stores n ratings of elemental in server g, user "1" ... n,
// through a game's transaction as a game's end writes them. Player i has
// mu 40 - i and sigma 5 (ordinal 25 - i), except that players 21 and 22
// have the same rating as 20, 21 with more games (so before 20) and 22
// with as many (so after 20: names "p20" < "p22").
func seedRatings(h *harness, n int) {
	h.t.Helper()
	id := h.newGame("elemental", "borders=RBGY", ana, bo)
	_, err := h.store.Modify(context.Background(), id, func(g *tessera.Game, tx storage.Tx) error {
		for i := 1; i <= n; i++ {
			mu, games := 40-float64(i), 3
			switch i {
			case 21:
				mu, games = 20, 4
			case 22:
				mu = 20
			}
			r := tessera.Rating{GuildID: "g", Game: "elemental", UserID: fmt.Sprint(i), Name: fmt.Sprintf("p%d", i), Mu: mu, Sigma: 5, Games: games, Won: 1, Lost: games - 1}
			for j := range games {
				r.History = append(r.History, tessera.RatingPoint{GameID: uint64(1000*i + j), At: time.Unix(int64(j), 0).UTC(), Mu: mu + float64(games-1-j), Sigma: 5})
			}
			if err := tx.PutRating(context.Background(), r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		h.t.Fatal(err)
	}
}

// TestLeaderboardReadsItsRows: /leaderboard, the web leaderboard and
// /profile give the places of the stored order, ties included: 30
// players, whose order by hand is 1 … 19, then 21 (ordinal 5 with 4
// games), 20, 22 (ordinal 5, 3 games, by name), 23 … 30.
func TestLeaderboardReadsItsRows(t *testing.T) {
	h := newWebHarness(t)
	ctx := context.Background()
	seedRatings(h, 30)
	order := []string{}
	for i := 1; i <= 19; i++ {
		order = append(order, fmt.Sprint(i))
	}
	order = append(order, "21", "20", "22")
	for i := 23; i <= 30; i++ {
		order = append(order, fmt.Sprint(i))
	}

	rows, _, rated, err := h.svc.WebLeaderboard(ctx, "g", "elemental", 0)
	if err != nil || rated != 30 || len(rows) != 30 {
		t.Fatalf("web leaderboard: %d rows of %d (%v)", len(rows), rated, err)
	}
	for i, r := range rows {
		if r.UserID != order[i] || r.Place != i+1 {
			t.Fatalf("web leaderboard row %d: %s at %d, want %s at %d", i, r.UserID, r.Place, order[i], i+1)
		}
	}
	if rows, _, rated, err := h.svc.WebLeaderboard(ctx, "g", "elemental", 1); err != nil || len(rows) != 0 || rated != 30 {
		t.Fatalf("the web leaderboard's second page: %+v of %d (%v), want none of 30", rows, rated, err)
	}

	// Player 22 is 22nd, beyond the 20 shown: the text names the place.
	p22 := service.User{ID: "22", Name: "p22"}
	r := h.ok(h.svc.Leaderboard(h.req(p22), "elemental"))
	want := fmt.Sprintf("30 rated players. You are 22nd with %d (provisional) after 3 rated games.", service.DisplayRating(tessera.Rating{Mu: 20, Sigma: 5}))
	if !strings.Contains(r.Text, want) {
		t.Errorf("/leaderboard of p22: %q, want %q", r.Text, want)
	}
	p21 := service.User{ID: "21", Name: "p21"}
	if r := h.ok(h.svc.Leaderboard(h.req(p21), "elemental")); !strings.Contains(r.Text, "You are 20th with") {
		t.Errorf("/leaderboard of p21: %q", r.Text)
	}
	if r := h.ok(h.svc.Leaderboard(h.req(service.User{ID: "99", Name: "Dee"}), "elemental")); !strings.Contains(r.Text, "30 rated players. You have no rated game of it here yet.") {
		t.Errorf("/leaderboard of a player without a rating: %q", r.Text)
	}

	card, err := h.svc.ProfileCard(ctx, "g", p22)
	if err != nil || len(card.Games) != 1 {
		t.Fatalf("p22's card: %+v %v", card, err)
	}
	if g := card.Games[0]; g.Place != 22 || g.Rated != 30 || len(g.Course) != 4 || g.Course[3] != service.DisplayRating(tessera.Rating{Mu: 20, Sigma: 5}) {
		t.Errorf("p22's card: place %d of %d, course %v; want 22 of 30 and 3 games' course", g.Place, g.Rated, g.Course)
	}
}

// TestGamePageSeatRatings: the game page shows each person's rating of
// the game in its server, and none for a player without one.
func TestGamePageSeatRatings(t *testing.T) {
	h := newWebHarness(t)
	seedRatings(h, 1) // ana (user 1) has a rating of elemental; bo none
	id := h.newGame("elemental", "borders=RBGY", ana, bo)
	v, err := h.svc.GameView(context.Background(), h.game(id), 0, "")
	if err != nil {
		t.Fatal(err)
	}
	if want := service.DisplayRating(tessera.Rating{Mu: 39, Sigma: 5}); v.Seats[0].Rating != want || v.Seats[1].Rating != 0 {
		t.Errorf("seat ratings %d and %d, want %d and none", v.Seats[0].Rating, v.Seats[1].Rating, want)
	}
}
