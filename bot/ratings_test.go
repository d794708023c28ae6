package bot_test

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"tessera"
	"tessera/bot"
	"tessera/bot/fakediscord"
	"tessera/rating"
	"tessera/render"
	"tessera/service"
)

// challenge makes game id (the next one) with /new by the first player,
// has the others accept it, and waits for its first turn.
func (w *world) challenge(t *testing.T, id uint64, game string, extra []fakediscord.Opt, players ...*discordgo.User) {
	t.Helper()
	opts := []fakediscord.Opt{fakediscord.Str("game", game)}
	for i, p := range players[1:] {
		name := "opponent"
		if i > 0 {
			name = fmt.Sprint("opponent", i+1)
		}
		opts = append(opts, fakediscord.UserOpt(name, p.ID))
	}
	r := w.respond(t, w.srv.Slash("new", append(opts, extra...)...).By(players[0]))
	if !strings.Contains(text(r), fmt.Sprintf("(game #%d)", id)) {
		t.Fatalf("challenge #%d: %q", id, text(r))
	}
	for _, p := range players[1:] {
		w.respond(t, w.srv.Button(fmt.Sprintf("accept:%d", id)).By(p))
	}
	thread := w.threadOf(t, id)
	w.srv.WaitMessage(t, thread, func(m *fakediscord.Message) bool { return strings.Contains(m.Content, "your turn") }, patience)
	w.settle(t)
}

// resigns has u resign game id through the confirm button.
func (w *world) resigns(t *testing.T, u *discordgo.User, id uint64) {
	t.Helper()
	r := w.respond(t, w.srv.Button(fmt.Sprintf("resign:%d", id)).By(u))
	if !strings.Contains(text(r), "You resigned") {
		t.Fatalf("%s resigns #%d: %q", u.Username, id, text(r))
	}
	w.settle(t)
}

// picture is the one PNG a response carries.
func picture(t *testing.T, r fakediscord.InteractionResponse) []byte {
	t.Helper()
	fs := files(r)
	if len(fs) != 1 || !bytes.HasPrefix(fs[0].Data, []byte("\x89PNG")) {
		t.Fatalf("want one PNG, got %d files; text %q", len(fs), text(r))
	}
	if dir := os.Getenv("TESSERA_PICTURES"); dir != "" { // to look at them
		os.WriteFile(fmt.Sprintf("%s/%s", dir, fs[0].Name), fs[0].Data, 0o644)
	}
	return fs[0].Data
}

func show(mu, sigma float64) int { return service.DisplayRating(tessera.Rating{Mu: mu, Sigma: sigma}) }

// TestLeaderboardAndProfileAfterGames plays a series through Discord:
// #1 Elemental, bo resigns to alice (openskill's published 2-player
// result); #2 TilingKing for three, cy leaves first, then bo (its
// published 3-player result); #3 Elemental rated:false, alice resigns
// (no change); #4 Elemental, cy resigns to alice (alice's and cy's
// ratings computed by package rating, itself checked against openskill's
// examples); #5 against the computer, alice resigns (unrated, counted on
// the profile at level easy); #6 in play. The /leaderboard and /profile
// pictures must be exactly the pictures of the expected tables.
func TestLeaderboardAndProfileAfterGames(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	alice, bo := w.ana, w.bo
	cy := w.srv.AddUser("cy")

	w.challenge(t, 1, "elemental", []fakediscord.Opt{fakediscord.Str("options", "borders=RBGY")}, alice, bo)
	w.resigns(t, bo, 1)

	w.challenge(t, 2, "tilingking", nil, alice, bo, cy)
	before := w.respond(t, w.srv.Slash("leaderboard", fakediscord.Str("game", "tilingking")).By(cy))
	if !strings.Contains(text(before), "0 rated players. You have no rated game of it here yet.") {
		t.Fatalf("empty leaderboard: %q", text(before))
	}
	w.resigns(t, cy, 2)
	w.resigns(t, bo, 2)

	w.challenge(t, 3, "elemental", []fakediscord.Opt{fakediscord.Str("options", "borders=RBGY"), fakediscord.Bool("rated", false)}, alice, bo)
	w.resigns(t, alice, 3)

	w.challenge(t, 4, "elemental", []fakediscord.Opt{fakediscord.Str("options", "borders=RBGY")}, alice, cy)
	w.resigns(t, cy, 4)

	r := w.respond(t, w.srv.Slash("new", fakediscord.Str("game", "elemental"), fakediscord.UserOpt("opponent", w.srv.Bot.ID), fakediscord.Str("level", "easy")).By(alice))
	if !strings.Contains(text(r), "(game #5)") {
		t.Fatalf("against the computer: %q", text(r))
	}
	w.threadOf(t, 5)
	w.settle(t)
	w.resigns(t, alice, 5)

	w.challenge(t, 6, "elemental", []fakediscord.Opt{fakediscord.Str("options", "borders=RBGY")}, bo, alice)

	// The expected ratings. Game 1: openskill's 2-player example.
	a1 := rating.Rating{Mu: 27.63523138347365, Sigma: 8.065506316323548}
	b1 := rating.Rating{Mu: 22.36476861652635, Sigma: 8.065506316323548}
	if show(a1.Mu, a1.Sigma) != 1138 || show(b1.Mu, b1.Sigma) != 927 {
		t.Fatalf("display: %d %d", show(a1.Mu, a1.Sigma), show(b1.Mu, b1.Sigma))
	}
	// Game 4: alice's rating against a new player.
	g4 := rating.RateSolo([]rating.Rating{a1, rating.New()}, []int{0, 1})
	a4, c4 := g4[0], g4[1]
	// Game 2: openskill's 3-player example.
	tkA := rating.Rating{Mu: 27.868876552746237, Sigma: 8.204837030780652}
	tkB := rating.Rating{Mu: 25.717219138186557, Sigma: 8.057829747583874}
	tkC := rating.Rating{Mu: 21.413904309067206, Sigma: 8.057829747583874}

	// The 3-player game's rating change, as stored and as shown.
	tk := w.respond(t, w.srv.Slash("leaderboard", fakediscord.Str("game", "tilingking")).By(bo))
	wantTK, err := render.Leaderboard(render.LeaderTable{Title: "TilingKing: leaderboard", Note: service.LeaderNote(service.Provisional), Rows: []render.LeaderRow{
		{Place: 1, Name: "alice", Rating: show(tkA.Mu, tkA.Sigma), Games: 1, Wins: 1, Provisional: true},
		{Place: 2, Name: "bo", Rating: show(tkB.Mu, tkB.Sigma), Games: 1, Provisional: true, Me: true},
		{Place: 3, Name: "cy", Rating: show(tkC.Mu, tkC.Sigma), Games: 1, Provisional: true},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(picture(t, tk), wantTK) {
		t.Fatalf("the TilingKing leaderboard is not the expected picture; text %q", text(tk))
	}
	if want := fmt.Sprintf("3 rated players. You are 2nd with %d (provisional) after 1 rated game.", show(tkB.Mu, tkB.Sigma)); !strings.Contains(text(tk), want) {
		t.Fatalf("text %q, want %q", text(tk), want)
	}

	lb := w.respond(t, w.srv.Slash("leaderboard", fakediscord.Str("game", "elemental")).By(cy))
	if ephemeral(lb) {
		t.Fatal("the leaderboard is public")
	}
	rows := []render.LeaderRow{
		{Name: "alice", Rating: show(a4.Mu, a4.Sigma), Games: 2, Wins: 2, Provisional: true},
		{Name: "bo", Rating: show(b1.Mu, b1.Sigma), Games: 1, Provisional: true},
		{Name: "cy", Rating: show(c4.Mu, c4.Sigma), Games: 1, Provisional: true, Me: true},
	}
	if c4.Ordinal() > b1.Ordinal() { // the order by hand: bo's single loss against cy's
		rows[1], rows[2] = rows[2], rows[1]
	}
	for i := range rows {
		rows[i].Place = i + 1
	}
	want, err := render.Leaderboard(render.LeaderTable{Title: "Elemental Connection: leaderboard", Note: service.LeaderNote(service.Provisional), Rows: rows})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(picture(t, lb), want) {
		t.Fatalf("the Elemental leaderboard is not the expected picture; text %q", text(lb))
	}

	pr := w.respond(t, w.srv.Slash("profile", fakediscord.UserOpt("user", alice.ID)).By(bo))
	wantCard := render.ProfileCard{Title: "alice", InPlay: 1, Note: service.ProfileNote(service.Provisional),
		Games: []render.ProfileGame{
			{Name: "Elemental Connection", Rating: show(a4.Mu, a4.Sigma), Provisional: true, Won: 2,
				Course: []int{1000, 1138, show(a4.Mu, a4.Sigma)}, Best: max(1138, show(a4.Mu, a4.Sigma)), Place: 1, Rated: 3},
			{Name: "TilingKing", Rating: show(tkA.Mu, tkA.Sigma), Provisional: true, Won: 1,
				Course: []int{1000, show(tkA.Mu, tkA.Sigma)}, Best: show(tkA.Mu, tkA.Sigma), Place: 1, Rated: 3},
		},
		AI: []render.ProfileAI{{Level: "easy", Lost: 1}},
	}
	wantPr, err := render.Profile(wantCard)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(picture(t, pr), wantPr) {
		t.Fatalf("alice's profile is not the expected picture; text %q", text(pr))
	}
	if !strings.Contains(text(pr), "Profile of **alice** in this server: 3 rated games, 1 game in play.") {
		t.Fatalf("profile text %q", text(pr))
	}
}

// TestLeaderboardShowsTheCallersOwnPlace: with 22 rated players, the
// 22nd sees the top 20 and, below them, their own row.
func TestLeaderboardShowsTheCallersOwnPlace(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	me := w.srv.AddUser("last")
	var rs []tessera.Rating
	var rows []render.LeaderRow
	for i := 0; i < 22; i++ {
		id, name := fmt.Sprint(9000+i), fmt.Sprint("p", i)
		if i == 21 {
			id, name = me.ID, "last"
		}
		mu := 40 - float64(i)
		games := 3 + i%5
		rs = append(rs, tessera.Rating{GuildID: w.srv.GuildID, Game: "closure", UserID: id, Name: name, Mu: mu, Sigma: 2, Games: games, Won: 1, Shared: 1, Lost: games - 2})
		rows = append(rows, render.LeaderRow{Place: i + 1, Name: name, Rating: show(mu, 2), Games: games, Wins: 2, Provisional: games < service.Provisional, Me: i == 21})
	}
	if err := w.store.ReplaceRatings(t.Context(), rs); err != nil {
		t.Fatal(err)
	}
	r := w.respond(t, w.srv.Slash("leaderboard", fakediscord.Str("game", "closure")).By(me))
	want, err := render.Leaderboard(render.LeaderTable{Title: "Closure: leaderboard", Note: service.LeaderNote(service.Provisional), Rows: rows[:20], Own: &rows[21]})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(picture(t, r), want) {
		t.Fatalf("not the expected picture; text %q", text(r))
	}
	if !strings.Contains(text(r), "22 rated players. You are 22nd with "+fmt.Sprint(show(19, 2))) {
		t.Fatalf("text %q", text(r))
	}
}
