package bot_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"tessera"
	"tessera/bot"
	"tessera/bot/fakediscord"
	"tessera/engine"
)

// firstMove is u's first suggested move in the game's thread.
func (w *world) firstMove(t *testing.T, u *discordgo.User) string {
	t.Helper()
	cs := w.suggest(t, u, "")
	if len(cs) == 0 {
		t.Fatalf("%s has no suggested move", u.Username)
	}
	return cs[0].Value.(string)
}

// messageButtons are the custom ids of a channel message's buttons.
func messageButtons(m *fakediscord.Message) []string {
	var ids []string
	for _, c := range m.Components {
		if row, ok := c.(*discordgo.ActionsRow); ok {
			for _, b := range row.Components {
				if bt, ok := b.(*discordgo.Button); ok {
					ids = append(ids, bt.CustomID)
				}
			}
		}
	}
	return ids
}

// TestOpenChallengeJoinedAndPlayed: /new with no opponent posts an open
// challenge; alice cannot join her own; bo joins and the game starts in a
// thread made from the challenge message; they play, bo resigns, and the
// post that ends the game carries a Rematch button, which makes a new
// challenge with the seats rotated that alice accepts.
func TestOpenChallengeJoinedAndPlayed(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	r := w.respond(t, w.srv.Slash("new", fakediscord.Str("game", "elemental"), fakediscord.Str("options", "borders=RBGY"), fakediscord.Str("clock", "3d")).By(w.ana))
	if ephemeral(r) || strings.Join(buttons(r), ",") != "join:1,withdraw:1" || !strings.Contains(text(r), "is looking for 1 opponent") {
		t.Fatalf("open challenge: %q %v", text(r), buttons(r))
	}
	if am := w.answerMentions(t, r); am != nil && len(am.Users) != 0 {
		t.Fatalf("an open challenge pings nobody: %v", am.Users)
	}
	challenge := r.Original.ID
	r = w.respond(t, w.srv.Button("join:1").By(w.ana))
	if !ephemeral(r) || !strings.Contains(text(r), "cannot join your own challenge") {
		t.Fatalf("alice joins her own: %q", text(r))
	}
	r = w.respond(t, w.srv.Button("join:1").By(w.bo))
	if ephemeral(r) || !strings.Contains(text(r), "bo joined: **Elemental Connection**, game #1, begins in its own thread") {
		t.Fatalf("bo joins: %q", text(r))
	}
	w.thread = w.threadOf(t, 1)
	if w.thread != challenge && len(w.srv.RequestsTo("POST /channels/*/messages/*/threads")) > 0 {
		t.Fatalf("thread %s, not the challenge message %s", w.thread, challenge)
	}
	w.srv.WaitMessage(t, w.thread, func(m *fakediscord.Message) bool { return strings.Contains(m.Content, "<@"+w.ana.ID+">, your turn") }, patience)
	w.settle(t)
	// The challenge message now says what became of it, with no Join or
	// Withdraw left on it.
	w.srv.WaitMessage(t, w.srv.ChannelID, func(m *fakediscord.Message) bool {
		return m.ID == challenge && strings.Contains(m.Content, "game #1 with borders=RBGY, between alice and bo: accepted; the game is played in its own thread") && len(messageButtons(m)) == 0
	}, patience)
	r = w.respond(t, w.srv.Button("join:1").By(w.srv.AddUser("cy")))
	if !ephemeral(r) || !strings.Contains(text(r), "no longer open") {
		t.Fatalf("a third player joins a full game: %q", text(r))
	}
	w.move(t, w.ana, w.bo, w.firstMove(t, w.ana))
	post := w.move(t, w.bo, w.ana, w.firstMove(t, w.bo))
	if len(messageButtons(post)) != 0 {
		t.Fatalf("a move post has buttons: %v", messageButtons(post))
	}
	end := w.resign(t, w.ana, w.bo)
	if got := messageButtons(end); !slices.Equal(got, []string{"rematch:1"}) {
		t.Fatalf("the end post's buttons: %v", got)
	}
	// The rematch: bo asks in the thread, alice accepts; seats rotated.
	r = w.respond(t, w.srv.Button("rematch:1").By(w.bo).In(w.srv.GuildID, w.thread))
	if ephemeral(r) || strings.Join(buttons(r), ",") != "accept:2,decline:2,withdraw:2" ||
		!strings.Contains(text(r), "Seats rotated: bo (seat 1), alice (seat 2)") {
		t.Fatalf("rematch: %q %v", text(r), buttons(r))
	}
	// On a busy machine the answer may be deferred: its mentions are then
	// the edit's.
	if am := w.answerMentions(t, r); am == nil || !slices.Equal(am.Users, []string{w.ana.ID}) {
		t.Fatalf("the rematch must ping exactly alice: %+v", am)
	}
	r = w.respond(t, w.srv.Button("rematch:1").By(w.ana).In(w.srv.GuildID, w.thread))
	if !ephemeral(r) || !strings.Contains(text(r), "already asked for: game #2") {
		t.Fatalf("a second rematch: %q", text(r))
	}
	r = w.respond(t, w.srv.Button("accept:2").By(w.ana).In(w.srv.GuildID, w.thread))
	if !strings.Contains(text(r), "begins in its own thread") {
		t.Fatalf("accept the rematch: %q", text(r))
	}
	second := w.threadOf(t, 2)
	w.srv.WaitMessage(t, second, func(m *fakediscord.Message) bool { return strings.Contains(m.Content, "<@"+w.bo.ID+">, your turn") }, patience)
	// The rematch's message, in the old game's thread, is rewritten there
	// without its buttons.
	w.srv.WaitMessage(t, w.thread, func(m *fakediscord.Message) bool {
		return strings.Contains(m.Content, "game #2 with borders=RBGY, between bo and alice: accepted") && len(messageButtons(m)) == 0
	}, patience)
	if ch := w.srv.Channel(second); ch == nil || ch.ParentID != w.srv.ChannelID || !strings.Contains(ch.Name, "#2 Elemental Connection: bo vs alice") {
		t.Fatalf("the rematch's thread: %+v", ch)
	}
	g, _ := w.store.Game(t.Context(), 2)
	if g.Clock.Kind != "move" || g.Clock.PerMove != 3*24*time.Hour || g.Setup.Options["borders"] != "RBGY" {
		t.Fatalf("the rematch's clock and options: %+v %v", g.Clock, g.Setup.Options)
	}
	w.settle(t)
}

// TestOpenChallengeFillsThreeSeats: a TilingKing challenge for three is
// listed by /challenges with a Join button, fills up with two joins, and
// starts; it is no longer listed.
func TestOpenChallengeFillsThreeSeats(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	cy := w.srv.AddUser("cy")
	r := w.respond(t, w.srv.Slash("new", fakediscord.Str("game", "tilingking"), fakediscord.Int("seats", 3)).By(w.ana))
	if !strings.Contains(text(r), "is looking for 2 opponents for **TilingKing** (game #1)") {
		t.Fatalf("open challenge: %q", text(r))
	}
	list := w.respond(t, w.srv.Slash("challenges").By(cy))
	if !ephemeral(list) || strings.Join(buttons(list), ",") != "join:1" || !strings.Contains(text(list), "#1 **TilingKing** by alice: 2 of 3 seats free") {
		t.Fatalf("/challenges: %q %v", text(list), buttons(list))
	}
	r = w.respond(t, w.srv.Button("join:1").By(cy))
	if !strings.Contains(text(r), "cy joined game #1; waiting for 1 more player") {
		t.Fatalf("cy joins: %q", text(r))
	}
	r = w.respond(t, w.srv.Button("join:1").By(cy))
	if !ephemeral(r) || !strings.Contains(text(r), "already joined") {
		t.Fatalf("cy joins twice: %q", text(r))
	}
	r = w.respond(t, w.srv.Button("join:1").By(w.bo))
	if !strings.Contains(text(r), "bo joined: **TilingKing**, game #1, begins") {
		t.Fatalf("bo joins: %q", text(r))
	}
	w.thread = w.threadOf(t, 1)
	w.srv.WaitMessage(t, w.thread, func(m *fakediscord.Message) bool { return strings.Contains(m.Content, "your turn") }, patience)
	w.settle(t)
	g, _ := w.store.Game(t.Context(), 1)
	if g.Status != tessera.StatusPlaying || strings.Join(g.Names(), ",") != "alice,cy,bo" {
		t.Fatalf("game: %s %v", g.Status, g.Names())
	}
	list = w.respond(t, w.srv.Slash("challenges").By(cy))
	if len(buttons(list)) != 0 || !strings.Contains(text(list), "no open challenges") {
		t.Fatalf("/challenges after the start: %q", text(list))
	}
}

// TestChallengesListFitsDiscord: 27 open challenges; /challenges shows at
// most 25 Join buttons in rows of 5 within 2000 characters (the fake
// refuses anything more) and says how many more there are.
func TestChallengesListFitsDiscord(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	for i := 0; i < 27; i++ {
		u := w.srv.AddUser(fmt.Sprintf("player-with-a-long-name-%d", i))
		r := w.respond(t, w.srv.Slash("new", fakediscord.Str("game", "elemental"), fakediscord.Str("options", "borders=RBGY"),
			fakediscord.Str("clock", "bank=7d,inc=1d,cap=14d")).By(u))
		if !strings.Contains(text(r), "is looking for") {
			t.Fatalf("%q", text(r))
		}
	}
	list := w.respond(t, w.srv.Slash("challenges").By(w.ana))
	n := len(buttons(list))
	if n == 0 || n > 25 || len(text(list)) > 2000 || !strings.Contains(text(list), fmt.Sprintf("… and %d more", 27-n)) {
		t.Fatalf("%d buttons, %d characters: %q", n, len(text(list)), text(list))
	}
}

// TestOpenChallengeExpires: the service's clock moves past
// challenges.expire; the bot's clock tick ends the challenge and posts a
// note in its channel that pings the challenger; Join is then refused.
func TestOpenChallengeExpires(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	w.respond(t, w.srv.Slash("new", fakediscord.Str("game", "closure")).By(w.ana))
	w.clock.Add(7*24*time.Hour + time.Minute)
	// The note, not the challenge's own post, which is edited to say it
	// expired too and may be the first to arrive.
	note := w.srv.WaitMessage(t, w.srv.ChannelID, func(m *fakediscord.Message) bool { return strings.Contains(m.Content, "your open challenge") }, patience)
	if !strings.Contains(note.Content, "<@"+w.ana.ID+">, your open challenge for **Closure** (game #1) expired after 7d: nobody joined") {
		t.Fatalf("note: %q", note.Content)
	}
	if p := w.pinged(t, note); !slices.Equal(p, []string{w.ana.ID}) {
		t.Fatalf("the note pings %v", p)
	}
	r := w.respond(t, w.srv.Button("join:1").By(w.bo))
	if !ephemeral(r) || !strings.Contains(text(r), "no longer open (expired)") {
		t.Fatalf("join after expiry: %q", text(r))
	}
}

// finishedGame stores a finished game between alice and bo (bo resigned)
// that ended at the given time.
func (w *world) finishedGame(t *testing.T, at time.Time) uint64 {
	t.Helper()
	g := &tessera.Game{Status: tessera.StatusFinished, Setup: engine.Setup{Game: "elemental", Players: 2, Seed: 7},
		Players: []tessera.Player{{ID: w.ana.ID, Name: "alice", Accepted: true}, {ID: w.bo.ID, Name: "bo", Accepted: true}},
		GuildID: w.srv.GuildID, ChannelID: w.srv.ChannelID, ThreadID: w.srv.ChannelID, Created: at, Updated: at, Clock: tessera.Clock{Kind: "none"},
		Moves: []tessera.MoveEntry{{Seat: 1, Text: "resign", At: at}}}
	if err := w.store.Create(t.Context(), g, ""); err != nil {
		t.Fatal(err)
	}
	return g.ID
}

// TestHistoryPaging: eight finished games, six to a page, newest first;
// Next and Previous turn the page in place (the message is updated).
func TestHistoryPaging(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	base := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for i := 0; i < 8; i++ {
		w.finishedGame(t, base.Add(time.Duration(i)*24*time.Hour))
	}
	r := w.respond(t, w.srv.Slash("history", fakediscord.UserOpt("user", w.bo.ID)).By(w.ana))
	lines := strings.Split(text(r), "\n")
	if !ephemeral(r) || len(lines) != 7 || lines[0] != "bo's finished games, newest first (page 1):" ||
		!strings.HasPrefix(lines[1], "#8 Elemental Connection · alice 0, bo 0 · alice wins · <t:") ||
		!strings.Contains(lines[1], "https://discord.com/channels/"+w.srv.GuildID+"/"+w.srv.ChannelID) || !strings.HasPrefix(lines[6], "#3 ") {
		t.Fatalf("page 1: %q", text(r))
	}
	next := "history:1::" + w.bo.ID
	if !slices.Equal(buttons(r), []string{next}) {
		t.Fatalf("page 1 buttons: %v", buttons(r))
	}
	page := w.respond(t, w.srv.Button(next).By(w.ana))
	if page.Type != discordgo.InteractionResponseUpdateMessage {
		t.Fatalf("a page turn answers with type %d, not an update", page.Type)
	}
	msg := w.srv.Message(page.Original.ID)
	if lines := strings.Split(msg.Content, "\n"); len(lines) != 3 || !strings.Contains(lines[0], "(page 2)") || !strings.HasPrefix(lines[1], "#2 ") || !strings.HasPrefix(lines[2], "#1 ") {
		t.Fatalf("page 2: %q", msg.Content)
	}
	prev := "history:0::" + w.bo.ID
	if !slices.Equal(messageButtons(msg), []string{prev}) {
		t.Fatalf("page 2 buttons: %v", messageButtons(msg))
	}
	w.respond(t, w.srv.Button(prev).By(w.ana))
	if msg := w.srv.Message(page.Original.ID); !strings.Contains(msg.Content, "(page 1)") || !slices.Equal(messageButtons(msg), []string{next}) {
		t.Fatalf("back to page 1: %q %v", msg.Content, messageButtons(msg))
	}
	r = w.respond(t, w.srv.Slash("history", fakediscord.Str("game", "closure")).By(w.ana))
	if text(r) != "Your finished games of Closure: none yet." {
		t.Fatalf("filtered: %q", text(r))
	}
}

// TestExportOfAGameInPlayIsRefused: nobody, player or not, gets the record
// of a game in play, by number or inside its thread.
func TestExportOfAGameInPlayIsRefused(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	w.newGame(t)
	cy := w.srv.AddUser("cy")
	for _, u := range []*discordgo.User{w.ana, w.bo, cy} {
		for _, ib := range []*fakediscord.InteractionBuilder{
			w.srv.Slash("export", fakediscord.Str("game", "1")).By(u),
			w.srv.Slash("export", fakediscord.Str("game", "1")).By(u).In(w.srv.GuildID, w.thread),
		} {
			r := w.respond(t, ib)
			if !ephemeral(r) || len(files(r)) != 0 || !strings.Contains(text(r), "Game #1 is still in play") {
				t.Fatalf("%s exports a game in play: %q", u.Username, text(r))
			}
		}
	}
}

// TestOpenChallengeLeftAndWithdrawn: a player who joined leaves with
// /abort (the seat is free again), only the challenger can withdraw, and
// a withdrawn challenge is gone from /challenges.
func TestOpenChallengeLeftAndWithdrawn(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	w.respond(t, w.srv.Slash("new", fakediscord.Str("game", "elemental"), fakediscord.Int("seats", 3)).By(w.ana))
	w.respond(t, w.srv.Button("join:1").By(w.bo))
	r := w.respond(t, w.srv.Slash("abort").By(w.bo))
	if !strings.Contains(text(r), "bo left the open challenge #1; it is open for others to join") {
		t.Fatalf("bo leaves: %q", text(r))
	}
	list := w.respond(t, w.srv.Slash("challenges").By(w.bo))
	if !strings.Contains(text(list), "2 of 3 seats free") {
		t.Fatalf("after bo left: %q", text(list))
	}
	w.respond(t, w.srv.Button("join:1").By(w.bo))
	r = w.respond(t, w.srv.Button("withdraw:1").By(w.bo))
	if !ephemeral(r) || !strings.Contains(text(r), "Only alice, who made the challenge, can withdraw it") {
		t.Fatalf("bo withdraws: %q", text(r))
	}
	r = w.respond(t, w.srv.Button("withdraw:1").By(w.ana))
	if !strings.Contains(text(r), "alice withdrew the challenge to game #1") {
		t.Fatalf("alice withdraws: %q", text(r))
	}
	list = w.respond(t, w.srv.Slash("challenges").By(w.bo))
	if len(buttons(list)) != 0 || !strings.Contains(text(list), "no open challenges") {
		t.Fatalf("after the withdrawal: %q", text(list))
	}
	r = w.respond(t, w.srv.Button("join:1").By(w.srv.AddUser("cy")))
	if !ephemeral(r) || !strings.Contains(text(r), "no longer open (withdrawn)") {
		t.Fatalf("join after the withdrawal: %q", text(r))
	}
}
