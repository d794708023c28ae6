package storagetest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"tessera"
	"tessera/storage"
)

// rated is a rating of elemental in g1 with its own mu, sigma, games and
// name, and a history of games points.
func rated(user, name string, mu, sigma float64, games int) tessera.Rating {
	r := tessera.Rating{GuildID: "g1", Game: "elemental", UserID: user, Name: name, Mu: mu, Sigma: sigma, Games: games, Won: games}
	for i := range games {
		r.History = append(r.History, tessera.RatingPoint{GameID: uint64(100 + i), At: time.Unix(int64(4000+i), 0).UTC(), Mu: mu, Sigma: sigma})
	}
	return r
}

// putRatings writes rs in one game's transaction, as a game's end does.
func putRatings(t *testing.T, s storage.Store, id uint64, rs ...tessera.Rating) {
	t.Helper()
	if _, err := s.Modify(t.Context(), id, func(g *tessera.Game, tx storage.Tx) error {
		for _, r := range rs {
			if err := tx.PutRating(t.Context(), r); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

func users(rs []tessera.Rating) string {
	var out []string
	for _, r := range rs {
		out = append(out, r.UserID)
	}
	return strings.Join(out, " ")
}

// testRatingReads: the reads a player causes (a point read, a player's
// ratings, a leaderboard's page, a place) agree with the leaderboard's
// order, ties included, and read no history but where they promise it.
func testRatingReads(t *testing.T, open func(t *testing.T) storage.Store) {
	s := open(t)
	ctx := t.Context()
	id := create(t, s, NewGame())
	// Ordinals (mu - 3 sigma), worked by hand: a and b 15 (30 - 15 and
	// 27 - 12, equal to the bit), b with more games; d ties b on games
	// too and comes first by name (Ana < Bo); e and f tie d on all but
	// the id; the names "Cy", "Cy\x00" and "Cy\x01" sort as Go compares
	// strings, a shorter name first; h is at 0 (3 - 3), g below it at -14
	// (10 - 24).
	all := []tessera.Rating{
		rated("a", "Al", 30, 5, 3),
		rated("b", "Bo", 27, 4, 5),
		rated("d", "Ana", 27, 4, 5),
		rated("f", "Ana", 27, 4, 5),
		rated("e", "Ana", 27, 4, 5),
		rated("c0", "Cy\x00", 40, 5, 2),
		rated("c1", "Cy\x01", 40, 5, 2),
		rated("c", "Cy", 40, 5, 2),
		rated("g", "Gil", 10, 8, 1),
		rated("h", "Hal", 3, 1, 7),
		rated("top", "Zed", 50, 2, 9),
	}
	const want = "top c c0 c1 d e f b a h g" // top 44; c* 25; d e f b 15 with 5 games; a 15 with 3; h 0; g -14
	putRatings(t, s, id, all...)
	// Elsewhere: another server, another game of g1: neither counts.
	other := rated("b", "Bo", 60, 1, 4)
	other.GuildID = "g2"
	closure := rated("a", "Al", 60, 1, 4)
	closure.Game = "closure"
	putRatings(t, s, id, other, closure)

	sorted := slices.Clone(all)
	slices.SortFunc(sorted, storage.CompareRank)
	if users(sorted) != want {
		t.Fatalf("storage.CompareRank orders %s, want %s", users(sorted), want)
	}
	page, n, err := s.Leaders(ctx, "g1", "elemental", 0, 100)
	if err != nil || users(page) != want || n != len(all) {
		t.Fatalf("leaderboard: %s of %d (%v), want %s of %d", users(page), n, err, want, len(all))
	}
	for _, r := range page {
		if r.History != nil {
			t.Fatalf("a leaderboard row carries a history: %+v", r)
		}
	}
	if page[1].Name != "Cy" || page[1].Mu != 40 || page[1].Sigma != 5 || page[1].Games != 2 || page[1].Won != 2 {
		t.Fatalf("a leaderboard row read back: %+v", page[1])
	}
	// Pages: an ordered read with a limit, from any offset.
	for _, p := range []struct{ skip, limit int }{{0, 3}, {2, 3}, {9, 5}, {11, 5}, {40, 5}, {0, 0}} {
		got, n, err := s.Leaders(ctx, "g1", "elemental", p.skip, p.limit)
		words := strings.Fields(want)
		wantPage := strings.Join(words[min(p.skip, len(words)):min(p.skip+p.limit, len(words))], " ")
		if err != nil || users(got) != wantPage || n != len(all) {
			t.Errorf("leaderboard from %d, at most %d: %q of %d (%v), want %q of %d", p.skip, p.limit, users(got), n, err, wantPage, len(all))
		}
	}
	// Places: every player their own, in the list's order.
	for i, u := range strings.Fields(want) {
		place, n, err := s.RatingRank(ctx, "g1", "elemental", u)
		if err != nil || place != i+1 || n != len(all) {
			t.Errorf("place of %s: %d of %d (%v), want %d of %d", u, place, n, err, i+1, len(all))
		}
	}
	if place, n, err := s.RatingRank(ctx, "g1", "elemental", "nobody"); err != nil || place != 0 || n != len(all) {
		t.Errorf("place of a player without a rating: %d of %d (%v), want 0 of %d", place, n, err, len(all))
	}
	if place, n, err := s.RatingRank(ctx, "g1", "knotwork", "a"); err != nil || place != 0 || n != 0 {
		t.Errorf("place in a game nobody played: %d of %d (%v)", place, n, err)
	}
	if got, n, err := s.Leaders(ctx, "g3", "elemental", 0, 20); err != nil || len(got) != 0 || n != 0 {
		t.Errorf("leaderboard of a server without ratings: %s of %d (%v)", users(got), n, err)
	}
	if place, n, err := s.RatingRank(ctx, "g2", "elemental", "b"); err != nil || place != 1 || n != 1 {
		t.Errorf("place in the other server: %d of %d (%v), want 1 of 1", place, n, err)
	}

	// A point read, without the history; the history apart.
	r, ok, err := s.PlayerRating(ctx, "g1", "elemental", "h")
	if err != nil || !ok || r.Name != "Hal" || r.Mu != 3 || r.Games != 7 || r.History != nil {
		t.Fatalf("point read of h: %+v %v %v", r, ok, err)
	}
	if _, ok, err := s.PlayerRating(ctx, "g1", "closure", "b"); ok || err != nil {
		t.Fatalf("point read of a rating nobody has: %v %v", ok, err)
	}
	h, err := s.RatingHistory(ctx, "g1", "elemental", "h")
	if err != nil || len(h) != 7 || h[6].GameID != 106 || !h[6].At.Equal(time.Unix(4006, 0)) || h[6].Mu != 3 {
		t.Fatalf("history of h: %+v %v", h, err)
	}
	if h, err := s.RatingHistory(ctx, "g1", "closure", "b"); err != nil || h != nil {
		t.Fatalf("history of a rating nobody has: %+v %v", h, err)
	}
	// A player's ratings in one server, with their history.
	mine, err := s.PlayerRatings(ctx, "g1", "a")
	slices.SortFunc(mine, func(x, y tessera.Rating) int { return strings.Compare(x.Game, y.Game) })
	if err != nil || len(mine) != 2 || mine[0].Game != "closure" || mine[1].Game != "elemental" || len(mine[0].History) != 4 || len(mine[1].History) != 3 {
		t.Fatalf("a's ratings in g1: %+v %v", mine, err)
	}

	// A game's end moves a player: the old place is gone, the count stays.
	up := rated("g", "Gil", 60, 3, 2) // 51: first
	putRatings(t, s, id, up)
	const after = "g top c c0 c1 d e f b a h"
	if page, n, err := s.Leaders(ctx, "g1", "elemental", 0, 100); err != nil || users(page) != after || n != len(all) {
		t.Fatalf("after g's win: %s of %d (%v), want %s of %d", users(page), n, err, after, len(all))
	}
	if place, _, _ := s.RatingRank(ctx, "g1", "elemental", "h"); place != len(all) {
		t.Errorf("h after g's win: %d, want %d", place, len(all))
	}
	if h, _ := s.RatingHistory(ctx, "g1", "elemental", "g"); len(h) != 2 {
		t.Errorf("g's history after the win: %+v", h)
	}
	// A renamed player moves among equals.
	renamed := rated("f", "Aaron", 27, 4, 5)
	putRatings(t, s, id, renamed)
	if page, _, _ := s.Leaders(ctx, "g1", "elemental", 5, 3); users(page) != "f d e" {
		t.Errorf("after f's new name, places 6-8: %s, want f d e", users(page))
	}
	if errs := s.Check(ctx); len(errs) != 0 {
		t.Fatalf("check after the ratings changed: %v", errs)
	}

	// tessera ratings --rebuild: the indexes follow, and the order of the
	// games' ends goes on from where it was.
	var before uint64
	if _, err := s.Modify(ctx, id, func(g *tessera.Game, tx storage.Tx) error {
		before, err = tx.NextRatingSeq(ctx)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if err := s.ReplaceRatings(ctx, []tessera.Rating{rated("x", "Xi", 20, 2, 2), rated("y", "Yu", 30, 2, 1)}); err != nil {
		t.Fatal(err)
	}
	if page, n, err := s.Leaders(ctx, "g1", "elemental", 0, 20); err != nil || users(page) != "y x" || n != 2 {
		t.Fatalf("leaderboard after replacing: %s of %d (%v)", users(page), n, err)
	}
	if place, n, _ := s.RatingRank(ctx, "g1", "elemental", "a"); place != 0 || n != 2 {
		t.Errorf("a replaced rating keeps a place: %d of %d", place, n)
	}
	if mine, _ := s.PlayerRatings(ctx, "g1", "a"); len(mine) != 0 {
		t.Errorf("a replaced player keeps ratings: %+v", mine)
	}
	if _, n, _ := s.Leaders(ctx, "g2", "elemental", 0, 20); n != 0 {
		t.Errorf("a replaced server keeps its count: %d", n)
	}
	if _, err := s.Modify(ctx, id, func(g *tessera.Game, tx storage.Tx) error {
		next, err := tx.NextRatingSeq(ctx)
		if err == nil && next <= before {
			err = fmt.Errorf("NextRatingSeq gave %d after ReplaceRatings, %d before it: the games' order starts again", next, before)
		}
		return err
	}); err != nil {
		t.Error(err)
	}
	if errs := s.Check(ctx); len(errs) != 0 {
		t.Fatalf("check after replacing the ratings: %v", errs)
	}
}

// testRatingPlaces: many players with few distinct ratings (equal
// ordinals, equal games, equal names, ordinals on and around the edges of
// a quarter point), some of them changed twice: every place a store
// counts is the player's position in the order storage.CompareRank sorts,
// and a leaderboard read page by page is that order.
func testRatingPlaces(t *testing.T, open func(t *testing.T) storage.Store) {
	s := open(t)
	ctx := t.Context()
	id := create(t, s, NewGame())
	rng := rand.New(rand.NewPCG(44, 3))
	mus := []float64{10, 24.75, 25, 25.25, 25.125, 30, 37.5}
	sigmas := []float64{2, 25.0 / 3, 5, 8.25}
	byUser := map[string]tessera.Rating{}
	draw := func(user string) tessera.Rating {
		return tessera.Rating{GuildID: "g1", Game: "elemental", UserID: user, Name: fmt.Sprint("n", rng.IntN(3)),
			Mu: mus[rng.IntN(len(mus))], Sigma: sigmas[rng.IntN(len(sigmas))], Games: 1 + rng.IntN(3)}
	}
	for round := range 3 {
		var batch []tessera.Rating
		for i := range 240 {
			if round > 0 && i%3 != 0 {
				continue // a third of them change
			}
			r := draw(fmt.Sprint("u", i))
			byUser[r.UserID] = r
			batch = append(batch, r)
		}
		putRatings(t, s, id, batch...)
	}
	var all []tessera.Rating
	for _, r := range byUser {
		all = append(all, r)
	}
	slices.SortFunc(all, storage.CompareRank)
	for i, r := range all {
		place, n, err := s.RatingRank(ctx, "g1", "elemental", r.UserID)
		if err != nil || place != i+1 || n != len(all) {
			t.Fatalf("place of %s (%+v): %d of %d (%v), want %d of %d", r.UserID, r, place, n, err, i+1, len(all))
		}
	}
	var pages []tessera.Rating
	for skip := 0; ; skip += 37 {
		page, _, err := s.Leaders(ctx, "g1", "elemental", skip, 37)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) == 0 {
			break
		}
		pages = append(pages, page...)
	}
	if users(pages) != users(all) {
		t.Fatalf("the leaderboard page by page:\n%s\nwant\n%s", users(pages), users(all))
	}
	if errs := s.Check(ctx); len(errs) != 0 {
		t.Fatalf("check: %v", errs)
	}
}
