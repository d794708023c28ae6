package service_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"tessera"
	"tessera/render"
	"tessera/service"
)

var dee = service.User{ID: "4", Name: "Dee"}

func buttonIDs(r service.Reply) string {
	var ids []string
	for _, b := range r.Buttons {
		ids = append(ids, b.ID)
	}
	return strings.Join(ids, ",")
}

// TestOpenChallengeTwoPlayers: /new with no opponent posts an open
// challenge; the challenger cannot join it, Bo joins and the game starts;
// nobody joins twice or a full game.
func TestOpenChallengeTwoPlayers(t *testing.T) {
	h := newHarness(t)
	r := h.ok(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "elemental", Opponents: nil, Options: "borders=RBGY", Clock: "3d"}))
	if buttonIDs(r) != "join:1,withdraw:1" || r.Challenge != 1 || len(r.Mentions) != 0 || !strings.Contains(r.Text, "looking for 1 opponent") {
		t.Fatalf("open challenge: %q %s", r.Text, buttonIDs(r))
	}
	list := h.ok(h.svc.Challenges(h.req(cy)))
	if buttonIDs(list) != "join:1" || !strings.Contains(list.Text, "#1 **Elemental Connection** by Ana: 1 of 2 seats free with borders=RBGY") {
		t.Fatalf("/challenges: %q %s", list.Text, buttonIDs(list))
	}
	h.refused(tessera.EINVALID, "cannot join your own")(h.svc.Click(h.req(ana), "join:1"))
	other := h.req(bo)
	other.GuildID = "other"
	h.refused(tessera.ENOTFOUND, "no game #1")(h.svc.Click(other, "join:1"))
	r = h.ok(h.svc.Click(h.req(bo), "join:1"))
	if !strings.Contains(r.Text, "Bo joined: **Elemental Connection**, game #1, begins in its own thread") {
		t.Fatalf("join: %q", r.Text)
	}
	h.refused(tessera.EINVALID, "no longer open")(h.svc.Click(h.req(cy), "join:1"))
	h.refused(tessera.EINVALID, "no longer open")(h.svc.Click(h.req(bo), "join:1"))
	g := h.game(1)
	if g.Status != tessera.StatusPlaying || len(g.Players) != 2 || g.Players[1].ID != bo.ID || g.Clock.Kind != "move" {
		t.Fatalf("game: %+v", g)
	}
	log := h.deliver()
	if len(of(log, "thread")) != 1 || !strings.Contains(texts(log), "<@1>, your turn") {
		t.Fatalf("start: %s", texts(log))
	}
	if r := h.ok(h.svc.Challenges(h.req(cy))); len(r.Buttons) != 0 {
		t.Fatalf("a started game is still listed: %q", r.Text)
	}
	// The game plays like any other.
	cs := h.svc.MoveChoices(h.req(ana), "", "")
	h.ok(h.svc.Move(h.req(ana), "", cs[0].Value))
}

// TestOpenChallengeFillsUp: three seats; a joiner who declines leaves a
// seat free again; the third player starts the game; a fourth is refused.
func TestOpenChallengeFillsUp(t *testing.T) {
	h := newHarness(t)
	h.refused(tessera.EINVALID, "for 2 to 4 players")(h.svc.NewOpen(h.req(ana), service.NewGameRequest{Game: "elemental", Seats: 5, Options: "", Clock: ""}))
	r := h.ok(h.svc.NewOpen(h.req(ana), service.NewGameRequest{Game: "elemental", Seats: 3, Options: "", Clock: ""}))
	if !strings.Contains(r.Text, "looking for 2 opponents") {
		t.Fatalf("%q", r.Text)
	}
	r = h.ok(h.svc.Click(h.req(bo), "join:1"))
	if !strings.Contains(r.Text, "waiting for 1 more player") {
		t.Fatalf("%q", r.Text)
	}
	h.refused(tessera.EINVALID, "already joined")(h.svc.Click(h.req(bo), "join:1"))
	// Bo leaves (Decline, as /abort does) and comes back.
	h.ok(h.svc.Click(h.req(bo), "decline:1"))
	if g := h.game(1); g.Status != tessera.StatusChallenge || len(g.Players) != 1 {
		t.Fatalf("after Bo left: %+v", g)
	}
	if r := h.ok(h.svc.Games(h.req(bo))); strings.Contains(r.Text, "#1") {
		t.Fatalf("Bo left but /games lists the challenge: %q", r.Text)
	}
	h.ok(h.svc.Click(h.req(bo), "join:1"))
	h.refused(tessera.EFORBIDDEN, "Only Ana")(h.svc.Click(h.req(bo), "withdraw:1"))
	r = h.ok(h.svc.Click(h.req(cy), "join:1"))
	if !strings.Contains(r.Text, "begins") {
		t.Fatalf("%q", r.Text)
	}
	h.refused(tessera.EINVALID, "no longer open")(h.svc.Click(h.req(dee), "join:1"))
	g := h.game(1)
	if g.Status != tessera.StatusPlaying || strings.Join(g.Names(), ",") != "Ana,Bo,Cy" || g.Setup.Players != 3 {
		t.Fatalf("game: %s %v", g.Status, g.Names())
	}
}

// TestOpenChallengeExpires: after challenges.expire a tick ends it with a
// note to the challenger; a withdrawn one is gone from the list at once.
func TestOpenChallengeExpires(t *testing.T) {
	h := newHarness(t)
	h.ok(h.svc.NewOpen(h.req(ana), service.NewGameRequest{Game: "closure", Seats: 0, Options: "", Clock: ""}))
	h.ok(h.svc.NewOpen(h.req(bo), service.NewGameRequest{Game: "glorieta", Seats: 0, Options: "", Clock: ""}))
	h.ok(h.svc.Click(h.req(bo), "withdraw:2"))
	h.now = h.now.Add(7*24*time.Hour - time.Minute)
	if _, err := h.svc.Tick(t.Context()); err != nil {
		t.Fatal(err)
	}
	if g := h.game(1); g.Status != tessera.StatusChallenge {
		t.Fatalf("expired early: %s", g.Status)
	}
	h.now = h.now.Add(time.Minute)
	if _, err := h.svc.Tick(t.Context()); err != nil {
		t.Fatal(err)
	}
	if g := h.game(1); g.Status != tessera.StatusExpired {
		t.Fatalf("not expired: %s", g.Status)
	}
	log := h.deliver()
	if p := of(log, "post"); len(p) != 1 || p[0].Channel != "c" || !strings.Contains(p[0].Msg.Text, "<@1>, your open challenge for **Closure** (game #1) expired after 7d: nobody joined") {
		t.Fatalf("note: %s", texts(log))
	}
	h.refused(tessera.EINVALID, "no longer open (expired)")(h.svc.Click(h.req(bo), "join:1"))
	if r := h.ok(h.svc.Challenges(h.req(cy))); !strings.Contains(r.Text, "no open challenges") {
		t.Fatalf("%q", r.Text)
	}
	if r := h.ok(h.svc.Games(h.req(ana))); !strings.Contains(r.Text, "#1 Closure (nobody joined): open challenge expired") {
		t.Fatalf("%q", r.Text)
	}
}

// finish plays game id to its end with the first suggested moves (Bo
// resigns when resign is true) and returns the final post.
func (h *harness) finish(id uint64, users []service.User, resign bool) sent {
	h.t.Helper()
	ref := fmt.Sprint(id)
	if resign {
		h.ok(h.svc.ResignConfirm(h.req(users[1]), id))
	} else {
		for turn := 0; turn < 200 && h.game(id).Status == tessera.StatusPlaying; turn++ {
			g := h.game(id)
			st, _ := service.Replay(g)
			u := service.User{ID: g.Players[st.ToMove()].ID, Name: g.Players[st.ToMove()].Name}
			cs := h.svc.MoveChoices(h.req(u), ref, "")
			h.ok(h.svc.Move(h.req(u), ref, cs[0].Value))
		}
	}
	posts := of(h.deliver(), "post")
	return posts[len(posts)-1]
}

// TestRematch: the post that ends a game has a Rematch button for its
// players; it challenges the same players with the seats rotated, the
// same options and clock; one rematch per game.
func TestRematch(t *testing.T) {
	h := newHarness(t)
	h.ok(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "elemental", Opponents: []service.User{bo, cy}, Options: "borders=RBGY", Clock: "2d"}))
	h.ok(h.svc.Click(h.req(bo), "accept:1"))
	h.ok(h.svc.Click(h.req(cy), "accept:1"))
	h.deliver()
	cs := h.svc.MoveChoices(h.req(ana), "", "")
	h.ok(h.svc.Move(h.req(ana), "", cs[0].Value))
	if p := of(h.deliver(), "post"); len(p) != 1 || len(p[0].Msg.Buttons) != 0 {
		t.Fatalf("a move that does not end the game has no buttons: %+v", p)
	}
	h.ok(h.svc.ResignConfirm(h.req(bo), 1))
	h.ok(h.svc.ResignConfirm(h.req(cy), 1))
	posts := of(h.deliver(), "post")
	end := posts[len(posts)-1]
	if !strings.Contains(end.Msg.Text, "Game over") || len(end.Msg.Buttons) != 1 || end.Msg.Buttons[0].ID != "rematch:1" {
		t.Fatalf("end post: %q %+v", end.Msg.Text, end.Msg.Buttons)
	}
	h.refused(tessera.EFORBIDDEN, "Only the players")(h.svc.Click(h.req(dee), "rematch:1"))
	in := h.req(cy)
	in.ChannelID = h.game(1).Place()
	r := h.ok(h.svc.Click(in, "rematch:1"))
	if buttonIDs(r) != "accept:2,decline:2,withdraw:2" || r.Challenge != 2 || strings.Join(r.Mentions, ",") != "2,1" ||
		!strings.Contains(r.Text, "Seats rotated: Bo (seat 1), Cy (seat 2), Ana (seat 3)") {
		t.Fatalf("rematch: %q %s %v challenge %d", r.Text, buttonIDs(r), r.Mentions, r.Challenge)
	}
	// The transport records where it posted the rematch: in the thread.
	h.ok(service.Reply{}, h.svc.ChallengeMessage(t.Context(), 2, in.ChannelID, "rematch-msg"))
	h.refused(tessera.EINVALID, "already asked for: game #2")(h.svc.Click(h.req(ana), "rematch:1"))
	g := h.game(2)
	if g.Status != tessera.StatusChallenge || g.Clock != h.game(1).Clock || g.Setup.Options["borders"] != "RBGY" || g.Challenger != cy.ID {
		t.Fatalf("rematch game: %+v", g)
	}
	// Cy made it: Cy withdraws (not seat 1), the others accept as usual.
	h.refused(tessera.EFORBIDDEN, "Only Cy")(h.svc.Click(h.req(bo), "withdraw:2"))
	h.refused(tessera.EINVALID, "already accepted")(h.svc.Click(h.req(cy), "accept:2"))
	h.ok(h.svc.Click(h.req(ana), "accept:2"))
	r = h.ok(h.svc.Click(h.req(bo), "accept:2"))
	if !strings.Contains(r.Text, "begins") {
		t.Fatalf("%q", r.Text)
	}
	log := h.deliver()
	if !strings.Contains(texts(log), "<@2>, your turn") {
		t.Fatalf("Bo moves first in the rematch: %s", texts(log))
	}
	// Its message in the old thread loses its buttons there, and the new
	// game's thread cannot start from a message in a thread: its own.
	if e := edits(log, "rematch-msg"); len(e) != 1 || e[0].Channel != in.ChannelID || len(e[0].Msg.Buttons) != 0 ||
		!strings.Contains(e[0].Msg.Text, "between Bo, Cy and Ana: accepted") {
		t.Fatalf("the rematch message's edits: %+v", e)
	}
	if th := of(log, "thread"); len(th) != 1 || th[0].Channel != "c" || th[0].From != "" {
		t.Fatalf("the rematch's thread: %+v", th)
	}
}

// TestHistoryPages: finished games newest first, six a page, with
// Previous and Next buttons that turn the page in place; a game kind
// filter; games of another server are not shown to a stranger.
func TestHistoryPages(t *testing.T) {
	h := newHarness(t)
	for i := 1; i <= 8; i++ {
		h.ok(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "elemental", Opponents: []service.User{bo}, Options: "", Clock: ""}))
		h.ok(h.svc.Click(h.req(bo), fmt.Sprintf("accept:%d", i)))
		h.now = h.now.Add(time.Hour)
		h.ok(h.svc.ResignConfirm(h.req(bo), uint64(i)))
	}
	h.ok(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "closure", Opponents: []service.User{bo}, Options: "", Clock: ""}))
	h.ok(h.svc.Click(h.req(bo), "accept:9")) // in play: not history
	h.deliver()
	r := h.ok(h.svc.History(h.req(cy), ana, ""))
	lines := strings.Split(r.Text, "\n")
	if len(lines) != 7 || !strings.HasPrefix(lines[1], "#8 Elemental Connection · Ana 0, Bo 0 · Ana wins") || !strings.HasPrefix(lines[6], "#3 ") ||
		buttonIDs(r) != "history:1::1" || !r.Ephemeral || r.Update {
		t.Fatalf("page 1: %q %s", r.Text, buttonIDs(r))
	}
	r = h.ok(h.svc.Click(h.req(cy), "history:1::1"))
	if lines := strings.Split(r.Text, "\n"); len(lines) != 3 || !strings.HasPrefix(lines[0], "Ana's finished games, newest first (page 2)") ||
		!strings.HasPrefix(lines[2], "#1 ") || buttonIDs(r) != "history:0::1" || !r.Update {
		t.Fatalf("page 2: %q %s", r.Text, buttonIDs(r))
	}
	if r := h.ok(h.svc.History(h.req(bo), service.User{}, "closure")); !strings.Contains(r.Text, "Your finished games of Closure: none yet.") {
		t.Fatalf("%q", r.Text)
	}
	other := h.req(cy)
	other.GuildID = "other"
	if r := h.ok(h.svc.History(other, ana, "")); !strings.Contains(r.Text, "none yet") {
		t.Fatalf("another server's games shown to a stranger: %q", r.Text)
	}
	h.refused(tessera.EINVALID, service.UnknownButton)(h.svc.Click(h.req(cy), "history:x::1"))
}

// TestExport: a finished game's record plays back to its final position
// and says so; the move list has the scores after each move; a game in
// play is refused to everyone.
func TestExport(t *testing.T) {
	h := newHarness(t)
	h.start()
	h.refused(tessera.EFORBIDDEN, "still in play")(h.svc.Export(h.req(ana), "1"))
	h.refused(tessera.EFORBIDDEN, "still in play")(h.svc.Export(h.req(cy), "1"))
	h.finish(1, []service.User{ana, bo}, false)
	r := h.ok(h.svc.Export(h.req(cy), "1"))
	if len(r.Files) != 2 || r.Files[0].Name != "game-1.json" || r.Files[1].Name != "game-1.txt" || !r.Ephemeral {
		t.Fatalf("export: %+v", r)
	}
	var rec service.Record
	if err := json.Unmarshal(r.Files[0].Data, &rec); err != nil {
		t.Fatal(err)
	}
	g := h.game(1)
	want, _ := service.Replay(g)
	st, err := rec.Play()
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(st.Scores()) != fmt.Sprint(want.Scores()) || !st.Over() || len(rec.Moves) != 64 || rec.Setup.Seed != 7 ||
		rec.Players[1].Name != "Bo" || !rec.Moves[63].At.Equal(g.Moves[63].At) {
		t.Fatalf("record: %+v", rec)
	}
	if fmt.Sprint(rec.Moves[63].Scores) != fmt.Sprint(want.Scores()) {
		t.Fatalf("scores after the last move %v, want %v", rec.Moves[63].Scores, want.Scores())
	}
	text := string(r.Files[1].Data)
	first := fmt.Sprintf("  1. Ana          %s", g.Moves[0].Text)
	if !strings.Contains(text, first) || !strings.Contains(text, "Result: "+rec.Result.Text) || strings.Count(text, "\n") != 64+5 {
		t.Fatalf("move list:\n%s", text)
	}
	// A record whose result was changed is refused.
	rec.Result.Scores[0]++
	if _, err := rec.Play(); err == nil || !strings.Contains(err.Error(), "the record says") {
		t.Fatalf("a forged result: %v", err)
	}
}

// TestNothingRevealsTheSeedInPlay: while a game is in play no command's
// text or file (a /replay GIF too), and no post, contains its seed, and
// /export is refused.
func TestNothingRevealsTheSeedInPlay(t *testing.T) {
	h := newHarness(t)
	const seed = 9876543210123
	h.svc = service.New(h.svc.Store(), service.Config{Renderer: render.Renderer{}, Seed: func() uint64 { return seed }, Now: func() time.Time { return h.now }})
	h.ok(h.svc.NewOpen(h.req(ana), service.NewGameRequest{Game: "elemental", Seats: 0, Options: "", Clock: ""}))
	h.ok(h.svc.Click(h.req(bo), "join:1"))
	cs := h.svc.MoveChoices(h.req(ana), "", "")
	h.ok(h.svc.Move(h.req(ana), "", cs[0].Value))
	var all []string
	see := func(r service.Reply, err error) {
		all = append(all, r.Text, tessera.ErrorMessage(err))
		for _, f := range r.Files {
			all = append(all, string(f.Data))
		}
	}
	for _, u := range []service.User{ana, bo, cy} {
		see(h.svc.Board(h.req(u), "1"))
		see(h.svc.Hand(h.req(u), "1"))
		see(h.svc.Games(h.req(u)))
		see(h.svc.History(h.req(u), ana, ""))
		see(h.svc.Challenges(h.req(u)))
		see(h.svc.Export(h.req(u), "1"))
		see(h.svc.Export(h.req(u), ""))
		see(h.svc.Click(h.req(u), "rematch:1"))
		see(h.svc.ReplayGIF(h.req(u), "1", 0, 0))
	}
	for _, s := range h.deliver() {
		all = append(all, s.Msg.Text)
		for _, f := range s.Msg.Files {
			all = append(all, string(f.Data))
		}
	}
	for _, s := range all {
		if strings.Contains(s, fmt.Sprint(seed)) {
			t.Fatalf("the seed shows while the game is in play: %q", s)
		}
	}
	if !strings.Contains(strings.Join(all, "\n"), "still in play") {
		t.Fatal("/export was not refused")
	}
}
