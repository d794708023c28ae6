package service_test

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"reflect"
	"strings"
	"testing"
	"time"

	"tessera"
	"tessera/service"
)

// newGame challenges players[1:] for players[0] and has them accept.
func (h *harness) newGame(game, options string, players ...service.User) uint64 {
	h.t.Helper()
	r := h.ok(h.svc.NewGame(h.req(players[0]), service.NewGameRequest{Game: game, Opponents: players[1:], Options: options, Clock: ""}))
	var id uint64
	if _, err := fmt.Sscanf(r.Buttons[0].ID, "accept:%d", &id); err != nil {
		h.t.Fatalf("challenge buttons %+v", r.Buttons)
	}
	for _, p := range players[1:] {
		h.ok(h.svc.Click(h.req(p), fmt.Sprintf("accept:%d", id)))
	}
	h.deliver()
	return id
}

func (h *harness) resign(u service.User, id uint64) {
	h.t.Helper()
	h.now = h.now.Add(time.Minute)
	h.ok(h.svc.Click(h.req(u), fmt.Sprintf("resign:%d", id)))
	h.deliver()
}

// playOut plays random legal moves until game id ends.
func (h *harness) playOut(id uint64, rng *rand.Rand, users map[string]service.User) {
	h.t.Helper()
	g, err := h.svc.Store().Game(context.Background(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	st, err := service.Replay(g)
	if err != nil {
		h.t.Fatal(err)
	}
	for n := 0; n < 2000 && !st.Over(); n++ {
		legal := st.Legal()
		m := legal[rng.Intn(len(legal))]
		text := m.String()
		h.now = h.now.Add(time.Minute)
		h.ok(h.svc.Move(h.req(users[g.Players[st.ToMove()].ID]), fmt.Sprint(id), text))
		if _, err := st.Apply(m); err != nil {
			h.t.Fatal(err)
		}
	}
	// Not delivered: drawing every move's board would take most of the test.
	if g, err = h.svc.Store().Game(context.Background(), id); err != nil || g.Status != tessera.StatusFinished {
		h.t.Fatalf("game %d did not end: %v", id, err)
	}
}

func (h *harness) rating(user, game string) tessera.Rating {
	h.t.Helper()
	rs, err := h.svc.Store().Ratings(context.Background(), "g", game)
	if err != nil {
		h.t.Fatal(err)
	}
	for _, r := range rs {
		if r.UserID == user {
			return r
		}
	}
	h.t.Fatalf("no %s rating for %s", game, user)
	return tessera.Rating{}
}

func near(t *testing.T, what string, r tessera.Rating, mu, sigma float64) {
	t.Helper()
	if math.Abs(r.Mu-mu) > 1e-9 || math.Abs(r.Sigma-sigma) > 1e-9 {
		t.Errorf("%s: mu %v sigma %v, want %v %v", what, r.Mu, r.Sigma, mu, sigma)
	}
}

// checkRebuild: the ratings computed again from the finished games are
// exactly the stored ones.
func (h *harness) checkRebuild() []tessera.Rating {
	h.t.Helper()
	computed, err := service.RebuildRatings(context.Background(), h.svc.Store())
	if err != nil {
		h.t.Fatal(err)
	}
	stored, err := h.svc.Store().AllRatings(context.Background())
	if err != nil {
		h.t.Fatal(err)
	}
	if !reflect.DeepEqual(computed, stored) {
		h.t.Fatalf("rebuilt ratings differ from the stored ones:\n%+v\n%+v", computed, stored)
	}
	return stored
}

// A resignation is a loss; the first game of two new players gives
// openskill's published 2-player result; a 3-player game placed by the
// order of leaving gives its published 3-player result.
func TestRatingsPublishedExamples(t *testing.T) {
	h := newHarness(t)
	id := h.newGame("elemental", "borders=RBGY", ana, bo)
	h.resign(bo, id)
	near(t, "Ana", h.rating(ana.ID, "elemental"), 27.63523138347365, 8.065506316323548)
	near(t, "Bo", h.rating(bo.ID, "elemental"), 22.36476861652635, 8.065506316323548)
	if r := h.rating(ana.ID, "elemental"); r.Won != 1 || r.Games != 1 || len(r.History) != 1 || r.History[0].GameID != id {
		t.Fatalf("Ana's record %+v", r)
	}
	if r := h.rating(bo.ID, "elemental"); r.Lost != 1 || r.Won != 0 {
		t.Fatalf("Bo's record %+v", r)
	}

	// Three new players of Tiling King: Cy leaves first, then Bo; Ana wins.
	id = h.newGame("tilingking", "", ana, bo, cy)
	h.resign(cy, id)
	h.resign(bo, id)
	near(t, "Ana 1st", h.rating(ana.ID, "tilingking"), 27.868876552746237, 8.204837030780652)
	near(t, "Bo 2nd", h.rating(bo.ID, "tilingking"), 25.717219138186557, 8.057829747583874)
	near(t, "Cy 3rd", h.rating(cy.ID, "tilingking"), 21.413904309067206, 8.057829747583874)
	h.checkRebuild()
}

// Unrated games change nothing: rated:false, aborted, and against the AI.
func TestUnratedGames(t *testing.T) {
	h := newHarness(t)
	req := h.req(ana)
	req.Unrated = true
	r := h.ok(h.svc.NewGame(req, service.NewGameRequest{Game: "elemental", Opponents: []service.User{bo}, Options: "borders=RBGY", Clock: ""}))
	var id uint64
	fmt.Sscanf(r.Buttons[0].ID, "accept:%d", &id)
	h.ok(h.svc.Click(h.req(bo), fmt.Sprintf("accept:%d", id)))
	h.deliver()
	h.resign(ana, id)
	id = h.newGame("elemental", "borders=RBGY", ana, bo)
	h.ok(h.svc.Abort(h.req(ana), fmt.Sprint(id)))
	if rs := h.checkRebuild(); len(rs) != 0 {
		t.Fatalf("unrated games made ratings %+v", rs)
	}
	g, err := h.svc.Store().Game(t.Context(), 1)
	if err != nil || g.Status != tessera.StatusFinished || !g.Unrated || service.Rated(g) {
		t.Fatalf("game 1: %+v %v", g, err)
	}
	g.Unrated = false
	g.Players[1].AI = "easy"
	if service.Rated(g) {
		t.Fatal("a game with an AI seat is rated")
	}
}

// A random series of played-out games of 2, 3 and 4 players: every
// rating is what the finished games give again, bit for bit, and the
// records add up.
func TestRatingsRebuildAfterRandomGames(t *testing.T) {
	h := newHarness(t)
	dee := service.User{ID: "4", Name: "Dee"}
	users := map[string]service.User{ana.ID: ana, bo.ID: bo, cy.ID: cy, dee.ID: dee}
	rng := rand.New(rand.NewSource(3))
	tables := [][]service.User{{ana, bo}, {bo, cy, ana}, {cy, dee, ana, bo}, {dee, ana}}
	games := []string{"tilingking", "closure"}
	played := 0
	for i, table := range tables {
		game := games[i%2]
		if game == "closure" && len(table) > 3 {
			game = "tilingking"
		}
		id := h.newGame(game, "", table...)
		if i == 3 {
			h.resign(dee, id)
		} else {
			h.playOut(id, rng, users)
		}
		played++
	}
	stored := h.checkRebuild()
	games1 := 0
	for _, r := range stored {
		if r.Games != r.Won+r.Lost+r.Shared || r.Games != len(r.History) {
			t.Fatalf("record does not add up: %+v", r)
		}
		games1 += r.Games
	}
	if want := 2 + 3 + 4 + 2; games1 != want {
		t.Fatalf("%d player-games rated, want %d", games1, want)
	}
}

// A time-out is a loss: Ana and Bo each move once, then Ana (seat 1)
// lets her 2-day clock run out, and the ratings are openskill's 2-player
// result with Bo first.
func TestTimeoutIsALoss(t *testing.T) {
	h := newHarnessClock(t, "2d")
	h.start()
	for _, u := range []service.User{ana, bo} {
		cs := h.svc.MoveChoices(h.req(u), "", "")
		h.ok(h.svc.Move(h.req(u), "", cs[0].Value))
	}
	h.now = h.now.Add(49 * time.Hour)
	h.svc.Tick(t.Context())
	near(t, "Bo", h.rating(bo.ID, "elemental"), 27.63523138347365, 8.065506316323548)
	near(t, "Ana", h.rating(ana.ID, "elemental"), 22.36476861652635, 8.065506316323548)
	if r := h.rating(ana.ID, "elemental"); r.Lost != 1 {
		t.Fatalf("Ana's record %+v", r)
	}
	h.checkRebuild()
}

// A forfeit is not rated (issue #48): Ana (seat 1) never moves and her
// clock runs out. The game is over, Bo won, but it was never played:
// neither rating changes, the end post says nothing of ratings, and the
// ratings computed again from the finished games agree (none).
func TestForfeitIsNotRated(t *testing.T) {
	h := newHarnessClock(t, "2d")
	h.start()
	h.now = h.now.Add(49 * time.Hour)
	h.svc.Tick(t.Context())
	g, err := h.svc.Store().Game(t.Context(), 1)
	if err != nil || g.Status != tessera.StatusFinished {
		t.Fatalf("game 1: %+v %v", g, err)
	}
	if !service.Forfeited(g) || service.Rated(g) {
		t.Fatalf("a game Ana never moved in: forfeited %v, rated %v", service.Forfeited(g), service.Rated(g))
	}
	if rs, err := h.svc.Store().Ratings(t.Context(), "g", "elemental"); err != nil || len(rs) != 0 {
		t.Fatalf("rated by a forfeit: %+v %v", rs, err)
	}
	for _, a := range of(h.deliver(), "post") {
		if strings.Contains(a.Msg.Text, "Ratings:") {
			t.Fatalf("a forfeit's end post speaks of ratings: %q", a.Msg.Text)
		}
	}
	if rs := h.checkRebuild(); len(rs) != 0 {
		t.Fatalf("the rebuild rated a forfeit: %+v", rs)
	}
}

// TestEndPostShowsRatingChanges: the post that ends a rated game gives
// each player's rating after it and its change; a first game has nothing
// to change from; an unrated game says nothing of ratings.
func TestEndPostShowsRatingChanges(t *testing.T) {
	h := newHarness(t)
	endPost := func(u service.User, id uint64) string {
		h.t.Helper()
		h.now = h.now.Add(time.Minute)
		h.ok(h.svc.Click(h.req(u), fmt.Sprintf("resign:%d", id)))
		posts := of(h.deliver(), "post")
		return posts[len(posts)-1].Msg.Text
	}
	shown := func(u service.User) int {
		rs, err := h.svc.Store().PlayerRatings(t.Context(), "g", u.ID)
		if err != nil || len(rs) != 1 {
			t.Fatal(rs, err)
		}
		return service.DisplayRating(rs[0])
	}
	id := h.newGame("elemental", "borders=RBGY", ana, bo)
	first := endPost(bo, id)
	want := fmt.Sprintf("Ratings: Ana %d (provisional), Bo %d (provisional).", shown(ana), shown(bo))
	if !strings.HasSuffix(first, "\n"+want) {
		t.Fatalf("the first game's end post:\n%s\nwant it to end with %q", first, want)
	}
	anaBefore, boBefore := shown(ana), shown(bo)
	id = h.newGame("elemental", "borders=RBGY", ana, bo)
	second := endPost(ana, id) // Bo wins this time
	want = fmt.Sprintf("Ratings: Ana %d (−%d, provisional), Bo %d (+%d, provisional).", shown(ana), anaBefore-shown(ana), shown(bo), shown(bo)-boBefore)
	if shown(bo) <= boBefore || shown(ana) >= anaBefore || !strings.HasSuffix(second, "\n"+want) {
		t.Fatalf("the second game's end post:\n%s\nwant it to end with %q", second, want)
	}
	req := h.req(ana)
	req.Unrated = true
	r := h.ok(h.svc.NewGame(req, service.NewGameRequest{Game: "elemental", Opponents: []service.User{bo}, Options: "borders=RBGY", Clock: ""}))
	h.ok(h.svc.Click(h.req(bo), r.Buttons[0].ID))
	h.deliver()
	if unrated := endPost(bo, 3); strings.Contains(unrated, "Ratings") {
		t.Fatalf("an unrated game's end post: %s", unrated)
	}
}
