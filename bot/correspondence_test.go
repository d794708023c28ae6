package bot_test

import (
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"tessera/bot"
	"tessera/bot/fakediscord"
	"tessera/service"
)

const day = 24 * time.Hour

// The clock tests tick the service themselves, right after moving the
// fake clock, so that what a tick decides is known when the test looks:
// the bot's own clock loop ticks once at start and then hourly by the wall
// clock (startClock), which the test never waits for.
func startClock(t *testing.T) *world {
	t.Helper()
	w, logger := newWorld(t, bot.Options{})
	w.loops.TickEvery = time.Hour
	w.begin(t, bot.Options{}, logger)
	return w
}

// tick runs one pass of the clocks and reminders now and fails unless it
// changed want games and wrote want reminders between them.
func (w *world) tick(t *testing.T, want int) {
	t.Helper()
	n, err := w.svc.Tick(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if n != want {
		t.Fatalf("the tick at %v did %d things, want %d", w.clock.Now(), n, want)
	}
}

// gameStatus is game 1's status now.
func (w *world) gameStatus(t *testing.T) string {
	t.Helper()
	g, err := w.store.Game(t.Context(), 1)
	if err != nil {
		t.Fatal(err)
	}
	return string(g.Status)
}

func TestMoveClockRunsOut(t *testing.T) {
	t.Parallel()
	w := startClock(t)
	w.newGame(t, fakediscord.Str("clock", "3d"))
	g, _ := w.store.Game(t.Context(), 1)
	if g.Clock.Kind != "move" || g.Deadline.Sub(g.TurnStart) != 3*day {
		t.Fatalf("clock %+v, deadline %v after the turn start", g.Clock, g.Deadline.Sub(g.TurnStart))
	}
	// alice moves within her 3 days; bo then has 3 days from his turn.
	w.clock.Add(2 * day)
	w.play(t, w.ana, w.suggest(t, w.ana, "")[0].Value.(string))
	w.clock.Add(2*day + 23*time.Hour) // 2d 23h: not yet
	w.tick(t, 1)                      // only bo's reminder, a day after his turn began
	if s := w.gameStatus(t); s != "playing" {
		t.Fatalf("timed out early: %s", s)
	}
	w.clock.Add(2 * time.Hour)
	w.tick(t, 1)
	if s := w.gameStatus(t); s != "finished" {
		t.Fatalf("no time-out after 3 days: %s", s)
	}
	post := w.srv.WaitMessage(t, w.thread, func(m *fakediscord.Message) bool { return strings.Contains(m.Content, "ran out of time") }, 0)
	if !strings.Contains(post.Content, "**bo** ran out of time") || !strings.Contains(post.Content, "<@"+w.ana.ID+"> wins") {
		t.Fatalf("time-out post: %q", post.Content)
	}
}

func TestBankClock(t *testing.T) {
	t.Parallel()
	w := startClock(t)
	w.newGame(t, fakediscord.Str("clock", "bank=2d,inc=1d,cap=3d"))
	// alice uses 1d of her 2d bank and gains 1d: 2d left. bo uses 12h:
	// 2d - 12h + 1d = 2d 12h. alice then uses 1d 12h: 2d - 1d12h + 1d = 1d 12h.
	w.clock.Add(day)
	w.play(t, w.ana, w.suggest(t, w.ana, "")[0].Value.(string))
	w.clock.Add(12 * time.Hour)
	w.play(t, w.bo, w.suggest(t, w.bo, "")[0].Value.(string))
	w.clock.Add(36 * time.Hour)
	w.play(t, w.ana, w.suggest(t, w.ana, "")[0].Value.(string))
	g, _ := w.store.Game(t.Context(), 1)
	if g.Banks[0] != 36*time.Hour || g.Banks[1] != 60*time.Hour {
		t.Fatalf("banks %v, want [36h 60h]", g.Banks)
	}
	// bo's deadline is his whole bank away; after it he loses on time.
	if got := g.Deadline.Sub(w.clock.Now()); got != 60*time.Hour {
		t.Fatalf("bo's deadline in %v, want 60h", got)
	}
	gs := w.respond(t, w.srv.Slash("games").By(w.bo))
	if !strings.Contains(text(gs), "your turn**, 2d 12h left") {
		t.Fatalf("/games shows the time left: %q", text(gs))
	}
	w.clock.Add(60*time.Hour - time.Minute)
	w.tick(t, 1) // a reminder (a day without a move), not yet a time-out
	w.clock.Add(2 * time.Minute)
	w.tick(t, 1)
	if s := w.gameStatus(t); s != "finished" {
		t.Fatalf("bo's bank ran out: %s", s)
	}
}

func TestRemindersOncePerDay(t *testing.T) {
	t.Parallel()
	w := startClock(t)
	w.newGame(t)
	w.srv.WaitDMs(t, w.ana.ID, 1, 0) // the turn notice
	w.clock.Add(23 * time.Hour)
	w.tick(t, 0)
	w.settle(t)
	if n := len(w.srv.DMs(w.ana.ID)); n != 1 {
		t.Fatalf("%d messages before 24h", n)
	}
	w.clock.Add(2 * time.Hour) // 25h without a move: a reminder
	w.tick(t, 1)
	dms := w.srv.WaitDMs(t, w.ana.ID, 2, 0)
	if !strings.Contains(dms[1].Content, "Reminder") || !strings.Contains(dms[1].Content, w.thread) {
		t.Fatalf("reminder: %q", dms[1].Content)
	}
	w.clock.Add(12 * time.Hour) // within the day: none
	w.tick(t, 0)
	w.settle(t)
	if n := len(w.srv.DMs(w.ana.ID)); n != 2 {
		t.Fatalf("%d messages: a second reminder within a day", n)
	}
	w.clock.Add(13 * time.Hour) // a day after the first reminder
	w.tick(t, 1)
	w.srv.WaitDMs(t, w.ana.ID, 3, 0)
	// Once alice moves, bo gets his notice and alice nothing more.
	w.play(t, w.ana, w.suggest(t, w.ana, "")[0].Value.(string))
	w.srv.WaitDMs(t, w.bo.ID, 1, 0)
	w.settle(t)
	if n := len(w.srv.DMs(w.ana.ID)); n != 3 {
		t.Fatalf("alice got %d messages after moving, want still 3", n)
	}
}

func TestVacationPausesTheClock(t *testing.T) {
	t.Parallel()
	w := startClock(t)
	w.newGame(t, fakediscord.Str("clock", "3d"))
	// An hour before her first reminder would be due (24h).
	w.clock.Add(day - time.Hour)
	w.tick(t, 0)
	r := w.respond(t, w.srv.Slash("vacation", fakediscord.Int("days", 4)).By(w.ana))
	if !ephemeral(r) || !strings.Contains(text(r), "16 vacation days left") {
		t.Fatalf("/vacation: %q", text(r))
	}
	away := w.srv.WaitMessage(t, w.thread, func(m *fakediscord.Message) bool { return strings.Contains(m.Content, "is away until") }, 0)
	if !strings.Contains(away.Content, "alice is away until <t:") {
		t.Fatalf("away post: %q", away.Content)
	}
	// Away from hour 23 to 4 days later: no reminders meanwhile.
	w.clock.Add(3 * day) // day 3, hour 23
	w.tick(t, 0)
	w.settle(t)
	if n := len(w.srv.DMs(w.ana.ID)); n != 1 {
		t.Fatalf("%d direct messages: no reminders while away", n)
	}
	// Her 3 days now end 4 days later: 7 days after her turn began.
	w.clock.Add(2 * day) // day 5, hour 23: still in time
	w.tick(t, 1)         // a reminder, a day after she is back
	if s := w.gameStatus(t); s != "playing" {
		t.Fatal("the clock ran during the vacation")
	}
	// More than the allowance is refused.
	r = w.respond(t, w.srv.Slash("vacation", fakediscord.Int("days", 17)).By(w.ana))
	if !ephemeral(r) || !strings.Contains(text(r), "16 vacation days left") {
		t.Fatalf("over the allowance: %q", text(r))
	}
	w.clock.Add(day + time.Hour + time.Minute) // day 7 and a minute
	w.tick(t, 1)
	if s := w.gameStatus(t); s != "finished" {
		t.Fatalf("no time-out 3 days after the vacation: %s", s)
	}
}

func TestSettingsTurnOffNotices(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	r := w.respond(t, w.srv.Slash("settings", fakediscord.Str("notify", "none"), fakediscord.Str("timezone", "Europe/Paris")).By(w.bo))
	if !strings.Contains(text(r), "off") || !strings.Contains(text(r), "Europe/Paris") {
		t.Fatalf("/settings: %q", text(r))
	}
	r = w.respond(t, w.srv.Slash("settings", fakediscord.Str("timezone", "Mars/Olympus")).By(w.bo))
	if !ephemeral(r) || !strings.Contains(text(r), "not a time zone") {
		t.Fatalf("bad zone: %q", text(r))
	}
	w.newGame(t)
	post := w.play(t, w.ana, w.suggest(t, w.ana, "")[0].Value.(string))
	if p := w.pinged(t, post); len(p) != 1 || p[0] != w.bo.ID {
		t.Fatal("the thread mention stays when notices are off")
	}
	w.play(t, w.bo, w.suggest(t, w.bo, "")[0].Value.(string))
	w.srv.WaitDMs(t, w.ana.ID, 2, 0)
	if n := len(w.srv.DMs(w.bo.ID)); n != 0 {
		t.Fatalf("bo turned notices off but got %d", n)
	}
}

func TestClosedDMsFallBackToTheThread(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	// Every direct message is refused, as when a user closed their DMs.
	w.srv.Inject("POST /users/@me/channels", fakediscord.Fault{Status: 403, Times: -1})
	w.newGame(t)
	post := w.play(t, w.ana, w.suggest(t, w.ana, "")[0].Value.(string))
	if p := w.pinged(t, post); len(p) != 1 || p[0] != w.bo.ID {
		t.Fatal("bo is still mentioned in the thread")
	}
	w.play(t, w.bo, w.suggest(t, w.bo, "")[0].Value.(string))
	// Each notice is tried once and not retried (three turns so far:
	// alice's first, bo's, alice's second), and the game goes on.
	attempts := func() int {
		n := 0
		for _, r := range w.srv.Requests() {
			if r.Method == "POST" && r.Path == "/users/@me/channels" {
				n++
			}
		}
		return n
	}
	// Once the outbox is empty nothing is left to retry.
	w.settle(t)
	if n := attempts(); n != 3 {
		t.Fatalf("%d attempts to open DMs, want one per turn notice (3)", n)
	}
	w.srv.ClearFaults()
	w.srv.ClearViolations()
}

func TestPlainTextMoves(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{PlainText: true})
	if id := w.srv.Identifies()[0]; id.Intents&discordgo.IntentMessageContent == 0 {
		t.Fatal("plain-text moves need the message-content intent")
	}
	w.newGame(t)
	move := w.suggest(t, w.ana, "")[0].Value.(string)
	// Chatter is ignored; a move by the wrong player is ignored as chatter.
	w.srv.UserMessage(w.ana, w.thread, "good luck!")
	w.srv.UserMessage(w.bo, w.thread, move)
	// A mistake by the player to move is answered.
	bad := w.srv.UserMessage(w.ana, w.thread, "d9 RGBY")
	reply := w.srv.WaitMessage(t, w.thread, func(m *fakediscord.Message) bool { return strings.HasPrefix(m.Content, service.PlainMoveRefused) }, 0)
	if reply.MessageReference == nil || reply.MessageReference.MessageID != bad.ID {
		t.Fatalf("the error should answer the message: %+v", reply.MessageReference)
	}
	typed := w.srv.UserMessage(w.ana, w.thread, strings.ToLower(move))
	w.srv.WaitMessage(t, w.thread, func(m *fakediscord.Message) bool { return strings.Contains(m.Content, "** played `"+move+"`") }, 0)
	w.srv.WaitFor(t, func(r fakediscord.Request) bool {
		return r.Method == "PUT" && strings.Contains(r.Path, "/messages/"+typed.ID+"/reactions/")
	}, 0)
	g, _ := w.store.Game(t.Context(), 1)
	if len(g.Moves) != 1 {
		t.Fatalf("%d moves, want 1 (chatter and the wrong player ignored)", len(g.Moves))
	}
}

func TestAbortBeforeTheSecondMove(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	w.newGame(t)
	w.play(t, w.ana, w.suggest(t, w.ana, "")[0].Value.(string))
	r := w.respond(t, w.srv.Slash("abort").By(w.bo).In(w.srv.GuildID, w.thread))
	if ephemeral(r) || !strings.Contains(text(r), "aborted") {
		t.Fatalf("/abort: %q", text(r))
	}
	w.srv.WaitMessage(t, w.thread, func(m *fakediscord.Message) bool {
		return m.EditedTimestamp != nil && strings.Contains(m.Content, "Aborted")
	}, 0)
	g, _ := w.store.Game(t.Context(), 1)
	if g.Status != "aborted" {
		t.Fatalf("status %s", g.Status)
	}
}
